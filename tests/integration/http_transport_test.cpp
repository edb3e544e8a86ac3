// The Streamable HTTP transport (mcp::http::server) on a real socket, byte for byte: sessions,
// JSON and SSE responses, server->client requests answered by POST, the standalone GET stream,
// resumption with Last-Event-ID, the stateless era's headers and listen streams, sessionless
// mode, the legacy HTTP+SSE transport, and every HTTP error path. Leaks are counted: sessions,
// streams and listeners are freed when clients go away.
#include <mcp/http/server.hpp>

#include "support/http_server_fixture.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include <atomic>
#include <future>

using namespace std::chrono_literals;
using mcp::json::object;
using mcp::test::eventually;
using mcp::test::raw_client;
using namespace mcp::test; // the wire helpers and the fixture (http_server_fixture.hpp)

namespace {

const std::string json_type = "Content-Type: application/json\r\n";

TEST_F(http_fixture, a_session_serves_json_calls) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    EXPECT_EQ(sid.size(), 32u); // 128 bits, hex
    EXPECT_EQ(sid.find_first_not_of("0123456789abcdef"), std::string::npos);
    ASSERT_TRUE(c.send(http_post(call_body(2, "echo", R"({"text":"hello"})"), session_headers(sid))));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->header("Content-Type"), "application/json");
    EXPECT_EQ(body_json(*r).at("result").at("content").at(0).at("text"), "hello");
    EXPECT_EQ(http->sessions(), 1u);
}

TEST_F(http_fixture, session_errors) {
    start();
    raw_client c(port());
    // No session id on a request that needs one.
    ASSERT_TRUE(
        c.send(http_post(call_body(2, "echo", R"({"text":"x"})"), "MCP-Protocol-Version: 2025-11-25\r\n")));
    auto missing = c.read_response();
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->status, 400);
    EXPECT_EQ(body_json(*missing).at("error").at("code"), -32600);
    EXPECT_EQ(body_json(*missing).at("id"), 2);
    // A revision nobody knows: said so (-32022, with the supported ones), not "send a session".
    ASSERT_TRUE(
        c.send(http_post(call_body(2, "echo", R"({"text":"x"})"), "MCP-Protocol-Version: 2099-01-01\r\n")));
    auto unknown_revision = c.read_response();
    ASSERT_TRUE(unknown_revision);
    EXPECT_EQ(unknown_revision->status, 400);
    EXPECT_EQ(body_json(*unknown_revision).at("error").at("code"), -32022);
    EXPECT_EQ(body_json(*unknown_revision).at("error").at("data").at("supported").at(0), "2026-07-28");
    // An unknown session.
    ASSERT_TRUE(c.send(http_post(call_body(3, "echo", R"({"text":"x"})"),
                                 session_headers("00000000000000000000000000000000"))));
    auto unknown = c.read_response();
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404);
    // A protocol header that disagrees with the session.
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(4, "echo", R"({"text":"x"})"),
                                 "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 1999-01-01\r\n")));
    auto bad_version = c.read_response();
    ASSERT_TRUE(bad_version);
    EXPECT_EQ(bad_version->status, 400);
    // DELETE ends it; afterwards it is unknown.
    ASSERT_TRUE(c.send(http_request("DELETE", "/mcp", "Mcp-Session-Id: " + sid + "\r\n")));
    auto deleted = c.read_response();
    ASSERT_TRUE(deleted);
    EXPECT_EQ(deleted->status, 200);
    EXPECT_EQ(http->sessions(), 0u);
    ASSERT_TRUE(c.send(http_post(call_body(5, "echo", R"({"text":"x"})"), session_headers(sid))));
    auto gone = c.read_response();
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 404);
}

