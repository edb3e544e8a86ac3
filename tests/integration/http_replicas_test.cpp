// Two replicas of one Streamable HTTP server behind an imaginary load balancer: two
// mcp::http::server objects on two ports, each over its own mcp::server with the same tools,
// sharing one session store and one event store. A session started on one is served by the
// other (restored from the store's record), what the client set on one (log level,
// subscriptions) holds on the other, DELETE and idle expiry on one end it on both, and a stream
// written on one is resumed on the other. Everything on real sockets, byte for byte.
#include <mcp/http/server.hpp>

#include "support/streamable_wire.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;
using mcp::test::eventually;
using mcp::test::raw_client;
using namespace mcp::test; // the wire helpers (streamable_wire.hpp)

namespace {

std::string request_body(int id, std::string_view method, std::string_view params = "{}") {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + std::string(method) +
           R"(","params":)" + std::string(params) + "}";
}

std::string call_body(int id, std::string_view tool, std::string_view arguments = "{}") {
    return request_body(id, "tools/call",
                        R"({"name":")" + std::string(tool) + R"(","arguments":)" + std::string(arguments) +
                            "}");
}

// The same tools and resources on every replica (what a deployment of one build looks like).
void install_features(mcp::server& s) {
    s.add_tool({.name = "echo",
                .input_schema = object{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
               [](const object& a, mcp::context&) {
                   return mcp::call_tool_result{
                       .content = {mcp::text(std::string(a.at("text").as_string()))}};
               });
    // One log message per level, so that the session's level decides what reaches the client.
    s.add_tool({.name = "log_all", .input_schema = object{{"type", "object"}}},
               [](const object&, mcp::context& ctx) {
                   for (auto level : {mcp::logging_level::debug, mcp::logging_level::info,
                                      mcp::logging_level::warning, mcp::logging_level::error})
                       ctx.log(level, mcp::json::string(mcp::to_string(level)));
                   return mcp::call_tool_result{.content = {mcp::text("logged")}};
               });
    // Ends its SSE stream before answering: the client resumes it with Last-Event-ID.
    s.add_tool({.name = "poll", .input_schema = object{{"type", "object"}}},
               [](const object&, mcp::context& ctx) {
                   ctx.close_sse_stream();
                   std::this_thread::sleep_for(50ms);
                   return mcp::call_tool_result{.content = {mcp::text("after reconnect")}};
               });
    for (const char* uri : {"test://one", "test://two"})
        s.add_resource({.uri = uri, .name = uri}, [](const std::string& u, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = u, .text = "x"}}};
        });
}

struct replicas_fixture : ::testing::Test {
    std::shared_ptr<mcp::http::memory_session_store> sessions =
        std::make_shared<mcp::http::memory_session_store>();
    std::shared_ptr<mcp::http::memory_event_store> events = std::make_shared<mcp::http::memory_event_store>();
    mcp::server server_a{mcp::server_options{.info = {"replica", "1.0"}}};
    mcp::server server_b{mcp::server_options{.info = {"replica", "1.0"}}};
    std::unique_ptr<mcp::http::server> a, b;

    void SetUp() override {
        install_features(server_a);
        install_features(server_b);
    }
    void TearDown() override {
        if (a) a->stop(0ms);
        if (b) b->stop(0ms);
    }
    std::unique_ptr<mcp::http::server> replica(mcp::server& s, mcp::http::server_options o) {
        o.port = 0;
        o.sessions = sessions;
        o.events = events;
        auto h = std::make_unique<mcp::http::server>(s, std::move(o));
        h->start();
        return h;
    }
    void start(mcp::http::server_options for_a = {}, mcp::http::server_options for_b = {}) {
        a = replica(server_a, std::move(for_a));
        b = replica(server_b, std::move(for_b));
    }

    /// One request on a fresh connection to `port`; the whole response.
    static mcp::test::response exchange(unsigned short port, const std::string& request) {
        raw_client c(port);
        EXPECT_TRUE(c.send(request));
        auto r = c.read_response();
        EXPECT_TRUE(r.has_value());
        return r ? *r : mcp::test::response{};
    }

