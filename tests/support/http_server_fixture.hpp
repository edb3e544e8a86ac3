// An mcp::http::server on 127.0.0.1 over a small mcp::server, for tests that speak Streamable HTTP
// by hand (streamable_wire.hpp): the bodies of the requests they send, and tools whose timing
// the test controls (a slow one it releases, one that runs until cancelled, one that ends its
// connection before answering).
#pragma once

#include "support/eventually.hpp"
#include "support/streamable_wire.hpp"

#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

namespace mcp::test {

inline std::string initialize_body(int id = 1, std::string_view version = "2025-11-25") {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
           R"(,"method":"initialize","params":{"protocolVersion":")" + std::string(version) +
           R"(","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}})";
}

inline std::string call_body(int id, std::string_view tool, std::string_view arguments = "{}",
                             std::string_view meta = "") {
    std::string params = R"({"name":")" + std::string(tool) + R"(","arguments":)" + std::string(arguments);
    if (!meta.empty()) params += R"(,"_meta":)" + std::string(meta);
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":)" + params +
           "}}";
}

inline const std::string stateless_meta =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

/// The same with a progress token (so that a tool's progress makes its response SSE).
inline const std::string stateless_meta_with_progress =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"})";

inline std::string stateless_headers(std::string_view method, std::string_view name = "") {
    std::string h = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " + std::string(method) + "\r\n";
    if (!name.empty()) h += "Mcp-Name: " + std::string(name) + "\r\n";
    return h;
}

/// A 2026-07-28 subscriptions/listen request for tools/list_changed, with id "L".
inline std::string listen_body() {
    return R"({"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":)" +
           stateless_meta + "}}";
}

/// Open the standalone GET stream of session `sid` on `c`; false unless it answers 200 SSE.
inline bool open_standalone(raw_client& c, const std::string& sid, std::string_view version = "2025-11-25") {
    if (!c.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid, version))))
        return false;
    auto head = c.read_head();
    return head && head->status == 200 && head->header("Content-Type") == "text/event-stream";
}

/// Resume session `sid`'s stream after event `last_event_id` on `c` (GET with Last-Event-ID);
/// false unless it answers 200.
inline bool resume_after(raw_client& c, const std::string& sid, const std::string& last_event_id) {
    if (!c.send(http_request("GET", "/mcp",
                             "Accept: text/event-stream\r\nLast-Event-ID: " + last_event_id + "\r\n" +
                                 session_headers(sid))))
        return false;
    auto head = c.read_head();
    return head && head->status == 200;
}

/// Read the rest of a chunked response: true when it ends with its terminating chunk (a clean
/// end), false when the connection is cut (or stays silent for io_timeout) first.
inline bool ends_cleanly(raw_client& c) {
    for (;;) {
        auto chunk = c.read_chunk();
        if (!chunk) return false;
        if (chunk->empty()) return true;
    }
}

struct http_fixture : ::testing::Test {
    mcp::server mcp_server{mcp::server_options{.info = {"http-test", "1.0"}}};
    std::unique_ptr<mcp::http::server> http;
    std::promise<void> release_slow;
    std::shared_future<void> slow_released = release_slow.get_future().share();
    std::atomic<int> slow_started{0};
    std::atomic<int> slow_finished{0};
    std::atomic<int> waiting_started{0};
    std::atomic<int> waiting_cancelled{0};

    void SetUp() override {
        using json::object;
        using namespace std::chrono_literals;
        mcp_server.add_tool(
            {.name = "echo",
             .input_schema = object{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
            [](const object& a, mcp::context&) {
                return mcp::call_tool_result{.content = {mcp::text(std::string(a.at("text").as_string()))}};
            });
        mcp_server.add_tool({.name = "progress", .input_schema = object{{"type", "object"}}},
                            [](const object&, mcp::context& ctx) {
                                ctx.progress(1, 2, "half");
                                return mcp::call_tool_result{.content = {mcp::text("done")}};
                            });
        mcp_server.add_tool(
            {.name = "ask", .input_schema = object{{"type", "object"}}},
            [](const object&, mcp::context& ctx) {
                auto r = ctx.elicit(mcp::form_elicitation(
                    "name?", object{{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}));
                return mcp::call_tool_result{
                    .content = {
                        mcp::text(r.content ? std::string(r.content->at("name").as_string()) : "none")}};
            });
        // Progress (when asked for) and then nothing until the test releases it.
        mcp_server.add_tool({.name = "slow", .input_schema = object{{"type", "object"}}},
                            [this](const object&, mcp::context& ctx) {
                                ++slow_started;
                                ctx.progress(0, 1);
                                slow_released.wait_for(10s);
                                ++slow_finished;
                                return mcp::call_tool_result{.content = {mcp::text("slow done")}};
                            });
        // Progress (when asked for), then ends its SSE connection before answering (polling).
        mcp_server.add_tool({.name = "poll", .input_schema = object{{"type", "object"}}},
                            [](const object&, mcp::context& ctx) {
                                ctx.progress(0, 1);
                                ctx.close_sse_stream();
                                std::this_thread::sleep_for(50ms);
                                return mcp::call_tool_result{.content = {mcp::text("after reconnect")}};
                            });
        // Progress (when asked for), then runs until its request is cancelled (10 s at most).
        mcp_server.add_tool({.name = "until_cancelled", .input_schema = object{{"type", "object"}}},
                            [this](const object&, mcp::context& ctx) {
                                ++waiting_started;
                                ctx.progress(0, 1);
                                if (eventually([&] { return ctx.cancelled(); }, 10s)) ++waiting_cancelled;
                                return mcp::call_tool_result{.content = {mcp::text("cancelled")}};
                            });
    }
    void TearDown() override {
        try {
            release_slow.set_value();
        } catch (...) {
        }
        if (http) http->stop(std::chrono::milliseconds(0));
    }
    void start(mcp::http::server_options o = {}) {
        o.port = 0;
        http = std::make_unique<mcp::http::server>(mcp_server, std::move(o));
        http->start();
    }
    unsigned short port() const { return http->port(); }

    /// initialize (asking for `version`) + notifications/initialized; returns the session id.
    std::string open_session(raw_client& c, std::string_view version = "2025-11-25") {
        EXPECT_TRUE(c.send(http_post(initialize_body(1, version))));
        auto r = c.read_response();
        EXPECT_TRUE(r && r->status == 200);
        auto sid = r ? r->header("Mcp-Session-Id") : std::nullopt;
        EXPECT_TRUE(sid.has_value());
        if (!sid) return {};
        EXPECT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                     session_headers(*sid, version))));
        auto ack = c.read_response();
        EXPECT_TRUE(ack && ack->status == 202);
        return *sid;
    }
};

} // namespace mcp::test