TEST_F(http_fixture, a_session_state_change_after_delete_does_not_bring_the_session_back) {
    // notifications/initialized is held (after its session was looked up, before its handler
    // changes the session's state) until a DELETE on another connection has ended the session:
    // the state change that follows must not write the session's record again.
    std::promise<void> deleted;
    std::shared_future<void> deleted_done = deleted.get_future().share();
    std::atomic<bool> holding{false};
    mcp_server.use_notifications([&](mcp::incoming_notification& n, const mcp::notification_next& next) {
        if (n.method() == "notifications/initialized") {
            holding = true;
            deleted_done.wait_for(5s);
        }
        next(n);
    });
    start({.threads = 2}); // the DELETE is served while the other I/O thread holds the notification
    raw_client c(port()), other(port());
    ASSERT_TRUE(c.send(http_post(initialize_body())));
    auto init = c.read_response();
    ASSERT_TRUE(init && init->status == 200);
    const auto sid = init->header("Mcp-Session-Id").value_or("");
    ASSERT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                 "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 2025-11-25\r\n")));
    ASSERT_TRUE(eventually([&] { return holding.load(); }));
    ASSERT_TRUE(other.send(http_request("DELETE", "/mcp", "Mcp-Session-Id: " + sid + "\r\n")));
    auto r = other.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    deleted.set_value();
    c.read_response();                  // the notification's answer, whatever it is
    std::this_thread::sleep_for(100ms); // its handler may publish the state change after answering
    ASSERT_TRUE(other.send(http_post(call_body(5, "echo", R"({"text":"x"})"), session_headers(sid))));
    auto gone = other.read_response();
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 404);
    EXPECT_EQ(http->sessions(), 0u);
}

TEST_F(http_fixture, what_a_session_cannot_take_is_400_at_once) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    const auto post = [&](const std::string& body) {
        EXPECT_TRUE(c.send(http_post(body, session_headers(sid))));
        auto r = c.read_response(); // an answer, not the test's timeout
        EXPECT_TRUE(r);
        return r ? *r : mcp::test::response{};
    };
    // A batch: not part of 2025-11-25. Its ids stay free for the requests sent one by one.
    auto batch =
        post(R"([{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","id":8,"method":"ping"}])");
    EXPECT_EQ(batch.status, 400);
    EXPECT_EQ(body_json(batch).at("error").at("code"), -32600);
    EXPECT_NE(body_json(batch).at("error").at("message").as_string().find("batches are not part of"),
              std::string::npos);
    auto seven = post(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
    EXPECT_EQ(seven.status, 200);
    EXPECT_TRUE(body_json(seven).contains("result"));
    // Not a JSON-RPC message, a null id, a bad jsonrpc member: 400 with the reason.
    for (const char* bad :
         {R"({"foo":1})", R"({"jsonrpc":"2.0","id":null,"method":"ping"})",
          R"({"jsonrpc":"1.0","id":9,"method":"ping"})", R"({"jsonrpc":"2.0","id":10,"method":3})"}) {
        auto r = post(bad);
        EXPECT_EQ(r.status, 400) << bad;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32600) << bad;
    }
    // The id is echoed when it could be read.
    EXPECT_EQ(body_json(post(R"({"jsonrpc":"1.0","id":9,"method":"ping"})")).at("id"), 9);
    // Nothing was left waiting: no stream open, and the session still serves.
    EXPECT_EQ(http->open_streams(), 0u);
    EXPECT_TRUE(body_json(post(R"({"jsonrpc":"2.0","id":11,"method":"ping"})")).contains("result"));
}

TEST_F(http_fixture, get_and_delete_of_the_stateless_revision_are_405) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    // Even with a (real) session id: revision 2026-07-28 ignores the header and has no GET or DELETE.
    const std::string headers = "Mcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: 2026-07-28\r\n";
    ASSERT_TRUE(c.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + headers)));
    auto get = c.read_response();
    ASSERT_TRUE(get);
    EXPECT_EQ(get->status, 405);
    EXPECT_EQ(get->header("Allow"), "POST");
    ASSERT_TRUE(c.send(http_request("DELETE", "/mcp", headers)));
    auto del = c.read_response();
    ASSERT_TRUE(del);
    EXPECT_EQ(del->status, 405);
    EXPECT_EQ(http->sessions(), 1u); // the session was not ended
}

