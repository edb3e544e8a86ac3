// The OpenAI-compatible sampling provider against a stub chat-completions server on 127.0.0.1:
// the exact request it sends, canned answers, broken answers (HTTP errors, HTML, junk, a server
// that never answers, nothing listening), and sampling from real servers through the manager:
// everything_server's sample_llm over stdio, and a server whose sampling request carries tools.
// A request withdrawn while the model is at it - by the provider's caller, by the server that
// made it, or by the user cancelling the call it belongs to - closes the HTTP exchange with the
// model at once, which the stub sees.
#include <mcp/host/manager.hpp>
#include <mcp/http/server.hpp>

#include "support/eventually.hpp"
#include "support/http_test_server.hpp"

#include <gtest/gtest.h>

#include <future>

namespace {

using namespace mcp::host;
using namespace std::chrono_literals;
using mcp::test::eventually;
using mcp::test::http_test_server;
using mcp::test::recorded_request;

const std::string bin = MCPXX_BINARY_DIR;
const std::string key = "sk-test-Very5ecret";

std::string completion(std::string text, std::string model = "stub-model") {
    return mcp::to_json(mcp::json::object{
        {"id", "chatcmpl-1"},
        {"object", "chat.completion"},
        {"model", model},
        {"choices",
         mcp::json::array{mcp::json::object{{"index", 0},
                                            {"message", {{"role", "assistant"}, {"content", text}}},
                                            {"finish_reason", "stop"}}}},
        {"usage", {{"prompt_tokens", 5}, {"completion_tokens", 1}, {"total_tokens", 6}}}});
}

/// A stub chat-completions API: answers every POST to /v1/chat/completions with `answer`.
struct stub_api {
    std::mutex mu;
    int status = 200;
    std::string content_type = "application/json";
    std::string answer = completion("42");
    bool silent = false; // never answer
    std::vector<std::shared_ptr<mcp::test::core::response_writer>> held;
    /// Clients that went away from a request left unanswered (silent).
    std::atomic<int> hung_up{0};
    http_test_server server{
        [this](const recorded_request& r, std::shared_ptr<mcp::test::core::response_writer> w) {
            std::lock_guard lock(mu);
            if (silent) {
                w->on_close([this] { ++hung_up; });
                held.push_back(std::move(w));
                return;
            }
            if (r.method != "POST" || r.target != "/v1/chat/completions") {
                w->respond(404, {{"Content-Type", "application/json"}},
                           R"({"error":{"message":"no such route"}})");
                return;
            }
            w->respond(status, {{"Content-Type", content_type}}, answer);
        }};
    std::string base_url() { return server.url("/v1"); }
    void set_silent(bool s) {
        std::lock_guard lock(mu);
        silent = s;
    }
    void set(int s, std::string body, std::string type = "application/json") {
        std::lock_guard lock(mu);
        status = s;
        answer = std::move(body);
        content_type = std::move(type);
    }
};

openai_sampling_provider provider_for(stub_api& api, std::chrono::milliseconds timeout = 10s) {
    return openai_sampling_provider({.base_url = api.base_url(),
                                     .models = {"stub-model", "stub-large"},
                                     .api_key = key,
                                     .timeout = timeout,
                                     .headers = {{"OpenAI-Organization", "org-test"}}});
}

mcp::create_message_request simple_request() {
    mcp::create_message_request r;
    r.system_prompt = "sys";
    r.messages = {{.role = mcp::role::user, .content = {mcp::text_content{.text = "hi"}}}};
    r.max_tokens = 5;
    return r;
}

/// The error create_message throws (fails the test when it returns).
mcp::error sampling_error(openai_sampling_provider& p, const mcp::create_message_request& r,
                          const request_control& control = {}) {
    try {
        p.create_message("srv", r, control);
    } catch (const mcp::error& e) {
        return e;
    }
    ADD_FAILURE() << "create_message succeeded";
    return mcp::error(0, "");
}

TEST(host_sampling_provider, sends_exactly_this_request_and_reads_the_answer) {
    stub_api api;
    auto p = provider_for(api);
    auto result = p.create_message("srv", simple_request(), {});
    ASSERT_EQ(result.content.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(result.content[0]).text, "42");
    EXPECT_EQ(result.model, "stub-model");
    EXPECT_EQ(result.stop_reason, "endTurn");

    auto reqs = api.server.requests();
    ASSERT_EQ(reqs.size(), 1u);
    const auto& r = reqs[0];
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.target, "/v1/chat/completions");
    EXPECT_EQ(r.header("Authorization"), "Bearer " + key);
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    EXPECT_EQ(r.header("Accept"), "application/json");
    EXPECT_EQ(r.header("OpenAI-Organization"), "org-test");
    EXPECT_EQ(r.header("Host"), "127.0.0.1:" + std::to_string(api.server.port()));
    EXPECT_EQ(r.body, R"({"model":"stub-model","messages":[{"role":"system","content":"sys"},)"
                      R"({"role":"user","content":"hi"}],"max_tokens":5})");

