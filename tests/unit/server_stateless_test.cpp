// The stateless era (2026-07-28) of mcp::server, at the wire: per-request _meta, server/discover,
// resultType and caching hints, removed methods, MRTR (InputRequiredResult, sealed requestState),
// logLevel, subscriptions/listen. Over a session without initialize (stdio) and through
// server_access::handle_request (what Streamable HTTP uses). Every message is checked against the
// official 2026-07-28 schema.
#include <mcp/server/server.hpp>

#include "server/server_access.hpp"

#include "support/wire_peer.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

using namespace std::chrono_literals;
using mcp::detail::server_access;
using mcp::json::object;
using mcp::json::value;

namespace {

const char* const version_key = "io.modelcontextprotocol/protocolVersion";
const char* const caps_key = "io.modelcontextprotocol/clientCapabilities";

object meta(object caps = {}, std::optional<std::string> level = std::nullopt) {
    object m{{version_key, "2026-07-28"},
             {"io.modelcontextprotocol/clientInfo", {{"name", "stateless-test"}, {"version", "1"}}},
             {caps_key, std::move(caps)}};
    if (level) m["io.modelcontextprotocol/logLevel"] = *level;
    return m;
}

object with_meta(object params, object m = meta()) {
    params["_meta"] = std::move(m);
    return params;
}

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

const object name_schema{{"type", "object"},
                         {"properties", {{"name", {{"type", "string"}}}}},
                         {"required", mcp::json::array{"name"}}};

void add_features(mcp::server& s) {
    s.add_tool({.name = "echo", .input_schema = obj_schema({{"text", {{"type", "string"}}}})},
               [](const object& a, mcp::context& ctx) {
                   ctx.log(mcp::logging_level::info, "echoing");
                   ctx.progress(1, 1, "done");
                   return mcp::call_tool_result{
                       .content = {mcp::text(std::string(a.at("text").as_string()))}};
               });
    s.add_tool({.name = "greet", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        auto r = ctx.elicit(mcp::form_elicitation("What is your name?", name_schema), {.key = "user_name"});
        std::string name = r.content ? std::string(r.content->at("name").as_string()) : "nobody";
        return mcp::call_tool_result{.content = {mcp::text("Hello, " + name + "!")}};
    });
    s.add_tool({.name = "two_steps", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        if (ctx.request_state().is_null()) ctx.set_request_state(object{{"started", true}});
        auto a = ctx.ask({{"step1", mcp::form_elicitation("Step 1: name?", name_schema)}});
        auto b = ctx.ask({{"step2", mcp::form_elicitation("Step 2: colour?", name_schema)}});
        const auto& n = *std::get<mcp::elicit_result>(a.at("step1")).content;
        const auto& c = *std::get<mcp::elicit_result>(b.at("step2")).content;
        const bool state_ok =
            ctx.request_state().is_object() && ctx.request_state().as_object().contains("started");
        return mcp::call_tool_result{.content = {mcp::text(std::string(n.at("name").as_string()) + "/" +
                                                           std::string(c.at("name").as_string()) +
                                                           (state_ok ? " state-ok" : " state-missing"))}};
    });
    s.add_tool({.name = "everything", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        mcp::create_message_request sampling;
        mcp::sampling_message question;
        question.role = mcp::role::user;
        question.content = {mcp::text_content{.text = "Generate a greeting"}};
        sampling.messages.push_back(std::move(question));
        sampling.max_tokens = 50;
        auto answers = ctx.ask({{"user_name", mcp::form_elicitation("What is your name?", name_schema)},
                                {"greeting", sampling},
                                {"client_roots", mcp::roots_request{}}});
        const auto& roots = std::get<mcp::list_roots_result>(answers.at("client_roots")).roots;
        return mcp::call_tool_result{.content = {mcp::text("roots: " + std::to_string(roots.size()))}};
    });
    s.add_prompt({.name = "review", .arguments = {}}, [](const std::map<std::string, std::string>&,
                                                         mcp::context& ctx) {
        auto r = ctx.elicit(mcp::form_elicitation("Context?", name_schema), {.key = "user_context"});
        return mcp::get_prompt_result{
            .messages = {
                {mcp::role::user, mcp::text("review " + std::string(r.content->at("name").as_string()))}}};
    });
    s.add_resource({.uri = "test://a", .name = "a", .mime_type = "text/plain"}, [](const std::string& uri,
                                                                                   mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
    });
}

struct stateless_fixture : ::testing::Test {
    std::unique_ptr<mcp::server> srv;
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::unique_ptr<mcp::test::wire_peer> client;
    std::shared_ptr<mcp::server_session> peer;
    mcp::test::wire_recorder rec{mcp::revision::v2026_07_28};