TEST_F(http_fixture, event_ids_are_unique_and_idle_streams_get_keep_alive_comments) {
    start({.keep_alive_interval = 100ms});
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(
        c.send(http_post(call_body(3, "progress", "{}", R"({"progressToken":"p"})"), session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    std::vector<std::string> ids;
    while (auto e = sse.next()) ids.push_back(e->id);
    ASSERT_EQ(ids.size(), 3u); // priming, progress, result
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
    // Resuming from the priming event replays everything after it: nothing is lost.
    raw_client resume(port());
    ASSERT_TRUE(resume_after(resume, sid, ids[0]));
    sse_reader replay(resume);
    auto progress = replay.next_message();
    ASSERT_TRUE(progress);
    EXPECT_EQ(progress->at("method"), "notifications/progress");
    auto result = replay.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("id"), 3);

    // The standalone stream, idle: keep-alive comments keep proxies from closing it.
    raw_client listener(port());
    ASSERT_TRUE(
        listener.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid))));
    ASSERT_TRUE(listener.read_head());
    std::string seen;
    for (int i = 0; i < 10 && seen.find(": keep-alive") == std::string::npos; ++i)
        if (auto chunk = listener.read_chunk()) seen += *chunk;
    EXPECT_NE(seen.find(": keep-alive"), std::string::npos) << seen;
}

TEST_F(http_fixture, http_level_errors) {
    start({.max_body_bytes = 4096});
    raw_client c(port());
    auto status_of = [&](const std::string& request) {
        raw_client one(port());
        EXPECT_TRUE(one.send(request));
        auto r = one.read_response();
        return r ? r->status : -1;
    };
    EXPECT_EQ(status_of(http_post(initialize_body(), "Origin: http://evil.example.com\r\n")), 403);
    EXPECT_EQ(status_of(http_post(initialize_body(), "", "evil.example.com")), 403);
    EXPECT_EQ(status_of(http_post(initialize_body(), "Origin: http://localhost:1234\r\n")), 200);
    EXPECT_EQ(status_of(http_post(std::string(8000, ' ') + "{}")), 413);
    EXPECT_EQ(status_of("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n" + accept_both +
                        "Content-Type: text/plain\r\n\r\n{}"),
              415);
    EXPECT_EQ(
        status_of(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nAccept: application/json\r\n" +
            json_type + "\r\n{}"),
        406);
    EXPECT_EQ(status_of(http_request("GET", "/elsewhere")), 404);
    EXPECT_EQ(status_of(http_request("PUT", "/mcp")), 405);
    {
        raw_client one(port());
        ASSERT_TRUE(one.send(http_post("{not json")));
        auto r = one.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400);
        EXPECT_EQ(body_json(*r).at("error").at("code"), -32700);
        EXPECT_FALSE(body_json(*r).contains("id"));
    }
}

TEST_F(http_fixture, notifications_before_the_response_make_it_sse) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"t"}}})",
        session_headers(sid))));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    EXPECT_EQ(head->header("X-Accel-Buffering"), "no");
    sse_reader sse(c);
    auto priming = sse.next();
    ASSERT_TRUE(priming);
    EXPECT_FALSE(priming->id.empty());
    EXPECT_TRUE(priming->data.empty());
    EXPECT_EQ(priming->retry, 1000);
    auto progress = sse.next_message();
    ASSERT_TRUE(progress);
    EXPECT_EQ(progress->at("method"), "notifications/progress");
    auto result = sse.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("id"), 7);
    EXPECT_FALSE(sse.next()); // the stream ends with the response
}

