// mcp::client checks structuredContent against the outputSchema a tool was listed with: at the
// wire (the test plays the server), then once against a real mcp::server over the in-memory pair.
//
// Expected validator messages are asked of mcp::schema::validator itself, so these tests pin
// the client's behaviour (which errors, how they are reported), not the validator's wording.
#include "client_wire_fixture.hpp"

#include <mcp/schema/validator.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include <future>

using namespace std::chrono_literals;
using mcp::json::object;
using mcp::test::client_wire;

namespace {

constexpr const char* add_schema =
    R"({"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]})";

std::string tool_json(const std::string& name, const std::string& output_schema = {}) {
    std::string s = R"({"name":")" + name + R"(","inputSchema":{"type":"object"})";
    if (!output_schema.empty()) s += R"(,"outputSchema":)" + output_schema;
    return s + "}";
}

std::string text(const mcp::json::value& v) {
    return v.is_string() ? std::string(v.get_string()) : "<" + mcp::to_json(v) + ">";
}

// What the validator says about `instance` under `schema` (2020-12 unless told otherwise).
std::vector<mcp::schema::validation_error>
errors_of(const std::string& schema, const std::string& instance,
          mcp::schema::dialect d = mcp::schema::dialect::draft2020_12) {
    return mcp::schema::validator::compile(mcp::json::parse(schema), {.default_dialect = d})
        .validate(mcp::json::parse(instance));
}

struct output_validation : client_wire {
    void SetUp() override {
        make();
        connect();
    }

    /// tools/list (first page) answered with these tools; returns how many the client parsed.
    std::size_t list(const std::string& tools, const std::string& extra = {}) {
        return exchange([&] { return c->list_tools(); }, "", R"({"tools":[)" + tools + "]" + extra + "}")
            .tools.size();
    }
    mcp::call_tool_result call(const std::string& name, const std::string& result) {
        return exchange([&] { return c->call_tool(name); }, "", result);
    }
    /// The error a call must throw (a failure is recorded if it returns).
    mcp::error call_error(const std::string& name, const std::string& result) {
        try {
            call(name, result);
        } catch (const mcp::error& e) {
            return e;
        }
        ADD_FAILURE() << "tools/call of '" << name << "' with " << result << " was accepted";
        return mcp::error(0, "");
    }
    /// Let the client's serial notification queue reach this point: everything injected before
    /// has been handled when this returns.
    void drain_notifications() {
        auto done = std::make_shared<std::promise<void>>();
        c->on_notification("test/fence", [done](const object&) { done->set_value(); });
        wire->inject(R"({"jsonrpc":"2.0","method":"test/fence"})");
        ASSERT_EQ(done->get_future().wait_for(5s), std::future_status::ready);
    }
    void inject_list_changed() {
        wire->inject(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
    }
};

TEST_F(output_validation, conforming_structured_content_passes) {
    list(tool_json("add", add_schema));
    auto r =
        call("add", R"({"content":[{"type":"text","text":"{\"sum\":3}"}],"structuredContent":{"sum":3}})");
    ASSERT_TRUE(r.structured_content);
    EXPECT_EQ(r.structured_content->at("sum"), 3);
}

TEST_F(output_validation, non_conforming_content_names_the_tool_the_pointer_and_the_message) {
    list(tool_json("add", add_schema));
    const std::string result = R"({"content":[],"structuredContent":{"sum":"three"}})";
    auto expected = errors_of(add_schema, R"({"sum":"three"})");
    ASSERT_EQ(expected.size(), 1u);

    auto e = call_error("add", result);
    EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
    EXPECT_EQ(std::string(e.what()),
              "structuredContent of tool 'add' does not match its outputSchema: at /sum: " +
                  expected[0].message);
    // The data carries the details and the result as received.
    ASSERT_TRUE(e.data().is_object());
    const auto& data = e.data().as_object();
    EXPECT_EQ(data.at("tool"), "add");
    ASSERT_EQ(data.at("errors").as_array().size(), 1u);
    const auto& err = data.at("errors").as_array()[0].as_object();
    EXPECT_EQ(err.at("instanceLocation"), "/sum");
    EXPECT_EQ(text(err.at("keywordLocation")), expected[0].keyword_location);
    EXPECT_EQ(text(err.at("message")), expected[0].message);
    EXPECT_EQ(data.at("result"), mcp::json::parse(result));
}

