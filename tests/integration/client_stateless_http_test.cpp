// Our client in the stateless era against our Streamable HTTP server in the same process, where
// the server side can be watched: a cancelled call's handler sees its cancellation (the client
// transport closed the request's stream), input_required rounds reach the handler again with
// the answers, the listen stream is one open stream on the server that the client replaces when
// it subscribes and that goes away with the client, and a server that stops ends the stream
// gracefully and the client listens again once the server is back.
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include "support/eventually.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

using mcp::test::eventually;

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

struct http_stateless : ::testing::Test {
    mcp::server server{mcp::server_options{.info = {.name = "in-process", .version = "1"}}};
    std::unique_ptr<mcp::http::server> http;
    mcp::client client{{.info = {.name = "c", .version = "1"}}};
    std::atomic<bool> slow_cancelled{false};
    std::atomic<int> ask_runs{0};

    void SetUp() override {
        server.add_tool({.name = "slow", .input_schema = obj_schema()},
                        [this](const object&, mcp::context& ctx) {
                            while (!ctx.cancelled()) std::this_thread::sleep_for(1ms);
                            slow_cancelled = true;
                            return mcp::call_tool_result{.content = {mcp::text("cancelled")}};
                        });
        server.add_tool({.name = "ask", .input_schema = obj_schema()},
                        [this](const object&, mcp::context& ctx) {
                            ++ask_runs; // run again for each round, with the answers so far
                            auto who = ctx.elicit("name?", obj_schema({{"name", {{"type", "string"}}}}));
                            std::string out = "name=" + std::string(who.content->at("name").as_string());
                            for (const auto& r : ctx.roots()) out += " root=" + r.uri;
                            return mcp::call_tool_result{.content = {mcp::text(out)}};
                        });
        server.add_resource({.uri = "mem://a", .name = "a"}, [](const std::string& uri, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
        });
        start_http(0);
        client.set_elicitation_handler([](const mcp::elicit_request&, mcp::request_context&) {
            return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                      .content = object{{"name", "Ada"}}};
        });
        client.set_roots({{.uri = "file:///x"}});
    }
    void start_http(unsigned short port) {
        http = std::make_unique<mcp::http::server>(server, mcp::http::server_options{.port = port});
        http->start();
    }
    void connect() {
        client.connect(
            mcp::http::make_client_transport({.url = http->url(), .log = [](std::string_view) {}}));
        ASSERT_TRUE(client.stateless());
    }
};

TEST_F(http_stateless, closing_the_request_stream_cancels_the_handler) {
    connect();
    mcp::cancellation_source cancel;
    mcp::call_options o;
    o.cancel = cancel.token();
    auto call = std::async(std::launch::async, [&] { return client.call_tool("slow", {}, o); });
    ASSERT_TRUE(eventually([&] { return http->open_streams() >= 1 || http->open_connections() >= 2; }));
    std::this_thread::sleep_for(50ms); // the handler is running
    cancel.cancel("user pressed stop");
    EXPECT_THROW(call.get(), mcp::error);
    EXPECT_TRUE(eventually([&] { return slow_cancelled.load(); }));
}

TEST_F(http_stateless, input_required_rounds_run_the_handler_again_with_the_answers) {
    connect();
    auto r = client.call_tool("ask");
    EXPECT_EQ(*mcp::text_of(r.content.at(0)), "name=Ada root=file:///x");
    EXPECT_EQ(ask_runs.load(), 3); // asks for the name, then the roots, then completes
}