    // The connection is kept for the next request; a trailing slash in the base URL is fine.
    auto p2 = openai_sampling_provider({.base_url = api.base_url() + "/", .models = {"stub-model"}});
    p2.create_message("srv", simple_request(), {});
    p2.create_message("srv", simple_request(), {});
    reqs = api.server.requests();
    ASSERT_EQ(reqs.size(), 3u);
    EXPECT_EQ(reqs[2].target, "/v1/chat/completions");
    EXPECT_FALSE(reqs[2].header("Authorization")); // no key configured: none sent
}

TEST(host_sampling_provider, http_errors_name_the_endpoint_and_the_apis_message_never_the_key) {
    stub_api api;
    auto p = provider_for(api);
    const std::string endpoint = api.base_url() + "/chat/completions";

    api.set(
        401,
        R"({"error":{"message":"Incorrect API key provided: sk-te****cret.","type":"invalid_request_error",)"
        R"("code":"invalid_api_key"}})");
    auto e = sampling_error(p, simple_request());
    EXPECT_EQ(e.code(), mcp::error_code::internal_error);
    EXPECT_EQ(std::string(e.what()),
              "the model provider at " + endpoint +
                  " answered HTTP 401 Unauthorized: Incorrect API key provided: sk-te****cret.");
    EXPECT_EQ(e.data(), (mcp::json::object{{"httpStatus", 401}, {"url", endpoint}}));

    api.set(429, R"({"error":"rate limited"})");
    EXPECT_NE(std::string(sampling_error(p, simple_request()).what())
                  .find("HTTP 429 Too Many Requests: rate limited"),
              std::string::npos);
    api.set(503, "<html><body>\n<h1>Bad\tgateway</h1></body></html>", "text/html");
    EXPECT_NE(std::string(sampling_error(p, simple_request()).what())
                  .find("HTTP 503 Service Unavailable: <html><body> <h1>Bad gateway</h1></body></html>"),
              std::string::npos);
    api.set(302, "");
    EXPECT_NE(std::string(sampling_error(p, simple_request()).what()).find("answered HTTP 302 Found"),
              std::string::npos);

    api.set(200, "<html>not json</html>", "text/html");
    e = sampling_error(p, simple_request());
    EXPECT_EQ(e.code(), mcp::error_code::internal_error);
    EXPECT_NE(std::string(e.what()).find("did not answer with a chat completion: the body is not JSON"),
              std::string::npos)
        << e.what();
    api.set(200, R"({"choices":[]})");
    EXPECT_NE(std::string(sampling_error(p, simple_request()).what()).find("it has no \"choices\""),
              std::string::npos);

    // A request the API cannot carry never leaves: -32602, and no HTTP request.
    const auto before = api.server.requests().size();
    auto bad = simple_request();
    bad.messages.push_back({.role = mcp::role::assistant,
                            .content = {mcp::image_content{.data = "AA==", .mime_type = "image/png"}}});
    EXPECT_EQ(sampling_error(p, bad).code(), mcp::error_code::invalid_params);
    EXPECT_EQ(api.server.requests().size(), before);
}

