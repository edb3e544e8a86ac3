// mcp::server refuses, at registration, a tool whose x-mcp-header annotations make it invalid
// (2026-07-28, "Custom Headers from Tool Parameters"): one test per rule, each checking that the
// error names the tool and the annotation's place in the schema. Valid annotations register
// (the HTTP tests show them mirrored and checked: client_stateless_http_test, http_bad_input_test).
#include <mcp/server/server.hpp>

#include <gtest/gtest.h>

namespace {

using mcp::json::object;

object with_properties(object properties) {
    return object{{"type", "object"}, {"properties", std::move(properties)}};
}

mcp::call_tool_result nothing(const object&, mcp::context&) {
    return {};
}

/// The std::invalid_argument message add_tool throws for `schema`, or "" when it registers.
std::string refusal(const object& schema, const std::string& tool = "lookup") {
    mcp::server s;
    try {
        s.add_tool({.name = tool, .input_schema = schema}, nothing);
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(s.find_tool(tool), nullptr) << "a refused tool must not be registered";
        return e.what();
    }
    EXPECT_NE(s.find_tool(tool), nullptr);
    return "";
}

/// Expect a refusal naming the tool, `pointer` and `why`.
void expect_refused(const object& schema, const std::string& pointer, const std::string& why) {
    const auto message = refusal(schema);
    EXPECT_NE(message.find("tool \"lookup\""), std::string::npos) << message;
    EXPECT_NE(message.find("x-mcp-header"), std::string::npos) << message;
    EXPECT_NE(message.find(" at " + pointer), std::string::npos) << "want " << pointer << " in: " << message;
    EXPECT_NE(message.find(why), std::string::npos) << "want \"" << why << "\" in: " << message;
}

const object region{{"type", "string"}, {"x-mcp-header", "Region"}};

struct scored {
    double score = 0;
};
MCP_DESCRIBE(scored, (score, "A score", mcp::field::keyword{"x-mcp-header", "Score"}))

struct routed {
    std::string region;
};
MCP_DESCRIBE(routed, (region, "Where to route", mcp::field::keyword{"x-mcp-header", "Region"}))

TEST(server_tool_headers, valid_annotations_register) {
    EXPECT_EQ(
        refusal(with_properties(
            {{"region", region},
             {"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}},
             {"dry", {{"type", {"boolean", "null"}}, {"x-mcp-header", "Dry-Run"}}},
             {"opts", with_properties({{"deep", {{"type", "string"}, {"x-mcp-header", "x.v2_~!"}}}})}})),
        "");
    // Data keywords hold data, not schemas; a property may be named "x-mcp-header".
    EXPECT_EQ(refusal(with_properties(
                  {{"x-mcp-header", {{"type", "string"}, {"default", {{"x-mcp-header", 1}}}}}})),
              "");
}

TEST(server_tool_headers, only_string_integer_and_boolean_properties_carry_one) {
    expect_refused(with_properties({{"score", {{"type", "number"}, {"x-mcp-header", "Score"}}}}),
                   "/properties/score/x-mcp-header", "of type \"number\"");
    expect_refused(with_properties({{"o", {{"type", "object"}, {"x-mcp-header", "O"}}}}),
                   "/properties/o/x-mcp-header", "of type \"object\"");
    expect_refused(with_properties({{"a", {{"type", "array"}, {"x-mcp-header", "A"}}}}),
                   "/properties/a/x-mcp-header", "of type \"array\"");
    expect_refused(with_properties({{"u", {{"x-mcp-header", "U"}}}}), "/properties/u/x-mcp-header",
                   "of type (none)");
    expect_refused(with_properties({{"two", {{"type", {"string", "integer"}}, {"x-mcp-header", "Two"}}}}),
                   "/properties/two/x-mcp-header", "only string, integer and boolean");
}

TEST(server_tool_headers, names_are_unique_ignoring_case) {
    expect_refused(with_properties({{"a", region}, {"b", {{"type", "string"}, {"x-mcp-header", "REGION"}}}}),
                   "/properties/b/x-mcp-header", "repeats the name used at /properties/a/x-mcp-header");
    // Across nesting levels too: the names share one header namespace.
    expect_refused(
        with_properties({{"a", region},
                         {"n", with_properties({{"r", {{"type", "string"}, {"x-mcp-header", "region"}}}})}}),
        "/properties/n/properties/r/x-mcp-header", "unique, ignoring case");
}

TEST(server_tool_headers, names_are_http_tokens) {
    expect_refused(with_properties({{"v", {{"type", "string"}, {"x-mcp-header", "My Region"}}}}),
                   "/properties/v/x-mcp-header", "not a valid header name");
    expect_refused(with_properties({{"v", {{"type", "string"}, {"x-mcp-header", "A\r\nX-Evil: 1"}}}}),
                   "/properties/v/x-mcp-header", "\"A\\r\\nX-Evil: 1\" at");
    expect_refused(with_properties({{"v", {{"type", "string"}, {"x-mcp-header", "R\u00e9gion"}}}}),
                   "/properties/v/x-mcp-header", "not a valid header name");
    expect_refused(with_properties({{"v", {{"type", "string"}, {"x-mcp-header", ""}}}}),
                   "/properties/v/x-mcp-header", "not a non-empty string");
    expect_refused(with_properties({{"v", {{"type", "string"}, {"x-mcp-header", 42}}}}),
                   "/properties/v/x-mcp-header", "42 at");
}

TEST(server_tool_headers, annotations_must_be_reached_through_properties_alone) {
    const std::string unreachable = "not on a property reached from the root through \"properties\" alone";
    expect_refused(with_properties({{"tags", {{"type", "array"}, {"items", region}}}}),
                   "/properties/tags/items/x-mcp-header", unreachable);
    expect_refused(with_properties({{"pair", {{"type", "array"}, {"prefixItems", {region}}}}}),
                   "/properties/pair/prefixItems/0/x-mcp-header", unreachable);
    expect_refused(with_properties({{"either", {{"anyOf", {region, {{"type", "integer"}}}}}}}),
                   "/properties/either/anyOf/0/x-mcp-header", unreachable);
    expect_refused(object{{"type", "object"}, {"oneOf", {with_properties({{"region", region}})}}},
                   "/oneOf/0/properties/region/x-mcp-header", unreachable);
    // $ref leads to $defs, which is not `properties`.
    expect_refused(object{{"type", "object"},
                          {"$defs", {{"region", region}}},
                          {"properties", {{"region", {{"$ref", "#/$defs/region"}}}}}},
                   "/$defs/region/x-mcp-header", unreachable);
    expect_refused(object{{"type", "object"}, {"additionalProperties", region}},
                   "/additionalProperties/x-mcp-header", unreachable);
    expect_refused(object{{"type", "object"}, {"patternProperties", {{"^r", region}}}},
                   "/patternProperties/^r/x-mcp-header", unreachable);
    expect_refused(object{{"type", "object"}, {"if", with_properties({{"region", region}})}},
                   "/if/properties/region/x-mcp-header", unreachable);
    expect_refused(with_properties({{"n", {{"not", region}}}}), "/properties/n/not/x-mcp-header",
                   unreachable);
    // On the root itself: not a property at all.
    expect_refused(object{{"type", "string"}, {"x-mcp-header", "Root"}}, "/x-mcp-header", unreachable);
    // A property name with "/" or "~" is written as a JSON pointer token.
    expect_refused(with_properties({{"a/b~c", {{"type", "array"}, {"items", region}}}}),
                   "/properties/a~1b~0c/items/x-mcp-header", unreachable);
}

TEST(server_tool_headers, typed_tools_are_checked_too) {
    // The schema comes from the type; a field keyword put the annotation on a number.
    mcp::server s;
    try {
        s.add_tool("typed", "A typed tool",
                   [](const scored& a, mcp::context&) { return std::to_string(a.score); });
        FAIL() << "registered";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("tool \"typed\""), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("/properties/score/x-mcp-header"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(s.find_tool("typed"), nullptr);
    s.add_tool("routed", "A typed tool with a valid annotation",
               [](const routed& a, mcp::context&) { return a.region; });
    EXPECT_NE(s.find_tool("routed"), nullptr);
}

TEST(server_tool_headers, a_refused_tool_leaves_the_one_it_would_replace_in_place) {
    mcp::server s;
    s.add_tool({.name = "lookup", .input_schema = with_properties({{"region", region}})}, nothing);
    EXPECT_THROW(s.add_tool({.name = "lookup", .input_schema = with_properties({{"l", {{"items", region}}}})},
                            nothing),
                 std::invalid_argument);
    auto kept = s.find_tool("lookup");
    ASSERT_NE(kept, nullptr);
    EXPECT_TRUE(kept->input_schema.at("properties").as_object().contains("region"));
}

} // namespace
