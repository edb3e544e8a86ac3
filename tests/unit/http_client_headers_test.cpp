// The request metadata headers of Streamable HTTP in 2026-07-28 (src/http/client/mcp_headers.hpp):
// value encoding (the spec's table), the x-mcp-header rules (what makes a tool invalid; the reader
// is protocol/header_annotations.hpp, which mcp::server shares) and the filtering of tools/list
// results, plus the client's URL handling.
#include "http/client/errors.hpp"
#include "http/client/mcp_headers.hpp"
#include "http/client/url.hpp"

#include <gtest/gtest.h>

namespace {

using namespace mcp::http::detail;
namespace json = mcp::json;

json::value parse(std::string_view s) {
    return json::parse(s);
}

TEST(http_client_headers, value_encoding_table_of_the_spec) {
    EXPECT_EQ(encode_header_value("us-west1"), "us-west1");
    EXPECT_EQ(encode_header_value("Hello, \xE4\xB8\x96\xE7\x95\x8C"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
    EXPECT_EQ(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
    EXPECT_EQ(encode_header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    EXPECT_EQ(encode_header_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
}

TEST(http_client_headers, value_encoding_edges) {
    EXPECT_EQ(encode_header_value("a b\tc"), "a b\tc");              // inner space and tab are fine
    EXPECT_EQ(encode_header_value("\tlead"), "=?base64?CWxlYWQ=?="); // leading tab
    EXPECT_EQ(encode_header_value("trail\t"), "=?base64?dHJhaWwJ?=");
    EXPECT_EQ(encode_header_value("del\x7F"), "=?base64?ZGVsfw==?=");
    EXPECT_EQ(encode_header_value(std::string("nul\0x", 5)), "=?base64?bnVsAHg=?=");
    EXPECT_EQ(encode_header_value(""), "=?base64?"
                                       "?=");
    // Only the whole sentinel shape counts.
    EXPECT_EQ(encode_header_value("=?base64?"), "=?base64?");
    EXPECT_EQ(encode_header_value("x=?base64?y?="), "x=?base64?y?=");
    EXPECT_EQ(encode_header_value("file:///projects/myapp/config.json"),
              "file:///projects/myapp/config.json");
}

TEST(http_client_headers, header_text_of_argument_values) {
    EXPECT_EQ(header_text(json::value("abc")), "abc");
    EXPECT_EQ(header_text(json::value(42)), "42");
    EXPECT_EQ(header_text(json::value(-7)), "-7");
    EXPECT_EQ(header_text(parse("42.0")), "42");
    EXPECT_EQ(header_text(json::value(true)), "true");
    EXPECT_EQ(header_text(json::value(false)), "false");
    EXPECT_EQ(header_text(json::value(nullptr)), std::nullopt);
    EXPECT_EQ(header_text(json::value(1.5)), std::nullopt);
    EXPECT_EQ(header_text(parse("[1]")), std::nullopt);
    // Integers only within the JavaScript safe range, -(2^53-1) .. 2^53-1.
    EXPECT_EQ(header_text(parse("9007199254740991")), "9007199254740991");
    EXPECT_EQ(header_text(parse("-9007199254740991")), "-9007199254740991");
    EXPECT_EQ(header_text(parse("9007199254740992")), std::nullopt);
    EXPECT_EQ(header_text(parse("-9007199254740992")), std::nullopt);
    EXPECT_EQ(header_text(parse("18446744073709551615")), std::nullopt);
    EXPECT_EQ(header_text(parse("1e300")), std::nullopt);
    EXPECT_EQ(header_text(json::value(9007199254740991.0)), "9007199254740991");
    EXPECT_EQ(header_text(json::value(9007199254740992.0)), std::nullopt);
}

TEST(http_client_headers, integers_outside_the_safe_range_make_a_call_unsendable) {
    auto a = read_header_annotations(parse(R"({"type":"object","properties":{
        "n":{"type":"integer","x-mcp-header":"N"},
        "o":{"type":"object","properties":{"m":{"type":"integer","x-mcp-header":"M"}}},
        "s":{"type":"string","x-mcp-header":"S"}}})"));
    ASSERT_EQ(a.error, "");
    EXPECT_EQ(unmirrorable_argument(a.params, parse(R"({"n":9007199254740991,"s":"x"})")), "");
    EXPECT_EQ(unmirrorable_argument(a.params, parse(R"({})")), "");
    EXPECT_EQ(unmirrorable_argument(a.params, parse(R"({"n":1.5})")),
              ""); // not an integer: the server judges
    const auto why = unmirrorable_argument(a.params, parse(R"({"o":{"m":-9007199254740992}})"));
    EXPECT_NE(why.find("/o/m"), std::string::npos) << why;
    EXPECT_NE(why.find("-9007199254740992"), std::string::npos) << why;
    EXPECT_NE(why.find("Mcp-Param-M"), std::string::npos) << why;
    EXPECT_NE(unmirrorable_argument(a.params, parse(R"({"n":9007199254740992})")), "");
    // ... and never becomes a header.
    EXPECT_TRUE(param_headers(a.params, parse(R"({"n":9007199254740992})")).empty());
}

TEST(http_client_headers, tokens) {
    EXPECT_TRUE(mcp::detail::is_token("Region"));
    EXPECT_TRUE(mcp::detail::is_token("x-tenant_id.v2!#$%&'*+^`|~"));
    EXPECT_FALSE(mcp::detail::is_token(""));
    EXPECT_FALSE(mcp::detail::is_token("My Region"));
    EXPECT_FALSE(mcp::detail::is_token("Region:Primary"));
    EXPECT_FALSE(mcp::detail::is_token("R\xC3\xA9gion"));
    EXPECT_FALSE(mcp::detail::is_token("Region\t1"));
    EXPECT_FALSE(mcp::detail::is_token("a\r\nb"));
    EXPECT_FALSE(mcp::detail::is_token("(x)"));
}

TEST(http_client_headers, valid_annotations_with_nested_properties) {
    auto a = read_header_annotations(parse(R"({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
            "limits": {"type": "object", "properties": {
                "rows": {"type": "integer", "x-mcp-header": "Rows"},
                "dry": {"type": ["boolean", "null"], "x-mcp-header": "Dry-Run"}}}
        }})"));
    EXPECT_EQ(a.error, "");
    ASSERT_EQ(a.params.size(), 3u);
    EXPECT_EQ(a.params[0].name, "Region");
    EXPECT_EQ(a.params[0].path, std::vector<std::string>{"region"});
    EXPECT_EQ(a.params[1].name, "Rows");
    EXPECT_EQ(a.params[1].path, (std::vector<std::string>{"limits", "rows"}));
    EXPECT_EQ(a.params[2].name, "Dry-Run");

    auto headers = param_headers(
        a.params, parse(R"({"region": "Hello, \u4e16\u754c", "limits": {"rows": 10, "dry": null}})"));
    ASSERT_EQ(headers.size(), 2u);
    EXPECT_EQ(headers[0],
              (std::pair<std::string, std::string>{"Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?="}));
    EXPECT_EQ(headers[1], (std::pair<std::string, std::string>{"Mcp-Param-Rows", "10"}));
    // Absent arguments: no header.
    EXPECT_TRUE(param_headers(a.params, parse("{}")).empty());
    EXPECT_TRUE(param_headers(a.params, parse(R"({"limits": 5})")).empty());
}

TEST(http_client_headers, invalid_annotations) {
    auto invalid = [](std::string_view schema) { return read_header_annotations(parse(schema)).error; };
    // number type
    EXPECT_NE(invalid(R"({"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}})"),
              "");
    // object, array, null, missing type
    EXPECT_NE(invalid(R"({"type":"object","properties":{"d":{"type":"object","x-mcp-header":"D"}}})"), "");
    EXPECT_NE(
        invalid(
            R"({"type":"object","properties":{"d":{"type":"array","items":{"type":"string"},"x-mcp-header":"D"}}})"),
        "");
    EXPECT_NE(invalid(R"({"type":"object","properties":{"d":{"type":"null","x-mcp-header":"D"}}})"), "");
    EXPECT_NE(invalid(R"({"type":"object","properties":{"d":{"x-mcp-header":"D"}}})"), "");
    EXPECT_NE(
        invalid(R"({"type":"object","properties":{"d":{"type":["string","integer"],"x-mcp-header":"D"}}})"),
        "");
    // inside items, anyOf, $defs, if/then, not, additionalProperties: not statically reachable
    EXPECT_NE(
        invalid(
            R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}})"),
        "");
    EXPECT_NE(
        invalid(R"({"type":"object","properties":{"u":{"anyOf":[{"type":"string","x-mcp-header":"U"}]}}})"),
        "");
    EXPECT_NE(
        invalid(R"({"type":"object","anyOf":[{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}]})"),
        "");
    EXPECT_NE(
        invalid(
            R"({"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"r":{"$ref":"#/$defs/r"}}})"),
        "");
    EXPECT_NE(invalid(R"({"type":"object","if":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}})"),
              "");
    EXPECT_NE(invalid(R"({"type":"object","additionalProperties":{"type":"string","x-mcp-header":"A"}})"),
              "");
    // Every keyword of 2020-12 and draft-07 that holds subschemas, in each of its forms.
    const std::string h = R"({"type":"string","x-mcp-header":"H"})";
    const std::string hs = R"({"properties":{"p":)" + h + "}}";
    for (const std::string& where : {
             R"("items":[)" + h + "]",           // draft-07 tuple items
             R"("items":)" + h,                  //
             R"("prefixItems":[)" + h + "]",     //
             R"("additionalItems":)" + h,        //
             R"("additionalItems":[)" + h + "]", // (lenient: an array too)
             R"("unevaluatedItems":)" + h,       //
             R"("contains":)" + h,               //
             R"("contentSchema":)" + hs,         //
             R"("if":)" + hs,
             R"("then":)" + hs,
             R"("else":)" + hs, //
             R"("not":)" + h,   //
             R"("allOf":[)" + hs + "]",
             R"("oneOf":[{},)" + hs + "]",
             R"("anyOf":[)" + h + "]",
             R"("dependentSchemas":{"x":)" + hs + "}",          //
             R"("dependencies":{"x":)" + hs + R"(,"y":["x"]})", // draft-07: schema or names
             R"("patternProperties":{"^a":)" + h + "}",         //
             R"("propertyNames":)" + h,                         //
             R"("unevaluatedProperties":)" + h,                 //
             R"("$defs":{"d":)" + h + "}",
             R"("definitions":{"d":)" + h + "}",
         }) {
        // At the root, and below a property (reachable itself, but the keyword is not `properties`).
        const std::string at_root = R"({"type":"object",)" + where + "}";
        EXPECT_NE(invalid(at_root), "") << at_root;
        const std::string below = R"({"type":"object","properties":{"v":{"type":"object",)" + where + "}}}";
        EXPECT_NE(invalid(below), "") << below;
    }
    // Nested deeper: an array of arrays of schemas is read as well.
    EXPECT_NE(invalid(R"({"type":"object","properties":{"v":{"items":[[)" + h + "]]}}}"), "");
    // on the root
    EXPECT_NE(invalid(R"({"type":"string","x-mcp-header":"Root"})"), "");
    // duplicates, ignoring case
    EXPECT_NE(
        invalid(
            R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}})"),
        "");
    EXPECT_NE(
        invalid(
            R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}})"),
        "");
    // bad tokens
    for (std::string_view bad : {R"("")", R"("My Region")", R"("Region:Primary")", R"("R\u00e9gion")",
                                 R"("Region\t1")", R"("a\r\nb")", "42", "null"}) {
        std::string schema = R"({"type":"object","properties":{"v":{"type":"string","x-mcp-header":)" +
                             std::string(bad) + "}}}";
        EXPECT_NE(invalid(schema), "") << schema;
    }
    // Data keywords are not schemas: an "x-mcp-header" key inside them is just data, and a
    // property named "x-mcp-header" is a name, not an annotation.
    EXPECT_EQ(
        invalid(
            R"({"type":"object","properties":{"v":{"type":"object","default":{"x-mcp-header":"X"},"const":{"x-mcp-header":1}}}})"),
        "");
    EXPECT_EQ(invalid(R"({"type":"object","properties":{"x-mcp-header":{"type":"string"}}})"), "");
    EXPECT_EQ(invalid("true"), "");
}