TEST(host_sampling_provider, a_silent_server_times_out_and_a_missing_one_is_unreachable) {
    stub_api api;
    api.silent = true;
    auto p = provider_for(api, 300ms);
    const auto t0 = std::chrono::steady_clock::now();
    auto e = sampling_error(p, simple_request());
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    EXPECT_EQ(e.code(), mcp::error_code::internal_error);
    EXPECT_NE(std::string(e.what()).find("the model provider could not be reached: "), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find(key), std::string::npos);

    const auto port = api.server.port();
    api.server.stop();
    auto gone = openai_sampling_provider(
        {.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1", .models = {"m"}, .api_key = key});
    e = sampling_error(gone, simple_request());
    EXPECT_NE(std::string(e.what()).find("could not be reached"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find(key), std::string::npos);
    EXPECT_EQ(e.data(), (mcp::json::object{
                            {"url", "http://127.0.0.1:" + std::to_string(port) + "/v1/chat/completions"}}));
}

TEST(host_sampling_provider, everything_servers_sample_llm_through_the_manager) {
    stub_api api;
    api.set(200, completion("the answer is 42", "stub-large"));
    manager_options o;
    o.approval.approve_all = true;
    o.sampling = std::make_shared<openai_sampling_provider>(openai_provider_options{
        .base_url = api.base_url(), .models = {"stub-model", "stub-large"}, .api_key = key});
    manager m(o);
    m.add_server({.name = "every", .command = bin + "/everything_server", .source = "test"});
    m.connect_all();
    ASSERT_EQ(m.status("every").state, server_state::ready) << m.status("every").error;
    auto r = m.call_tool("every", "sample_llm", {{"prompt", "What is six times seven?"}, {"maxTokens", 20}});
    ASSERT_FALSE(r.is_error.value_or(false));
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(r.content[0]).text,
              "LLM sampling result (stub-large): the answer is 42");
    auto reqs = api.server.requests();
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(
        reqs[0].body,
        R"({"model":"stub-model","messages":[{"role":"system","content":"You are a helpful assistant."},)"
        R"({"role":"user","content":"What is six times seven?"}],"max_tokens":20})");

    // The API refuses. The manager speaks 2026-07-28 to our server, where the answer to a
    // server's question can only be a result: the provider's error fails the call itself (in
    // the initialize era the server's tool would see it), naming the API's reason, never the key.
    api.set(401, R"({"error":{"message":"bad key"}})");
    try {
        m.call_tool("every", "sample_llm", {{"prompt", "again"}});
        ADD_FAILURE() << "a refused sampling request must fail the call";
    } catch (const mcp::error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad key"), std::string::npos) << what;
        EXPECT_EQ(what.find(key), std::string::npos) << what;
    }
}

TEST(host_sampling_provider, sampling_with_tools_round_trip) {
    // A server whose tool asks the model with a tool of its own, and reports the call it got.
    mcp::server srv({.info = {.name = "agentic", .version = "1.0"}});
    srv.add_tool({.name = "plan", .description = "Ask the model which tool to use"}, [](const mcp::json::
                                                                                            object&,
                                                                                        mcp::context& ctx) {
        mcp::create_message_request req;
        req.messages = {
            {.role = mcp::role::user, .content = {mcp::text_content{.text = "Weather in Paris?"}}}};
        req.max_tokens = 30;
        req.tools = {{.name = "get.weather", .description = "Weather", .input_schema = {{"type", "object"}}}};
        req.tool_choice = mcp::tool_choice{.mode = mcp::tool_choice_mode::auto_};
        auto r = ctx.sample(req);
        std::string out = "stop=" + r.stop_reason.value_or("") + ";";
        for (const auto& c : r.content)
            if (auto* u = std::get_if<mcp::tool_use_content>(&c)) out += u->name + mcp::to_json(u->input);
        return mcp::call_tool_result{.content = {mcp::text(out)}};
    });
    mcp::http::server http(srv, {});
    http.start();

    stub_api api;
    api.set(
        200,
        R"({"model":"stub-model","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[)"
        R"({"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},)"
        R"("finish_reason":"tool_calls"}]})");
    manager_options o;
    o.approval.approve_all = true;
    o.sampling = std::make_shared<openai_sampling_provider>(
        openai_provider_options{.base_url = api.base_url(), .models = {"stub-model"}});
    manager m(o);
    m.add_server({.name = "agentic",
                  .transport = transport_kind::streamable_http,
                  .url = http.url(),
                  .source = "test"});
    m.connect_all();
    ASSERT_EQ(m.status("agentic").state, server_state::ready) << m.status("agentic").error;
    auto r = m.call_tool("agentic", "plan", {});
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(r.content[0]).text, R"(stop=toolUse;get.weather{"city":"Paris"})");
    auto reqs = api.server.requests();
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(
        reqs[0].body,
        R"({"model":"stub-model","messages":[{"role":"user","content":"Weather in Paris?"}],"max_tokens":30,)"
        R"("tools":[{"type":"function","function":{"name":"get_weather","description":"Weather",)"
        R"("parameters":{"type":"object"}}}],"tool_choice":"auto"})");
    m.close();
    http.stop(0ms);
}

