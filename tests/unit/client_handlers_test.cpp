// mcp::client wire tests: the server's requests (roots, sampling, elicitation) answered by the
// handlers, -32601 without them, notifications delivered to callbacks, roots list_changed.
#include "client_wire_fixture.hpp"
#include "support/eventually.hpp"

#include <atomic>
#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::json::object;
using mcp::test::client_wire;

namespace {

const char* sampling_request =
    R"({"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"maxTokens":10,"systemPrompt":"be brief"}})";
const char* elicit_request =
    R"({"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}})";
const char* url_elicit_request =
    R"({"jsonrpc":"2.0","id":"e2","method":"elicitation/create","params":{"mode":"url","message":"log in","url":"https://example.com/x","elicitationId":"el-1"}})";

struct handlers : client_wire {};

// Waits until `flag` becomes true (callbacks run on the session's notification thread).
using mcp::test::eventually;

TEST_F(handlers, without_handlers_server_requests_are_method_not_found) {
    make();
    connect();
    for (const char* m : {"roots/list", "sampling/createMessage", "elicitation/create"}) {
        wire->inject(R"({"jsonrpc":"2.0","id":7,"method":")" + std::string(m) + R"(","params":{}})");
        auto r = wire->next_json();
        EXPECT_EQ(r.at("id"), 7);
        EXPECT_EQ(r.at("error").at("code"), -32601) << m;
    }
}

TEST_F(handlers, roots_are_listed) {
    make();
    c->set_roots({{.uri = "file:///tmp", .name = "tmp"}, {.uri = "file:///home/u"}});
    connect();
    wire->inject(R"({"jsonrpc":"2.0","id":"r1","method":"roots/list"})");
    EXPECT_EQ(
        wire->next().value_or(""),
        R"({"jsonrpc":"2.0","id":"r1","result":{"roots":[{"uri":"file:///tmp","name":"tmp"},{"uri":"file:///home/u"}]}})");
}

TEST_F(handlers, roots_handler_is_asked_each_time) {
    make();
    std::atomic<int> n{0};
    c->set_roots_handler([&] { return std::vector<mcp::root>{{.uri = "file:///r" + std::to_string(++n)}}; });
    connect();
    for (int i = 1; i <= 2; ++i) {
        wire->inject(R"({"jsonrpc":"2.0","id":1,"method":"roots/list"})");
        EXPECT_EQ(wire->next_json().at("result").at("roots").at(0).at("uri"),
                  mcp::json::value("file:///r" + std::to_string(i)));
    }
}

TEST_F(handlers, sampling_is_answered_by_the_handler) {
    make();
    std::optional<mcp::create_message_request> seen;
    c->set_sampling_handler([&](const mcp::create_message_request& r, mcp::request_context& ctx) {
        seen = r;
        EXPECT_EQ(ctx.method(), "sampling/createMessage");
        return mcp::create_message_result{
            .content = {mcp::text_content{.text = "4"}}, .model = "m1", .stop_reason = "endTurn"};
    });
    connect();
    wire->inject(sampling_request);
    EXPECT_EQ(
        wire->next().value_or(""),
        R"({"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m1","stopReason":"endTurn"}})");
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->max_tokens, 10);
    EXPECT_EQ(seen->system_prompt, "be brief");
    ASSERT_EQ(seen->messages.size(), 1u);
}

TEST_F(handlers, a_handler_error_keeps_its_code_and_message) {
    make();
    c->set_sampling_handler(
        [](const mcp::create_message_request&, mcp::request_context&) -> mcp::create_message_result {
            throw mcp::error(-1, "User rejected sampling request");
        });
    connect();
    wire->inject(sampling_request);
    EXPECT_EQ(
        wire->next().value_or(""),
        R"({"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"User rejected sampling request"}})");
}

TEST_F(handlers, malformed_sampling_params_are_invalid_params) {
    make();
    std::atomic<bool> called{false};
    c->set_sampling_handler([&](const mcp::create_message_request&, mcp::request_context&) {
        called = true;
        return mcp::create_message_result{};
    });
    connect();
    wire->inject(
        R"({"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":"nope"}})");
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32602);
    EXPECT_FALSE(called);
}

TEST_F(handlers, sampling_with_tools_needs_the_tools_capability) {
    make();
    c->set_sampling_handler([](const mcp::create_message_request&,
                               mcp::request_context&) { return mcp::create_message_result{}; },
                            {.tools = false});
    connect();
    wire->inject(
        R"({"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}})");
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32602);
}

TEST_F(handlers, elicitation_is_answered_by_the_handler) {
    make();
    c->set_elicitation_handler([](const mcp::elicit_request& r, mcp::request_context&) {
        EXPECT_EQ(r.message, "name?");
        EXPECT_EQ(r.mode, mcp::elicitation_mode::form);
        return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = object{{"name", "Ada"}}};
    });
    connect();
    wire->inject(elicit_request);
    EXPECT_EQ(wire->next().value_or(""),
              R"({"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada"}}})");
    // URL mode was not declared: -32602.
    wire->inject(url_elicit_request);
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32602);
}