    /// initialize (+ notifications/initialized) on `port`; returns the session id.
    std::string open_session(unsigned short port) {
        auto r = exchange(
            port, http_post(request_body(1, "initialize",
                                         R"({"protocolVersion":"2025-11-25","capabilities":{"roots":{}},)"
                                         R"("clientInfo":{"name":"raw","version":"7"}})")));
        EXPECT_EQ(r.status, 200);
        auto sid = r.header("Mcp-Session-Id");
        EXPECT_TRUE(sid.has_value());
        if (!sid) return {};
        auto ack = exchange(port, http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                            session_headers(*sid)));
        EXPECT_EQ(ack.status, 202);
        return *sid;
    }

    /// Open the standalone GET stream of session `sid` on `c` (which keeps the session busy).
    static void listen_on(raw_client& c, const std::string& sid) {
        ASSERT_TRUE(c.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid))));
        auto head = c.read_head();
        ASSERT_TRUE(head && head->status == 200);
    }

    static std::string echo_on(unsigned short port, const std::string& sid, std::string_view text,
                               int id = 2) {
        auto r = exchange(port, http_post(call_body(id, "echo", R"({"text":")" + std::string(text) + R"("})"),
                                          session_headers(sid)));
        if (r.status != 200) return "HTTP " + std::to_string(r.status);
        return std::string(body_json(r).at("result").at("content").at(0).at("text").as_string());
    }
};

TEST_F(replicas_fixture, a_session_started_on_one_replica_is_served_by_the_other) {
    start();
    const auto sid = open_session(a->port());
    EXPECT_EQ(b->sessions(), 0u);
    EXPECT_EQ(echo_on(b->port(), sid, "from b"), "from b");
    EXPECT_EQ(b->sessions(), 1u);
    EXPECT_EQ(echo_on(a->port(), sid, "from a"), "from a");
    EXPECT_EQ(echo_on(b->port(), sid, "b again", 3), "b again");
    // The restored session is the one that was negotiated: its revision, its client.
    ASSERT_EQ(server_b.sessions().size(), 1u);
    const auto restored = server_b.sessions().front();
    EXPECT_TRUE(restored->initialized());
    EXPECT_EQ(restored->protocol_version(), mcp::revision::v2025_11_25);
    EXPECT_EQ(restored->client_info().name, "raw");
    EXPECT_EQ(restored->client_info().version, "7");
    EXPECT_TRUE(restored->client_caps().roots.has_value());
    // The protocol header is checked against the session's revision on B too.
    auto bad =
        exchange(b->port(), http_post(call_body(4, "echo", R"({"text":"x"})"),
                                      "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 2025-06-18\r\n"));
    EXPECT_EQ(bad.status, 400);
    // Nothing was sent on B's wire for the restore: tools/list just works, as after initialize.
    auto list = exchange(b->port(), http_post(request_body(5, "tools/list"), session_headers(sid)));
    ASSERT_EQ(list.status, 200);
    EXPECT_EQ(body_json(list).at("result").at("tools").as_array().size(), 3u);
}

TEST_F(replicas_fixture, the_log_level_set_on_one_replica_holds_on_the_other) {
    start();
    const auto sid = open_session(a->port());
    auto levels_seen_on = [&](unsigned short port, int id) {
        raw_client c(port);
        EXPECT_TRUE(c.send(http_post(call_body(id, "log_all"), session_headers(sid))));
        auto head = c.read_head();
        EXPECT_TRUE(head && head->status == 200);
        std::vector<std::string> levels;
        sse_reader sse(c);
        while (auto m = sse.next_message()) {
            if (m->contains("id")) break; // the response ends the stream
            levels.emplace_back(m->at("params").at("level").as_string());
        }
        return levels;
    };
    auto set_level =
        exchange(a->port(), http_post(request_body(2, "logging/setLevel", R"({"level":"warning"})"),
                                      session_headers(sid)));
    ASSERT_EQ(set_level.status, 200);
    EXPECT_EQ(levels_seen_on(b->port(), 3), (std::vector<std::string>{"warning", "error"}));
    // Changed again on A after B restored the session: B picks the change up.
    set_level = exchange(a->port(), http_post(request_body(4, "logging/setLevel", R"({"level":"error"})"),
                                              session_headers(sid)));
    ASSERT_EQ(set_level.status, 200);
    EXPECT_EQ(levels_seen_on(b->port(), 5), (std::vector<std::string>{"error"}));
    // And the other way round.
    set_level = exchange(b->port(), http_post(request_body(6, "logging/setLevel", R"({"level":"debug"})"),
                                              session_headers(sid)));
    ASSERT_EQ(set_level.status, 200);
    EXPECT_EQ(levels_seen_on(a->port(), 7), (std::vector<std::string>{"debug", "info", "warning", "error"}));
}