TEST_F(http_fixture, the_events_of_an_answered_stream_are_forgotten_after_the_replay_window) {
    auto events = std::make_shared<mcp::http::memory_event_store>();
    start({.keep_alive_interval = 20ms, .events = events, .replay_window = 300ms});
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"t"}}})",
        session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    auto priming = sse.next();
    ASSERT_TRUE(priming);
    while (sse.next()) {
    }
    EXPECT_GT(events->bytes(), 0u);
    // Within the window a client that lost the end of the stream gets it again.
    raw_client again(port());
    ASSERT_TRUE(resume_after(again, sid, priming->id));
    sse_reader replayed(again);
    auto first = replayed.next_message();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->at("method"), "notifications/progress");
    // After it the store lets them go.
    ASSERT_TRUE(eventually([&] { return events->bytes() == 0; }, 3s));
    raw_client late(port());
    ASSERT_TRUE(late.send(http_request("GET", "/mcp",
                                       "Accept: text/event-stream\r\nLast-Event-ID: " + priming->id + "\r\n" +
                                           session_headers(sid))));
    auto gone = late.read_response();
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 400);
}

TEST_F(http_fixture, a_server_request_on_the_stream_is_answered_by_post) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(9, "ask"), session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    auto request = sse.next_message();
    ASSERT_TRUE(request);
    ASSERT_EQ(request->at("method"), "elicitation/create");
    raw_client answer(port());
    ASSERT_TRUE(answer.send(http_post(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(request->at("id")) +
                                          R"(,"result":{"action":"accept","content":{"name":"Ada"}}})",
                                      session_headers(sid))));
    auto accepted = answer.read_response();
    ASSERT_TRUE(accepted);
    EXPECT_EQ(accepted->status, 202);
    auto result = sse.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("result").at("content").at(0).at("text"), "Ada");
}

TEST_F(http_fixture, the_standalone_stream_carries_list_changed) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid));
    sse_reader sse(listener);
    ASSERT_TRUE(sse.next()); // priming
    // A second standalone stream is refused.
    raw_client second(port());
    ASSERT_TRUE(
        second.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + session_headers(sid))));
    auto conflict = second.read_response();
    ASSERT_TRUE(conflict);
    EXPECT_EQ(conflict->status, 409);
    mcp_server.add_tool({.name = "late", .input_schema = object{{"type", "object"}}},
                        [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    auto changed = sse.next_message();
    ASSERT_TRUE(changed);
    EXPECT_EQ(changed->at("method"), "notifications/tools/list_changed");
}

TEST_F(http_fixture, what_the_server_sends_before_the_first_get_waits_for_it) {
    // A client opens its standalone stream after notifications/initialized: a server that sends
    // something at once (roots/list from on_initialized, a list_changed) is faster.
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    mcp_server.add_tool({.name = "early", .input_schema = object{{"type", "object"}}},
                        [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid));
    sse_reader sse(listener);
    ASSERT_TRUE(sse.next()); // priming
    auto early = sse.next_message();
    ASSERT_TRUE(early) << "the message sent before the GET was lost";
    EXPECT_EQ(early->at("method"), "notifications/tools/list_changed");
}

TEST_F(http_fixture, a_closed_stream_is_resumed_with_last_event_id) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(11, "poll"), session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    auto priming = sse.next();
    ASSERT_TRUE(priming);
    EXPECT_FALSE(sse.next()); // the server ended the stream before the result
    raw_client resume(port());
    ASSERT_TRUE(resume_after(resume, sid, priming->id));
    sse_reader replay(resume);
    auto result = replay.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("id"), 11);
    EXPECT_EQ(result->at("result").at("content").at(0).at("text"), "after reconnect");
    // An id the session never issued.
    raw_client bogus(port());
    ASSERT_TRUE(bogus.send(http_request(
        "GET", "/mcp", "Accept: text/event-stream\r\nLast-Event-ID: 99-99\r\n" + session_headers(sid))));
    auto refused = bogus.read_response();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
}

