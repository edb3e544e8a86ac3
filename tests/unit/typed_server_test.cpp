// Typed tools, prompts and elicitation at the wire: schemas generated from C++ types, arguments
// validated before the handler runs, structured results, typed prompt arguments.
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

using mcp::json::object;
using mcp::json::value;
namespace json = mcp::json;

namespace weather {
enum class units { celsius, fahrenheit };
MCP_DESCRIBE_ENUM(units, celsius, fahrenheit)

struct forecast_args {
    std::string city;
    int days = 3;
    std::optional<units> unit;
};
MCP_DESCRIBE(forecast_args, (city, "City name", mcp::field::min_length(1)),
             (days, "Days ahead", mcp::field::range(1, 7)), (unit, "Units"))

struct forecast {
    std::string summary;
    double temp_c = 0;
    std::vector<int> days;
};
MCP_DESCRIBE(forecast, (summary, "One line"), (temp_c, "Temperature in C"), (days, "Day numbers"))

struct review_args {
    std::string language;
    units unit = units::celsius;
    int lines = 10;
    bool strict = false;
};
// `unit` defaults to the first enumerator, which equals a value-initialised enum: say optional.
MCP_DESCRIBE(review_args, (language, "Programming language"), (unit, "Units", mcp::field::optional),
             (lines, "Max lines", mcp::field::minimum(1)), (strict, "Strict mode"))

struct contact {
    std::string name;
    std::optional<int> age;
    bool subscribe = true;
};
MCP_DESCRIBE(contact, (name, "Your name"), (age, "Age", mcp::field::minimum(0)), (subscribe, "Newsletter"))
} // namespace weather

namespace {

struct typed_fixture : ::testing::Test {
    mcp::server srv{mcp::server_options{.info = {"typed", "1.0"}}};
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::unique_ptr<mcp::test::wire_peer> client;
    std::shared_ptr<mcp::server_session> peer;
    std::atomic<int> handler_runs{0};

    void SetUp() override {
        srv.add_tool(
            {.name = "forecast", .description = "Get the forecast"},
            [this](const weather::forecast_args& a, mcp::context&) -> weather::forecast {
                ++handler_runs;
                std::vector<int> days;
                for (int d = 1; d <= a.days; ++d) days.push_back(d);
                return {a.city + (a.unit == weather::units::fahrenheit ? " in F" : " in C"), 21.5, days};
            });
        srv.add_tool("greet", "Say hello", [](const weather::contact& c) { return "Hello, " + c.name; });
        srv.add_tool("nothing", "Takes nothing",
                     [](mcp::context&) { return mcp::image("AAAA", "image/png"); });
        srv.add_tool("raw_text", "Raw arguments, string result",
                     [](const object& a) { return std::string(a.contains("x") ? "has x" : "no x"); });
        srv.add_tool("ask", "Typed elicitation", [](mcp::context& ctx) -> std::string {
            auto answer = ctx.elicit<weather::contact>("Who are you?");
            if (!answer.accepted()) return std::string(mcp::to_string(answer.action));
            return answer.content->name + "/" + std::to_string(answer.content->age.value_or(-1)) + "/" +
                   (answer.content->subscribe ? "sub" : "nosub");
        });
        srv.add_prompt({.name = "review", .description = "Review code"}, [](const weather::review_args& a,
                                                                            mcp::context&) {
            return "Review this " + a.language + " code, at most " + std::to_string(a.lines) + " lines" +
                   (a.strict ? ", strictly" : "") + (a.unit == weather::units::fahrenheit ? " (F)" : "");
        });
        peer = srv.connect(wire);
        client = std::make_unique<mcp::test::wire_peer>(wire);
        client->initialize(mcp::revision::v2025_11_25, object{{"elicitation", object{}}});
    }
    void TearDown() override { peer->close(); }