TEST_F(replicas_fixture, subscriptions_made_on_one_replica_are_honoured_by_the_other) {
    start();
    const auto sid = open_session(a->port());
    for (int i = 0; i < 2; ++i) {
        auto sub = exchange(
            a->port(), http_post(request_body(10 + i, "resources/subscribe",
                                              i == 0 ? R"({"uri":"test://one"})" : R"({"uri":"test://two"})"),
                                 session_headers(sid)));
        ASSERT_EQ(sub.status, 200);
    }
    // B's standalone stream (the GET restores the session on B).
    raw_client listener(b->port());
    ASSERT_TRUE(
        listener.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid))));
    auto head = listener.read_head();
    ASSERT_TRUE(head);
    ASSERT_EQ(head->status, 200);
    sse_reader sse(listener);
    server_b.notify_resource_updated("test://one");
    auto updated = sse.next_message();
    ASSERT_TRUE(updated);
    EXPECT_EQ(updated->at("method"), "notifications/resources/updated");
    EXPECT_EQ(updated->at("params").at("uri"), "test://one");
    // Unsubscribed on A: once B has seen a request of the session since, it sends no more.
    auto unsub =
        exchange(a->port(), http_post(request_body(12, "resources/unsubscribe", R"({"uri":"test://one"})"),
                                      session_headers(sid)));
    ASSERT_EQ(unsub.status, 200);
    auto ping = exchange(b->port(), http_post(request_body(13, "ping"), session_headers(sid)));
    ASSERT_EQ(ping.status, 200);
    server_b.notify_resource_updated("test://one");
    server_b.notify_resource_updated("test://two");
    updated = sse.next_message();
    ASSERT_TRUE(updated);
    EXPECT_EQ(updated->at("params").at("uri"), "test://two");
}

TEST_F(replicas_fixture, delete_on_one_replica_ends_the_session_on_both) {
    start();
    const auto sid = open_session(a->port());
    EXPECT_EQ(echo_on(b->port(), sid, "x"), "x");
    auto deleted = exchange(b->port(), http_request("DELETE", "/mcp", "Mcp-Session-Id: " + sid + "\r\n"));
    EXPECT_EQ(deleted.status, 200);
    EXPECT_EQ(b->sessions(), 0u);
    EXPECT_EQ(sessions->size(), 0u);
    // A still had its copy: the request finds the record gone, closes the copy, answers 404.
    EXPECT_EQ(a->sessions(), 1u);
    EXPECT_EQ(echo_on(a->port(), sid, "x"), "HTTP 404");
    EXPECT_EQ(a->sessions(), 0u);
    EXPECT_EQ(server_a.sessions().size(), 0u);
    EXPECT_EQ(echo_on(b->port(), sid, "x"), "HTTP 404");
    EXPECT_EQ(exchange(a->port(), http_request("DELETE", "/mcp", "Mcp-Session-Id: " + sid + "\r\n")).status,
              404);
    // A GET stream on a copy whose session ended elsewhere is refused the same way.
    const auto other = open_session(a->port());
    EXPECT_EQ(echo_on(b->port(), other, "y"), "y");
    EXPECT_EQ(exchange(a->port(), http_request("DELETE", "/mcp", "Mcp-Session-Id: " + other + "\r\n")).status,
              200);
    EXPECT_EQ(exchange(b->port(),
                       http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(other)))
                  .status,
              404);
    EXPECT_EQ(b->sessions(), 0u);
}

TEST_F(replicas_fixture, idle_expiry_on_one_replica_ends_the_session_for_both) {
    // A expires sessions idle for 400 ms; B would wait half an hour.
    start({.session_idle_timeout = 400ms, .keep_alive_interval = 50ms}, {});
    const auto busy = open_session(a->port());
    const auto idle = open_session(a->port());
    EXPECT_EQ(echo_on(b->port(), busy, "x"), "x");
    EXPECT_EQ(echo_on(b->port(), idle, "x"), "x");
    // Used on B only: the store knows, so A does not expire it.
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(echo_on(b->port(), busy, "still here", 10 + i), "still here");
        std::this_thread::sleep_for(100ms);
    }
    ASSERT_TRUE(eventually([&] { return !sessions->get(idle).has_value(); }, 3s));
    EXPECT_TRUE(sessions->get(busy).has_value());
    EXPECT_EQ(echo_on(b->port(), idle, "x"), "HTTP 404");
    EXPECT_EQ(echo_on(a->port(), idle, "x"), "HTTP 404");
    EXPECT_EQ(echo_on(a->port(), busy, "a too"), "a too");
    // Idle everywhere now: A ends it, and B's copy goes with its next request.
    ASSERT_TRUE(eventually([&] { return !sessions->get(busy).has_value(); }, 3s));
    EXPECT_EQ(echo_on(b->port(), busy, "x"), "HTTP 404");
    EXPECT_EQ(b->sessions(), 0u);
    ASSERT_TRUE(eventually([&] { return a->sessions() == 0; }, 3s));
    EXPECT_EQ(server_a.sessions().size(), 0u);
    EXPECT_EQ(server_b.sessions().size(), 0u);
}