TEST_F(output_validation, an_error_at_the_root_reads_as_root) {
    list(tool_json("add", add_schema));
    auto expected = errors_of(add_schema, "{}");
    ASSERT_EQ(expected.size(), 1u);
    auto e = call_error("add", R"({"content":[],"structuredContent":{}})");
    EXPECT_EQ(std::string(e.what()),
              "structuredContent of tool 'add' does not match its outputSchema: at (root): " +
                  expected[0].message);
    EXPECT_EQ(e.data().at("errors").at(0).at("instanceLocation"), "");
}

TEST_F(output_validation, at_most_five_errors_are_reported) {
    const std::string schema =
        R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"},"c":{"type":"number"},)"
        R"("d":{"type":"number"},"e":{"type":"number"},"f":{"type":"number"},"g":{"type":"number"}}})";
    const std::string bad = R"({"a":"x","b":"x","c":"x","d":"x","e":"x","f":"x","g":"x"})";
    ASSERT_GT(errors_of(schema, bad).size(), 5u);
    list(tool_json("many", schema));
    auto e = call_error("many", R"({"content":[],"structuredContent":)" + bad + "}");
    EXPECT_EQ(e.data().at("errors").as_array().size(), 5u);
    const std::string what = e.what();
    EXPECT_TRUE(what.ends_with("; and more")) << what;
    std::size_t ats = 0;
    for (auto p = what.find(" at /"); p != std::string::npos; p = what.find(" at /", p + 1)) ++ats;
    EXPECT_EQ(ats, 5u) << what;
}

TEST_F(output_validation, missing_structured_content_is_an_error) {
    list(tool_json("add", add_schema));
    const std::string result = R"({"content":[{"type":"text","text":"3"}]})";
    auto e = call_error("add", result);
    EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
    EXPECT_EQ(std::string(e.what()),
              "tool 'add' was listed with an outputSchema but returned no structuredContent");
    EXPECT_EQ(e.data().at("tool"), "add");
    EXPECT_EQ(e.data().at("result"), mcp::json::parse(result));
}

TEST_F(output_validation, a_tool_error_is_never_validated) {
    list(tool_json("add", add_schema));
    auto r = call("add", R"({"content":[{"type":"text","text":"division by zero"}],"isError":true})");
    EXPECT_EQ(r.is_error, true);
    r = call("add", R"({"content":[],"structuredContent":{"sum":"NaN"},"isError":true})");
    EXPECT_EQ(r.is_error, true);
    EXPECT_EQ(r.structured_content->at("sum"), "NaN");
    // isError: false is a success like any other.
    EXPECT_EQ(call_error("add", R"({"content":[],"isError":false})").code(), mcp::error_code::invalid_params);
}

