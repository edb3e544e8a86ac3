// schema_validator_test.cpp - focused tests of mcp::schema::validator: error locations and
// messages, compile errors, cycle and depth safety, format assertion, Unicode lengths, and the
// MCP wire schemas (2025-11-25 in 2020-12, 2025-06-18 in draft-07).
#include <mcp/schema/validator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace json = mcp::json;
using mcp::schema::compile_error;
using mcp::schema::compile_options;
using mcp::schema::dialect;
using mcp::schema::schema_registry;
using mcp::schema::validator;

namespace {

validator compile(std::string_view schema, compile_options opts = {}) {
    return validator::compile(json::parse(schema), opts);
}

json::value read_json(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

const std::string mcp_schemas = std::string(MCPXX_TEST_DATA_DIR) + "/mcp-schema";

} // namespace

// ---------------------------------------------------------------- errors

TEST(SchemaValidator, ReportsTypeErrorWithLocationAndMessage) {
    auto v = compile(R"({"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},
                         "required":["city"]})");
    auto errors = v.validate(json::parse(R"({"city": 42, "days": 3})"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].instance_location, "/city");
    EXPECT_EQ(errors[0].keyword, "type");
    EXPECT_EQ(errors[0].keyword_location, "/properties/city/type");
    EXPECT_EQ(errors[0].message, "expected string, got integer");
    EXPECT_FALSE(v.is_valid(json::parse(R"({"city": 42})")));
    EXPECT_TRUE(v.is_valid(json::parse(R"({"city": "Paris"})")));
}

TEST(SchemaValidator, ReportsMissingRequiredProperty) {
    auto v = compile(R"({"type":"object","required":["city","days"]})");
    auto errors = v.validate(json::parse(R"({"days": 1})"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].instance_location, "");
    EXPECT_EQ(errors[0].keyword, "required");
    EXPECT_EQ(errors[0].message, "missing required property 'city'");
}

TEST(SchemaValidator, CollectsSeveralErrorsUpToTheLimit) {
    auto v = compile(R"({"items":{"type":"string","minLength":2}})");
    auto instance = json::parse(R"(["ok", 1, "x", 2, 3])");
    auto all = v.validate(instance);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].instance_location, "/1");
    EXPECT_EQ(all[1].instance_location, "/2");
    EXPECT_EQ(all[1].keyword, "minLength");
    EXPECT_EQ(v.validate(instance, 2).size(), 2u);
    EXPECT_TRUE(v.validate(json::parse(R"(["ab"])")).empty());
}

TEST(SchemaValidator, EscapesPointerTokens) {
    auto v = compile(R"({"properties":{"a/b~c":{"type":"null"}}})");
    auto errors = v.validate(json::parse(R"({"a/b~c": 1})"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].instance_location, "/a~1b~0c");
    EXPECT_EQ(errors[0].keyword_location, "/properties/a~1b~0c/type");
}

TEST(SchemaValidator, AdditionalPropertiesFalseNamesTheProperty) {
    auto v = compile(R"({"properties":{"a":{}},"additionalProperties":false})");
    auto errors = v.validate(json::parse(R"({"a":1,"zzz":2})"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].message, "property 'zzz' is not allowed");
}

TEST(SchemaValidator, AnyOfExplainsTheClosestAlternative) {
    auto v = compile(R"({"anyOf":[{"type":"string"},
                                 {"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}}]})");
    auto errors = v.validate(json::parse(R"({"id":"x"})"));
    ASSERT_GE(errors.size(), 2u);
    EXPECT_EQ(errors[0].keyword, "anyOf");
    EXPECT_EQ(errors[1].instance_location, "/id");
    EXPECT_EQ(errors[1].message, "expected integer, got string");
}

TEST(SchemaValidator, IntegerAcceptsIntegralDoubles) {
    auto v = compile(R"({"type":"integer","minimum":1,"maximum":10})");
    EXPECT_TRUE(v.is_valid(json::value(3.0)));
    EXPECT_FALSE(v.is_valid(json::value(3.5)));
    EXPECT_FALSE(v.is_valid(json::value(11)));
    auto errors = v.validate(json::value(11));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].message, "must be <= 10, got 11");
}

TEST(SchemaValidator, UniqueItemsUsesJsonEquality) {
    auto v = compile(R"({"uniqueItems":true})");
    EXPECT_FALSE(v.is_valid(json::parse("[1, 1.0]")));
    EXPECT_FALSE(v.is_valid(json::parse(R"([{"a":1,"b":2},{"b":2,"a":1}])")));
    EXPECT_TRUE(v.is_valid(json::parse("[1, true]")));
}

// ---------------------------------------------------------------- compile errors

