// The library pieces a gateway is built from, on the wire: what an mcpxx server tells an
// intermediary (forwarding_meta: ask keys, all inputs of one ask, the correlation id on requests
// and log messages, the end client's capabilities), batched list_changed (server::update),
// rate limits of their own per key, metric labels per server, static bearer tokens.
#include <mcp/http/bearer.hpp>
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using mcp::json::object;
namespace fm = mcp::forwarding_meta;

namespace {

struct forwarding_server : ::testing::Test {
    mcp::server srv{mcp::server_options{.info = {"fwd", "1"}}};
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::unique_ptr<mcp::test::wire_peer> client;
    std::shared_ptr<mcp::server_session> peer;

    void connect(object caps) {
        peer = srv.connect(wire);
        client = std::make_unique<mcp::test::wire_peer>(wire);
        client->initialize(mcp::latest_initialize_revision, std::move(caps));
    }
    void TearDown() override {
        if (peer) peer->close();
    }
    /// Answer the server's next request of `method` with `result`; returns that request.
    object answer(const char* method, object result) {
        auto req = client->next_message(method);
        EXPECT_TRUE(req) << "no " << method;
        if (!req) return {};
        client->send(mcp::to_json(
            mcp::json::value(object{{"jsonrpc", "2.0"}, {"id", req->at("id")}, {"result", result}})));
        return *req;
    }
};

const object form{{"type", "object"}, {"properties", object{{"name", object{{"type", "string"}}}}}};

TEST_F(forwarding_server, AsksCarryTheirKeyTheWholeAskAndTheCallersCorrelationId) {
    srv.add_tool({.name = "ask", .input_schema = object{{"type", "object"}}}, [](const object&,
                                                                                 mcp::context& ctx) {
        ctx.log(mcp::logging_level::info, "asking");
        auto a = ctx.ask({{"who", mcp::form_elicitation("Who?", form)}, {"where", mcp::roots_request{}}});
        return mcp::call_tool_result{
            .content = {mcp::text(mcp::to_json(std::get<mcp::elicit_result>(a.at("who")).content.value()))}};
    });
    connect(object{{"elicitation", object{}}, {"roots", object{}}});
    client->send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask","arguments":{},)"
                 R"("_meta":{"dev.mcpxx/correlationId":"c-42"}}})");
    auto log = client->next_message("notifications/message");
    ASSERT_TRUE(log);
    EXPECT_EQ(log->at("params").at("_meta").at(fm::correlation_id), "c-42");
    // One after another (in key order: "where", then "who"), each saying its key and listing both.
    auto r = answer("roots/list", object{{"roots", mcp::json::array{}}});
    EXPECT_EQ(r.at("params").at("_meta").at(fm::input_key), "where");
    auto e = answer("elicitation/create", object{{"action", "accept"}, {"content", object{{"name", "Ada"}}}});
    const auto& em = e.at("params").at("_meta").as_object();
    EXPECT_EQ(em.at(fm::input_key), "who");
    EXPECT_EQ(em.at(fm::correlation_id), "c-42");
    EXPECT_EQ(em.at(fm::input_requests).at("where").at("method"), "roots/list");
    EXPECT_EQ(em.at(fm::input_requests).at("who").at("params").at("message"), "Who?");
    auto result = client->wait_response(7);
    EXPECT_EQ(result.at("result").at("content").at(0).at("text"), R"({"name":"Ada"})");
}

TEST_F(forwarding_server, AnIntermediaryCanSayWhatItsClientCanDo) {
    srv.add_tool({.name = "caps", .input_schema = object{{"type", "object"}}},
                 [](const object&, mcp::context& ctx) {
                     return mcp::call_tool_result{
                         .content = {mcp::text(std::string(ctx.client_caps().sampling ? "S" : "-") +
                                               (ctx.client_caps().elicitation ? "E" : "-") +
                                               (ctx.client_caps().roots ? "R" : "-"))}};
                 });
    connect(object{{"sampling", object{}}, {"elicitation", object{}}}); // the intermediary: no roots
    auto own = client->result("tools/call", object{{"name", "caps"}});
    EXPECT_EQ(own.at("content").at(0).at("text"), "SE-");
    // Its client can elicit and has roots: roots are not what the intermediary can answer.
    auto end = client->result(
        "tools/call", object{{"name", "caps"},
                             {"_meta", object{{fm::client_capabilities,
                                               object{{"elicitation", object{}}, {"roots", object{}}}}}}});
    EXPECT_EQ(end.at("content").at(0).at("text"), "-E-");
}

