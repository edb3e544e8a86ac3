// Receiving and sending middleware of mcp::server in both eras, and the middleware mcpxx ships:
// principal checks, rate limits, metrics (Prometheus text), per-principal tool filtering.
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

object meta() {
    return object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                  {"io.modelcontextprotocol/clientCapabilities", object{}}};
}

struct middleware_fixture : ::testing::Test {
    mcp::server srv{mcp::server_options{.info = {"mw", "1"}}};
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::unique_ptr<mcp::test::wire_peer> client;
    std::shared_ptr<mcp::server_session> peer;

    void SetUp() override {
        for (const char* name : {"public_tool", "secret_tool"})
            srv.add_tool({.name = name, .input_schema = object{{"type", "object"}}},
                         [](const object&, mcp::context& ctx) {
                             ctx.log(mcp::logging_level::info, "running");
                             return mcp::call_tool_result{.content = {mcp::text("ran")}};
                         });
    }
    void connect() {
        peer = srv.connect(wire);
        client = std::make_unique<mcp::test::wire_peer>(wire);
    }
    void TearDown() override {
        if (peer) peer->close();
    }
};

TEST_F(middleware_fixture, receiving_middleware_wrap_every_request_in_order) {
    std::vector<std::string> seen;
    std::mutex mu;
    srv.use([&](mcp::incoming_call& call, const mcp::receive_next& next) {
        {
            std::lock_guard l(mu);
            seen.push_back("outer:" + std::string(call.method()) + (call.stateless() ? ":stateless" : ""));
        }
        return next(call);
    });
    srv.use([&](mcp::incoming_call& call, const mcp::receive_next& next) {
        {
            std::lock_guard l(mu);
            seen.push_back("inner:" + std::string(call.method()));
        }
        auto r = next(call);
        if (call.method() == "tools/call") r.as_object()["_meta"] = object{{"seen-by", "middleware"}};
        return r;
    });
    connect();
    client->initialize();
    auto r = client->result("tools/call", object{{"name", "public_tool"}});
    EXPECT_EQ(r.at("_meta").at("seen-by"), "middleware");
    auto stateless = client->request("tools/list", object{{"_meta", meta()}});
    ASSERT_TRUE(stateless.contains("result"));
    // ping too: a rate limit or an auth check must see it like any other request.
    EXPECT_EQ(client->result("ping"), object{});
    std::lock_guard l(mu);
    EXPECT_EQ(seen, (std::vector<std::string>{"outer:initialize", "inner:initialize", "outer:tools/call",
                                              "inner:tools/call", "outer:tools/list", "inner:tools/list",
                                              "outer:ping", "inner:ping"}));
}

TEST_F(middleware_fixture, a_middleware_can_refuse) {
    srv.use(mcp::middleware::require_principal({"initialize"}));
    connect();
    client->initialize();
    auto r = client->request("tools/list");
    EXPECT_EQ(r.at("error").at("code"), mcp::error_code::unauthorized);
    EXPECT_EQ(client->request("ping").at("error").at("code"), mcp::error_code::unauthorized);
}

TEST_F(middleware_fixture, tools_are_filtered_per_principal) {
    srv.use(mcp::middleware::filter_tools([](const std::string& principal, const std::string& tool) {
        return tool != "secret_tool" || principal == "admin";
    }));
    connect();
    client->initialize();
    auto list = client->result("tools/list");
    ASSERT_EQ(list.at("tools").as_array().size(), 1u);
    EXPECT_EQ(list.at("tools").at(0).at("name"), "public_tool");
    auto denied = client->request("tools/call", object{{"name", "secret_tool"}});
    EXPECT_EQ(denied.at("error").at("code"), -32602);
    EXPECT_NE(std::string(denied.at("error").at("message").as_string()).find("Unknown tool"),
              std::string::npos);
}