TEST(SchemaValidator, RejectsUnsupportedDialects) {
    for (auto uri : {"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
                     "https://json-schema.org/draft/2019-09/schema"}) {
        try {
            compile(std::string(R"({"$schema":")") + uri + R"("})");
            FAIL() << uri;
        } catch (const compile_error& e) {
            EXPECT_NE(std::string(e.what()).find("unsupported $schema"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(compile(R"({"$schema":"https://example.com/my-dialect"})"), compile_error);
    EXPECT_EQ(compile(R"({"$schema":"http://json-schema.org/draft-07/schema#"})").root_dialect(),
              dialect::draft07);
    EXPECT_EQ(compile(R"({"$schema":"https://json-schema.org/draft/2020-12/schema"})").root_dialect(),
              dialect::draft2020_12);
}

TEST(SchemaValidator, NeverFetchesUnknownReferences) {
    try {
        compile(R"({"$ref":"https://example.com/remote.json"})");
        FAIL();
    } catch (const compile_error& e) {
        EXPECT_NE(std::string(e.what()).find("never fetched"), std::string::npos) << e.what();
    }
    EXPECT_THROW(compile(R"({"$ref":"#/$defs/missing"})"), compile_error);
    EXPECT_THROW(compile(R"({"$ref":"#nowhere"})"), compile_error);
}

TEST(SchemaValidator, RegistryProvidesRemoteSchemas) {
    schema_registry reg;
    reg.add("https://example.com/address.json", json::parse(R"({"type":"object","required":["city"]})"));
    compile_options opts;
    opts.registry = &reg;
    auto v = compile(R"({"properties":{"home":{"$ref":"https://example.com/address.json"}}})", opts);
    EXPECT_TRUE(v.is_valid(json::parse(R"({"home":{"city":"Oslo"}})")));
    EXPECT_FALSE(v.is_valid(json::parse(R"({"home":{}})")));
}

TEST(SchemaValidator, RejectsMalformedSchemas) {
    for (auto bad : {R"(42)", R"("string")", R"({"type":5})", R"({"type":"text"})", R"({"minLength":-1})",
                     R"({"minLength":1.5})", R"({"required":"a"})", R"({"required":[1]})",
                     R"({"pattern":"("})", R"({"properties":[]})", R"({"allOf":[]})", R"({"allOf":{}})",
                     R"({"items":[{}]})", R"({"multipleOf":0})", R"({"enum":1})", R"({"$ref":1})",
                     R"({"$ref":"#/%zz"})", R"({"$ref":"#/a~2"})", R"({"properties":{"a":3}})"}) {
        EXPECT_THROW(compile(bad), compile_error) << bad;
    }
}

TEST(SchemaValidator, BuiltInMetaSchemasValidateSchemas) {
    auto v = compile(R"({"$ref":"https://json-schema.org/draft/2020-12/schema"})");
    EXPECT_TRUE(v.is_valid(json::parse(R"({"type":"object","properties":{"a":{"minLength":1}}})")));
    EXPECT_FALSE(v.is_valid(json::parse(R"({"properties":{"a":{"minLength":-1}}})")));
    auto v7 = compile(R"({"$ref":"http://json-schema.org/draft-07/schema#"})");
    EXPECT_TRUE(v7.is_valid(json::parse(R"({"items":[{"type":"string"}]})")));
    EXPECT_FALSE(v7.is_valid(json::parse(R"({"type":["string","string"]})")));
}

// ---------------------------------------------------------------- termination

TEST(SchemaValidator, RefCyclesTerminate) {
    for (auto s :
         {R"({"$ref":"#"})",
          R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})",
          R"({"anyOf":[{"$ref":"#"},{"$ref":"#"}]})", R"({"allOf":[{"$ref":"#"}],"not":{"$ref":"#"}})",
          R"({"definitions":{"a":{"$ref":"#/definitions/a"}},"$ref":"#/definitions/a"})"}) {
        compile_options o;
        auto v = validator::compile(json::parse(s), o);
        EXPECT_FALSE(v.is_valid(json::parse("{}"))) << s;
        EXPECT_FALSE(v.validate(json::parse("{}")).empty()) << s;
    }
}

TEST(SchemaValidator, RecursiveSchemaOnDeepInstanceDoesNotOverflow) {
    auto v = compile(R"({"type":"array","items":{"$ref":"#"}})");
    json::value deep = json::array();
    for (int i = 0; i < 100000; ++i) {
        json::array wrap;
        wrap.push_back(std::move(deep));
        deep = std::move(wrap);
    }
    EXPECT_FALSE(v.is_valid(deep)); // bounded depth: reported invalid, never a crash
    EXPECT_FALSE(v.validate(deep).empty());
    // Boost.JSON's destructor is recursive; unwrap iteratively.
    while (deep.is_array() && !deep.get_array().empty()) {
        json::value inner = std::move(deep.get_array()[0]);
        deep = std::move(inner);
    }
    json::value shallow = json::parse("[[[[]]]]");
    EXPECT_TRUE(v.is_valid(shallow));
}

TEST(SchemaValidator, LongStringsDoNotOverflowTheRegexEngine) {
    auto v = compile(R"({"pattern":"^(a|b)+$"})");
    std::string s(1'000'000, 'a');
    EXPECT_TRUE(v.is_valid(json::value(s)));
    s.back() = 'c';
    EXPECT_FALSE(v.is_valid(json::value(s)));
}

// ---------------------------------------------------------------- formats

TEST(SchemaValidator, FormatIsAnAnnotationUnlessAsserted) {
    const char* schema = R"({"properties":{"when":{"format":"date-time"},"mail":{"format":"email"},
        "ip":{"format":"ipv4"},"id":{"format":"uuid"},"u":{"format":"uri"}}})";
    auto bad = json::parse(R"({"when":"yesterday"})");
    EXPECT_TRUE(compile(schema).is_valid(bad));
    compile_options o;
    o.assert_format = true;
    auto strict = compile(schema, o);
    EXPECT_FALSE(strict.is_valid(bad));
    auto errors = strict.validate(bad);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].keyword, "format");
    EXPECT_EQ(errors[0].message, "is not a valid date-time");
    EXPECT_TRUE(strict.is_valid(json::parse(R"({"when":"2025-11-25T10:00:00Z","mail":"a.b@example.com",
        "ip":"192.168.0.1","id":"123e4567-e89b-12d3-a456-426614174000","u":"https://example.com/x?y#z"})")));
    EXPECT_FALSE(strict.is_valid(json::parse(R"({"mail":"no-at-sign"})")));
    EXPECT_FALSE(strict.is_valid(json::parse(R"({"ip":"256.1.1.1"})")));
    EXPECT_FALSE(strict.is_valid(json::parse(R"({"u":"not a uri"})")));
}

TEST(SchemaValidator, FormatChecks) {
    using mcp::schema::check_format;
    EXPECT_TRUE(check_format("date", "2024-02-29"));
    EXPECT_FALSE(check_format("date", "2023-02-29"));
    EXPECT_TRUE(check_format("time", "23:59:60Z"));
    EXPECT_FALSE(check_format("time", "22:59:60Z"));
    EXPECT_TRUE(check_format("ipv6", "::1"));
    EXPECT_TRUE(check_format("ipv6", "2001:db8::8a2e:370:7334"));
    EXPECT_FALSE(check_format("ipv6", "1:2:3:4:5:6:7:8:9"));
    EXPECT_TRUE(check_format("hostname", "example.com"));
    EXPECT_FALSE(check_format("hostname", "-bad.example"));
    EXPECT_TRUE(check_format("uri-reference", "../a/b#c"));
    EXPECT_TRUE(check_format("json-pointer", "/a~1b"));
    EXPECT_FALSE(check_format("json-pointer", "a"));
    EXPECT_TRUE(check_format("regex", "^a+$"));
    EXPECT_FALSE(check_format("regex", "(("));
    EXPECT_TRUE(check_format("duration", "P1DT2H"));
    EXPECT_FALSE(check_format("duration", "PT"));
    EXPECT_TRUE(check_format("no-such-format", "anything"));
}

TEST(SchemaValidator, InternationalizedHostNames) {
    using mcp::schema::check_format;
    // A-labels are checked by decoding them (RFC 3492) and re-encoding (RFC 5891 5.4).
    for (auto good : {"xn--mnchen-3ya.de", "xn--bcher-kva.example", "xn--wgv71a119e.jp",
                      "xn--mgbh0fb.xn--kgbechtv", "xn--6dbbec0c.example", "XN--E1AFMKFD.example"})
        EXPECT_TRUE(check_format("hostname", good)) << good;
    for (auto bad : {"xn--.de", "xn--mnchen-3yb!.de", "xn--abc-.de", "xn--mnchen.de", "m\xC3\xBCnchen.de"})
        EXPECT_FALSE(check_format("hostname", bad)) << bad;
    // U-labels in idn-hostname, with the IDNA2008 rules.
    for (auto good : {"m\xC3\xBCnchen.de", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E.jp", // münchen.de, 日本語.jp
                      "\xD7\x93\xD7\x95\xD7\x92\xD7\x9E\xD7\x94.example",             // דוגמה.example
                      "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xBC\xD0\xB5\xD1\x80\xE3\x80\x82rf"}) // пример。rf
        EXPECT_TRUE(check_format("idn-hostname", good)) << good;
    for (auto bad : {"M\xC3\x9CNCHEN.de", // uppercase is DISALLOWED (unstable under case folding)
                     "\xEF\xBD\x81"
                     "bc.example", // fullwidth 'a': a compatibility form
                     "a\xC2\xA1"
                     "b.example", // U+00A1 is punctuation
                     "\xCC\x80"
                     "abc.example"}) // a leading combining mark
        EXPECT_FALSE(check_format("idn-hostname", bad)) << bad;
}

TEST(SchemaValidator, DurationTemplateAndRegexFormats) {
    using mcp::schema::check_format;
    EXPECT_TRUE(check_format("duration", "P1Y2M3DT4H5M6S"));
    EXPECT_TRUE(check_format("duration", "PT1M2S"));
    EXPECT_FALSE(check_format("duration", "P1Y2D")); // a unit skipped in the middle
    EXPECT_FALSE(check_format("duration", "PT1H2S"));
    EXPECT_FALSE(check_format("duration", "P1W2D"));
    EXPECT_FALSE(check_format("duration", "P" + std::string(100000, '1'))); // long input: no recursion
    EXPECT_TRUE(check_format("uri-template", "https://example.com/{+path}/{id:4}{?q,page*}"));
    EXPECT_FALSE(check_format("uri-template", "{a,}"));
    EXPECT_FALSE(check_format("uri-template", "{=reserved}"));
    EXPECT_FALSE(check_format("uri-template", "a b"));
    EXPECT_TRUE(check_format("regex", "(?<year>\\d{4})-\\k<year>"));
    EXPECT_TRUE(check_format("regex", "(?<=a)b"));
    EXPECT_FALSE(check_format("regex", "\\a"));
    EXPECT_FALSE(check_format("uri-reference", "1:b"));
    EXPECT_TRUE(check_format("uri-reference", "./1:b"));
}

// ---------------------------------------------------------------- unicode

TEST(SchemaValidator, LengthCountsCodePoints) {
    auto v = compile(R"({"minLength":2,"maxLength":2})");
    EXPECT_TRUE(v.is_valid(json::value("\xF0\x9F\x98\x80\xF0\x9F\x98\x80"))); // two emoji, 8 bytes
    EXPECT_TRUE(v.is_valid(json::value("\xC3\xA9t")));                        // "ét", 3 bytes
    EXPECT_FALSE(v.is_valid(json::value("\xF0\x9F\x98\x80")));                // one emoji, 4 bytes
    EXPECT_FALSE(v.is_valid(json::value("abc")));
}

TEST(SchemaValidator, PatternMatchesCodePoints) {
    auto v = compile(R"({"pattern":"^.$"})");
    EXPECT_TRUE(v.is_valid(json::value("\xE2\x82\xAC"))); // "€" is one character
    EXPECT_FALSE(v.is_valid(json::value("ab")));
    auto letters = compile(R"({"pattern":"^\\p{Letter}+$"})");
    EXPECT_TRUE(letters.is_valid(json::value("\xC3\xA9l\xC3\xA8ve")));
    EXPECT_FALSE(letters.is_valid(json::value("123")));
}

// ---------------------------------------------------------------- unevaluated / dynamic

TEST(SchemaValidator, UnevaluatedPropertiesSeesThroughRefs) {
    auto v = compile(R"({"$defs":{"base":{"properties":{"a":{}}}},"allOf":[{"$ref":"#/$defs/base"}],
                        "properties":{"b":{}},"unevaluatedProperties":false})");
    EXPECT_TRUE(v.is_valid(json::parse(R"({"a":1,"b":2})")));
    auto errors = v.validate(json::parse(R"({"a":1,"c":2})"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].keyword, "unevaluatedProperties");
    EXPECT_EQ(errors[0].message, "property 'c' is not allowed (unevaluated)");
}

TEST(SchemaValidator, Draft07RefIgnoresSiblings) {
    compile_options o;
    o.default_dialect = dialect::draft07;
    auto v = compile(R"({"definitions":{"s":{"type":"string"}},"$ref":"#/definitions/s","maxLength":1})", o);
    EXPECT_TRUE(v.is_valid(json::value("long string")));
    auto v2020 = compile(R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":1})");
    EXPECT_FALSE(v2020.is_valid(json::value("long string")));
}

// ---------------------------------------------------------------- MCP wire schemas

TEST(SchemaValidator, ValidatesAgainstMcp2025_11_25Definitions) {
    const auto doc = read_json(mcp_schemas + "/2025-11-25/schema.json");
    EXPECT_NO_THROW(validator::compile(doc));
    auto request = validator::compile_ref(doc, "/$defs/JSONRPCRequest");
    EXPECT_TRUE(request.is_valid(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")));
    auto errors = request.validate(json::parse(R"({"jsonrpc":"1.0","id":1})"));
    ASSERT_EQ(errors.size(), 2u); // the object's own keywords first, then its members
    EXPECT_EQ(errors[0].message, "missing required property 'method'");
    EXPECT_EQ(errors[1].keyword, "const");
    EXPECT_EQ(errors[1].instance_location, "/jsonrpc");
    EXPECT_EQ(errors[1].message, "value must be \"2.0\"");

    auto call = validator::compile_ref(doc, "/$defs/CallToolRequest");
    EXPECT_TRUE(call.is_valid(json::parse(
        R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"}}})")));
    EXPECT_FALSE(
        call.is_valid(json::parse(R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}})")));

    auto message = validator::compile_ref(doc, "/$defs/JSONRPCMessage");
    EXPECT_TRUE(message.is_valid(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")));
    EXPECT_TRUE(message.is_valid(json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})")));
    EXPECT_FALSE(message.is_valid(json::parse(R"({"jsonrpc":"2.0","id":{},"result":{}})")));

    EXPECT_THROW(validator::compile_ref(doc, "/$defs/NoSuchThing"), compile_error);

    // The same through a registry and an absolute $ref, as a test harness would do it.
    schema_registry reg;
    reg.add("https://modelcontextprotocol.io/schema/2025-11-25.json", doc);
    compile_options o;
    o.registry = &reg;
    auto via_ref = validator::compile(
        json::parse(R"({"$ref":"https://modelcontextprotocol.io/schema/2025-11-25.json#/$defs/Tool"})"), o);
    EXPECT_TRUE(via_ref.is_valid(json::parse(R"({"name":"t","inputSchema":{"type":"object"}})")));
    EXPECT_FALSE(via_ref.is_valid(json::parse(R"({"name":"t"})")));
}

TEST(SchemaValidator, ValidatesAgainstMcp2025_06_18Definitions) {
    const auto doc = read_json(mcp_schemas + "/2025-06-18/schema.json");
    auto whole = validator::compile(doc);
    EXPECT_EQ(whole.root_dialect(), dialect::draft07);
    auto request = validator::compile_ref(doc, "/definitions/JSONRPCRequest");
    EXPECT_EQ(request.root_dialect(), dialect::draft07);
    EXPECT_TRUE(request.is_valid(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})")));
    EXPECT_FALSE(request.is_valid(json::parse(R"({"jsonrpc":"2.0","id":true,"method":"ping"})")));
    auto tool = validator::compile_ref(doc, "/definitions/Tool");
    EXPECT_TRUE(tool.is_valid(json::parse(R"({"name":"t","inputSchema":{"type":"object"}})")));
    EXPECT_FALSE(tool.is_valid(json::parse(R"({"name":"t","inputSchema":{"type":"array"}})")));
}

TEST(SchemaValidator, CompiledValidatorIsSharedAcrossThreads) {
    auto v =
        compile(R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]})");
    auto good = json::parse(R"({"n":5})"), bad = json::parse(R"({"n":-5})");
    std::vector<std::thread> threads;
    std::atomic<int> mismatches{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 2000; ++i)
                if (!v.is_valid(good) || v.is_valid(bad) || v.validate(bad).size() != 1) ++mismatches;
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(mismatches.load(), 0);
}

// ---------------------------------------------------------------- dialects (issue: "a clear compile_error
// naming the dialect")

TEST(SchemaValidator, UnsupportedDialectErrorNamesTheDialect) {
    auto message_of = [](const json::value& schema, const compile_options& o = {}) -> std::string {
        try {
            (void)validator::compile(schema, o);
        } catch (const compile_error& e) {
            return e.what();
        }
        return "(compiled)";
    };
    for (std::string uri :
         {"http://json-schema.org/draft-03/schema#", "http://json-schema.org/draft-04/schema#",
          "http://json-schema.org/draft-06/schema#", "https://json-schema.org/draft/2019-09/schema",
          "http://json-schema.org/schema#", "https://example.com/my-own-dialect"}) {
        json::object schema{{"$schema", uri}, {"type", "object"}};
        const std::string m = message_of(schema);
        EXPECT_NE(m.find("unsupported $schema '" + uri + "'"), std::string::npos) << m;
    }
    // ... also when the old dialect is declared by an embedded resource or a registry document.
    const std::string embedded =
        message_of(json::parse(R"({"$defs":{"legacy":{"$id":"https://example.com/legacy",
        "$schema":"http://json-schema.org/draft-04/schema#","type":"string"}}})"));
    EXPECT_NE(embedded.find("draft-04"), std::string::npos) << embedded;
    schema_registry reg;
    reg.add("https://example.com/old.json",
            json::parse(R"({"$schema":"https://json-schema.org/draft/2019-09/schema"})"));
    compile_options o;
    o.registry = &reg;
    const std::string remote = message_of(json::parse(R"({"$ref":"https://example.com/old.json"})"), o);
    EXPECT_NE(remote.find("2019-09"), std::string::npos) << remote;
    // The supported ones, spelled the ways they are found in the wild.
    for (auto uri :
         {"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
          "https://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema",
          "https://json-schema.org/draft/2020-12/schema#"})
        EXPECT_NO_THROW((void)validator::compile(json::object{{"$schema", uri}})) << uri;
}

// ---------------------------------------------------------------- error details

TEST(SchemaValidator, ErrorsCarryInstanceAndKeywordLocations) {
    auto v = compile(R"({
      "type": "object",
      "properties": {
        "a/b": {"type": "array", "maxItems": 3, "uniqueItems": true,
                "items": {"type": "object", "required": ["id"],
                          "properties": {"c~d": {"type": "integer", "minimum": 1, "multipleOf": 2}}}},
        "name": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
        "kind": {"enum": ["x", "y"]},
        "tags": {"type": "array", "contains": {"const": "t"}}
      },
      "propertyNames": {"maxLength": 8},
      "additionalProperties": false,
      "dependentRequired": {"kind": ["v"]}
    })");
    auto errors =
        v.validate(json::parse(R"({"a/b": [{"id": 1, "c~d": 0}, {"c~d": 3}], "name": "Long1", "kind": "z",
                                            "tags": ["u"], "extra_long": 1})"));
    struct expected {
        std::string instance_location, keyword_location, keyword, message;
    };
    const std::vector<expected> want = {
        {"", "/dependentRequired", "dependentRequired", "property 'v' is required when 'kind' is present"},
        {"/a~1b/0/c~0d", "/properties/a~1b/items/properties/c~0d/minimum", "minimum", "must be >= 1, got 0"},
        {"/a~1b/1", "/properties/a~1b/items/required", "required", "missing required property 'id'"},
        {"/a~1b/1/c~0d", "/properties/a~1b/items/properties/c~0d/multipleOf", "multipleOf",
         "must be a multiple of 2"},
        {"/name", "/properties/name/maxLength", "maxLength", "must be at most 3 characters long, got 5"},
        {"/name", "/properties/name/pattern", "pattern", "must match the pattern '^[a-z]+$'"},
        {"/kind", "/properties/kind/enum", "enum", "value must be one of \"x\", \"y\""},
        {"/tags", "/properties/tags/contains", "contains", "must contain at least 1 matching item, found 0"},
        {"", "/propertyNames", "propertyNames", "property name 'extra_long' is not allowed"},
        {"", "/additionalProperties", "additionalProperties", "property 'extra_long' is not allowed"},
    };
    ASSERT_EQ(errors.size(), want.size());
    for (const auto& w : want) {
        auto it = std::find_if(errors.begin(), errors.end(), [&](const auto& e) {
            return e.instance_location == w.instance_location && e.keyword == w.keyword;
        });
        ASSERT_NE(it, errors.end()) << "no " << w.keyword << " error at '" << w.instance_location << "'";
        EXPECT_EQ(it->keyword_location, w.keyword_location) << w.keyword;
        EXPECT_EQ(it->message, w.message) << w.keyword;
    }
}

TEST(SchemaValidator, CountsInMessagesAreSingularForOne) {
    const auto message = [](const char* schema, const char* instance) {
        auto errors = compile(schema).validate(json::parse(instance));
        return errors.empty() ? std::string("(valid)") : errors.front().message;
    };
    EXPECT_EQ(message(R"({"minLength": 1})", R"("")"), "must be at least 1 character long, got 0");
    EXPECT_EQ(message(R"({"maxLength": 1})", R"("ab")"), "must be at most 1 character long, got 2");
    EXPECT_EQ(message(R"({"minLength": 2})", R"("a")"), "must be at least 2 characters long, got 1");
    EXPECT_EQ(message(R"({"minItems": 1})", "[]"), "must have at least 1 item, got 0");
    EXPECT_EQ(message(R"({"maxItems": 1})", "[1, 2]"), "must have at most 1 item, got 2");
    EXPECT_EQ(message(R"({"minProperties": 1})", "{}"), "must have at least 1 property");
    EXPECT_EQ(message(R"({"maxProperties": 2})", R"({"a":1,"b":2,"c":3})"), "must have at most 2 properties");
    EXPECT_EQ(message(R"({"contains": {"const": 1}, "maxContains": 1})", "[1, 1]"),
              "must contain at most 1 matching item, found 2");
}

TEST(SchemaValidator, ErrorLocationsThroughReferencesAndArrays) {
    // Errors found through $ref name the keyword where it is written (the $defs entry), and the
    // instance location keeps every array index and escaped member name on the way.
    auto v = compile(R"({"$defs": {"pos": {"type": "integer", "exclusiveMinimum": 0}},
                         "prefixItems": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/pos"}}],
                         "items": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pos"}},
                         "unevaluatedItems": false})");
    auto errors = v.validate(json::parse(R"([7, [1, 0, "x"], {"~/": -1}])"));
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0].instance_location, "/0");
    EXPECT_EQ(errors[0].keyword_location, "/prefixItems/0/type");
    EXPECT_EQ(errors[0].message, "expected string, got integer");
    EXPECT_EQ(errors[1].instance_location, "/1/1");
    EXPECT_EQ(errors[1].keyword_location, "/$defs/pos/exclusiveMinimum");
    EXPECT_EQ(errors[1].message, "must be > 0, got 0");
    EXPECT_EQ(errors[2].instance_location, "/1/2");
    EXPECT_EQ(errors[2].keyword, "type");
    EXPECT_EQ(errors[3].instance_location, "/2/~0~1");
    EXPECT_EQ(errors[3].keyword_location, "/$defs/pos/exclusiveMinimum");

    // A document from the registry is named by its URI in keyword locations.
    schema_registry reg;
    reg.add("https://example.com/address.json", json::parse(R"({"type":"object","required":["city"]})"));
    compile_options o;
    o.registry = &reg;
    auto remote = compile(R"({"properties":{"home":{"$ref":"https://example.com/address.json"}}})", o);
    auto e = remote.validate(json::parse(R"({"home":{}})"));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].instance_location, "/home");
    EXPECT_EQ(e[0].keyword_location, "https://example.com/address.json#/required");
}

TEST(SchemaValidator, CombinatorErrorsAreReadable) {
    auto one = compile(R"({"oneOf":[{"type":"integer"},{"minimum":2}]})");
    auto e = one.validate(json::value(3));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].keyword, "oneOf");
    EXPECT_EQ(e[0].message, "value matches more than one oneOf alternative (0 and 1)");
    auto negated = compile(R"({"properties":{"x":{"not":{"type":"string"}}}})");
    e = negated.validate(json::parse(R"({"x":"s"})"));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].instance_location, "/x");
    EXPECT_EQ(e[0].keyword_location, "/properties/x/not");
    EXPECT_EQ(e[0].message, "value must not match the 'not' schema");
    auto conditional = compile(R"({"if":{"required":["a"]},"then":{"required":["b"]}})");
    e = conditional.validate(json::parse(R"({"a":1})"));
    ASSERT_EQ(e.size(), 2u); // the failing keyword inside 'then', and 'then' itself
    EXPECT_EQ(e[0].keyword_location, "/then/required");
    EXPECT_EQ(e[1].keyword, "then");
    auto nothing = compile(R"({"properties":{"gone":false}})");
    e = nothing.validate(json::parse(R"({"gone":1})"));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].instance_location, "/gone");
    EXPECT_EQ(e[0].message, "no value is allowed here (schema is false)");
}

// ---------------------------------------------------------------- references are never fetched

TEST(SchemaValidator, NetworkReferencesOutsideTheRegistryAreCompileErrors) {
    auto message_of = [](std::string_view schema, compile_options o) -> std::string {
        try {
            (void)validator::compile(json::parse(schema), o);
        } catch (const compile_error& e) {
            return e.what();
        }
        return "(compiled)";
    };
    compile_options d7;
    d7.default_dialect = dialect::draft07;
    schema_registry reg;
    reg.add("https://example.com/known.json", json::parse(R"({"type":"string"})"));
    compile_options with_registry;
    with_registry.registry = &reg;
    const std::pair<const char*, compile_options> cases[] = {
        {R"({"$ref":"https://example.com/schemas/address.json"})", {}},
        {R"({"properties":{"a":{"$ref":"http://example.com/a.json#/definitions/x"}}})", d7},
        {R"({"$id":"https://example.com/root.json","$ref":"sibling.json"})", {}}, // relative to a network $id
        {R"({"$dynamicRef":"https://example.com/meta#meta"})", {}},
        {R"({"$ref":"https://example.com/unknown.json"})", with_registry}, // a registry, but not this one
    };
    for (const auto& [schema, opts] : cases) {
        const std::string m = message_of(schema, opts);
        EXPECT_NE(m.find("never fetched"), std::string::npos) << schema << " -> " << m;
        EXPECT_NE(m.find("https://example.com/") == std::string::npos ? m.find("http://example.com/") : 0,
                  std::string::npos)
            << m;
    }
    EXPECT_EQ(message_of(R"({"$ref":"https://example.com/known.json"})", with_registry), "(compiled)");
}

// ---------------------------------------------------------------- termination and hostile schemas

TEST(SchemaValidator, RefCyclesAndDepthFailWithClearErrors) {
    auto cycle = compile(
        R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"})");
    EXPECT_FALSE(cycle.is_valid(json::value(1)));
    auto e = cycle.validate(json::value(1));
    ASSERT_FALSE(e.empty());
    bool named = false;
    for (const auto& x : e) named |= x.message.find("infinite $ref cycle") != std::string::npos;
    EXPECT_TRUE(named) << e[0].message;

    // Recursion that consumes the instance is legitimate until the instance is absurdly deep.
    auto tree = compile(R"({"type":"object","properties":{"next":{"$ref":"#"}}})");
    json::value deep = json::object();
    for (int i = 0; i < 1000; ++i) deep = json::object{{"next", std::move(deep)}};
    e = tree.validate(deep);
    ASSERT_FALSE(e.empty());
    EXPECT_EQ(e.back().message, "schema evaluation nested too deeply");
    while (deep.is_object() && deep.as_object().contains("next")) { // Boost.JSON frees recursively
        json::value inner = std::move(deep.as_object()["next"]);
        deep = std::move(inner);
    }
}

TEST(SchemaValidator, ExponentialReferenceChainsRunOutOfBudget) {
    // a0 -> a1 twice -> a2 four times ... : 2^40 evaluations without a cycle.
    json::object defs;
    for (int i = 0; i < 40; ++i) {
        std::string next = "#/$defs/a" + std::to_string(i + 1);
        defs["a" + std::to_string(i)] =
            json::object{{"allOf", json::array{json::object{{"$ref", next}}, json::object{{"$ref", next}}}}};
    }
    defs["a40"] = json::object{{"type", "object"}};
    json::object schema{{"$ref", "#/$defs/a0"}};
    schema["$defs"] = defs;
    auto v = validator::compile(schema);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(v.is_valid(json::object()));
    auto e = v.validate(json::object());
    ASSERT_EQ(e.size(), 1u);
    EXPECT_NE(e[0].message.find("exceeded its budget"), std::string::npos) << e[0].message;
    // Inside 'not', running out must not flip the verdict to valid.
    json::object negated{{"not", json::object{{"not", json::object{{"$ref", "#/$defs/a0"}}}}}};
    negated["$defs"] = std::move(defs);
    EXPECT_FALSE(validator::compile(negated).is_valid(json::object()));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)); // ~0.1 s in Release
    // A big instance against an ordinary schema is nowhere near the budget.
    auto items = compile(
        R"({"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"a":{"type":"integer"}}}]}})");
    json::array big;
    for (int i = 0; i < 20000; ++i) big.push_back(json::object{{"a", i}});
    EXPECT_TRUE(items.is_valid(big));
}

TEST(SchemaValidator, PathologicalPatternsAreRefusedOrLinear) {
    // Back-references need a backtracking matcher: ^(a|a?)+\1$ takes seconds on 12 characters.
    try {
        compile(R"({"pattern":"^(a|a?)+\\1$"})");
        FAIL() << "back-reference accepted";
    } catch (const compile_error& e) {
        EXPECT_NE(std::string(e.what()).find("back-references"), std::string::npos) << e.what();
    }
    EXPECT_THROW(compile(R"({"patternProperties":{"(?<x>a)\\k<x>":{}}})"), compile_error);
    // Nested quantifiers without back-references run on the linear-time matcher.
    auto v = compile(R"({"pattern":"^(a|a?)+$"})");
    std::string s(100000, 'a');
    s += '!';
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(v.is_valid(json::value(s)));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20)); // ~0.1 s in Release
    // Group nesting is capped (compiling recurses per level).
    std::string nested = std::string(200, '(') + "a" + std::string(200, ')');
    EXPECT_THROW((void)validator::compile(json::object{{"pattern", nested}}), compile_error);
    // The `regex` format only compiles, so back-references are fine there.
    EXPECT_TRUE(mcp::schema::check_format("regex", "(a)\\1"));
}

// libstdc++ reads these numbers into a long unchecked and truncates them to int (schema_fuzz,
// UBSan: signed integer overflow in regex_compiler.tcc): refused before std::regex sees them.
TEST(SchemaValidator, HugeRegexNumbersAreRefused) {
    // The fuzzer's input: 19 digits overflowed to a negative group number the format check took.
    EXPECT_THROW(compile(R"({"pattern":"\\9999999999999999999"})"), compile_error);
    EXPECT_FALSE(mcp::schema::check_format("regex", "\\9999999999999999999"));
    EXPECT_FALSE(mcp::schema::check_format("regex", "(a)\\4294967297")); // was group 1
    // a{4294967297} was a{1}: "a" passed.
    try {
        auto v = compile(R"({"pattern":"^a{4294967297}$"})");
        FAIL() << "accepted; \"a\" valid: " << v.is_valid(json::value("a"));
    } catch (const compile_error& e) {
        EXPECT_NE(std::string(e.what()).find("repetition count over 65535"), std::string::npos) << e.what();
    }
    EXPECT_THROW(compile(R"({"pattern":"^(ab){2,99999999999999999999}$"})"), compile_error);
    EXPECT_FALSE(mcp::schema::check_format("regex", "x{1,4294967296}"));
    // Ordinary counts, escaped digits and braces in classes are untouched.
    EXPECT_TRUE(compile(R"({"pattern":"^\\d{2,5}(-[{0-9]{1000}|\\\\123456789012)?$"})")
                    .is_valid(json::value("12345")));
    EXPECT_TRUE(mcp::schema::check_format("regex", "(a)\\1{3}"));
}

TEST(SchemaValidator, DeeplyNestedSchemasAreCompileErrors) {
    json::value schema = json::object{{"type", "integer"}};
    for (int i = 0; i < 2000; ++i) schema = json::object{{"items", std::move(schema)}};
    try {
        (void)validator::compile(schema);
        FAIL() << "compiled a 2000-deep schema";
    } catch (const compile_error& e) {
        EXPECT_NE(std::string(e.what()).find("nesting too deep"), std::string::npos) << e.what();
    }
    while (schema.is_object() && schema.as_object().contains("items")) {
        json::value inner = std::move(schema.as_object()["items"]);
        schema = std::move(inner);
    }
}

// ---------------------------------------------------------------- numbers

TEST(SchemaValidator, NumbersCompareExactly) {
    // 2^53 + 1 as an integer against 2^53 as a double: equal through double, not in fact.
    auto min = validator::compile(json::object{{"minimum", std::int64_t{9007199254740993}}});
    EXPECT_FALSE(min.is_valid(json::value(9007199254740992.0)));
    EXPECT_TRUE(min.is_valid(json::value(std::int64_t{9007199254740993})));
    auto max = validator::compile(json::object{{"maximum", std::uint64_t{18446744073709551615u}}});
    EXPECT_FALSE(max.is_valid(json::value(18446744073709551616.0)));
    EXPECT_TRUE(max.is_valid(json::value(std::uint64_t{18446744073709551615u})));
    auto c = validator::compile(json::object{{"const", std::int64_t{-3}}});
    EXPECT_TRUE(c.is_valid(json::value(-3.0)));
    EXPECT_FALSE(c.is_valid(json::value(std::uint64_t{3})));
    // multipleOf on decimal values
    auto cents = compile(R"({"multipleOf":0.01})");
    EXPECT_TRUE(cents.is_valid(json::parse("19.99")));
    EXPECT_TRUE(cents.is_valid(json::parse("-0.07")));
    EXPECT_FALSE(cents.is_valid(json::parse("0.075")));
    EXPECT_TRUE(cents.is_valid(json::parse("1e300")));
    auto three = compile(R"({"multipleOf":3})");
    EXPECT_FALSE(three.is_valid(json::parse("1e20")));
    EXPECT_TRUE(three.is_valid(json::parse("3e20")));
    EXPECT_TRUE(three.is_valid(json::parse("18446744073709551615")));
    auto one = compile(R"({"multipleOf":1})");
    EXPECT_FALSE(one.is_valid(json::parse("1.0000000001")));
    auto tiny = compile(R"({"multipleOf":1e-300})");
    EXPECT_TRUE(tiny.is_valid(json::parse("5e-299")));
    EXPECT_FALSE(tiny.is_valid(json::parse("5e-301")));
}
