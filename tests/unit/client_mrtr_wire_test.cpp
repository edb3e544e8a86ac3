// mcp::client wire tests of multi round-trip requests (2026-07-28 basic/patterns/mrtr.mdx): an
// input_required answer to tools/call, prompts/get or resources/read is answered with the
// client's handlers and the request is sent again with a new id, inputResponses and the
// requestState echoed exactly; bad answers from the server end in clear errors, never a hang.
#include "client_stateless_fixture.hpp"

#include <atomic>
#include <set>
#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::json::object;
namespace json = mcp::json;
using mcp::test::stateless_wire;

namespace {

struct mrtr : stateless_wire {
    std::atomic<int> samples{0}, elicits{0}, roots_asked{0};

    void SetUp() override {
        make();
        c->set_sampling_handler([this](const mcp::create_message_request& r, mcp::request_context& ctx) {
            ++samples;
            EXPECT_FALSE(ctx.has_peer());
            EXPECT_EQ(ctx.method(), "sampling/createMessage");
            EXPECT_EQ(r.max_tokens, 10);
            return mcp::create_message_result{.content = {mcp::text_content{.text = "Paris"}}, .model = "m1"};
        });
        c->set_elicitation_handler([this](const mcp::elicit_request& r, mcp::request_context&) {
            ++elicits;
            EXPECT_EQ(r.message, "login?");
            return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                      .content = object{{"name", "octocat"}}};
        });
        c->set_roots_handler([this] {
            ++roots_asked;
            return std::vector<mcp::root>{{.uri = "file:///work", .name = "work"}};
        });
        connect();
    }

    static std::string all_three_requests() {
        return R"({"login":{"method":"elicitation/create","params":{"mode":"form","message":"login?",)"
               R"("requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}},)"
               R"("capital":{"method":"sampling/createMessage","params":{"messages":[{"role":"user",)"
               R"("content":{"type":"text","text":"Capital of France?"}}],"maxTokens":10}},)"
               R"("where":{"method":"roots/list"}})";
    }
    static std::string input_required(const std::string& requests, const std::string& state) {
        std::string r = R"({"resultType":"input_required")";
        if (!requests.empty()) r += R"(,"inputRequests":)" + requests;
        if (!state.empty()) r += R"(,"requestState":)" + state;
        return r + "}";
    }
    static constexpr const char* done_result =
        R"({"resultType":"complete","content":[{"type":"text","text":"done"}]})";

    std::string call_error(std::future<mcp::call_tool_result>& f, int expected_code) {
        try {
            f.get();
            ADD_FAILURE() << "no error";
        } catch (const mcp::error& e) {
            EXPECT_EQ(e.code(), expected_code) << e.what();
            return e.what();
        }
        return {};
    }
};

TEST_F(mrtr, input_is_answered_with_the_handlers_and_the_call_sent_again) {
    auto call = start([this] { return c->call_tool("book", {{"city", "Paris"}}); });
    auto first = expect_request("tools/call");
    EXPECT_FALSE(first.at("params").as_object().contains("inputResponses"));
    reply(first, input_required(all_three_requests(), R"("opaque-state-1")"));
    auto retry = expect_request("tools/call");
    EXPECT_NE(retry.at("id"), first.at("id")); // a new request
    const auto& p = retry.at("params").as_object();
    EXPECT_EQ(p.at("name"), "book");
    EXPECT_EQ(mcp::to_json(p.at("arguments")), R"({"city":"Paris"})");
    EXPECT_EQ(p.at("requestState"), "opaque-state-1"); // echoed exactly
    EXPECT_EQ(mcp::to_json(p.at("inputResponses")),
              R"({"login":{"action":"accept","content":{"name":"octocat"}},)"
              R"("capital":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m1"},)"
              R"("where":{"roots":[{"uri":"file:///work","name":"work"}]}})");
    EXPECT_EQ(meta_of(retry).at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    reply(retry, done_result);
    EXPECT_EQ(*mcp::text_of(call.get().content.at(0)), "done");
    EXPECT_EQ(samples.load(), 1);
    EXPECT_EQ(elicits.load(), 1);
    EXPECT_EQ(roots_asked.load(), 1);
}

TEST_F(mrtr, each_round_sends_only_its_own_answers_and_state) {
    auto call = start([this] { return c->get_prompt("p", {{"a", "1"}}); });
    auto r1 = expect_request("prompts/get");
    reply(r1, input_required(R"({"where":{"method":"roots/list"}})", R"("s1")"));
    auto r2 = expect_request("prompts/get");
    EXPECT_EQ(r2.at("params").at("requestState"), "s1");
    // A state without requests: retried at once, with the new state and no inputResponses.
    reply(r2, input_required("", R"("s2")"));
    auto r3 = expect_request("prompts/get");
    EXPECT_EQ(r3.at("params").at("requestState"), "s2");
    EXPECT_FALSE(r3.at("params").as_object().contains("inputResponses"));
    // Requests without a state: the retry must not carry one.
    reply(r3, input_required(R"({"where":{"method":"roots/list"}})", ""));
    auto r4 = expect_request("prompts/get");
    EXPECT_FALSE(r4.at("params").as_object().contains("requestState"));
    EXPECT_TRUE(r4.at("params").as_object().contains("inputResponses"));
    EXPECT_EQ(mcp::to_json(r4.at("params").at("arguments")), R"({"a":"1"})");
    std::set<std::string> ids;
    for (const auto* r : {&r1, &r2, &r3, &r4}) ids.insert(mcp::to_json(r->at("id")));
    EXPECT_EQ(ids.size(), 4u);
    reply(r4, R"({"resultType":"complete","messages":[]})");
    EXPECT_TRUE(call.get().messages.empty());
    EXPECT_EQ(roots_asked.load(), 2);
}