    object tool_def(std::string_view name) {
        const auto list = client->result("tools/list");
        for (const auto& t : list.at("tools").as_array())
            if (t.at("name").as_string() == name) return t.as_object();
        ADD_FAILURE() << "no tool " << name;
        return {};
    }
    object call(std::string_view name, object args) {
        return client->result("tools/call", object{{"name", name}, {"arguments", std::move(args)}});
    }
};

TEST_F(typed_fixture, schemas_come_from_the_types) {
    const auto t = tool_def("forecast");
    EXPECT_EQ(t.at("inputSchema"), json::parse(R"({"type":"object","properties":{
        "city":{"type":"string","description":"City name","minLength":1},
        "days":{"type":"integer","description":"Days ahead","minimum":1,"maximum":7,"default":3},
        "unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"Units"}},"required":["city"]})"));
    EXPECT_EQ(t.at("outputSchema"), json::parse(R"({"type":"object","properties":{
        "summary":{"type":"string","description":"One line"},
        "temp_c":{"type":"number","description":"Temperature in C"},
        "days":{"type":"array","items":{"type":"integer"},"description":"Day numbers","default":[]}},
        "required":["summary","temp_c"]})"));
    EXPECT_EQ(tool_def("nothing").at("inputSchema"), json::parse(R"({"type":"object","properties":{}})"));
    EXPECT_FALSE(tool_def("greet").contains("outputSchema"));
}

TEST_F(typed_fixture, a_struct_result_is_structured_content_with_a_text_copy) {
    auto r = call("forecast", object{{"city", "Paris"}, {"days", 2}, {"unit", "fahrenheit"}});
    EXPECT_FALSE(r.contains("isError"));
    EXPECT_EQ(r.at("structuredContent"),
              json::parse(R"({"summary":"Paris in F","temp_c":21.5,"days":[1,2]})"));
    EXPECT_EQ(json::parse(r.at("content").at(0).at("text").as_string()), r.at("structuredContent"));
    // Defaults apply to absent members.
    r = call("forecast", object{{"city", "Oslo"}});
    EXPECT_EQ(r.at("structuredContent").at("days").as_array().size(), 3u);
}

TEST_F(typed_fixture, invalid_arguments_are_an_error_result_and_the_handler_does_not_run) {
    const struct {
        object args;
        const char* expect;
    } cases[] = {
        {object{}, "/: "}, // missing city (reported at the root)
        {object{{"city", ""}}, "/city"},
        {object{{"city", "x"}, {"days", 8}}, "/days"},
        {object{{"city", "x"}, {"days", "two"}}, "/days"},
        {object{{"city", "x"}, {"unit", "kelvin"}}, "/unit"},
    };
    for (const auto& c : cases) {
        auto r = call("forecast", c.args);
        EXPECT_EQ(r.at("isError"), true) << mcp::to_json(c.args);
        const std::string text(r.at("content").at(0).at("text").as_string());
        EXPECT_NE(text.find("Invalid arguments for tool \"forecast\""), std::string::npos) << text;
        if (std::string_view(c.expect) != "/: ")
            EXPECT_NE(text.find(c.expect), std::string::npos) << text;
        else
            EXPECT_NE(text.find("city"), std::string::npos) << text;
    }
    EXPECT_EQ(handler_runs.load(), 0);
}

TEST_F(typed_fixture, raw_tools_are_validated_too_and_other_results_convert) {
    srv.add_tool(
        {.name = "strict_raw",
         .input_schema = object{{"type", "object"},
                                {"required", json::array{"n"}},
                                {"properties", object{{"n", object{{"type", "integer"}}}}}}},
        [](const object&, mcp::context&) { return mcp::call_tool_result{.content = {mcp::text("ran")}}; });
    auto r = call("strict_raw", object{{"n", "no"}});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_EQ(call("strict_raw", object{{"n", 1}}).at("content").at(0).at("text"), "ran");
    EXPECT_EQ(call("greet", object{{"name", "Ada"}}).at("content").at(0).at("text"), "Hello, Ada");
    EXPECT_EQ(call("nothing", object{}).at("content").at(0).at("type"), "image");
    EXPECT_EQ(call("raw_text", object{{"x", 1}}).at("content").at(0).at("text"), "has x");
}