/// How long a withdrawn request may take to end: far less than the provider's timeout (30 s
/// in these tests), which is what it ran into before cancellation reached the HTTP exchange.
constexpr auto prompt_end = 2s;

TEST(host_sampling_provider, a_withdrawn_request_closes_its_connection_to_the_model) {
    stub_api api;
    api.set_silent(true); // the model "thinks" for ever
    auto p = provider_for(api, 30s);
    mcp::cancellation_source withdrawn;
    auto pending = std::async(std::launch::async, [&] {
        return p.create_message("srv", simple_request(), {.cancellation = withdrawn.token()});
    });
    ASSERT_TRUE(api.server.wait_requests(1));
    withdrawn.cancel("cancelled by the peer");
    ASSERT_EQ(pending.wait_for(prompt_end), std::future_status::ready);
    try {
        pending.get();
        ADD_FAILURE() << "a withdrawn request was answered";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
        EXPECT_EQ(std::string(e.what()), "the request to " + api.base_url() +
                                             "/chat/completions was cancelled: cancelled by the peer");
    }
    EXPECT_TRUE(eventually([&] { return api.hung_up == 1; })) << "the model's server still holds the request";

    // Withdrawn before the provider is called: nothing is sent.
    EXPECT_EQ(sampling_error(p, simple_request(), {.cancellation = withdrawn.token()}).code(),
              mcp::error_code::request_cancelled);
    EXPECT_EQ(api.server.requests().size(), 1u);

    // The provider is as good as before.
    api.set_silent(false);
    auto r = p.create_message("srv", simple_request(), {});
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(r.content[0]).text, "42");
}