TEST_F(mrtr, resources_read_takes_rounds_too) {
    auto call = start([this] { return c->read_resource("mem://secret"); });
    auto r1 = expect_request("resources/read");
    reply(r1, input_required(R"({"login":{"method":"elicitation/create","params":{"message":"login?",)"
                             R"("requestedSchema":{"type":"object","properties":{}}}}})",
                             R"("st")"));
    auto r2 = expect_request("resources/read");
    EXPECT_EQ(r2.at("params").at("uri"), "mem://secret");
    reply(
        r2,
        R"({"resultType":"complete","contents":[{"uri":"mem://secret","text":"s"}],"ttlMs":5,)"
        R"("cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"9"}}})");
    auto r = call.get();
    EXPECT_EQ(r.ttl_ms, 5);
    EXPECT_EQ(r.cache_scope, "private");
    ASSERT_TRUE(mcp::result_server_info(r.meta));
    EXPECT_EQ(mcp::result_server_info(r.meta)->name, "srv");
    EXPECT_FALSE(mcp::result_server_info(std::nullopt));
}

TEST_F(mrtr, a_result_without_result_type_is_complete) {
    auto call = start([this] { return c->call_tool("t"); });
    reply(expect_request("tools/call"), R"({"content":[{"type":"text","text":"plain"}]})");
    EXPECT_EQ(*mcp::text_of(call.get().content.at(0)), "plain");
    EXPECT_TRUE(next(50ms).is_null()); // no retry
}

TEST_F(mrtr, a_malformed_input_required_result_fails_clearly) {
    const std::pair<std::string, std::string> cases[] = {
        {input_required("", ""), "neither inputRequests nor requestState"},
        {input_required("[1]", ""), "inputRequests is not an object"},
        {input_required("", "42"), "requestState is not a string"},
        {input_required(R"({"k":7})", ""), "inputRequests[\"k\"] is not an object"},
        {input_required(R"({"k":{"params":{}}})", ""), "has no \"method\""},
        {input_required(R"({"k":{"method":"tools/call","params":{}}})", ""),
         "'tools/call', which is not one of"},
        {input_required(R"({"k":{"method":"roots/list","params":7}})", ""), "params is not an object"},
        {input_required(R"({"k":{"method":"sampling/createMessage","params":{"messages":"no"}}})", ""),
         "input 'k' (sampling/createMessage) failed"},
        {R"({"resultType":7})", "resultType that is not a string"},
        {R"({"resultType":"task","task":{}})", "resultType 'task', which this client does not know"},
    };
    for (const auto& [answer, expected] : cases) {
        auto call = start([this] { return c->call_tool("t"); });
        reply(expect_request("tools/call"), answer);
        const auto what = call_error(call, mcp::error_code::invalid_params);
        EXPECT_NE(what.find(expected), std::string::npos) << answer << " -> " << what;
        EXPECT_NE(what.find("tools/call 't'"), std::string::npos) << what;
        EXPECT_TRUE(next(30ms).is_null()) << answer; // nothing sent again
    }
}