TEST_F(typed_fixture, an_invalid_input_schema_is_refused_at_registration) {
    try {
        srv.add_tool({.name = "bad", .input_schema = object{{"type", 12}}},
                     [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("\"bad\""), std::string::npos) << e.what();
    }
}

TEST_F(typed_fixture, typed_prompts_declare_and_convert_their_arguments) {
    const auto prompts = client->result("prompts/list").at("prompts");
    EXPECT_EQ(prompts.at(0).at("arguments"), json::parse(R"([
        {"name":"language","description":"Programming language","required":true},
        {"name":"unit","description":"Units","required":false},
        {"name":"lines","description":"Max lines","required":false},
        {"name":"strict","description":"Strict mode","required":false}])"));
    auto r = client->result(
        "prompts/get",
        object{{"name", "review"},
               {"arguments",
                object{{"language", "C++"}, {"lines", "5"}, {"strict", "true"}, {"unit", "fahrenheit"}}}});
    EXPECT_EQ(r.at("messages").at(0).at("content").at("text"),
              "Review this C++ code, at most 5 lines, strictly (F)");
    // Bad values are -32602 with a message naming the argument.
    for (auto bad : {object{{"language", "C"}, {"lines", "many"}}, object{{"language", "C"}, {"lines", "0"}},
                     object{{"language", "C"}, {"unit", "kelvin"}},
                     object{{"language", "C"}, {"strict", "yes"}}, object{{"lines", "3"}}}) {
        auto e = client->request("prompts/get", object{{"name", "review"}, {"arguments", bad}});
        ASSERT_TRUE(e.contains("error")) << mcp::to_json(bad);
        EXPECT_EQ(e.at("error").at("code"), -32602);
    }
    // Enum arguments complete from their names.
    auto c = client->result("completion/complete",
                            object{{"ref", object{{"type", "ref/prompt"}, {"name", "review"}}},
                                   {"argument", object{{"name", "unit"}, {"value", "fa"}}}});
    EXPECT_EQ(c.at("completion").at("values"), json::parse(R"(["fahrenheit"])"));
}

TEST_F(typed_fixture, typed_elicitation_sends_the_schema_and_returns_a_struct) {
    auto answer = [&](const char* result) {
        wire->inject(R"({"jsonrpc":"2.0","id":90,"method":"tools/call","params":{"name":"ask"}})");
        auto req = client->next_message("elicitation/create");
        EXPECT_TRUE(req);
        if (!req) return object{};
        EXPECT_EQ(req->at("params").at("requestedSchema"), json::parse(R"({"type":"object","properties":{
            "name":{"type":"string","description":"Your name"},
            "age":{"type":"integer","description":"Age","minimum":0},
            "subscribe":{"type":"boolean","description":"Newsletter","default":true}},"required":["name"]})"));
        wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req->at("id")) + R"(,"result":)" + result +
                     "}");
        return client->wait_response(90).at("result").as_object();
    };
    EXPECT_EQ(
        answer(R"({"action":"accept","content":{"name":"Ada","age":36}})").at("content").at(0).at("text"),
        "Ada/36/sub");
    EXPECT_EQ(answer(R"({"action":"decline"})").at("content").at(0).at("text"), "decline");
    auto bad = answer(R"({"action":"accept","content":{"age":-1}})");
    EXPECT_EQ(bad.at("isError"), true);
    EXPECT_NE(std::string(bad.at("content").at(0).at("text").as_string())
                  .find("does not match the requested schema"),
              std::string::npos);
}

TEST(typed_server, emitted_messages_conform_to_every_revision_schema) {
    for (auto r : {mcp::revision::v2024_11_05, mcp::revision::v2025_03_26, mcp::revision::v2025_06_18,
                   mcp::revision::v2025_11_25}) {
        mcp::server srv{mcp::server_options{.info = {"typed", "1.0"}}};
        srv.add_tool({.name = "forecast"}, [](const weather::forecast_args& a) -> weather::forecast {
            return {a.city, 1.5, {1}};
        });
        auto wire = std::make_shared<mcp::test::scripted_transport>();
        auto peer = srv.connect(wire);
        mcp::test::wire_peer client(wire);
        client.initialize(r);
        const mcp::test::wire_schema schema(r);
        const auto list = client.request("tools/list");
        const auto result =
            client.request("tools/call", object{{"name", "forecast"}, {"arguments", object{{"city", "x"}}}});
        const auto bad =
            client.request("tools/call", object{{"name", "forecast"}, {"arguments", object{{"days", 0}}}});
        EXPECT_EQ(bad.at("result").at("isError"), true);
        for (const auto& [method, msg] :
             {std::pair{"tools/list", list}, std::pair{"tools/call", result}, std::pair{"tools/call", bad}}) {
            auto problems = schema.check(value(msg), std::string(method));
            EXPECT_TRUE(problems.empty()) << mcp::to_string(r) << " " << mcp::to_json(msg) << ": "
                                          << (problems.empty() ? "" : problems.front());
        }
        // Older revisions get the text copy only.
        EXPECT_EQ(result.at("result").as_object().contains("structuredContent"),
                  r >= mcp::revision::v2025_06_18);
        EXPECT_EQ(list.at("result").at("tools").at(0).as_object().contains("outputSchema"),
                  r >= mcp::revision::v2025_06_18);
        peer->close();
    }
}

} // namespace