TEST_F(http_fixture, a_client_that_disconnects_mid_stream_leaks_nothing) {
    auto events = std::make_shared<mcp::http::memory_event_store>();
    start({.events = events});
    std::string sid;
    {
        raw_client c(port());
        sid = open_session(c);
        ASSERT_TRUE(c.send(http_post(
            R"({"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":1}}})",
            session_headers(sid))));
        ASSERT_TRUE(c.read_head()); // SSE started (progress)
    }                               // the client is gone while the tool runs
    ASSERT_TRUE(eventually([&] { return http->open_streams() == 0; }));
    // Disconnection is not cancellation (initialize era): the request runs on, and its logical
    // stream waits for the client to resume it.
    EXPECT_EQ(http->requests_in_flight(), 1u);
    EXPECT_EQ(http->session_streams(), 1u);
    release_slow.set_value();
    ASSERT_TRUE(eventually([&] { return slow_finished.load() == 1; }));
    // The request finished into the event store: nothing runs, its logical stream is gone, and
    // only its events are left (replayable for replay_window).
    ASSERT_TRUE(eventually([&] { return http->requests_in_flight() == 0; }));
    EXPECT_EQ(http->session_streams(), 0u);
    EXPECT_GT(events->bytes(), 0u);
    // The session's end takes its events with it.
    raw_client c(port());
    ASSERT_TRUE(c.send(http_request("DELETE", "/mcp", "Mcp-Session-Id: " + sid + "\r\n")));
    ASSERT_TRUE(c.read_response());
    EXPECT_EQ(http->sessions(), 0u);
    EXPECT_EQ(mcp_server.sessions().size(), 0u);
    EXPECT_EQ(events->bytes(), 0u);
    ASSERT_TRUE(eventually([&] { return http->open_streams() == 0; }));
}

TEST_F(http_fixture, a_stateless_client_that_disconnects_mid_stream_leaks_nothing) {
    start();
    {
        raw_client c(port());
        ASSERT_TRUE(c.send(http_post(call_body(1, "until_cancelled", "{}", stateless_meta_with_progress),
                                     stateless_headers("tools/call", "until_cancelled"))));
        auto head = c.read_head();
        ASSERT_TRUE(head);
        EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
        sse_reader sse(c);
        auto progress = sse.next_message();
        ASSERT_TRUE(progress);
        EXPECT_EQ(progress->at("method"), "notifications/progress");
        EXPECT_EQ(http->requests_in_flight(), 1u);
    } // closing the stream is the cancellation (2026-07-28)
    ASSERT_TRUE(eventually([&] { return waiting_cancelled.load() == 1; }));
    ASSERT_TRUE(eventually([&] { return http->requests_in_flight() == 0 && http->open_streams() == 0; }));
    EXPECT_EQ(http->session_streams(), 0u);
    EXPECT_EQ(http->sessions(), 0u);
    EXPECT_EQ(mcp_server.sessions().size(), 0u);
    EXPECT_EQ(mcp_server.listeners(), 0u);
}

TEST_F(http_fixture, idle_sessions_expire_and_the_cap_holds) {
    start({.max_sessions = 2, .session_idle_timeout = 300ms, .keep_alive_interval = 50ms});
    raw_client c(port());
    const auto oldest = open_session(c);
    open_session(c);
    // A full table makes way (the least recently used idle session ends) rather than refuse:
    // tests/integration/http_session_eviction_test.cpp has the rest of that policy.
    ASSERT_TRUE(c.send(http_post(initialize_body())));
    auto over = c.read_response();
    ASSERT_TRUE(over);
    EXPECT_EQ(over->status, 200);
    EXPECT_EQ(http->sessions(), 2u);
    ASSERT_TRUE(c.send(http_post(call_body(2, "echo", R"({"text":"x"})"), session_headers(oldest))));
    auto gone = c.read_response();
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 404);
    ASSERT_TRUE(eventually([&] { return http->sessions() == 0; }, 5s));
    EXPECT_EQ(mcp_server.sessions().size(), 0u);
}