TEST_F(output_validation, tools_not_listed_or_listed_without_a_schema_are_not_validated) {
    EXPECT_EQ(call("add", R"({"content":[],"structuredContent":{"sum":"x"}})").structured_content->at("sum"),
              "x");
    list(tool_json("plain"));
    EXPECT_FALSE(call("plain", R"({"content":[]})").structured_content);
    EXPECT_EQ(call("plain", R"({"content":[],"structuredContent":{"any":1}})").structured_content->at("any"),
              1);
    EXPECT_FALSE(call("unlisted", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, list_changed_forgets_the_schemas_until_the_next_listing) {
    std::promise<void> seen;
    c->on_tools_list_changed([&] { seen.set_value(); });
    list(tool_json("add", add_schema));
    inject_list_changed();
    ASSERT_EQ(seen.get_future().wait_for(5s), std::future_status::ready);
    // The callback runs after the schemas are forgotten.
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
    list(tool_json("add", add_schema));
    EXPECT_EQ(call_error("add", R"({"content":[]})").code(), mcp::error_code::invalid_params);
}

TEST_F(output_validation, list_changed_forgets_the_schemas_without_any_callback) {
    list(tool_json("add", add_schema));
    inject_list_changed();
    drain_notifications();
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, a_listing_made_by_the_list_changed_callback_is_kept) {
    std::promise<void> relisted;
    c->on_tools_list_changed([&] {
        c->list_tools();
        relisted.set_value();
    });
    list(tool_json("add", add_schema));
    inject_list_changed();
    answer("", R"({"tools":[)" +
                   tool_json("add", R"({"type":"object","properties":{"sum":{"type":"string"}}})") + "]}");
    ASSERT_EQ(relisted.get_future().wait_for(5s), std::future_status::ready);
    EXPECT_EQ(
        call("add", R"({"content":[],"structuredContent":{"sum":"three"}})").structured_content->at("sum"),
        "three");
    EXPECT_EQ(call_error("add", R"({"content":[],"structuredContent":{"sum":3}})").code(),
              mcp::error_code::invalid_params);
}

TEST_F(output_validation, a_page_requested_before_list_changed_is_not_kept) {
    std::promise<void> seen;
    c->on_tools_list_changed([&] { seen.set_value(); });
    auto page = std::async(std::launch::async, [&] { return c->list_tools(); });
    auto request = wire->next();
    ASSERT_TRUE(request);
    inject_list_changed();
    ASSERT_EQ(seen.get_future().wait_for(5s), std::future_status::ready);
    // The answer may describe the list before the change: its schemas are not trusted.
    auto id = mcp::to_json(mcp::json::parse(*request).at("id"));
    wire->inject(R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"tools":[)" + tool_json("add", add_schema) +
                 "]}}");
    EXPECT_EQ(page.get().tools.size(), 1u); // the caller still gets its page
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, a_new_listing_replaces_a_schema) {
    list(tool_json("add", add_schema));
    list(tool_json("add", R"({"type":"object","properties":{"sum":{"type":"string"}},"required":["sum"]})"));
    EXPECT_EQ(
        call("add", R"({"content":[],"structuredContent":{"sum":"three"}})").structured_content->at("sum"),
        "three");
    auto e = call_error("add", R"({"content":[],"structuredContent":{"sum":3}})");
    EXPECT_NE(std::string(e.what()).find("at /sum: "), std::string::npos) << e.what();
    // Listed again without a schema, or not listed at all: no longer checked.
    list(tool_json("add"));
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
    list(tool_json("add", add_schema));
    list(tool_json("plain"));
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, an_uncompilable_schema_fails_the_calls_not_the_listing) {
    // A remote $ref is never fetched, so this schema cannot be compiled.
    const std::string remote = R"({"$ref":"https://example.com/schemas/out.json"})";
    std::string compile_message;
    try {
        mcp::schema::validator::compile(mcp::json::parse(remote));
        FAIL() << "the schema compiled";
    } catch (const mcp::schema::compile_error& e) {
        compile_message = e.what();
    }
    EXPECT_EQ(list(tool_json("remote", remote) + "," + tool_json("add", add_schema)), 2u);

    const std::string result = R"({"content":[],"structuredContent":{"sum":3}})";
    auto e = call_error("remote", result);
    EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
    EXPECT_EQ(std::string(e.what()),
              "tool 'remote' was listed with an outputSchema that cannot be compiled, so its "
              "structuredContent cannot be checked: " +
                  compile_message);
    EXPECT_EQ(e.data().at("tool"), "remote");
    EXPECT_EQ(text(e.data().at("schemaError")), compile_message);
    EXPECT_EQ(e.data().at("result"), mcp::json::parse(result));
    // A tool error is still returned as is, and the other tools are still checked.
    EXPECT_EQ(call("remote", R"({"content":[],"isError":true})").is_error, true);
    EXPECT_EQ(call("add", result).structured_content->at("sum"), 3);
    EXPECT_EQ(call_error("add", R"({"content":[]})").code(), mcp::error_code::invalid_params);
}

TEST_F(output_validation, validation_can_be_switched_off) {
    wire = std::make_shared<mcp::test::scripted_transport>();
    opts.validate_structured_content = false;
    make();
    connect();
    list(tool_json("add", add_schema) + "," + tool_json("remote", R"({"$ref":"https://example.com/x"})"));
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
    EXPECT_EQ(call("add", R"({"content":[],"structuredContent":{"sum":"x"}})").structured_content->at("sum"),
              "x");
    EXPECT_FALSE(call("remote", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, every_page_of_a_listing_is_remembered) {
    auto all = std::async(std::launch::async, [&] { return c->list_all_tools(); });
    answer("", R"({"tools":[)" + tool_json("plain") + R"(],"nextCursor":"p2"})");
    answer(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"p2"}})",
           R"({"tools":[)" + tool_json("add", add_schema) + "]}");
    EXPECT_EQ(all.get().size(), 2u);
    EXPECT_NE(std::string(call_error("add", R"({"content":[],"structuredContent":{"sum":"x"}})").what())
                  .find("at /sum: "),
              std::string::npos);
}

TEST_F(output_validation, single_pages_add_to_the_first_which_replaces) {
    list(tool_json("add", add_schema), R"(,"nextCursor":"p2")");
    exchange([&] { return c->list_tools("p2"); }, "", R"({"tools":[)" + tool_json("mul", add_schema) + "]}");
    EXPECT_EQ(call_error("add", R"({"content":[]})").code(), mcp::error_code::invalid_params);
    EXPECT_EQ(call_error("mul", R"({"content":[]})").code(), mcp::error_code::invalid_params);
    // A later page that lists a tool without its schema drops that tool's schema.
    exchange([&] { return c->list_tools("p2"); }, "", R"({"tools":[)" + tool_json("mul") + "]}");
    EXPECT_FALSE(call("mul", R"({"content":[]})").structured_content);
    EXPECT_EQ(call_error("add", R"({"content":[]})").code(), mcp::error_code::invalid_params);
    // A first page starts over.
    list(tool_json("plain"));
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
}

TEST_F(output_validation, a_new_connection_forgets_the_schemas) {
    list(tool_json("add", add_schema));
    c->close();
    wire = std::make_shared<mcp::test::scripted_transport>();
    connect();
    EXPECT_FALSE(call("add", R"({"content":[]})").structured_content);
}

// Before 2025-11-25 the spec's schemas are draft-07; from it on, 2020-12 unless $schema says otherwise.
TEST_F(output_validation, the_default_dialect_follows_the_revision) {
    const std::string tuple =
        R"({"type":"object","properties":{"pair":{"items":[{"type":"string"},{"type":"number"}]}}})";
    const std::string bad = R"({"content":[],"structuredContent":{"pair":["a","b"]}})";

    // 2025-11-25: an array `items` is not 2020-12.
    list(tool_json("pair", tuple));
    EXPECT_NE(std::string(call_error("pair", bad).what()).find("cannot be compiled"), std::string::npos);
    // ... unless the schema names draft-07 itself.
    list(tool_json("pair", R"({"$schema":"http://json-schema.org/draft-07/schema#",)" + tuple.substr(1)));
    auto expected = errors_of(tuple, R"({"pair":["a","b"]})", mcp::schema::dialect::draft07);
    ASSERT_EQ(expected.size(), 1u);
    EXPECT_EQ(std::string(call_error("pair", bad).what()),
              "structuredContent of tool 'pair' does not match its outputSchema: at /pair/1: " +
                  expected[0].message);

    // 2025-06-18: draft-07 without saying so.
    c->close();
    wire = std::make_shared<mcp::test::scripted_transport>();
    connect("2025-06-18");
    list(tool_json("pair", tuple));
    EXPECT_EQ(std::string(call_error("pair", bad).what()),
              "structuredContent of tool 'pair' does not match its outputSchema: at /pair/1: " +
                  expected[0].message);
    EXPECT_EQ(call("pair", R"({"content":[],"structuredContent":{"pair":["a",1]}})")
                  .structured_content->at("pair")
                  .at(1),
              1);
}

// ------------------------------------------------------------------ against a real server

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

TEST(output_validation_end_to_end, a_server_breaking_its_output_schema_is_reported) {
    mcp::server server{mcp::server_options{.info = {.name = "e2e", .version = "1"}, .page_size = 1}};
    const object sum_schema = obj_schema({{"sum", {{"type", "number"}}}});
    server.add_tool({.name = "sum", .input_schema = obj_schema(), .output_schema = sum_schema},
                    [](const object&, mcp::context&) {
                        return mcp::call_tool_result{.content = {mcp::text(R"({"sum":3})")},
                                                     .structured_content = object{{"sum", 3}}};
                    });
    // A raw tool that promises a number and returns a string.
    server.add_tool({.name = "liar", .input_schema = obj_schema(), .output_schema = sum_schema},
                    [](const object&, mcp::context&) {
                        return mcp::call_tool_result{.content = {mcp::text("many")},
                                                     .structured_content = object{{"sum", "many"}}};
                    });

    for (bool validate : {true, false}) {
        mcp::client client{mcp::client_options{.info = {.name = "e2e-client", .version = "1"},
                                               .validate_structured_content = validate}};
        auto [a, b] = mcp::memory_transport::create_pair();
        server.connect(a);
        client.connect(b);
        EXPECT_EQ(client.list_all_tools().size(), 2u); // page size 1: the schemas come from two pages
        EXPECT_EQ(client.call_tool("sum").structured_content->at("sum"), 3);
        if (!validate) {
            EXPECT_EQ(client.call_tool("liar").structured_content->at("sum"), "many");
            continue;
        }
        try {
            client.call_tool("liar");
            ADD_FAILURE() << "a structuredContent that breaks the outputSchema was accepted";
        } catch (const mcp::error& e) {
            auto expected = mcp::schema::validator::compile(sum_schema).validate(object{{"sum", "many"}});
            ASSERT_EQ(expected.size(), 1u);
            EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
            EXPECT_EQ(std::string(e.what()),
                      "structuredContent of tool 'liar' does not match its outputSchema: at /sum: " +
                          expected[0].message);
            EXPECT_EQ(e.data().at("result").at("structuredContent").at("sum"), "many");
            EXPECT_EQ(e.data().at("result").at("content").at(0).at("text"), "many");
        }
    }
}

} // namespace