TEST_F(http_stateless, one_listen_stream_replaced_on_subscribe_and_gone_with_the_client) {
    std::atomic<int> updated{0}, changed{0};
    client.on_resource_updated([&](const std::string&) { ++updated; });
    client.on_tools_list_changed([&] { ++changed; });
    connect();
    EXPECT_EQ(server.listeners(), 1u);
    client.subscribe("mem://a");
    EXPECT_TRUE(eventually([&] { return server.listeners() == 1u; })); // the old one is gone
    server.notify_resource_updated("mem://a");
    EXPECT_TRUE(eventually([&] { return updated.load() == 1; }));
    server.add_tool({.name = "late", .input_schema = obj_schema()},
                    [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(eventually([&] { return changed.load() == 1; }));
    client.close();
    EXPECT_TRUE(eventually([&] { return server.listeners() == 0u && http->open_streams() == 0u; }));
}

TEST_F(http_stateless, a_server_that_stops_ends_the_stream_and_the_client_listens_again) {
    std::atomic<int> changed{0};
    client.on_tools_list_changed([&] { ++changed; });
    connect();
    ASSERT_EQ(server.listeners(), 1u);
    const auto port = http->port();
    http->stop(100ms); // ends the listen stream with a result
    EXPECT_EQ(server.listeners(), 0u);
    http.reset();
    start_http(port);
    // The client opens the stream again (after its back-off) and, not knowing what changed
    // while it was away, reports the tool list as changed.
    EXPECT_TRUE(eventually([&] { return server.listeners() == 1u; }, 15s));
    EXPECT_TRUE(eventually([&] { return changed.load() == 1; }));
    server.add_tool({.name = "late", .input_schema = obj_schema()},
                    [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(eventually([&] { return changed.load() == 2; }));
}

TEST_F(http_stateless, a_header_mismatch_before_any_listing_lists_the_tools_and_retries_once) {
    // `route` mirrors its region into Mcp-Param-Region; the client has never listed the tools,
    // so its first call goes without the header and the server refuses it (-32020).
    std::atomic<int> lists{0}, routed{0};
    server.use([&](mcp::incoming_call& call, const mcp::receive_next& next) {
        if (call.method() == "tools/list") ++lists;
        return next(call);
    });
    server.add_tool(
        {.name = "route",
         .input_schema = obj_schema({{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}})},
        [&](const object& args, mcp::context&) {
            ++routed;
            return mcp::call_tool_result{
                .content = {mcp::text("to " + std::string(args.at("region").as_string()))}};
        });
    connect();
    auto r = client.call_tool("route", {{"region", "eu-west"}});
    EXPECT_EQ(*mcp::text_of(r.content.at(0)), "to eu-west");
    EXPECT_EQ(lists.load(), 1);
    EXPECT_EQ(routed.load(), 1);
    // Known now: the next call carries the header at once.
    client.call_tool("route", {{"region", "us"}});
    EXPECT_EQ(lists.load(), 1);
    EXPECT_EQ(routed.load(), 2);
}

TEST_F(http_stateless, a_header_mismatch_that_persists_after_listing_fails_clearly) {
    // The listing hides the annotation (a middleware strips it, as a stale cache or a
    // rewriting proxy might), so the client never learns the header this server expects.
    server.use([](mcp::incoming_call& call, const mcp::receive_next& next) {
        auto r = next(call);
        if (call.method() != "tools/list") return r;
        for (auto& t : r.as_object()["tools"].as_array())
            if (auto& tool = t.as_object(); tool.at("name") == "hidden_header")
                tool.at("inputSchema")
                    .as_object()
                    .at("properties")
                    .as_object()
                    .at("zone")
                    .as_object()
                    .erase("x-mcp-header");
        return r;
    });
    server.add_tool({.name = "hidden_header",
                     .input_schema = obj_schema({{"zone", {{"type", "string"}, {"x-mcp-header", "Zone"}}}})},
                    [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    connect();
    try {
        client.call_tool("hidden_header", {{"zone", "x"}});
        FAIL() << "the call went through";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::header_mismatch);
        EXPECT_NE(std::string(e.what()).find("again after the tools were listed anew"), std::string::npos)
            << e.what();
    }
}

TEST_F(http_stateless, annotated_arguments_are_mirrored_by_the_client_and_checked_by_the_server) {
    // Nested properties are reachable (every step is `properties`): the shared reader gives
    // client and server the same two parameters.
    std::atomic<int> ran{0};
    server.add_tool(
        {.name = "route",
         .input_schema = obj_schema(
             {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
              {"opts", obj_schema({{"dry", {{"type", "boolean"}, {"x-mcp-header", "Dry-Run"}}}})}})},
        [&](const object& args, mcp::context&) {
            ++ran;
            return mcp::call_tool_result{
                .content = {mcp::text("to " + std::string(args.at("region").as_string()))}};
        });
    connect();
    client.list_all_tools(); // the transport learns the annotations here
    auto r = client.call_tool("route", {{"region", "eu é"}, {"opts", object{{"dry", true}}}});
    EXPECT_EQ(*mcp::text_of(r.content.at(0)), "to eu é");
    EXPECT_EQ(ran.load(), 1);

    // The same call by hand, with the nested argument's header saying something else.
    const std::string body =
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"route","arguments":{"region":"eu","opts":{"dry":true}},)"
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
    auto post = [&](std::string dry) {
        return mcp::http::fetch({.method = "POST",
                                 .url = http->url(),
                                 .headers = {{"Content-Type", "application/json"},
                                             {"Accept", "application/json, text/event-stream"},
                                             {"MCP-Protocol-Version", "2026-07-28"},
                                             {"Mcp-Method", "tools/call"},
                                             {"Mcp-Name", "route"},
                                             {"Mcp-Param-Region", "eu"},
                                             {"Mcp-Param-Dry-Run", std::move(dry)}},
                                 .body = body});
    };
    EXPECT_EQ(post("true").status, 200);
    auto refused = post("false");
    EXPECT_EQ(refused.status, 400);
    auto error = mcp::json::parse(refused.body).at("error");
    EXPECT_EQ(error.at("code"), mcp::error_code::header_mismatch);
    EXPECT_NE(std::string(error.at("message").as_string()).find("Mcp-Param-Dry-Run"), std::string::npos)
        << refused.body;
    EXPECT_EQ(ran.load(), 2);
}

} // namespace
