// The gateway and clients of protocol revision 2026-07-28 in front of servers of the initialize
// era: a server's request for input becomes an InputRequiredResult, the call waits at the
// server (parked) until the client comes back with the answers and the requestState, or
// expires. Requests are POSTed by hand (the wire is what is tested).
#include "support/eventually.hpp"
#include "support/gateway_fixture.hpp"
#include "support/http_backend.hpp"

#include <gmock/gmock.h>

#include <atomic>
#include <mutex>
#include <thread>

namespace {

using namespace mcp::test;
using mcp::json::object;
using testing::HasSubstr;

object accept(object content) {
    return object{{"action", "accept"}, {"content", std::move(content)}};
}

TEST(GatewayStateless, ListsAndCallsWithTheEraDecorations) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto list = f.stateless("tools/list", {});
    ASSERT_EQ(list.status, 200);
    EXPECT_EQ(list.result().at("resultType").as_string(), "complete");
    bool echo = false;
    for (const auto& t : list.result().at("tools").as_array())
        echo |= mcp::find_string(t.as_object(), "name").value_or("") == "everything__echo";
    EXPECT_TRUE(echo);
    auto call =
        f.stateless("tools/call", {{"name", "everything__echo"}, {"arguments", object{{"text", "hi"}}}});
    ASSERT_EQ(call.status, 200);
    EXPECT_EQ(text_of(call.result()), "hi");
    EXPECT_EQ(f.gateway().waiting_calls(), 0u);
}

TEST(GatewayStateless, ApprovalIsARoundOfItsOwnAndBoundToTheCall) {
    gateway_fixture f({stdio_server("everything", "everything_server")},
                      [](mcp::host::gateway_options& o) { o.manager.approval.approve_all = false; });
    const object caps{{"elicitation", object{{"form", object{}}}}};
    const object args{{"text", "ok to run"}};
    auto first = f.stateless("tools/call", {{"name", "everything__echo"}, {"arguments", args}}, caps);
    ASSERT_EQ(first.status, 200) << mcp::to_json(first.message);
    ASSERT_EQ(first.result().at("resultType").as_string(), "input_required") << mcp::to_json(first.message);
    const auto& asked = first.result().at("inputRequests").as_object();
    ASSERT_TRUE(asked.contains("dev.mcpxx/approval")) << mcp::to_json(first.message);
    EXPECT_THAT(std::string(asked.at("dev.mcpxx/approval").at("params").at("message").as_string()),
                HasSubstr("Run the tool \"echo\""));
    EXPECT_EQ(f.gateway().waiting_calls(), 0u); // nothing reached the server yet

    // Approved: the call runs.
    const object yes{{"dev.mcpxx/approval", accept(object{{"run", true}})}};
    auto second = f.stateless("tools/call",
                              {{"name", "everything__echo"},
                               {"arguments", args},
                               {"inputResponses", yes},
                               {"requestState", first.result().at("requestState")}},
                              caps);
    ASSERT_EQ(second.status, 200) << mcp::to_json(second.message);
    EXPECT_EQ(second.result().at("resultType").as_string(), "complete");
    EXPECT_EQ(text_of(second.result()), "ok to run");

    // Declined: a tool error; nothing ran.
    auto declined =
        f.stateless("tools/call",
                    {{"name", "everything__echo"},
                     {"arguments", args},
                     {"inputResponses", object{{"dev.mcpxx/approval", object{{"action", "decline"}}}}},
                     {"requestState", first.result().at("requestState")}},
                    caps);
    ASSERT_EQ(declined.status, 200) << mcp::to_json(declined.message);
    EXPECT_TRUE(declined.result().at("isError").as_bool());
    EXPECT_THAT(text_of(declined.result()), HasSubstr("the user denied the call"));

    // Without elicitation the client cannot be asked: the policy's no.
    auto mute = f.stateless("tools/call", {{"name", "everything__echo"}, {"arguments", args}});
    EXPECT_TRUE(mute.result().at("isError").as_bool()) << mcp::to_json(mute.message);
    EXPECT_THAT(text_of(mute.result()), HasSubstr("this client cannot be asked"));
}