TEST_F(middleware_fixture, the_catalogue_filter_hides_prompts_resources_and_templates_as_unknown) {
    const auto reader = [](const std::string& uri, mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = uri, .text = "x"}}};
    };
    const auto treader = [](const std::string& uri, const std::map<std::string, std::string>&,
                            mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = uri, .text = "t"}}};
    };
    for (const char* name : {"public_prompt", "secret_prompt"})
        srv.add_prompt({.name = name}, [](const std::map<std::string, std::string>&, mcp::context&) {
            return mcp::get_prompt_result{
                .messages = {{.role = mcp::role::user, .content = mcp::text("hi")}}};
        });
    for (const char* uri : {"res://public", "res://secret"})
        srv.add_resource({.uri = uri, .name = uri}, reader);
    srv.add_resource_template({.uri_template = "pub://{x}", .name = "pub"}, treader);
    srv.add_resource_template({.uri_template = "secret://{x}", .name = "secret"}, treader);
    const auto not_secret = [](const std::string&, const std::string& name) {
        return name.find("secret") == std::string::npos;
    };
    srv.use(mcp::middleware::filter_catalogue(
        {.tool = not_secret, .prompt = not_secret, .resource = not_secret, .resource_template = not_secret}));
    connect();
    client->initialize();
    EXPECT_EQ(client->result("tools/list").at("tools").as_array().size(), 1u);
    auto prompts = client->result("prompts/list").at("prompts").as_array();
    ASSERT_EQ(prompts.size(), 1u);
    EXPECT_EQ(prompts[0].at("name"), "public_prompt");
    auto resources = client->result("resources/list").at("resources").as_array();
    ASSERT_EQ(resources.size(), 1u);
    EXPECT_EQ(resources[0].at("uri"), "res://public");
    auto templates = client->result("resources/templates/list").at("resourceTemplates").as_array();
    ASSERT_EQ(templates.size(), 1u);
    EXPECT_EQ(templates[0].at("uriTemplate"), "pub://{x}");
    // Hidden or unknown: the same answer.
    const auto same = [&](const char* method, object hidden, object unknown) {
        auto a = client->request(method, hidden), b = client->request(method, unknown);
        ASSERT_TRUE(a.contains("error") && b.contains("error")) << method;
        EXPECT_EQ(a.at("error").at("code"), b.at("error").at("code")) << method;
        std::string ma(a.at("error").at("message").as_string()), mb(b.at("error").at("message").as_string());
        EXPECT_EQ(ma.substr(0, ma.find(':')), mb.substr(0, mb.find(':'))) << ma << " / " << mb;
    };
    same("prompts/get", object{{"name", "secret_prompt"}}, object{{"name", "nope"}});
    same("resources/read", object{{"uri", "res://secret"}}, object{{"uri", "res://nope"}});
    same("resources/read", object{{"uri", "secret://a"}}, object{{"uri", "nope://a"}});
    same("completion/complete",
         object{{"ref", object{{"type", "ref/prompt"}, {"name", "secret_prompt"}}},
                {"argument", object{{"name", "a"}, {"value", ""}}}},
         object{{"ref", object{{"type", "ref/prompt"}, {"name", "nope"}}},
                {"argument", object{{"name", "a"}, {"value", ""}}}});
    same("completion/complete",
         object{{"ref", object{{"type", "ref/resource"}, {"uri", "secret://{x}"}}},
                {"argument", object{{"name", "x"}, {"value", ""}}}},
         object{{"ref", object{{"type", "ref/resource"}, {"uri", "nope://{x}"}}},
                {"argument", object{{"name", "x"}, {"value", ""}}}});
    EXPECT_EQ(client->result("resources/read", object{{"uri", "pub://a"}}).at("contents").at(0).at("text"),
              "t");
    auto sub = client->request("resources/subscribe", object{{"uri", "res://secret"}});
    ASSERT_TRUE(sub.contains("error"));
    EXPECT_EQ(sub.at("error").at("code"), mcp::error_code::resource_not_found);
}

TEST_F(middleware_fixture, rate_limits_answer_with_a_retry_time) {
    auto limiter = std::make_shared<mcp::rate_limiter>(1.0, 2.0);
    srv.use(mcp::middleware::rate_limit(limiter));
    connect();
    EXPECT_TRUE(client->request("tools/list", object{{"_meta", meta()}}).contains("result"));
    EXPECT_TRUE(client->request("tools/list", object{{"_meta", meta()}}).contains("result"));
    auto third = client->request("tools/list", object{{"_meta", meta()}});
    ASSERT_TRUE(third.contains("error"));
    EXPECT_EQ(third.at("error").at("code"), mcp::error_code::rate_limited);
    EXPECT_GT(third.at("error").at("data").at("retryAfterMs").as_int64(), 0);
}