TEST_F(forwarding_server, UpdateSendsOneListChangedPerKind) {
    srv.add_tool({.name = "first", .input_schema = object{{"type", "object"}}},
                 [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    connect(object{});
    srv.update([&] {
        for (int i = 0; i < 5; ++i)
            srv.add_tool({.name = "t" + std::to_string(i), .input_schema = object{{"type", "object"}}},
                         [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
        srv.remove_tool("first");
        srv.add_prompt({.name = "p"}, [](const std::map<std::string, std::string>&, mcp::context&) {
            return mcp::get_prompt_result{};
        });
    });
    ASSERT_TRUE(client->next_message("notifications/tools/list_changed"));
    EXPECT_FALSE(client->next_message("notifications/tools/list_changed", 200ms)) << "one per kind";
    // (prompts were not declared at initialize: no prompts/list_changed for this peer)
    EXPECT_EQ(client->result("tools/list").at("tools").as_array().size(), 5u);
}

TEST(rate_limiter_limits, AKeyMayHaveALimitOfItsOwn) {
    mcp::rate_limiter rl(0.001, 1); // one request, then a very long wait
    rl.set_limit("vip", 0.001, 3);
    rl.set_limit("free", 0, 0); // unlimited
    EXPECT_FALSE(rl.acquire("someone"));
    EXPECT_TRUE(rl.acquire("someone"));
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(rl.acquire("vip"));
    EXPECT_TRUE(rl.acquire("vip"));
    for (int i = 0; i < 100; ++i) EXPECT_FALSE(rl.acquire("free"));
}

TEST(server_metrics_labels, AServerLabelComesFromTheLabeler) {
    mcp::server_metrics m;
    m.record("tools/call", mcp::metric_labels{"git", "status"}, false, 2ms);
    m.record("tools/call", "plain_tool", true, 1ms);
    const auto text = m.prometheus("mcp");
    EXPECT_NE(text.find("mcp_requests_total{method=\"tools/call\",server=\"git\",tool=\"status\"} 1"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("mcp_errors_total{method=\"tools/call\",tool=\"plain_tool\"} 1"), std::string::npos);
    EXPECT_NE(
        text.find("mcp_request_duration_seconds_bucket{method=\"tools/call\",server=\"git\",tool=\"status\","
                  "le=\"0.0025\"} 1"),
        std::string::npos);
}

TEST(bearer_tokens, MapTokensToPrincipalsAndRefuseTheRest) {
    mcp::http::bearer_tokens t;
    t.add("correct-horse-battery", "alice");
    EXPECT_THROW(t.add("short", "x"), std::invalid_argument);
    EXPECT_THROW(t.add("has space in it", "x"), std::invalid_argument);
    EXPECT_THROW(t.add("correct-horse-battery", "again"), std::invalid_argument);
    EXPECT_EQ(t.principal_of("Bearer correct-horse-battery").value_or(""), "alice");
    EXPECT_EQ(t.principal_of("bearer   correct-horse-battery ").value_or(""), "alice");
    EXPECT_FALSE(t.principal_of("Basic correct-horse-battery"));
    EXPECT_FALSE(t.principal_of("Bearer wrong-horse-battery"));
    EXPECT_FALSE(t.principal_of("Bearer"));
    std::vector<std::string> refusals;
    auto auth = t.authenticator(
        "realm-x", [&](const mcp::http::request_info&, std::string_view why) { refusals.emplace_back(why); });
    mcp::http::request_info r{.method = "POST", .target = "/mcp"};
    auto none = auth(r);
    EXPECT_FALSE(none.accepted);
    EXPECT_EQ(none.status, 401);
    ASSERT_EQ(none.headers.size(), 1u);
    EXPECT_EQ(none.headers[0].second, "Bearer realm=\"realm-x\"");
    // Two Authorization lines, even one good one: which would count? 400, not a guess.
    r.headers = {{"Authorization", "Bearer nope-nope-nope"},
                 {"authorization", "Bearer correct-horse-battery"}};
    auto twice = auth(r);
    EXPECT_FALSE(twice.accepted);
    EXPECT_EQ(twice.status, 400);
    EXPECT_EQ(refusals.back(), "repeated Authorization header");
    r.headers = {{"Authorization", "Bearer correct-horse-battery"}};
    auto ok = auth(r);
    EXPECT_TRUE(ok.accepted);
    EXPECT_EQ(ok.principal, "alice");
    r.headers = {{"Authorization", "Bearer nope-nope-nope"}};
    EXPECT_FALSE(auth(r).accepted);
    EXPECT_EQ(refusals,
              (std::vector<std::string>{"no token", "repeated Authorization header", "unknown token"}));
}

} // namespace