TEST_F(http_fixture, stateless_requests_check_their_headers) {
    start();
    raw_client c(port());
    ASSERT_TRUE(c.send(http_post(call_body(1, "echo", R"({"text":"s"})", stateless_meta),
                                 stateless_headers("tools/call", "echo"))));
    auto ok = c.read_response();
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->status, 200);
    EXPECT_FALSE(ok->header("Mcp-Session-Id").has_value());
    EXPECT_EQ(body_json(*ok).at("result").at("resultType"), "complete");

    ASSERT_TRUE(c.send(http_post(call_body(2, "echo", R"({"text":"s"})", stateless_meta),
                                 stateless_headers("tools/call", "other_tool"))));
    auto mismatch = c.read_response();
    ASSERT_TRUE(mismatch);
    EXPECT_EQ(mismatch->status, 400);
    EXPECT_EQ(body_json(*mismatch).at("error").at("code"), -32020);
    EXPECT_EQ(body_json(*mismatch).at("id"), 2);

    ASSERT_TRUE(c.send(
        http_post(R"({"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":)" + stateless_meta + "}}",
                  stateless_headers("ping"))));
    auto removed = c.read_response();
    ASSERT_TRUE(removed);
    EXPECT_EQ(removed->status, 404);
    EXPECT_EQ(body_json(*removed).at("error").at("code"), -32601);

    ASSERT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}})",
                                 stateless_headers("tools/list"))));
    auto no_meta = c.read_response();
    ASSERT_TRUE(no_meta);
    EXPECT_EQ(no_meta->status, 400);
    EXPECT_EQ(body_json(*no_meta).at("error").at("code"), -32602);

    ASSERT_TRUE(c.send(
        http_request("GET", "/mcp", "Accept: text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n")));
    auto get = c.read_response();
    ASSERT_TRUE(get);
    EXPECT_EQ(get->status, 405);
}

TEST_F(http_fixture, a_stateless_listen_stream_ends_when_the_client_leaves) {
    start();
    {
        raw_client c(port());
        ASSERT_TRUE(c.send(http_post(
            R"({"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":)" +
                stateless_meta + "}}",
            stateless_headers("subscriptions/listen"))));
        auto head = c.read_head();
        ASSERT_TRUE(head);
        EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
        sse_reader sse(c);
        auto ack = sse.next_message();
        ASSERT_TRUE(ack);
        EXPECT_EQ(ack->at("method"), "notifications/subscriptions/acknowledged");
        ASSERT_TRUE(eventually([&] { return mcp_server.listeners() == 1; }));
        mcp_server.remove_tool("echo");
        auto changed = sse.next_message();
        ASSERT_TRUE(changed);
        EXPECT_EQ(changed->at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), "L");
    }
    ASSERT_TRUE(eventually([&] { return mcp_server.listeners() == 0 && http->open_streams() == 0; }));
}

TEST_F(http_fixture, without_sessions_every_request_stands_alone) {
    start({.stateful = false});
    raw_client c(port());
    ASSERT_TRUE(c.send(http_post(initialize_body(1, "2025-06-18"))));
    auto init = c.read_response();
    ASSERT_TRUE(init);
    EXPECT_EQ(init->status, 200);
    EXPECT_FALSE(init->header("Mcp-Session-Id").has_value());
    EXPECT_EQ(body_json(*init).at("result").at("protocolVersion"), "2025-06-18");
    ASSERT_TRUE(c.send(
        http_post(call_body(2, "echo", R"({"text":"no session"})"), "MCP-Protocol-Version: 2025-06-18\r\n")));
    auto call = c.read_response();
    ASSERT_TRUE(call);
    EXPECT_EQ(body_json(*call).at("result").at("content").at(0).at("text"), "no session");
    EXPECT_EQ(http->sessions(), 0u);
}