TEST(GatewayStateless, AnApprovalDoesNotCarryOverToOtherArguments) {
    gateway_fixture f({stdio_server("everything", "everything_server")},
                      [](mcp::host::gateway_options& o) { o.manager.approval.approve_all = false; });
    const object caps{{"elicitation", object{{"form", object{}}}}};
    // ask_user needs approval and then asks a question of its own: the call is parked with the
    // approval in its requestState.
    auto first = f.stateless("tools/call", {{"name", "everything__ask_user"}, {"arguments", object{}}}, caps);
    ASSERT_FALSE(first.is_error()) << mcp::to_json(first.message);
    const object yes{{"dev.mcpxx/approval", accept(object{{"run", true}})}};
    auto second = f.stateless("tools/call",
                              {{"name", "everything__ask_user"},
                               {"arguments", object{}},
                               {"inputResponses", yes},
                               {"requestState", first.result().at("requestState")}},
                              caps);
    ASSERT_FALSE(second.is_error()) << mcp::to_json(second.message);
    ASSERT_EQ(second.result().at("resultType").as_string(), "input_required") << mcp::to_json(second.message);
    ASSERT_TRUE(second.result().at("inputRequests").as_object().contains("elicitation"));
    const auto state = second.result().at("requestState");
    // The same state with other arguments: refused (a requestState is sealed to its request),
    // and nothing ran.
    auto swapped = f.stateless("tools/call",
                               {{"name", "everything__ask_user"},
                                {"arguments", object{{"sneaky", true}}},
                                {"inputResponses", object{{"elicitation", accept(object{{"name", "x"}})}}},
                                {"requestState", state}},
                               caps);
    ASSERT_TRUE(swapped.is_error()) << mcp::to_json(swapped.message);
    EXPECT_EQ(swapped.error_code(), -32602);
    // The approved call goes on without being asked again.
    auto third = f.stateless("tools/call",
                             {{"name", "everything__ask_user"},
                              {"arguments", object{}},
                              {"inputResponses", object{{"elicitation", accept(object{{"name", "Grace"}})}}},
                              {"requestState", state}},
                             caps);
    ASSERT_FALSE(third.is_error()) << mcp::to_json(third.message);
    ASSERT_EQ(third.result().at("resultType").as_string(), "complete") << mcp::to_json(third.message);
    EXPECT_THAT(text_of(third.result()), HasSubstr("Grace"));
}

TEST(GatewayStateless, ElicitationWaitsAtTheServerBetweenRounds) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    const object caps{{"elicitation", object{{"form", object{}}}}};
    auto first = f.stateless("tools/call", {{"name", "everything__ask_user"}, {"arguments", object{}}}, caps);
    ASSERT_EQ(first.status, 200) << mcp::to_json(first.message);
    const auto& r1 = first.result();
    ASSERT_EQ(r1.at("resultType").as_string(), "input_required") << mcp::to_json(first.message);
    // The key is the server's own (its handler asked with ctx.elicit(...): "elicitation").
    const auto& asked = r1.at("inputRequests").as_object();
    ASSERT_TRUE(asked.contains("elicitation")) << mcp::to_json(first.message);
    EXPECT_EQ(asked.at("elicitation").as_object().at("method").as_string(), "elicitation/create");
    const auto& params = asked.at("elicitation").as_object().at("params").as_object();
    EXPECT_EQ(params.at("message").as_string(), "Please tell us about yourself");
    EXPECT_FALSE(params.contains("_meta")) << "the gateway's hints stay between it and the server";
    EXPECT_EQ(f.gateway().waiting_calls(), 1u); // the server is still waiting for the answer

    auto second = f.stateless("tools/call",
                              {{"name", "everything__ask_user"},
                               {"arguments", object{}},
                               {"inputResponses", object{{"elicitation", accept(object{{"name", "Ada"}})}}},
                               {"requestState", r1.at("requestState")}},
                              caps);
    ASSERT_EQ(second.status, 200) << mcp::to_json(second.message);
    EXPECT_EQ(second.result().at("resultType").as_string(), "complete");
    EXPECT_THAT(text_of(second.result()), HasSubstr("Ada"));
    EXPECT_EQ(f.gateway().waiting_calls(), 0u);
}

