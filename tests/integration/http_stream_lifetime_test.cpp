// How long the SSE streams of mcp::http::server live, on a real socket: SSE polling (priming
// events, streams ended before their response) only for a session of 2025-11-25; keep-alive
// comments on every response that stays open; a listening client keeps its session from idle
// expiry; stop() ends the standing streams at once and still finishes requests in progress; a
// Last-Event-ID the store no longer holds is 400.
#include "support/http_server_fixture.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace std::chrono_literals;
using namespace mcp::test;
using mcp::json::object;

namespace {

const std::string accept_sse = "Accept: text/event-stream\r\n";

/// Read chunks until one holds an SSE comment (": keep-alive"), and say whether one came
/// before any message (a priming event, which has empty data, may come first) or the end.
bool keep_alive_comes_next(raw_client& c) {
    for (;;) {
        auto chunk = c.read_chunk();
        if (!chunk || chunk->empty()) return false;
        if (chunk->rfind(": keep-alive", 0) == 0) return true;
        if (chunk->find("data: {") != std::string::npos) return false;
    }
}

void add_a_tool(mcp::server& s, const std::string& name) {
    s.add_tool({.name = name, .input_schema = object{{"type", "object"}}},
               [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
}

// ------------------------------------------------------------------ SSE polling by revision

TEST_F(http_fixture, a_2025_06_18_session_gets_no_priming_event_and_a_polled_stream_stays_open) {
    start();
    raw_client c(port());
    const auto sid = open_session(c, "2025-06-18");
    // The tool reports progress (so its answer is an SSE stream), then asks to end the
    // connection: a client of 2025-06-18 knows no polling, so the stream stays open.
    ASSERT_TRUE(c.send(http_post(call_body(2, "poll", "{}", R"({"progressToken":"p"})"),
                                 session_headers(sid, "2025-06-18"))));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    sse_reader sse(c);
    auto first = sse.next();
    ASSERT_TRUE(first);
    ASSERT_FALSE(first->data.empty()) << "a priming event: " << first->id;
    EXPECT_FALSE(first->retry.has_value());
    EXPECT_EQ(mcp::json::parse(first->data).at("method"), "notifications/progress");
    EXPECT_FALSE(first->id.empty()); // still resumable from any message
    auto result = sse.next();
    ASSERT_TRUE(result);
    EXPECT_EQ(mcp::json::parse(result->data).at("result").at("content").at(0).at("text"), "after reconnect");
    EXPECT_TRUE(ends_cleanly(c));

    // The standalone stream: its first event is a message too.
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid, "2025-06-18"));
    add_a_tool(mcp_server, "late");
    sse_reader standalone(listener);
    auto changed = standalone.next();
    ASSERT_TRUE(changed);
    ASSERT_FALSE(changed->data.empty());
    EXPECT_EQ(mcp::json::parse(changed->data).at("method"), "notifications/tools/list_changed");
}

TEST_F(http_fixture, a_2025_11_25_session_polls) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(
        c.send(http_post(call_body(2, "poll", "{}", R"({"progressToken":"p"})"), session_headers(sid))));
    ASSERT_TRUE(c.read_head());
    sse_reader sse(c);
    auto priming = sse.next();
    ASSERT_TRUE(priming);
    EXPECT_TRUE(priming->data.empty());
    EXPECT_EQ(priming->retry, 1000);
    auto progress = sse.next_message();
    ASSERT_TRUE(progress);
    EXPECT_EQ(progress->at("method"), "notifications/progress");
    EXPECT_FALSE(sse.next()); // the server ended the connection before the result
    raw_client resume(port());
    ASSERT_TRUE(resume_after(resume, sid, priming->id));
    sse_reader replay(resume);
    auto replayed = replay.next_message();
    ASSERT_TRUE(replayed);
    EXPECT_EQ(replayed->at("method"), "notifications/progress");
    auto result = replay.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("id"), 2);

    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid));
    sse_reader standalone(listener);
    auto standalone_priming = standalone.next();
    ASSERT_TRUE(standalone_priming);
    EXPECT_TRUE(standalone_priming->data.empty());
    EXPECT_EQ(standalone_priming->retry, 1000);
}

