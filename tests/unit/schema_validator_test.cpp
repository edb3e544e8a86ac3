// schema_validator_test.cpp - focused tests of mcp::schema::validator: error locations and
// messages, compile errors, cycle and depth safety, format assertion, Unicode lengths, and the
// MCP wire schemas (2025-11-25 in 2020-12, 2025-06-18 in draft-07).
#include <mcp/schema/validator.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
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
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

const std::string shared = MCPXX_SHARED_DIR;

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
    EXPECT_EQ(compile(R"({"$schema":"http://json-schema.org/draft-07/schema#"})").root_dialect(), dialect::draft07);
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
                     R"({"minLength":1.5})", R"({"required":"a"})", R"({"required":[1]})", R"({"pattern":"("})",
                     R"({"properties":[]})", R"({"allOf":[]})", R"({"allOf":{}})", R"({"items":[{}]})",
                     R"({"multipleOf":0})", R"({"enum":1})", R"({"$ref":1})", R"({"$ref":"#/%zz"})",
                     R"({"$ref":"#/a~2"})", R"({"properties":{"a":3}})"}) {
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
    for (auto s : {R"({"$ref":"#"})",
                   R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})",
                   R"({"anyOf":[{"$ref":"#"},{"$ref":"#"}]})",
                   R"({"allOf":[{"$ref":"#"}],"not":{"$ref":"#"}})",
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

// ---------------------------------------------------------------- unicode

TEST(SchemaValidator, LengthCountsCodePoints) {
    auto v = compile(R"({"minLength":2,"maxLength":2})");
    EXPECT_TRUE(v.is_valid(json::value("\xF0\x9F\x98\x80\xF0\x9F\x98\x80"))); // two emoji, 8 bytes
    EXPECT_TRUE(v.is_valid(json::value("\xC3\xA9t")));                       // "ét", 3 bytes
    EXPECT_FALSE(v.is_valid(json::value("\xF0\x9F\x98\x80")));               // one emoji, 4 bytes
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
    const auto doc = read_json(shared + "/spec/2025-11-25/schema.json");
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
    EXPECT_FALSE(call.is_valid(json::parse(R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}})")));

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
    const auto doc = read_json(shared + "/spec/2025-06-18/schema.json");
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
    auto v = compile(R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]})");
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