TEST(GatewayStateless, SamplingAndRootsTooAndTheAnswersReachTheServer) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    const object caps{{"sampling", object{}}, {"roots", object{}}};
    auto first = f.stateless(
        "tools/call", {{"name", "everything__sample_llm"}, {"arguments", object{{"prompt", "q"}}}}, caps);
    ASSERT_EQ(first.result().at("resultType").as_string(), "input_required") << mcp::to_json(first.message);
    const auto& asked = first.result().at("inputRequests").as_object();
    ASSERT_TRUE(asked.contains("sampling"));
    EXPECT_EQ(asked.at("sampling").as_object().at("method").as_string(), "sampling/createMessage");
    const object answer{{"role", "assistant"},
                        {"content", object{{"type", "text"}, {"text", "from the client's model"}}},
                        {"model", "m1"}};
    auto second = f.stateless("tools/call",
                              {{"name", "everything__sample_llm"},
                               {"arguments", object{{"prompt", "q"}}},
                               {"inputResponses", object{{"sampling", answer}}},
                               {"requestState", first.result().at("requestState")}},
                              caps);
    EXPECT_THAT(text_of(second.result()), HasSubstr("from the client's model"));

    auto roots1 =
        f.stateless("tools/call", {{"name", "everything__list_roots"}, {"arguments", object{}}}, caps);
    ASSERT_EQ(roots1.result().at("resultType").as_string(), "input_required") << mcp::to_json(roots1.message);
    ASSERT_TRUE(roots1.result().at("inputRequests").as_object().contains("roots"));
    auto roots2 = f.stateless(
        "tools/call",
        {{"name", "everything__list_roots"},
         {"arguments", object{}},
         {"inputResponses",
          object{{"roots", object{{"roots", mcp::json::array{object{{"uri", "file:///stateless/root"}}}}}}}},
         {"requestState", roots1.result().at("requestState")}},
        caps);
    EXPECT_THAT(text_of(roots2.result()), HasSubstr("file:///stateless/root"));
}

TEST(GatewayStateless, AClientWithoutTheCapabilityGetsMinus32021AndTheCallEnds) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto r = f.stateless("tools/call", {{"name", "everything__ask_user"}, {"arguments", object{}}}, object{});
    ASSERT_TRUE(r.is_error()) << mcp::to_json(r.message);
    EXPECT_EQ(r.error_code(), mcp::error_code::missing_required_client_capability);
    EXPECT_TRUE(wait_until([&] { return f.gateway().waiting_calls() == 0; }));
}

TEST(GatewayStateless, ATamperedOrForeignRequestStateIsRefused) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    const object caps{{"elicitation", object{}}};
    auto first = f.stateless("tools/call", {{"name", "everything__ask_user"}, {"arguments", object{}}}, caps);
    std::string state(first.result().at("requestState").as_string());
    state[state.size() / 2] = state[state.size() / 2] == 'A' ? 'B' : 'A';
    auto bad = f.stateless("tools/call",
                           {{"name", "everything__ask_user"},
                            {"arguments", object{}},
                            {"inputResponses", object{{"elicitation", accept(object{{"name", "x"}})}}},
                            {"requestState", state}},
                           caps);
    ASSERT_TRUE(bad.is_error());
    EXPECT_EQ(bad.error_code(), mcp::error_code::invalid_params);
    // The genuine state still continues the waiting call.
    auto good = f.stateless("tools/call",
                            {{"name", "everything__ask_user"},
                             {"arguments", object{}},
                             {"inputResponses", object{{"elicitation", accept(object{{"name", "Grace"}})}}},
                             {"requestState", first.result().at("requestState")}},
                            caps);
    EXPECT_THAT(text_of(good.result()), HasSubstr("Grace"));
}