TEST_F(handlers, url_elicitation_when_declared) {
    make();
    c->set_elicitation_handler(
        [](const mcp::elicit_request& r, mcp::request_context&) {
            EXPECT_EQ(r.url, "https://example.com/x");
            EXPECT_EQ(r.elicitation_id, "el-1");
            return mcp::elicit_result{.action = mcp::elicit_action::accept};
        },
        {.form = false, .url = true});
    connect();
    wire->inject(url_elicit_request);
    EXPECT_EQ(wire->next().value_or(""), R"({"jsonrpc":"2.0","id":"e2","result":{"action":"accept"}})");
    wire->inject(elicit_request); // form mode not declared
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32602);
}

// A handler may call the client (here: list_tools while answering sampling) without deadlock.
TEST_F(handlers, a_handler_may_call_back_into_the_client) {
    make();
    c->set_sampling_handler([&](const mcp::create_message_request&, mcp::request_context&) {
        auto tools = c->list_tools();
        return mcp::create_message_result{
            .content = {mcp::text_content{.text = std::to_string(tools.tools.size())}}, .model = "m"};
    });
    connect();
    wire->inject(sampling_request);
    answer(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})",
        R"({"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("id"), "s1");
    EXPECT_EQ(r.at("result").at("content").at("text"), "2");
}

TEST_F(handlers, notifications_reach_their_callbacks) {
    make();
    std::atomic<int> tools{0}, resources{0}, prompts{0}, generic{0};
    std::mutex mu;
    std::vector<std::string> updated, completed;
    std::vector<mcp::logging_message_notification> logs;
    c->on_tools_list_changed([&] { ++tools; });
    c->on_resources_list_changed([&] { ++resources; });
    c->on_resource_updated([&](const std::string& uri) {
        std::lock_guard l(mu);
        updated.push_back(uri);
    });
    c->on_log_message([&](const mcp::logging_message_notification& n) {
        std::lock_guard l(mu);
        logs.push_back(n);
    });
    connect();
    // Callbacks set after connect work too.
    c->on_prompts_list_changed([&] { ++prompts; });
    c->on_elicitation_complete([&](const std::string& id) {
        std::lock_guard l(mu);
        completed.push_back(id);
    });
    c->on_notification("com.example/custom", [&](const object& p) {
        EXPECT_EQ(p.at("x"), 1);
        ++generic;
    });
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/resources/list_changed"})");
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/prompts/list_changed"})");
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"mem://a"}})");
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":{"n":1}}})");
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"shouting","data":"x"}})"); // dropped
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"el-1"}})");
    wire->inject(R"({"jsonrpc":"2.0","method":"com.example/custom","params":{"x":1}})");
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/unknown"})");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard l(mu);
        return tools && resources && prompts && generic && !updated.empty() && !logs.empty() &&
               !completed.empty();
    }));
    std::lock_guard l(mu);
    EXPECT_EQ(updated, std::vector<std::string>{"mem://a"});
    EXPECT_EQ(completed, std::vector<std::string>{"el-1"});
    ASSERT_EQ(logs.size(), 1u);
    EXPECT_EQ(logs[0].level, mcp::logging_level::warning);
    EXPECT_EQ(logs[0].logger, "db");
    EXPECT_EQ(logs[0].data.at("n"), 1);
    EXPECT_FALSE(wire->next(20ms)) << "notifications are never answered";
}

TEST_F(handlers, several_callbacks_for_one_notification) {
    make();
    std::atomic<int> n{0};
    c->on_tools_list_changed([&] { ++n; });
    c->on_tools_list_changed([&] { ++n; });
    connect();
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
    EXPECT_TRUE(eventually([&] { return n == 2; }));
}

TEST_F(handlers, roots_list_changed_is_sent_when_declared) {
    make();
    c->set_roots({{.uri = "file:///a"}});
    connect();
    c->notify_roots_changed();
    EXPECT_EQ(wire->next().value_or(""), R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})");
}

TEST_F(handlers, roots_list_changed_is_not_sent_when_not_declared) {
    make();
    c->set_roots_handler([] { return std::vector<mcp::root>{}; }, {.list_changed = false});
    connect();
    c->notify_roots_changed();
    EXPECT_FALSE(wire->next(30ms));
}

TEST_F(handlers, the_negotiated_revision_shapes_handler_results) {
    // Sampling content with several blocks is one block before 2025-11-25 (content.hpp).
    make();
    c->set_sampling_handler([](const mcp::create_message_request&, mcp::request_context&) {
        return mcp::create_message_result{
            .content = {mcp::text_content{.text = "a"}, mcp::text_content{.text = "b"}}, .model = "m"};
    });
    connect("2025-06-18");
    wire->inject(sampling_request);
    EXPECT_EQ(
        wire->next().value_or(""),
        R"({"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"a\nb"},"model":"m"}})");
}

} // namespace