TEST_F(mrtr, input_required_is_refused_where_the_era_does_not_allow_it) {
    auto call = start([this] { return c->list_tools(); });
    reply(expect_request("tools/list"), input_required(R"({"where":{"method":"roots/list"}})", ""));
    try {
        call.get();
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_NE(std::string(e.what()).find("only on tools/call, prompts/get and resources/read"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(roots_asked.load(), 0);
}

TEST_F(mrtr, a_server_that_keeps_asking_is_given_up_on) {
    c.reset();
    wire = std::make_shared<mcp::test::scripted_transport>();
    opts.max_input_rounds = 3;
    SetUp();
    auto call = start([this] { return c->call_tool("greedy"); });
    for (int i = 0; i < 3; ++i) reply(expect_request("tools/call"), input_required("", "\"again\""));
    const auto what = call_error(call, mcp::error_code::internal_error);
    EXPECT_NE(what.find("after 3 requests"), std::string::npos) << what;
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(mrtr, input_no_handler_can_give_fails_with_method_not_found) {
    c.reset();
    wire = std::make_shared<mcp::test::scripted_transport>();
    make(); // no handlers at all
    connect();
    const std::pair<const char*, const char*> cases[] = {
        {R"({"k":{"method":"roots/list"}})", "this client offers no roots"},
        {R"({"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object"}}}})",
         "this client does not elicit"},
        {R"({"k":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}})",
         "this client does not sample"},
    };
    for (const auto& [requests, expected] : cases) {
        auto call = start([this] { return c->call_tool("t"); });
        reply(expect_request("tools/call"), input_required(requests, ""));
        const auto what = call_error(call, mcp::error_code::method_not_found);
        EXPECT_NE(what.find(expected), std::string::npos) << what;
        EXPECT_NE(what.find("input 'k'"), std::string::npos) << what;
        EXPECT_TRUE(next(30ms).is_null());
    }
}

TEST_F(mrtr, an_unsupported_elicitation_mode_or_sampling_tools_fail_the_call) {
    auto call = start([this] { return c->call_tool("t"); });
    reply(expect_request("tools/call"),
          input_required(R"({"k":{"method":"elicitation/create","params":{"mode":"url","message":"m",)"
                         R"("url":"https://example.com/x"}}})",
                         ""));
    auto what = call_error(call, mcp::error_code::invalid_params);
    EXPECT_NE(what.find("url-mode elicitation"), std::string::npos) << what;
}

TEST_F(mrtr, a_handler_error_fails_the_call_with_its_code) {
    c->set_sampling_handler(
        [](const mcp::create_message_request&, mcp::request_context&) -> mcp::create_message_result {
            throw mcp::error(-1, "the user declined");
        });
    auto call = start([this] { return c->call_tool("t"); });
    reply(expect_request("tools/call"), input_required(all_three_requests(), "\"s\""));
    const auto what = call_error(call, -1);
    EXPECT_NE(what.find("the user declined"), std::string::npos) << what;
    EXPECT_NE(what.find("input 'capital' (sampling/createMessage)"), std::string::npos) << what;
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(mrtr, cancelling_from_a_handler_stops_before_the_next_round) {
    mcp::cancellation_source cancel;
    c->set_roots_handler([&] {
        cancel.cancel("the user closed the dialog");
        return std::vector<mcp::root>{};
    });
    mcp::call_options o;
    o.cancel = cancel.token();
    auto call = start([&] { return c->call_tool("t", {}, o); });
    reply(expect_request("tools/call"), input_required(R"({"r":{"method":"roots/list"}})", "\"s\""));
    const auto what = call_error(call, mcp::error_code::request_cancelled);
    EXPECT_NE(what.find("the user closed the dialog"), std::string::npos) << what;
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(mrtr, cancelling_a_round_in_flight_sends_notifications_cancelled) {
    mcp::cancellation_source cancel;
    mcp::call_options o;
    o.cancel = cancel.token();
    auto call = start([&] { return c->call_tool("t", {}, o); });
    reply(expect_request("tools/call"), input_required("", "\"s\""));
    auto second = expect_request("tools/call");
    cancel.cancel("enough");
    auto note = next();
    ASSERT_TRUE(note.is_object());
    EXPECT_EQ(note.at("method"), "notifications/cancelled");
    EXPECT_EQ(note.at("params").at("requestId"), second.at("id"));
    call_error(call, mcp::error_code::request_cancelled);
}

TEST_F(mrtr, each_round_has_its_own_timeout_and_progress_token) {
    std::vector<double> seen;
    std::mutex mu;
    mcp::call_options o;
    o.timeout = 300ms;
    o.on_progress = [&](const mcp::progress_update& u) {
        std::lock_guard l(mu);
        seen.push_back(u.progress);
    };
    auto call = start([&] { return c->call_tool("t", {}, o); });
    auto r1 = expect_request("tools/call");
    const auto t1 = r1.at("params").at("_meta").at("progressToken");
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)" +
                 mcp::to_json(t1) + R"(,"progress":1}})");
    reply(r1, input_required(R"({"where":{"method":"roots/list"}})", "\"s\""));
    auto r2 = expect_request("tools/call");
    const auto t2 = r2.at("params").at("_meta").at("progressToken");
    EXPECT_NE(t1, t2);
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)" +
                 mcp::to_json(t2) + R"(,"progress":1}})");
    // No answer to the second round: it times out on its own budget.
    const auto what = call_error(call, mcp::error_code::request_timeout);
    EXPECT_NE(what.find("300 ms"), std::string::npos) << what;
    std::lock_guard l(mu);
    EXPECT_EQ(seen, (std::vector<double>{1, 1}));
}

TEST_F(mrtr, concurrent_calls_keep_their_own_state) {
    auto a = start([this] { return c->call_tool("a"); });
    auto ra = expect_request("tools/call");
    auto b = start([this] { return c->call_tool("b"); });
    auto rb = expect_request("tools/call");
    reply(ra, input_required("", "\"state-a\""));
    auto ra2 = expect_request("tools/call");
    reply(rb, done_result); // b carries nothing of a's rounds
    EXPECT_FALSE(rb.at("params").as_object().contains("requestState"));
    EXPECT_EQ(ra2.at("params").at("name"), "a");
    EXPECT_EQ(ra2.at("params").at("requestState"), "state-a");
    reply(ra2, done_result);
    a.get();
    b.get();
}

} // namespace