TEST_F(http_fixture, notifications_without_a_session_reach_the_notification_middleware) {
    std::mutex mu;
    std::vector<std::string> seen;
    mcp_server.use_notifications([&](mcp::incoming_notification& n, const mcp::notification_next& next) {
        std::lock_guard l(mu);
        seen.push_back(std::string(n.method()) + (n.stateless() ? " stateless" : " initialize-era") +
                       " from " + (n.origin() ? n.origin()->remote_address : "?"));
        next(n);
    });
    start({.stateful = false});
    raw_client c(port());
    ASSERT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                 "MCP-Protocol-Version: 2025-06-18\r\n")));
    auto first = c.read_response();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->status, 202);
    ASSERT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/dev.example/hello"})",
                                 stateless_headers("notifications/dev.example/hello"))));
    auto second = c.read_response();
    ASSERT_TRUE(second);
    EXPECT_EQ(second->status, 202);
    std::lock_guard l(mu);
    EXPECT_EQ(seen, (std::vector<std::string>{"notifications/initialized initialize-era from 127.0.0.1",
                                              "notifications/dev.example/hello stateless from 127.0.0.1"}));
}

TEST_F(http_fixture, without_sessions_a_2025_03_26_batch_is_served) {
    start({.stateful = false});
    raw_client c(port());
    const std::string v0326 = "MCP-Protocol-Version: 2025-03-26\r\n";
    // Two calls, a notification (no answer), an invalid element (its error, id null): one array.
    ASSERT_TRUE(c.send(http_post("[" + call_body(1, "echo", R"({"text":"a"})") + "," +
                                     call_body(2, "echo", R"({"text":"b"})") +
                                     R"(,{"jsonrpc":"2.0","method":"notifications/initialized"},{"foo":1}])",
                                 v0326)));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->header("Content-Type"), "application/json");
    auto replies = mcp::json::parse(r->body).as_array();
    ASSERT_EQ(replies.size(), 3u) << r->body;
    std::map<std::string, std::string> by_id;
    for (const auto& m : replies) {
        const auto& o = m.as_object();
        if (o.at("id").is_null())
            by_id["null"] = std::to_string(o.at("error").at("code").as_int64());
        else
            by_id[std::to_string(o.at("id").as_int64())] =
                std::string(o.at("result").at("content").at(0).at("text").as_string());
    }
    EXPECT_EQ(by_id, (std::map<std::string, std::string>{{"1", "a"}, {"2", "b"}, {"null", "-32600"}}));
    // A request that sends progress first: the answer becomes a stream of every message.
    ASSERT_TRUE(c.send(http_post("[" + call_body(3, "progress", "{}", R"({"progressToken":"p"})") + "," +
                                     call_body(4, "echo", R"({"text":"c"})") + "]",
                                 v0326)));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    sse_reader sse(c);
    std::set<std::string> seen;
    while (auto m = sse.next_message())
        seen.insert(m->contains("method") ? std::string(m->at("method").as_string())
                                          : "reply " + std::to_string(m->at("id").as_int64()));
    EXPECT_EQ(seen, (std::set<std::string>{"notifications/progress", "reply 3", "reply 4"}));
    // Notifications only: 202. initialize inside a batch, or a batch of 2025-06-18: refused.
    raw_client d(port());
    ASSERT_TRUE(d.send(http_post(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])", v0326)));
    auto accepted = d.read_response();
    ASSERT_TRUE(accepted);
    EXPECT_EQ(accepted->status, 202);
    ASSERT_TRUE(d.send(http_post("[" + initialize_body(5, "2025-03-26") + "]", v0326)));
    auto init = d.read_response();
    ASSERT_TRUE(init);
    EXPECT_EQ(mcp::json::parse(init->body).at(0).at("error").at("code"), -32600);
    ASSERT_TRUE(d.send(http_post("[" + call_body(6, "echo", R"({"text":"x"})") + "]",
                                 "MCP-Protocol-Version: 2025-06-18\r\n")));
    auto newer = d.read_response();
    ASSERT_TRUE(newer);
    EXPECT_EQ(newer->status, 400);
    EXPECT_EQ(body_json(*newer).at("error").at("code"), -32600);
}