TEST_F(replicas_fixture, a_stream_written_on_one_replica_is_resumed_on_the_other) {
    start();
    const auto sid = open_session(a->port());
    raw_client c(a->port());
    ASSERT_TRUE(c.send(http_post(call_body(11, "poll"), session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    auto priming = sse.next();
    ASSERT_TRUE(priming);
    EXPECT_FALSE(sse.next()); // A ended the stream before the result
    // The result goes into the shared store on A; the client comes back through B.
    std::optional<object> result;
    ASSERT_TRUE(eventually(
        [&] {
            raw_client resume(b->port());
            EXPECT_TRUE(resume.send(http_request("GET", "/mcp",
                                                 "Accept: text/event-stream\r\nLast-Event-ID: " +
                                                     priming->id + "\r\n" + session_headers(sid))));
            auto head = resume.read_head();
            if (!head || head->status != 200) return false;
            sse_reader replay(resume);
            result = replay.next_message();
            return result.has_value();
        },
        3s));
    EXPECT_EQ(result->at("id"), 11);
    EXPECT_EQ(result->at("result").at("content").at(0).at("text"), "after reconnect");

    // The same stream id never comes from two replicas: B's streams are numbered apart from A's.
    raw_client on_b(b->port());
    ASSERT_TRUE(on_b.send(http_post(call_body(12, "poll"), session_headers(sid))));
    ASSERT_TRUE(on_b.read_head());
    sse_reader sse_b(on_b);
    auto priming_b = sse_b.next();
    ASSERT_TRUE(priming_b);
    EXPECT_NE(priming_b->id, priming->id);
    EXPECT_NE(priming_b->id.substr(0, priming_b->id.rfind('-')),
              priming->id.substr(0, priming->id.rfind('-')));
}

TEST_F(replicas_fixture, the_standalone_stream_moves_to_the_other_replica) {
    start();
    const auto sid = open_session(a->port());
    std::string last_id;
    {
        raw_client listener(a->port());
        ASSERT_TRUE(listener.send(
            http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid))));
        ASSERT_TRUE(listener.read_head());
        sse_reader sse(listener);
        auto priming = sse.next();
        ASSERT_TRUE(priming);
        last_id = priming->id;
    } // the connection to A breaks
    ASSERT_TRUE(eventually([&] { return a->open_streams() == 0; }));
    // Meanwhile A sends on the session's standalone stream: kept in the shared store.
    server_a.add_tool({.name = "late_a", .input_schema = object{{"type", "object"}}},
                      [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    raw_client resumed(b->port());
    ASSERT_TRUE(resumed.send(http_request("GET", "/mcp",
                                          "Accept: text/event-stream\r\nLast-Event-ID: " + last_id + "\r\n" +
                                              session_headers(sid))));
    auto head = resumed.read_head();
    ASSERT_TRUE(head);
    ASSERT_EQ(head->status, 200);
    sse_reader sse(resumed);
    auto replayed = sse.next_message();
    ASSERT_TRUE(replayed);
    EXPECT_EQ(replayed->at("method"), "notifications/tools/list_changed");
    // The stream goes on as B's standalone stream: what B sends arrives.
    server_b.add_tool({.name = "late_b", .input_schema = object{{"type", "object"}}},
                      [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    auto live = sse.next_message();
    ASSERT_TRUE(live);
    EXPECT_EQ(live->at("method"), "notifications/tools/list_changed");
}

TEST_F(replicas_fixture, a_session_the_mcp_server_closes_ends_everywhere) {
    start();
    const auto sid = open_session(a->port());
    EXPECT_EQ(echo_on(b->port(), sid, "x"), "x");
    server_a.shutdown(); // closes A's sessions for good, not just A's copies
    ASSERT_TRUE(eventually([&] { return a->sessions() == 0; }));
    EXPECT_FALSE(sessions->get(sid).has_value());
    EXPECT_EQ(echo_on(b->port(), sid, "x"), "HTTP 404");
    // Whereas stopping a replica leaves its sessions to the others.
    const auto kept = open_session(a->port());
    a->stop(0ms);
    EXPECT_TRUE(sessions->get(kept).has_value());
    EXPECT_EQ(echo_on(b->port(), kept, "still here"), "still here");
}

TEST_F(replicas_fixture, an_unknown_session_is_404_on_both) {
    start();
    const std::string nobody = "0123456789abcdef0123456789abcdef";
    for (auto port : {a->port(), b->port()}) {
        EXPECT_EQ(echo_on(port, nobody, "x"), "HTTP 404");
        EXPECT_EQ(exchange(port, http_request("GET", "/mcp",
                                              "Accept: text/event-stream\r\n" + session_headers(nobody)))
                      .status,
                  404);
        EXPECT_EQ(exchange(port, http_request("DELETE", "/mcp", "Mcp-Session-Id: " + nobody + "\r\n")).status,
                  404);
    }
    EXPECT_EQ(a->sessions() + b->sessions(), 0u);
    EXPECT_EQ(sessions->size(), 0u);
}

TEST_F(replicas_fixture, restoring_counts_against_the_session_cap) {
    start({}, {.max_sessions = 1});
    const auto from_a = open_session(a->port());
    const auto on_b = open_session(b->port());
    // b's table is full with a busy session (a client listens on its standalone stream): the
    // restore is refused.
    raw_client listener(b->port());
    listen_on(listener, on_b);
    auto r = exchange(b->port(), http_post(call_body(2, "echo", R"({"text":"x"})"), session_headers(from_a)));
    EXPECT_EQ(r.status, 503);
    EXPECT_TRUE(r.header("Retry-After").has_value());
    EXPECT_EQ(echo_on(a->port(), from_a, "fine on a"), "fine on a");
    EXPECT_EQ(echo_on(a->port(), on_b, "and b's on a"), "and b's on a");
}

TEST_F(replicas_fixture, restoring_at_the_clients_own_cap_is_429_not_503) {
    // The table has room; only this client (one address, no authentication) is at its cap of
    // one, with a busy session: the refusal names the client's limit, as for a new session.
    start({}, {.max_sessions = 100, .max_sessions_per_principal = 1});
    const auto from_a = open_session(a->port());
    const auto on_b = open_session(b->port());
    raw_client listener(b->port());
    listen_on(listener, on_b);
    auto r = exchange(b->port(), http_post(call_body(2, "echo", R"({"text":"x"})"), session_headers(from_a)));
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_TRUE(r.header("Retry-After").has_value());
    EXPECT_NE(r.body.find("this client holds 1 sessions"), std::string::npos) << r.body;
}

TEST_F(replicas_fixture, restoring_into_a_full_table_ends_its_least_recently_used_idle_session) {
    start({}, {.max_sessions = 1});
    const auto from_a = open_session(a->port());
    const auto on_b = open_session(b->port());
    // b's only copy is idle: it makes way, and its session ends everywhere (a's copy too).
    EXPECT_EQ(echo_on(b->port(), from_a, "restored on b"), "restored on b");
    EXPECT_EQ(b->sessions(), 1u);
    auto gone =
        exchange(a->port(), http_post(call_body(3, "echo", R"({"text":"x"})"), session_headers(on_b)));
    EXPECT_EQ(gone.status, 404);
}

TEST_F(replicas_fixture, a_session_in_use_on_another_replica_loses_only_the_copy_here) {
    start({}, {.max_sessions = 1});
    const auto moved = open_session(b->port());
    // Its client goes on through a (as behind a load balancer) after b last saw it: b's copy
    // is the least recently used here, but the session is alive.
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    EXPECT_EQ(echo_on(a->port(), moved, "now on a"), "now on a");
    const auto other = open_session(a->port());
    // Restoring `other` on b evicts b's copy of `moved`, and only that copy.
    EXPECT_EQ(echo_on(b->port(), other, "restored on b"), "restored on b");
    EXPECT_EQ(b->sessions(), 1u);
    EXPECT_TRUE(sessions->get(moved).has_value());
    EXPECT_EQ(echo_on(a->port(), moved, "still alive"), "still alive");
}

} // namespace