TEST_F(http_fixture, a_last_event_id_the_store_evicted_is_400) {
    // Room for a few small events per session: the oldest go as new ones come.
    auto events = std::make_shared<mcp::http::memory_event_store>(600);
    start({.events = events});
    raw_client c(port());
    const auto sid = open_session(c);
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid));
    sse_reader standalone(listener);
    auto priming = standalone.next();
    ASSERT_TRUE(priming);
    for (int i = 0; i < 8; ++i) {
        add_a_tool(mcp_server, "tool" + std::to_string(i));
        ASSERT_TRUE(standalone.next_message());
    }
    raw_client resume(port());
    ASSERT_TRUE(resume.send(http_request(
        "GET", "/mcp", accept_sse + "Last-Event-ID: " + priming->id + "\r\n" + session_headers(sid))));
    auto refused = resume.read_response();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 400);
    EXPECT_EQ(body_json(*refused).at("error").at("code"), -32600);
    EXPECT_NE(body_json(*refused).at("error").at("message").as_string().find(priming->id), std::string::npos);
}

// ------------------------------------------------------------------ keep-alive

TEST_F(http_fixture, every_open_response_gets_keep_alive_comments) {
    start({.keep_alive_interval = 50ms});
    // A 2026-07-28 call that reported progress, then says nothing for a long time.
    raw_client chatty(port());
    ASSERT_TRUE(chatty.send(http_post(call_body(1, "slow", "{}", stateless_meta_with_progress),
                                      stateless_headers("tools/call", "slow"))));
    ASSERT_TRUE(chatty.read_head());
    sse_reader progress(chatty);
    auto reported = progress.next_message();
    ASSERT_TRUE(reported);
    EXPECT_EQ(reported->at("method"), "notifications/progress");
    EXPECT_TRUE(keep_alive_comes_next(chatty));
    // A 2026-07-28 call that says nothing at all: after an interval its answer becomes an SSE
    // stream, so that it can carry comments.
    raw_client silent(port());
    ASSERT_TRUE(silent.send(
        http_post(call_body(2, "slow", "{}", stateless_meta), stateless_headers("tools/call", "slow"))));
    auto head = silent.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->status, 200);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    EXPECT_TRUE(keep_alive_comes_next(silent));
    // The same for a request of a session.
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(3, "slow"), session_headers(sid))));
    auto session_head = c.read_head();
    ASSERT_TRUE(session_head);
    EXPECT_EQ(session_head->header("Content-Type"), "text/event-stream");
    EXPECT_TRUE(keep_alive_comes_next(c));
    // Each still ends with its result.
    release_slow.set_value();
    for (auto* client : {&chatty, &silent, &c}) {
        sse_reader sse(*client);
        std::optional<object> last;
        while (auto m = sse.next_message()) last = m;
        ASSERT_TRUE(last);
        EXPECT_EQ(last->at("result").at("content").at(0).at("text"), "slow done");
    }
}

TEST_F(http_fixture, json_only_responses_stay_json_however_long_they_take) {
    start({.responses = mcp::http::server_options::response_mode::json, .keep_alive_interval = 50ms});
    raw_client c(port());
    const auto sid = open_session(c);
    ASSERT_TRUE(c.send(http_post(call_body(2, "slow"), session_headers(sid))));
    ASSERT_TRUE(eventually([&] { return slow_started.load() == 1; }));
    EXPECT_TRUE(c.silent_for(300ms)); // several intervals: no head, no comment
    release_slow.set_value();
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->header("Content-Type"), "application/json");
    EXPECT_EQ(body_json(*r).at("result").at("content").at(0).at("text"), "slow done");
}

// ------------------------------------------------------------------ idle expiry