TEST(GatewayStateless, AWaitingCallExpiresAndARetryStartsOver) {
    gateway_fixture f({stdio_server("everything", "everything_server")},
                      [](mcp::host::gateway_options& o) { o.input_wait = 200ms; });
    const object caps{{"elicitation", object{}}};
    auto first = f.stateless("tools/call", {{"name", "everything__ask_user"}, {"arguments", object{}}}, caps);
    ASSERT_EQ(f.gateway().waiting_calls(), 1u);
    ASSERT_TRUE(wait_until([&] { return f.saw_event("input_expired", "everything"); }));
    EXPECT_EQ(f.gateway().waiting_calls(), 0u);
    // The server's request was cancelled; a client coming back late starts again, its answer
    // used for the same question (as a server re-running its handler would).
    auto late = f.stateless("tools/call",
                            {{"name", "everything__ask_user"},
                             {"arguments", object{}},
                             {"inputResponses", object{{"elicitation", accept(object{{"name", "Late"}})}}},
                             {"requestState", first.result().at("requestState")}},
                            caps);
    ASSERT_EQ(late.status, 200) << mcp::to_json(late.message);
    EXPECT_THAT(text_of(late.result()), HasSubstr("Late"));
}

TEST(GatewayStateless, CancellingACallCancelsTheServersHandler) {
    // A server of the test's own (over HTTP) whose handler waits to be cancelled.
    std::atomic<bool> started{false}, cancelled{false};
    http_backend backend("waiter");
    backend.server().add_tool({.name = "wait"}, [&](const object&, mcp::context& ctx) {
        started = true;
        cancelled = eventually([&] { return ctx.cancelled(); }, 20s);
        return mcp::call_tool_result{.content = {mcp::text("done waiting")}};
    });
    backend.start();
    gateway_fixture f({backend.entry("waiter")});
    // A client of 2026-07-28: over HTTP it cancels by closing the request's stream.
    auto c = f.connect({}, mcp::revision::v2026_07_28);
    mcp::cancellation_source cancel;
    std::jthread canceller([&] { // joined however the call ends
        eventually([&] { return started.load(); });
        cancel.cancel("changed my mind");
    });
    try {
        c->call_tool("waiter__wait", {}, {.cancel = cancel.token()});
        ADD_FAILURE() << "the call must be cancelled";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled) << e.what();
    }
    canceller.join();
    EXPECT_TRUE(started.load());
    EXPECT_TRUE(eventually([&] { return cancelled.load(); }, 20s))
        << "the server's handler was not cancelled";
    EXPECT_EQ(f.gateway().waiting_calls(), 0u);
}

TEST(GatewayStateless, ProgressAndLogsGoOnTheRequestsStream) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto r = f.stateless("tools/call",
                         {{"name", "everything__long_operation"},
                          {"arguments", object{{"duration", 0.02}, {"steps", 2}}},
                          {"_meta", object{{"progressToken", "p-1"}}}},
                         object{});
    ASSERT_EQ(r.status, 200);
    EXPECT_THAT(text_of(r.result()), HasSubstr("completed"));
    std::vector<double> progress;
    for (const auto& n : r.notifications)
        if (n.as_object().at("method").as_string() == "notifications/progress") {
            const auto& p = n.as_object().at("params").as_object();
            EXPECT_EQ(p.at("progressToken").as_string(), "p-1");
            progress.push_back(p.at("progress").to_number<double>());
        }
    EXPECT_EQ(progress, (std::vector<double>{1, 2}));

    auto logs = f.stateless("tools/call", {{"name", "everything__log_messages"}, {"arguments", object{}}},
                            object{}, "critical");
    ASSERT_EQ(logs.status, 200);
    int messages = 0;
    for (const auto& n : logs.notifications)
        if (n.as_object().at("method").as_string() == "notifications/message") ++messages;
    EXPECT_EQ(messages, 3); // critical, alert, emergency
}