    void SetUp() override {
        srv = std::make_unique<mcp::server>(
            mcp::server_options{.info = {"stateless", "1.0"}, .list_cache = {60000, "public"}});
        add_features(*srv);
        peer = srv->connect(wire);
        client = std::make_unique<mcp::test::wire_peer>(wire);
        rec.check_only(0); // the server's messages; the tests send malformed ones on purpose
        client->observer = [&](int side, std::string_view text) { rec.record(side, text); };
    }
    void TearDown() override {
        if (peer) peer->close();
        for (const auto& p : rec.problems()) ADD_FAILURE() << p;
    }
    object call(std::string_view method, object params) { return client->request(method, std::move(params)); }
};

TEST_F(stateless_fixture, discover_answers_without_initialize) {
    auto r = call("server/discover", with_meta({}));
    ASSERT_TRUE(r.contains("result")) << mcp::to_json(r);
    const auto& res = r.at("result").as_object();
    EXPECT_EQ(res.at("resultType"), "complete");
    EXPECT_EQ(res.at("ttlMs"), 60000);
    EXPECT_EQ(res.at("cacheScope"), "public");
    const auto& versions = res.at("supportedVersions").as_array();
    EXPECT_NE(std::find(versions.begin(), versions.end(), value("2026-07-28")), versions.end());
    EXPECT_NE(std::find(versions.begin(), versions.end(), value("2025-11-25")), versions.end());
    EXPECT_TRUE(res.at("capabilities").as_object().contains("tools"));
    EXPECT_EQ(res.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "stateless");
}

TEST_F(stateless_fixture, meta_is_checked) {
    auto missing_caps = call("tools/list", object{{"_meta", {{version_key, "2026-07-28"}}}});
    EXPECT_EQ(missing_caps.at("error").at("code"), -32602);
    EXPECT_NE(std::string(missing_caps.at("error").at("message").as_string()).find(caps_key),
              std::string::npos);

    auto m = meta();
    m[version_key] = "v999.0.0";
    auto unsupported = call("tools/list", object{{"_meta", m}});
    EXPECT_EQ(unsupported.at("error").at("code"), -32022);
    EXPECT_EQ(unsupported.at("error").at("data").at("requested"), "v999.0.0");
    EXPECT_TRUE(unsupported.at("error").at("data").at("supported").is_array());

    m[version_key] = "2025-11-25"; // an initialize-era revision needs initialize
    EXPECT_EQ(call("tools/list", object{{"_meta", m}}).at("error").at("code"), -32022);

    auto bad_level = call("tools/list", object{{"_meta", meta({}, "loud")}});
    EXPECT_EQ(bad_level.at("error").at("code"), -32602);

    // With no _meta and no initialize, the error names both ways forward.
    auto none = call("tools/list", object{});
    EXPECT_EQ(none.at("error").at("code"), -32600);
    EXPECT_NE(std::string(none.at("error").at("message").as_string()).find("initialize"), std::string::npos);
}

TEST_F(stateless_fixture, results_carry_result_type_and_cache_hints) {
    auto tools = call("tools/list", with_meta({})).at("result").as_object();
    EXPECT_EQ(tools.at("resultType"), "complete");
    EXPECT_EQ(tools.at("ttlMs"), 60000);
    EXPECT_EQ(tools.at("cacheScope"), "public");
    EXPECT_EQ(tools.at("tools").as_array().size(), 4u);

    auto read = call("resources/read", with_meta({{"uri", "test://a"}})).at("result").as_object();
    EXPECT_EQ(read.at("cacheScope"), "private");
    EXPECT_EQ(read.at("ttlMs"), 0);

    auto echo = call("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "hi"}}}}))
                    .at("result")
                    .as_object();
    EXPECT_EQ(echo.at("resultType"), "complete");
    EXPECT_EQ(echo.at("content").at(0).at("text"), "hi");
    EXPECT_FALSE(echo.contains("ttlMs"));
}

TEST_F(stateless_fixture, resource_not_found_is_invalid_params) {
    auto r = call("resources/read", with_meta({{"uri", "test://missing"}}));
    EXPECT_EQ(r.at("error").at("code"), -32602);
    EXPECT_EQ(r.at("error").at("data").at("uri"), "test://missing");
}

TEST_F(stateless_fixture, removed_methods_are_not_found) {
    for (const char* m :
         {"logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"}) {
        auto r = call(m, with_meta({{"level", "info"}, {"uri", "test://a"}}));
        EXPECT_EQ(r.at("error").at("code"), -32601) << m;
    }
}

TEST_F(stateless_fixture, logs_only_with_a_log_level) {
    auto quiet = call("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "a"}}}}));
    ASSERT_TRUE(quiet.contains("result"));
    EXPECT_FALSE(client->next_message("notifications/message", 200ms).has_value());

    auto loud =
        call("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "b"}}}}, meta({}, "info")));
    ASSERT_TRUE(loud.contains("result"));
    auto log = client->next_message("notifications/message");
    ASSERT_TRUE(log.has_value());
    EXPECT_EQ(log->at("params").at("data"), "echoing");

    auto filtered =
        call("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "c"}}}}, meta({}, "error")));
    ASSERT_TRUE(filtered.contains("result"));
    EXPECT_FALSE(client->next_message("notifications/message", 200ms).has_value());
}

TEST_F(stateless_fixture, elicitation_takes_two_rounds) {
    const object caps{{"elicitation", object{}}};
    auto first = call("tools/call", with_meta({{"name", "greet"}, {"arguments", object{}}}, meta(caps)));
    const auto& r1 = first.at("result").as_object();
    EXPECT_EQ(r1.at("resultType"), "input_required");
    const auto& req = r1.at("inputRequests").at("user_name").as_object();
    EXPECT_EQ(req.at("method"), "elicitation/create");
    EXPECT_EQ(req.at("params").at("message"), "What is your name?");
    ASSERT_TRUE(r1.at("requestState").is_string());

    object retry{
        {"name", "greet"},
        {"arguments", object{}},
        {"inputResponses", {{"user_name", {{"action", "accept"}, {"content", {{"name", "Alice"}}}}}}},
        {"requestState", r1.at("requestState")}};
    auto second = call("tools/call", with_meta(retry, meta(caps)));
    EXPECT_EQ(second.at("result").at("resultType"), "complete");
    EXPECT_EQ(second.at("result").at("content").at(0).at("text"), "Hello, Alice!");

    // Without the state it works too: the answer is all the handler needs.
    retry.erase("requestState");
    EXPECT_EQ(call("tools/call", with_meta(retry, meta(caps))).at("result").at("content").at(0).at("text"),
              "Hello, Alice!");

    // Answers under the wrong key: asked again, not an error.
    object wrong = retry;
    wrong["inputResponses"] =
        object{{"someone_else", {{"action", "accept"}, {"content", {{"name", "Eve"}}}}}};
    EXPECT_EQ(call("tools/call", with_meta(wrong, meta(caps))).at("result").at("resultType"),
              "input_required");

    // Extra keys are ignored.
    object extra = retry;
    extra["inputResponses"].as_object()["unrelated"] = object{{"x", 1}};
    EXPECT_EQ(call("tools/call", with_meta(extra, meta(caps))).at("result").at("resultType"), "complete");

    // An answer of the wrong shape, or inputResponses that are not results, is invalid params.
    object bad = retry;
    bad["inputResponses"] = object{{"user_name", {{"action", "maybe"}}}};
    EXPECT_EQ(call("tools/call", with_meta(bad, meta(caps))).at("error").at("code"), -32602);
    bad["inputResponses"] = "nope";
    EXPECT_EQ(call("tools/call", with_meta(bad, meta(caps))).at("error").at("code"), -32602);
    bad["inputResponses"] = object{{"user_name", 42}};
    EXPECT_EQ(call("tools/call", with_meta(bad, meta(caps))).at("error").at("code"), -32602);
}

TEST_F(stateless_fixture, tampered_or_misused_request_state_is_rejected) {
    const object caps{{"elicitation", object{}}};
    auto first = call("tools/call", with_meta({{"name", "two_steps"}, {"arguments", object{}}}, meta(caps)));
    std::string state(first.at("result").at("requestState").as_string());
    std::string tampered = state;
    tampered[tampered.size() / 3] = tampered[tampered.size() / 3] == 'A' ? 'B' : 'A';
    object answer{{"step1", {{"action", "accept"}, {"content", {{"name", "Ann"}}}}}};
    auto r = call("tools/call", with_meta({{"name", "two_steps"},
                                           {"arguments", object{}},
                                           {"inputResponses", answer},
                                           {"requestState", tampered}},
                                          meta(caps)));
    EXPECT_EQ(r.at("error").at("code"), -32602);
    // The same state presented on another request (other arguments) is refused too.
    auto other = call("tools/call", with_meta({{"name", "two_steps"},
                                               {"arguments", {{"x", 1}}},
                                               {"inputResponses", answer},
                                               {"requestState", state}},
                                              meta(caps)));
    EXPECT_EQ(other.at("error").at("code"), -32602);
    EXPECT_EQ(call("tools/call", with_meta({{"name", "two_steps"}, {"requestState", 7}}, meta(caps)))
                  .at("error")
                  .at("code"),
              -32602);
}

TEST_F(stateless_fixture, multi_round_state_evolves) {
    const object caps{{"elicitation", object{}}};
    auto r1 = call("tools/call", with_meta({{"name", "two_steps"}, {"arguments", object{}}}, meta(caps)))
                  .at("result")
                  .as_object();
    ASSERT_TRUE(r1.at("inputRequests").as_object().contains("step1"));
    auto r2 =
        call("tools/call", with_meta({{"name", "two_steps"},
                                      {"arguments", object{}},
                                      {"inputResponses",
                                       {{"step1", {{"action", "accept"}, {"content", {{"name", "Ann"}}}}}}},
                                      {"requestState", r1.at("requestState")}},
                                     meta(caps)))
            .at("result")
            .as_object();
    EXPECT_EQ(r2.at("resultType"), "input_required");
    ASSERT_TRUE(r2.at("inputRequests").as_object().contains("step2"));
    EXPECT_FALSE(r2.at("inputRequests").as_object().contains("step1"));
    EXPECT_NE(r2.at("requestState"), r1.at("requestState"));
    auto r3 =
        call("tools/call", with_meta({{"name", "two_steps"},
                                      {"arguments", object{}},
                                      {"inputResponses",
                                       {{"step2", {{"action", "accept"}, {"content", {{"name", "blue"}}}}}}},
                                      {"requestState", r2.at("requestState")}},
                                     meta(caps)))
            .at("result")
            .as_object();
    EXPECT_EQ(r3.at("resultType"), "complete");
    EXPECT_EQ(r3.at("content").at(0).at("text"), "Ann/blue state-ok");
}

TEST_F(stateless_fixture, several_inputs_in_one_round) {
    const object caps{{"elicitation", object{}}, {"sampling", object{}}, {"roots", object{}}};
    auto r1 = call("tools/call", with_meta({{"name", "everything"}, {"arguments", object{}}}, meta(caps)))
                  .at("result")
                  .as_object();
    const auto& reqs = r1.at("inputRequests").as_object();
    ASSERT_EQ(reqs.size(), 3u);
    EXPECT_EQ(reqs.at("user_name").at("method"), "elicitation/create");
    EXPECT_EQ(reqs.at("greeting").at("method"), "sampling/createMessage");
    EXPECT_EQ(reqs.at("client_roots").at("method"), "roots/list");
    object answers{{"user_name", {{"action", "accept"}, {"content", {{"name", "Al"}}}}},
                   {"greeting",
                    {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "Hi"}}}, {"model", "m"}}},
                   {"client_roots", {{"roots", {{{"uri", "file:///a"}}, {{"uri", "file:///b"}}}}}}};
    auto r2 = call("tools/call", with_meta({{"name", "everything"},
                                            {"arguments", object{}},
                                            {"inputResponses", answers},
                                            {"requestState", r1.at("requestState")}},
                                           meta(caps)));
    EXPECT_EQ(r2.at("result").at("content").at(0).at("text"), "roots: 2");
}

TEST_F(stateless_fixture, missing_capability_is_32021) {
    auto r = call("tools/call", with_meta({{"name", "everything"}, {"arguments", object{}}},
                                          meta({{"elicitation", object{}}})));
    ASSERT_TRUE(r.contains("error")) << mcp::to_json(r);
    EXPECT_EQ(r.at("error").at("code"), -32021);
    const auto& needed = r.at("error").at("data").at("requiredCapabilities").as_object();
    EXPECT_TRUE(needed.at("sampling").is_object());
    EXPECT_TRUE(needed.at("roots").is_object());
    EXPECT_FALSE(needed.contains("elicitation"));
}

TEST_F(stateless_fixture, prompts_can_ask_too) {
    const object caps{{"elicitation", object{}}};
    auto r1 = call("prompts/get", with_meta({{"name", "review"}}, meta(caps))).at("result").as_object();
    EXPECT_EQ(r1.at("resultType"), "input_required");
    auto r2 = call("prompts/get",
                   with_meta({{"name", "review"},
                              {"inputResponses",
                               {{"user_context", {{"action", "accept"}, {"content", {{"name", "x"}}}}}}},
                              {"requestState", r1.at("requestState")}},
                             meta(caps)));
    EXPECT_EQ(r2.at("result").at("messages").at(0).at("content").at("text"), "review x");
}

TEST_F(stateless_fixture, listen_acknowledges_then_delivers_what_was_asked) {
    client->send(mcp::to_json(object{{"jsonrpc", "2.0"},
                                     {"id", "listen-1"},
                                     {"method", "subscriptions/listen"},
                                     {"params", with_meta({{"notifications",
                                                            {{"toolsListChanged", true},
                                                             {"promptsListChanged", false},
                                                             {"resourceSubscriptions", {"test://a"}}}}})}}));
    auto ack = client->next_message("notifications/subscriptions/acknowledged");
    ASSERT_TRUE(ack.has_value());
    const auto& granted = ack->at("params").at("notifications").as_object();
    EXPECT_EQ(granted.at("toolsListChanged"), true);
    EXPECT_FALSE(granted.contains("promptsListChanged"));
    EXPECT_EQ(granted.at("resourceSubscriptions").at(0), "test://a");
    EXPECT_EQ(ack->at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), "listen-1");
    for (int i = 0; i < 100 && srv->listeners() == 0; ++i) std::this_thread::sleep_for(10ms);
    EXPECT_EQ(srv->listeners(), 1u);

    srv->add_prompt({.name = "another"}, [](const std::map<std::string, std::string>&, mcp::context&) {
        return mcp::get_prompt_result{};
    });
    srv->add_tool({.name = "new_tool", .input_schema = obj_schema()},
                  [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    auto changed = client->next_message("notifications/tools/list_changed");
    ASSERT_TRUE(changed.has_value());
    EXPECT_EQ(changed->at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), "listen-1");
    EXPECT_FALSE(client->next_message("notifications/prompts/list_changed", 200ms).has_value());

    srv->notify_resource_updated("test://a");
    auto updated = client->next_message("notifications/resources/updated");
    ASSERT_TRUE(updated.has_value());
    EXPECT_EQ(updated->at("params").at("uri"), "test://a");

    // Cancelling ends the subscription without a response.
    client->notify("notifications/cancelled", object{{"requestId", "listen-1"}});
    for (int i = 0; i < 100 && srv->listeners() != 0; ++i) std::this_thread::sleep_for(10ms);
    EXPECT_EQ(srv->listeners(), 0u);
    srv->add_tool({.name = "after", .input_schema = obj_schema()},
                  [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_FALSE(client->next_message("notifications/tools/list_changed", 200ms).has_value());
}

TEST_F(stateless_fixture, subscriptions_only_to_what_the_server_accepts) {
    peer->close();
    srv = std::make_unique<mcp::server>(mcp::server_options{
        .info = {"picky", "1.0"}, .accept_subscription = [](const std::string& uri) {
            if (uri == "test://secret")
                throw mcp::error(mcp::error_code::invalid_params, "test://secret is private");
            return uri != "test://gone";
        }});
    add_features(*srv);
    wire = std::make_shared<mcp::test::scripted_transport>();
    peer = srv->connect(wire);
    client = std::make_unique<mcp::test::wire_peer>(wire);
    client->observer = [&](int side, std::string_view text) { rec.record(side, text); };

    // Listen acknowledges only the URIs accepted; the refused ones are left out, not an error.
    client->send(mcp::to_json(
        object{{"jsonrpc", "2.0"},
               {"id", "l"},
               {"method", "subscriptions/listen"},
               {"params",
                with_meta({{"notifications",
                            {{"resourceSubscriptions", {"test://a", "test://gone", "test://secret"}}}}})}}));
    auto ack = client->next_message("notifications/subscriptions/acknowledged");
    ASSERT_TRUE(ack.has_value());
    EXPECT_EQ(ack->at("params").at("notifications").at("resourceSubscriptions"),
              (mcp::json::array{"test://a"}));
    client->notify("notifications/cancelled", object{{"requestId", "l"}});

    // resources/subscribe (initialize era): not found, or the check's own error.
    client->observer = nullptr;
    client->initialize();
    auto gone = client->request("resources/subscribe", object{{"uri", "test://gone"}});
    EXPECT_EQ(gone.at("error").at("code"), -32002) << mcp::to_json(gone);
    EXPECT_EQ(gone.at("error").at("data").at("uri"), "test://gone");
    auto secret = client->request("resources/subscribe", object{{"uri", "test://secret"}});
    EXPECT_EQ(secret.at("error").at("code"), -32602);
    EXPECT_EQ(secret.at("error").at("message"), "test://secret is private");
    EXPECT_EQ(client->result("resources/subscribe", object{{"uri", "test://a"}}), object{});
}

TEST_F(stateless_fixture, shutdown_ends_listen_streams_with_a_result) {
    client->send(
        mcp::to_json(object{{"jsonrpc", "2.0"},
                            {"id", 77},
                            {"method", "subscriptions/listen"},
                            {"params", with_meta({{"notifications", {{"toolsListChanged", true}}}})}}));
    ASSERT_TRUE(client->next_message("notifications/subscriptions/acknowledged").has_value());
    for (int i = 0; i < 100 && srv->listeners() == 0; ++i) std::this_thread::sleep_for(10ms);
    std::thread stopper([&] {
        std::this_thread::sleep_for(50ms);
        srv->shutdown();
    });
    auto end = client->wait_response(77);
    stopper.join();
    peer.reset();
    ASSERT_TRUE(end.contains("result")) << mcp::to_json(end);
    EXPECT_EQ(end.at("result").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 77);
}

TEST_F(stateless_fixture, initialize_era_still_works_on_the_same_server) {
    client->observer = nullptr; // another revision: not checked against the 2026-07-28 schema
    auto init = client->initialize();
    EXPECT_EQ(init.at("protocolVersion"), "2025-11-25");
    auto tools = client->result("tools/list");
    EXPECT_FALSE(tools.contains("resultType"));
    EXPECT_FALSE(tools.contains("ttlMs"));
    // Stateless-only methods are not part of that era.
    EXPECT_EQ(client->request("server/discover", with_meta({})).at("error").at("code"), -32601);
}

// ------------------------------------------------------------------ without a session

struct collecting_stream : mcp::request_stream {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> notes;
    std::string response;
    std::optional<int> code;
    bool done = false;
    void notify(std::string m) override {
        std::lock_guard l(mu);
        notes.push_back(std::move(m));
        cv.notify_all();
    }
    void respond(std::string m, const mcp::error* e) override {
        std::lock_guard l(mu);
        response = std::move(m);
        if (e) code = e->code();
        done = true;
        cv.notify_all();
    }
    bool wait(std::chrono::milliseconds t = 5s) {
        std::unique_lock l(mu);
        return cv.wait_for(l, t, [&] { return done; });
    }
    object parsed() { return mcp::json::parse(response).as_object(); }
};

mcp::jsonrpc::request make_request(std::int64_t id, std::string method, object params) {
    return {id, std::move(method), std::move(params)};
}

TEST(server_handle_request, serves_a_stateless_request_with_progress_on_its_stream) {
    mcp::server s({.info = {"sessionless", "1"}});
    add_features(s);
    auto st = std::make_shared<collecting_stream>();
    object m = meta({}, "debug");
    m["progressToken"] = "p1";
    server_access::handle_request(
        s, make_request(5, "tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "x"}}}}, m)),
        st);
    ASSERT_TRUE(st->wait());
    EXPECT_FALSE(st->code.has_value());
    EXPECT_EQ(st->parsed().at("id"), 5);
    EXPECT_EQ(st->parsed().at("result").at("content").at(0).at("text"), "x");
    ASSERT_EQ(st->notes.size(), 2u); // the log message and the progress, before the response
    EXPECT_NE(st->notes[0].find("notifications/message"), std::string::npos);
    EXPECT_NE(st->notes[1].find("notifications/progress"), std::string::npos);
    mcp::test::wire_schema schema(mcp::revision::v2026_07_28);
    for (const auto& n : st->notes)
        for (const auto& p : schema.check(mcp::json::parse(n), std::nullopt)) ADD_FAILURE() << p;
    for (const auto& p : schema.check(mcp::json::parse(st->response), "tools/call")) ADD_FAILURE() << p;
}

TEST(server_handle_request, reports_error_codes_to_the_transport) {
    mcp::server s;
    add_features(s);
    auto no_meta = std::make_shared<collecting_stream>();
    server_access::handle_request(s, make_request(1, "server/discover", {}), no_meta);
    ASSERT_TRUE(no_meta->wait());
    EXPECT_EQ(no_meta->code, -32602);
    EXPECT_EQ(no_meta->parsed().at("id"), 1); // errors keep the request's id

    auto removed = std::make_shared<collecting_stream>();
    server_access::handle_request(s, make_request(2, "ping", with_meta({})), removed);
    ASSERT_TRUE(removed->wait());
    EXPECT_EQ(removed->code, -32601);
}

TEST(server_handle_request, serves_initialize_era_clients_without_a_session) {
    mcp::server s;
    add_features(s);
    auto init = std::make_shared<collecting_stream>();
    server_access::handle_request(s,
                                  make_request(1, "initialize",
                                               {{"protocolVersion", "2025-06-18"},
                                                {"capabilities", object{}},
                                                {"clientInfo", {{"name", "old"}, {"version", "1"}}}}),
                                  init, {}, nullptr, mcp::revision::v2025_06_18);
    ASSERT_TRUE(init->wait());
    EXPECT_EQ(init->parsed().at("result").at("protocolVersion"), "2025-06-18");
    EXPECT_EQ(init->parsed().at("result").at("capabilities").at("resources").at("subscribe"), false);

    auto call = std::make_shared<collecting_stream>();
    server_access::handle_request(
        s, make_request(2, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "old"}}}}), call, {},
        nullptr, mcp::revision::v2025_06_18);
    ASSERT_TRUE(call->wait());
    EXPECT_EQ(call->parsed().at("result").at("content").at(0).at("text"), "old");
    EXPECT_FALSE(call->parsed().at("result").as_object().contains("resultType"));

    auto greet = std::make_shared<collecting_stream>(); // no session: no way to ask the client
    server_access::handle_request(s, make_request(3, "tools/call", {{"name", "greet"}}), greet, {}, nullptr,
                                  mcp::revision::v2025_06_18);
    ASSERT_TRUE(greet->wait());
    EXPECT_EQ(greet->parsed().at("result").at("isError"), true);
}

TEST(server_handle_request, cancelling_a_listen_stream_removes_it) {
    mcp::server s;
    add_features(s);
    auto st = std::make_shared<collecting_stream>();
    mcp::cancellation_source closed;
    server_access::handle_request(
        s,
        make_request(9, "subscriptions/listen", with_meta({{"notifications", {{"toolsListChanged", true}}}})),
        st, closed.token());
    for (int i = 0; i < 200 && s.listeners() == 0; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(s.listeners(), 1u);
    {
        std::lock_guard l(st->mu);
        ASSERT_EQ(st->notes.size(), 1u);
        EXPECT_NE(st->notes[0].find("notifications/subscriptions/acknowledged"), std::string::npos);
    }
    s.remove_tool("echo");
    for (int i = 0; i < 200; ++i) {
        {
            std::lock_guard l(st->mu);
            if (st->notes.size() == 2) break;
        }
        std::this_thread::sleep_for(10ms);
    }
    {
        std::lock_guard l(st->mu);
        ASSERT_EQ(st->notes.size(), 2u);
        EXPECT_NE(st->notes[1].find("notifications/tools/list_changed"), std::string::npos);
    }
    closed.cancel("client closed the stream");
    EXPECT_EQ(s.listeners(), 0u);
}

} // namespace