TEST(http_client_headers, tools_list_results_lose_invalid_tools_only) {
    auto v = parse(R"({"tools":[
        {"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
        {"name":"invalid_number_header","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}},
        {"name":"plain","inputSchema":{"type":"object"}},
        {"name":"invalid_duplicate","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}}}
      ],"nextCursor":"c"})");
    auto f = filter_tools(v.as_object());
    ASSERT_EQ(f.dropped.size(), 2u);
    EXPECT_EQ(f.dropped[0].first, "invalid_number_header");
    EXPECT_NE(f.dropped[0].second.find("number"), std::string::npos);
    EXPECT_EQ(f.dropped[1].first, "invalid_duplicate");
    ASSERT_EQ(v.at("tools").as_array().size(), 2u);
    EXPECT_EQ(v.at("tools").as_array()[0].at("name"), "valid_tool");
    EXPECT_EQ(v.at("tools").as_array()[1].at("name"), "plain");
    EXPECT_EQ(v.at("nextCursor"), "c");
    ASSERT_EQ(f.annotated.count("valid_tool"), 1u);
    EXPECT_EQ(f.listed, (std::vector<std::string>{"valid_tool", "plain"}));
}

TEST(http_client_headers, urls) {
    auto u = parse_url("https://Example.COM/mcp?key=secret#frag");
    ASSERT_TRUE(u);
    EXPECT_TRUE(u->tls);
    EXPECT_EQ(u->host, "example.com");
    EXPECT_EQ(u->port, "443");
    EXPECT_EQ(u->target, "/mcp?key=secret");
    EXPECT_EQ(u->host_header, "example.com");
    EXPECT_EQ(u->display, "https://example.com/mcp"); // no query: it may hold a secret

    auto v6 = parse_url("http://user:pw@[::1]:8080");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    EXPECT_TRUE(v6->host_is_ip);
    EXPECT_EQ(v6->host_header, "[::1]:8080");
    EXPECT_EQ(v6->target, "/");
    EXPECT_EQ(v6->display, "http://[::1]:8080/"); // no user info

    std::string why;
    EXPECT_FALSE(parse_url("ftp://example.com/", &why));
    EXPECT_NE(why, "");
    EXPECT_FALSE(parse_url("not a url", &why));
    EXPECT_FALSE(parse_url("http:///path", &why));

    EXPECT_EQ(resolve_reference("http://127.0.0.1:3001/sse", "/message?sessionId=abc"),
              "http://127.0.0.1:3001/message?sessionId=abc");
    EXPECT_EQ(resolve_reference("http://h/a/sse", "messages"), "http://h/a/messages");
    EXPECT_EQ(resolve_reference("http://h/a/sse", "http://other/x"), "http://other/x");
}

TEST(http_client_headers, synthesized_error_bodies_are_valid_utf8) {
    http_failure f{"HTTP 401 Unauthorized from http://h/mcp", "http://h/mcp", 401,
                   std::string(600, 'x') + "\xFF",
                   "Bearer resource_metadata=\"http://h/.well-known/oauth-protected-resource\""};
    auto v = json::parse(synthesize_error(std::int64_t{7}, f));
    EXPECT_EQ(v.at("id"), 7);
    EXPECT_EQ(v.at("error").at("code"), -32010);
    EXPECT_EQ(v.at("error").at("message"), "HTTP 401 Unauthorized from http://h/mcp");
    EXPECT_EQ(v.at("error").at("data").at("httpStatus"), 401);
    EXPECT_EQ(v.at("error").at("data").at("body").as_string().size(), 512u);
    EXPECT_EQ(std::string_view(v.at("error").at("data").at("wwwAuthenticate").as_string()).substr(0, 6),
              "Bearer");
    EXPECT_EQ(status_message(404, "", "http://h/"), "HTTP 404 Not Found from http://h/");
}

} // namespace