TEST_F(http_fixture, legacy_http_sse_transport) {
    start({.legacy_sse = true});
    raw_client stream(port());
    const auto endpoint = open_legacy_stream(stream);
    ASSERT_EQ(endpoint.rfind("/messages?sessionId=", 0), 0u);
    raw_client poster(port());
    ASSERT_TRUE(poster.send(legacy_post(endpoint, initialize_body(1, "2024-11-05"))));
    auto accepted = poster.read_response();
    ASSERT_TRUE(accepted);
    EXPECT_EQ(accepted->status, 202);
    sse_reader sse(stream);
    auto result = sse.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("result").at("protocolVersion"), "2024-11-05");
    EXPECT_EQ(http->sessions(), 1u);
    stream.close(); // the stream is the session
    ASSERT_TRUE(eventually([&] { return http->sessions() == 0; }));
}

// Each request names its user in X-User (a stand-in for a bearer token).
mcp::http::auth_decision user_header_auth(const mcp::http::request_info& info) {
    const auto* user = info.header("X-User");
    if (!user) return {.accepted = false, .message = "Unauthorized: no X-User"};
    return {.principal = *user};
}

TEST_F(http_fixture, a_session_belongs_to_the_principal_that_created_it) {
    start({.legacy_sse = true, .authenticate = user_header_auth});
    raw_client c(port());
    ASSERT_TRUE(c.send(http_post(initialize_body(), "X-User: alice\r\n")));
    auto init = c.read_response();
    ASSERT_TRUE(init);
    const auto sid = init->header("Mcp-Session-Id");
    ASSERT_TRUE(sid);
    const auto as = [&](const std::string& user) {
        return "X-User: " + user + "\r\n" + session_headers(*sid);
    };
    // Another user with alice's session id: as if there were no such session, for every method.
    ASSERT_TRUE(c.send(http_post(call_body(2, "echo", R"({"text":"x"})"), as("mallory"))));
    auto post = c.read_response();
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 404);
    ASSERT_TRUE(c.send(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + as("mallory"))));
    auto get = c.read_response();
    ASSERT_TRUE(get);
    EXPECT_EQ(get->status, 404);
    ASSERT_TRUE(c.send(http_request("DELETE", "/mcp", as("mallory"))));
    auto del = c.read_response();
    ASSERT_TRUE(del);
    EXPECT_EQ(del->status, 404);
    EXPECT_EQ(http->sessions(), 1u);
    // Alice still has it.
    ASSERT_TRUE(c.send(http_post(call_body(3, "echo", R"({"text":"mine"})"), as("alice"))));
    auto mine = c.read_response();
    ASSERT_TRUE(mine);
    EXPECT_EQ(body_json(*mine).at("result").at("content").at(0).at("text"), "mine");

    // The legacy transport: the POST endpoint of alice's stream refuses mallory.
    raw_client stream(port());
    const auto endpoint = open_legacy_stream(stream, "X-User: alice\r\n");
    ASSERT_FALSE(endpoint.empty());
    raw_client poster(port());
    ASSERT_TRUE(poster.send(legacy_post(endpoint, initialize_body(1, "2024-11-05"), "X-User: mallory\r\n")));
    auto refused = poster.read_response();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 404);
}

TEST_F(http_fixture, stop_finishes_requests_in_progress) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(20, "slow"), session_headers(sid))));
    ASSERT_TRUE(eventually([&] { return slow_started.load() == 1; })); // in progress, not merely sent
    std::thread stopper([&] { http->stop(5s); });
    std::this_thread::sleep_for(100ms);
    // New work is refused while stopping; the slow call still completes.
    try {
        raw_client late(port());
        if (late.send(http_post(initialize_body()))) {
            auto r = late.read_response();
            if (r) {
                EXPECT_EQ(r->status, 503);
            }
        }
    } catch (const std::system_error&) {
        // refused at connect: also a refusal
    }
    release_slow.set_value();
    std::optional<mcp::test::response> r;
    r = c.read_response();
    stopper.join();
    ASSERT_TRUE(r);
    EXPECT_NE(r->body.find("slow done"), std::string::npos);
    EXPECT_EQ(http->sessions(), 0u);
}

} // namespace