TEST(rate_limiter, refills_over_time) {
    mcp::rate_limiter l(100.0, 1.0);
    EXPECT_FALSE(l.acquire("a"));
    auto wait = l.acquire("a");
    ASSERT_TRUE(wait);
    EXPECT_LE(wait->count(), 10);
    EXPECT_FALSE(l.acquire("b")); // keys are independent
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(l.acquire("a"));
    EXPECT_EQ(l.keys(), 2u);
}

TEST_F(middleware_fixture, metrics_count_calls_errors_and_latency) {
    mcp::server_metrics metrics;
    srv.use(metrics.middleware());
    connect();
    client->initialize();
    client->result("tools/call", object{{"name", "public_tool"}});
    client->result("tools/call", object{{"name", "public_tool"}});
    client->request("tools/call", object{{"name", "no_such_tool"}});
    const auto text = metrics.prometheus("gw");
    EXPECT_NE(text.find("# TYPE gw_requests_total counter"), std::string::npos);
    EXPECT_NE(text.find("gw_requests_total{method=\"tools/call\",tool=\"public_tool\"} 2"), std::string::npos)
        << text;
    EXPECT_NE(text.find("gw_errors_total{method=\"tools/call\",tool=\"no_such_tool\"} 1"), std::string::npos)
        << text;
    EXPECT_NE(
        text.find(
            "gw_request_duration_seconds_bucket{method=\"tools/call\",tool=\"public_tool\",le=\"+Inf\"} 2"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("gw_request_duration_seconds_count{method=\"initialize\"} 1"), std::string::npos)
        << text;
}

TEST_F(middleware_fixture, metrics_label_only_tools_that_exist_with_the_registry_labeler) {
    mcp::server_metrics metrics;
    srv.use(metrics.middleware(mcp::registered_tool_labels(srv)));
    connect();
    client->initialize();
    client->result("tools/call", object{{"name", "public_tool"}});
    for (int i = 0; i < 50; ++i)
        client->request("tools/call", object{{"name", std::string(500, 'x') + std::to_string(i)}});
    const auto text = metrics.prometheus("gw");
    EXPECT_NE(text.find("gw_requests_total{method=\"tools/call\",tool=\"public_tool\"} 1"), std::string::npos)
        << text;
    EXPECT_NE(text.find("gw_errors_total{method=\"tools/call\",tool=\"(unknown)\"} 50"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("xxxx"), std::string::npos) << "a made-up name became a label";
}

TEST_F(middleware_fixture, metrics_bound_the_label_values_clients_can_create) {
    // The default labeler knows no registry: at most max_label_values names, each cut short.
    mcp::server_metrics metrics({.max_label_values = 10});
    srv.use(metrics.middleware());
    connect();
    client->initialize();
    for (int i = 0; i < 300; ++i)
        client->request("tools/call", object{{"name", std::to_string(i) + std::string(2000, 'y')}});
    const auto text = metrics.prometheus("gw");
    EXPECT_LT(text.size(), 60000u) << "the exposition grows with the names clients send";
    EXPECT_NE(text.find("gw_errors_total{method=\"tools/call\",tool=\"(other)\"} 290"), std::string::npos)
        << text.substr(0, 2000);
    EXPECT_EQ(text.find(std::string(200, 'y')), std::string::npos) << "a label value is not cut";
}

TEST_F(middleware_fixture, metrics_count_refused_requests_apart_from_handled_ones) {
    // Outermost metrics, then a rate limit: what the limit refuses never reached the tool.
    mcp::server_metrics metrics;
    srv.use(metrics.middleware());
    srv.use(mcp::middleware::rate_limit(std::make_shared<mcp::rate_limiter>(0.001, 2.0)));
    connect();
    client->initialize();                                          // one token
    client->result("tools/call", object{{"name", "public_tool"}}); // the other
    auto refused = client->request("tools/call", object{{"name", "public_tool"}});
    ASSERT_EQ(refused.at("error").at("code"), mcp::error_code::rate_limited);
    const auto text = metrics.prometheus("gw");
    EXPECT_NE(text.find("gw_requests_total{method=\"tools/call\",tool=\"public_tool\"} 1"), std::string::npos)
        << text;
    EXPECT_NE(text.find("gw_errors_total{method=\"tools/call\",tool=\"public_tool\"} 0"), std::string::npos)
        << text;
    EXPECT_NE(text.find("# TYPE gw_refused_total counter"), std::string::npos) << text;
    EXPECT_NE(text.find("gw_refused_total{method=\"tools/call\",reason=\"rate_limited\"} 1"),
              std::string::npos)
        << text;
}

TEST_F(middleware_fixture, sending_middleware_see_and_may_drop_notifications) {
    std::atomic<int> logs{0};
    srv.use_sending([&](mcp::outgoing_call& call, const mcp::send_next& next) -> mcp::json::value {
        if (call.method == "notifications/message") {
            ++logs;
            return nullptr; // dropped
        }
        return next(call);
    });
    connect();
    client->initialize();
    client->result("tools/call", object{{"name", "public_tool"}});
    EXPECT_EQ(logs.load(), 1);
    EXPECT_FALSE(client->next_message("notifications/message", 200ms).has_value());
    srv.add_tool({.name = "third", .input_schema = object{{"type", "object"}}},
                 [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(client->next_message("notifications/tools/list_changed").has_value()); // passed through
}

TEST_F(middleware_fixture, notification_middleware_see_every_incoming_notification_and_may_drop_it) {
    std::vector<std::string> seen;
    std::mutex mu;
    srv.use_notifications([&](mcp::incoming_notification& n, const mcp::notification_next& next) {
        {
            std::lock_guard l(mu);
            seen.emplace_back(n.method());
        }
        if (n.method() == "notifications/cancelled") return; // dropped: the call runs on
        next(n);
    });
    std::atomic<int> roots_changed{0};
    srv.on_roots_list_changed([&](mcp::server_session&) { ++roots_changed; });
    srv.add_tool(
        {.name = "slow", .input_schema = object{{"type", "object"}}}, [](const object&, mcp::context& ctx) {
            const auto until = std::chrono::steady_clock::now() + 300ms;
            while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(5ms);
            return mcp::call_tool_result{.content = {mcp::text(ctx.cancelled() ? "cancelled" : "finished")}};
        });
    connect();
    client->initialize(mcp::latest_initialize_revision, object{{"roots", object{{"listChanged", true}}}});
    client->notify("notifications/roots/list_changed");
    client->notify("notifications/dev.example/unknown", object{{"x", 1}}); // no handler: still seen
    client->send(
        R"({"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"slow","arguments":{}}})");
    client->notify("notifications/cancelled", object{{"requestId", 77}, {"reason", "user"}});
    auto r = client->wait_response(77);
    ASSERT_TRUE(r.contains("result")) << mcp::to_json(r);
    EXPECT_EQ(r.at("result").at("content").at(0).at("text"), "finished");
    EXPECT_EQ(roots_changed.load(), 1);
    std::lock_guard l(mu);
    EXPECT_EQ(seen,
              (std::vector<std::string>{"notifications/initialized", "notifications/roots/list_changed",
                                        "notifications/dev.example/unknown", "notifications/cancelled"}));
}

TEST_F(middleware_fixture, notification_middleware_may_rewrite_params) {
    srv.use_notifications([&](mcp::incoming_notification& n, const mcp::notification_next& next) {
        if (n.method() != "notifications/cancelled") return next(n);
        n.params()["requestId"] = 78; // redirect
        next(n);
        EXPECT_EQ(n.method(), "notifications/cancelled"); // still readable after delivery
        EXPECT_EQ(n.params().at("requestId"), 78);
    });
    std::atomic<int> outcome{0}; // 1 cancelled, 2 ran to the end
    srv.add_tool({.name = "wait", .input_schema = object{{"type", "object"}}},
                 [&](const object&, mcp::context& ctx) {
                     const auto until = std::chrono::steady_clock::now() + 3s;
                     while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
                         std::this_thread::sleep_for(5ms);
                     outcome = ctx.cancelled() ? 1 : 2;
                     return mcp::call_tool_result{};
                 });
    connect();
    client->initialize();
    client->send(
        R"({"jsonrpc":"2.0","id":78,"method":"tools/call","params":{"name":"wait","arguments":{}}})");
    client->notify("notifications/cancelled", object{{"requestId", 1234}}); // names no such request
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (outcome == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(outcome.load(), 1); // the rewritten requestId reached the engine
}

} // namespace