TEST(GatewayStateless, ListenStreamsGetTheServersResourceUpdates) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    const std::string uri = "mcpxx://everything/test://static/resource/4";
    std::mutex mu;
    std::string seen;
    std::thread listener([&] {
        const object params{
            {"notifications", object{{"resourceSubscriptions", mcp::json::array{uri.c_str()}}}},
            {"_meta", object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                             {"io.modelcontextprotocol/clientCapabilities", object{}}}}};
        const object body{
            {"jsonrpc", "2.0"}, {"id", 99}, {"method", "subscriptions/listen"}, {"params", params}};
        try {
            mcp::http::fetch({.method = "POST",
                              .url = f.url(),
                              .headers = {{"Content-Type", "application/json"},
                                          {"Accept", "application/json, text/event-stream"},
                                          {"MCP-Protocol-Version", "2026-07-28"},
                                          {"Mcp-Method", "subscriptions/listen"}},
                              .body = mcp::to_json(mcp::json::value(body)),
                              .timeout = 20s,
                              .on_body = [&](std::string_view bytes) {
                                  std::lock_guard lock(mu);
                                  seen.append(bytes);
                                  return seen.find("notifications/resources/updated") == std::string::npos;
                              }});
        } catch (const std::exception&) {
        }
    });
    ASSERT_TRUE(wait_until([&] {
        std::lock_guard lock(mu);
        return seen.find("notifications/subscriptions/acknowledged") != std::string::npos;
    }));
    auto touched = f.stateless("tools/call", {{"name", "everything__touch_resource"},
                                              {"arguments", object{{"uri", "test://static/resource/4"}}}});
    EXPECT_EQ(text_of(touched.result()), "updated");
    EXPECT_TRUE(wait_until([&] {
        std::lock_guard lock(mu);
        return seen.find("notifications/resources/updated") != std::string::npos;
    }));
    listener.join();
    std::lock_guard lock(mu);
    EXPECT_NE(seen.find(uri), std::string::npos) << seen;
}

TEST(GatewayStateless, AClientOfTheStatelessEraGetsEverythingThroughTheGateway) {
    // mcp::client speaking 2026-07-28 to the gateway, which speaks 2025-11-25 to the server:
    // the server's questions come back to the client as input_required rounds while the
    // server's call waits, its progress on the request's stream, its list_changed on the
    // client's listen stream.
    gateway_fixture f({stdio_server("everything", "everything_server")});
    std::atomic<int> sampled{0}, elicited{0}, changed{0};
    auto c = f.connect(
        [&](mcp::client& cl) {
            cl.set_sampling_handler([&](const mcp::create_message_request&, mcp::request_context&) {
                ++sampled;
                return mcp::create_message_result{.role = mcp::role::assistant,
                                                  .content = {mcp::text_content{.text = "stateless answer"}},
                                                  .model = "m"};
            });
            cl.set_elicitation_handler([&](const mcp::elicit_request&, mcp::request_context&) {
                ++elicited;
                return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                          .content = object{{"name", "Eve"}}};
            });
            cl.on_tools_list_changed([&] { ++changed; });
        },
        mcp::revision::v2026_07_28);
    EXPECT_EQ(c->protocol_version(), mcp::revision::v2026_07_28);
    EXPECT_THAT(text_of(c->call_tool("everything__sample_llm", {{"prompt", "q"}})),
                HasSubstr("stateless answer"));
    EXPECT_THAT(text_of(c->call_tool("everything__ask_user", {})), HasSubstr("Eve"));
    EXPECT_EQ(sampled.load(), 1);
    EXPECT_EQ(elicited.load(), 1);
    EXPECT_EQ(f.gateway().waiting_calls(), 0u);
    std::vector<double> progress;
    c->call_tool("everything__long_operation", {{"duration", 0.02}, {"steps", 2}},
                 {.on_progress = [&](const mcp::progress_update& u) { progress.push_back(u.progress); }});
    EXPECT_EQ(progress, (std::vector<double>{1, 2}));
    c->call_tool("everything__toggle_extra_tool", {});
    EXPECT_TRUE(wait_until([&] { return changed.load() > 0; }));
}

TEST(GatewayStateless, PromptsAndReadsAreForwardedToo) {
    gateway_fixture f({stdio_server("everything", "everything_server")});
    auto p = f.stateless("prompts/get", {{"name", "everything__simple_prompt"}});
    ASSERT_EQ(p.status, 200) << mcp::to_json(p.message);
    EXPECT_FALSE(p.result().at("messages").as_array().empty());
    auto r = f.stateless("resources/read", {{"uri", "mcpxx://everything/test://static/resource/2"}});
    ASSERT_EQ(r.status, 200) << mcp::to_json(r.message);
    EXPECT_EQ(r.result().at("contents").as_array()[0].as_object().at("uri").as_string(),
              "mcpxx://everything/test://static/resource/2");
    auto missing = f.stateless("resources/read", {{"uri", "mcpxx://everything/test://nothing"}});
    ASSERT_TRUE(missing.is_error());
    EXPECT_EQ(missing.error_code(), mcp::error_code::invalid_params);
}

} // namespace