TEST(host_sampling_provider, a_server_withdrawing_its_request_aborts_the_models_http_exchange) {
    // A server of the initialize era whose tool asks the client's model, then withdraws the
    // question when the test says so (its session sends notifications/cancelled).
    mcp::cancellation_source change_of_mind;
    mcp::server srv({.info = {.name = "fickle", .version = "1.0"}});
    srv.add_tool({.name = "ask_then_withdraw", .description = "Ask the model, then change its mind"},
                 [&](const mcp::json::object&, mcp::context& ctx) {
                     try {
                         ctx.ask({{"sampling", simple_request()}}, {.cancel = change_of_mind.token()});
                         return mcp::call_tool_result{.content = {mcp::text("answered")}};
                     } catch (const mcp::client_request_failed& e) {
                         return mcp::call_tool_result{
                             .content = {mcp::text(std::string("withdrawn: ") + e.what())}};
                     }
                 });
    mcp::http::server http(srv, {});
    http.start();

    stub_api api;
    api.set_silent(true);
    manager_options o;
    o.approval.approve_all = true;
    o.protocol_version = mcp::revision::v2025_11_25;
    o.sampling = std::make_shared<openai_sampling_provider>(
        openai_provider_options{.base_url = api.base_url(), .models = {"stub-model"}, .timeout = 30s});
    manager m(o);
    m.add_server({.name = "fickle",
                  .transport = transport_kind::streamable_http,
                  .url = http.url(),
                  .source = "test"});
    m.connect_all();
    ASSERT_EQ(m.status("fickle").state, server_state::ready) << m.status("fickle").error;

    auto call =
        std::async(std::launch::async, [&] { return m.call_tool("fickle", "ask_then_withdraw", {}); });
    ASSERT_TRUE(api.server.wait_requests(1)); // the model has the question
    change_of_mind.cancel("the tool no longer needs an answer");
    EXPECT_TRUE(eventually([&] { return api.hung_up == 1; }, prompt_end))
        << "the host kept asking the model after the server withdrew its request";
    ASSERT_EQ(call.wait_for(20s), std::future_status::ready);
    const auto r = call.get();
    ASSERT_EQ(r.content.size(), 1u);
    EXPECT_EQ(std::get<mcp::text_content>(r.content[0]).text.rfind("withdrawn: ", 0), 0u)
        << std::get<mcp::text_content>(r.content[0]).text;
    m.close();
    http.stop(0ms);
}

/// The user cancels a tool call while the server's sampling request is with the model (what
/// Ctrl-C does in the mcpxx CLI). In the initialize era the call's notifications/cancelled
/// makes the server withdraw its sampling request; in 2026-07-28 the question is the call's own
/// (MRTR), so the call's cancellation reaches the provider directly.
class host_sampling_cancelled_call : public ::testing::TestWithParam<std::optional<mcp::revision>> {};

TEST_P(host_sampling_cancelled_call, aborts_the_models_http_exchange) {
    stub_api api;
    api.set_silent(true);
    manager_options o;
    o.approval.approve_all = true;
    o.protocol_version = GetParam();
    o.sampling = std::make_shared<openai_sampling_provider>(
        openai_provider_options{.base_url = api.base_url(), .models = {"stub-model"}, .timeout = 30s});
    manager m(o);
    m.add_server({.name = "every", .command = bin + "/everything_server", .source = "test"});
    m.connect_all();
    ASSERT_EQ(m.status("every").state, server_state::ready) << m.status("every").error;

    mcp::cancellation_source ctrl_c;
    auto call = std::async(std::launch::async, [&] {
        return m.call_tool("every", "sample_llm", {{"prompt", "What is six times seven?"}},
                           {.cancel = ctrl_c.token()});
    });
    ASSERT_TRUE(api.server.wait_requests(1));
    ctrl_c.cancel("interrupted");
    ASSERT_EQ(call.wait_for(prompt_end), std::future_status::ready);
    try {
        call.get();
        ADD_FAILURE() << "a cancelled call returned a result";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled) << e.what();
    }
    EXPECT_TRUE(eventually([&] { return api.hung_up == 1; }, prompt_end))
        << "the host kept asking the model after the call was cancelled";
}

INSTANTIATE_TEST_SUITE_P(eras, host_sampling_cancelled_call,
                         ::testing::Values(std::nullopt, std::optional(mcp::revision::v2025_11_25)),
                         [](const ::testing::TestParamInfo<std::optional<mcp::revision>>& i) {
                             return i.param ? std::string("initialize_era") : std::string("newest");
                         });

} // namespace