TEST_F(http_fixture, a_client_that_only_listens_keeps_its_session) {
    constexpr auto idle_timeout = 500ms; // ten ticks: a loaded machine does not miss them all
    start({.session_idle_timeout = idle_timeout, .keep_alive_interval = 50ms});
    raw_client c(port());
    const auto listening = open_session(c);
    const auto idle = open_session(c);
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, listening));
    // The session without a stream expires; the other one outlives several timeouts.
    ASSERT_TRUE(eventually([&] { return http->sessions() == 1; }));
    std::this_thread::sleep_for(3 * idle_timeout);
    EXPECT_EQ(http->sessions(), 1u);
    add_a_tool(mcp_server, "late");
    sse_reader sse(listener);
    auto changed = sse.next_message();
    ASSERT_TRUE(changed);
    EXPECT_EQ(changed->at("method"), "notifications/tools/list_changed");
    ASSERT_TRUE(
        c.send(http_post(call_body(2, "echo", R"({"text":"still here"})"), session_headers(listening))));
    auto alive = c.read_response();
    ASSERT_TRUE(alive);
    EXPECT_EQ(alive->status, 200);
    ASSERT_TRUE(c.send(http_post(call_body(3, "echo", R"({"text":"gone"})"), session_headers(idle))));
    auto expired = c.read_response();
    ASSERT_TRUE(expired);
    EXPECT_EQ(expired->status, 404);
    // Once the client stops listening, the session is idle like any other.
    listener.close();
    ASSERT_TRUE(eventually([&] { return http->sessions() == 0; }));
}

// ------------------------------------------------------------------ stop

TEST_F(http_fixture, stop_ends_standing_streams_at_once_and_finishes_requests_in_progress) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    raw_client listener(port()); // the session's standalone stream
    ASSERT_TRUE(open_standalone(listener, sid));
    raw_client subscriber(port()); // a 2026-07-28 listen stream
    ASSERT_TRUE(subscriber.send(http_post(listen_body(), stateless_headers("subscriptions/listen"))));
    ASSERT_TRUE(subscriber.read_head());
    sse_reader acknowledged(subscriber);
    ASSERT_TRUE(acknowledged.next_message());
    ASSERT_TRUE(c.send(http_post(call_body(2, "slow"), session_headers(sid))));
    ASSERT_TRUE(eventually([&] { return slow_started.load() == 1; }));

    const auto began = std::chrono::steady_clock::now();
    std::thread stopper([&] { http->stop(10s); });
    // The standing streams end cleanly while the call still runs.
    EXPECT_TRUE(ends_cleanly(listener));
    sse_reader listen_end(subscriber);
    auto listen_result = listen_end.next_message();
    ASSERT_TRUE(listen_result);
    EXPECT_EQ(listen_result->at("id"), "L");
    EXPECT_TRUE(listen_result->contains("result"));
    EXPECT_TRUE(ends_cleanly(subscriber));
    EXPECT_EQ(slow_finished.load(), 0);
    listener.close();
    subscriber.close();
    // The call in progress still gets its answer.
    release_slow.set_value();
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(body_json(*r).at("result").at("content").at(0).at("text"), "slow done");
    c.close();
    stopper.join();
    // A bound on a hang (the grace was 10 s), not a benchmark.
    EXPECT_LT(std::chrono::steady_clock::now() - began, 2s);
    EXPECT_EQ(http->sessions(), 0u);
}

TEST_F(http_fixture, stop_with_only_a_standalone_stream_open_returns_at_once) {
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    c.close();
    raw_client listener(port());
    ASSERT_TRUE(open_standalone(listener, sid));
    const auto began = std::chrono::steady_clock::now();
    std::thread stopper([&] { http->stop(10s); });
    EXPECT_TRUE(ends_cleanly(listener));
    listener.close();
    stopper.join();
    EXPECT_LT(std::chrono::steady_clock::now() - began, 2s);
}

} // namespace
