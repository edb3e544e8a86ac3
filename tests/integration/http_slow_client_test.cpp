// Clients of mcp::http::server that stop reading an SSE stream while the server keeps sending
// (server_options::max_stream_queue_bytes): on a real socket with a tiny receive buffer, each
// such stream's connection is closed at the bound with one line on the log hook, and what
// follows is the stream's own rule - a session's stream is resumable from the event store, a
// 2026-07-28 request is cancelled, a listen stream ends, an HTTP+SSE session ends. No sender
// blocks, other clients are served, and the server's counters show nothing left behind.
#include "support/http_server_fixture.hpp"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using namespace mcp::test;
using mcp::json::object;

namespace {

constexpr std::size_t kib = 1024;
constexpr std::size_t stream_bound = 64 * kib;
constexpr int tiny_receive_buffer = 4096;
constexpr std::size_t event_size = 16 * kib;
// At most this many events of event_size are offered (64 MiB): far more than the socket
// buffers of a client that reads nothing can hold, so the bound is always reached first.
constexpr int max_events = 4096;

/// A 2026-07-28 subscriptions/listen request for updates of `uri`, with id "L".
std::string listen_to_resource_body(const std::string& uri) {
    return R"({"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":[")" +
           uri + R"("]},"_meta":)" + stateless_meta + "}}";
}

struct http_slow_client : http_fixture {
    std::mutex log_mu;
    std::vector<std::string> log_lines;
    std::atomic<bool> cut_off{false};
    std::atomic<int> floods_ended{0};
    std::atomic<int> floods_cancelled{0};
    std::promise<void> flood_go;
    std::shared_future<void> flood_may_go = flood_go.get_future().share();
    /// A resource URI as long as an event, so that each resources/updated is a big event.
    const std::string long_uri = "mem://" + std::string(event_size, 'u');

    void SetUp() override {
        http_fixture::SetUp();
        // Progress 0 ("started"), and once the test lets it go (its client has read that far),
        // progress notifications of event_size bytes until the server logged a cut-off (or,
        // with {"untilCancelled": true}, until the request is cancelled).
        mcp_server.add_tool({.name = "flood", .input_schema = object{{"type", "object"}}},
                            [this](const object& args, mcp::context& ctx) {
                                const bool until_cancelled = args.contains("untilCancelled");
                                ctx.progress(0, std::nullopt, "started");
                                flood_may_go.wait_for(10s);
                                const std::string message(event_size, 'x');
                                for (int i = 1; i <= max_events && !ctx.cancelled(); ++i) {
                                    if (!until_cancelled && cut_off) break;
                                    ctx.progress(i, std::nullopt, message);
                                }
                                if (ctx.cancelled()) ++floods_cancelled;
                                ++floods_ended;
                                return mcp::call_tool_result{.content = {mcp::text("flooded")}};
                            });
        mcp_server.add_resource({.uri = long_uri, .name = "long"}, [](const std::string& uri, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = uri, .text = "L"}}};
        });
    }

    void TearDown() override {
        release_flood();
        http_fixture::TearDown();
    }

    void release_flood() {
        try {
            flood_go.set_value();
        } catch (const std::future_error&) { // released already
        }
    }

    /// Read the flood's first notification ("started") off `sse`, then let it flood.
    void start_flood_after_started(sse_reader& sse) {
        auto started = sse.next_message();
        ASSERT_TRUE(started);
        EXPECT_EQ(started->at("params").at("message"), "started");
        release_flood();
    }

    /// Small bounds, a log hook that records, and (for resumption) an event store that keeps
    /// everything the floods send.
    mcp::http::server_options options() {
        mcp::http::server_options o;
        o.max_stream_queue_bytes = stream_bound;
        o.log = [this](std::string_view line) {
            {
                std::lock_guard lock(log_mu);
                log_lines.emplace_back(line);
            }
            cut_off = true;
        };
        o.events =
            std::make_shared<mcp::http::memory_event_store>(std::size_t{256} << 20, std::size_t{256} << 20);
        return o;
    }

    /// The one line logged, checked for what it must name.
    void expect_one_cut_off_line(const std::string& request) {
        std::lock_guard lock(log_mu);
        ASSERT_EQ(log_lines.size(), 1u);
        const auto& line = log_lines[0];
        EXPECT_EQ(line.rfind("closed the connection of 127.0.0.1:", 0), 0u) << line;
        EXPECT_NE(line.find("(" + request + "): it stopped reading its response: "), std::string::npos)
            << line;
        EXPECT_NE(line.find("over max_stream_queue_bytes (65536)"), std::string::npos) << line;
        EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    }

    /// Log big messages to every session from this thread until the server cut a client off.
    /// Returns whether it did (each log() returned: a client that does not read blocks nobody).
    bool log_until_cut_off() {
        const mcp::json::value big = mcp::json::string(std::string(event_size, 'y'));
        for (int i = 0; i < max_events && !cut_off; ++i) mcp_server.log(mcp::logging_level::info, big);
        return eventually([&] { return cut_off.load(); });
    }

    /// A new client's echo call on session `sid` is answered.
    void expect_echo(const std::string& sid, int id) {
        raw_client c(port());
        ASSERT_TRUE(
            c.send(http_post(call_body(id, "echo", R"({"text":"still here"})"), session_headers(sid))));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_EQ(body_json(*r).at("result").at("content").at(0).at("text"), "still here");
    }
};

TEST_F(http_slow_client, a_request_stream_is_cut_off_and_resumed_from_the_event_store) {
    start(options());
    raw_client c(port());
    const auto sid = open_session(c);
    raw_client slow(port(), tiny_receive_buffer);
    ASSERT_TRUE(
        slow.send(http_post(call_body(2, "flood", "{}", R"({"progressToken":"f"})"), session_headers(sid))));
    auto head = slow.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    sse_reader sse(slow);
    const auto priming = sse.next();
    ASSERT_TRUE(priming);
    ASSERT_TRUE(priming->data.empty());
    start_flood_after_started(sse);
    // From here on `slow` reads nothing while the tool floods its stream.
    ASSERT_TRUE(eventually([&] { return cut_off.load(); }, 30s)) << "the stream grew without bound";
    expect_one_cut_off_line("POST /mcp");
    EXPECT_TRUE(slow.wait_eof()) << "the connection of the stream stays open";
    ASSERT_TRUE(eventually([&] { return http->open_streams() == 0; }));
    // Disconnection is not cancellation: the tool ran to its end (never blocked) into the store.
    ASSERT_TRUE(eventually([&] { return floods_ended == 1 && http->requests_in_flight() == 0; }));
    EXPECT_EQ(floods_cancelled, 0);
    EXPECT_EQ(http->sessions(), 1u);

    // The client resumes from the priming event: every progress notification, then the result.
    raw_client resume(port());
    ASSERT_TRUE(resume_after(resume, sid, priming->id));
    sse_reader replay(resume);
    int progress = 0;
    std::optional<object> result;
    while (auto m = replay.next_message()) {
        if (m->contains("id")) {
            result = std::move(*m);
            break;
        }
        EXPECT_EQ(m->at("method"), "notifications/progress");
        EXPECT_EQ(m->at("params").at("progress").to_number<int>(), progress);
        ++progress;
    }
    ASSERT_TRUE(result) << "after " << progress << " progress notifications";
    EXPECT_EQ(result->at("id"), 2);
    EXPECT_EQ(result->at("result").at("content").at(0).at("text"), "flooded");
    EXPECT_GT(progress, 0);
    EXPECT_TRUE(ends_cleanly(resume));
    EXPECT_TRUE(eventually([&] { return http->session_streams() == 0 && http->open_streams() == 0; }));
    expect_echo(sid, 3);
}

TEST_F(http_slow_client, a_standalone_stream_is_cut_off_and_its_session_goes_on) {
    start(options());
    raw_client c(port());
    const auto sid = open_session(c);
    const auto other_sid = open_session(c); // a second session, listening and reading
    raw_client slow(port(), tiny_receive_buffer);
    ASSERT_TRUE(open_standalone(slow, sid));
    sse_reader sse(slow);
    const auto priming = sse.next();
    ASSERT_TRUE(priming);
    ASSERT_TRUE(log_until_cut_off()) << "the stream grew without bound";
    expect_one_cut_off_line("GET /mcp");
    EXPECT_TRUE(slow.wait_eof());
    ASSERT_TRUE(eventually([&] { return http->open_streams() == 0; }));
    EXPECT_EQ(http->sessions(), 2u);
    EXPECT_EQ(http->session_streams(), 0u);
    // The session serves requests, and its standalone stream resumes where the client stopped.
    expect_echo(sid, 2);
    expect_echo(other_sid, 2);
    raw_client resume(port());
    ASSERT_TRUE(resume_after(resume, sid, priming->id));
    sse_reader replay(resume);
    auto first = replay.next_message();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->at("method"), "notifications/message");
    EXPECT_EQ(http->open_streams(), 1u);
}

TEST_F(http_slow_client, a_stateless_request_stream_is_cut_off_and_its_request_cancelled) {
    start(options());
    raw_client slow(port(), tiny_receive_buffer);
    ASSERT_TRUE(
        slow.send(http_post(call_body(1, "flood", R"({"untilCancelled":true})", stateless_meta_with_progress),
                            stateless_headers("tools/call", "flood"))));
    auto head = slow.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    sse_reader sse(slow);
    start_flood_after_started(sse);
    ASSERT_TRUE(eventually([&] { return cut_off.load(); }, 30s)) << "the stream grew without bound";
    expect_one_cut_off_line("POST /mcp");
    EXPECT_TRUE(slow.wait_eof());
    // Closing a 2026-07-28 request's stream is its cancellation.
    ASSERT_TRUE(eventually([&] { return floods_cancelled == 1; }));
    ASSERT_TRUE(eventually([&] { return http->requests_in_flight() == 0 && http->open_streams() == 0; }));
    EXPECT_EQ(http->sessions(), 0u);
    raw_client other(port());
    ASSERT_TRUE(other.send(http_post(call_body(2, "echo", R"({"text":"s"})", stateless_meta),
                                     stateless_headers("tools/call", "echo"))));
    auto r = other.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

TEST_F(http_slow_client, a_listen_stream_is_cut_off_and_ends) {
    start(options());
    raw_client slow(port(), tiny_receive_buffer);
    ASSERT_TRUE(
        slow.send(http_post(listen_to_resource_body(long_uri), stateless_headers("subscriptions/listen"))));
    auto head = slow.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    ASSERT_TRUE(eventually([&] { return mcp_server.listeners() == 1; }));
    for (int i = 0; i < max_events && !cut_off; ++i) mcp_server.notify_resource_updated(long_uri);
    ASSERT_TRUE(eventually([&] { return cut_off.load(); })) << "the stream grew without bound";
    expect_one_cut_off_line("POST /mcp");
    EXPECT_TRUE(slow.wait_eof());
    ASSERT_TRUE(eventually([&] { return mcp_server.listeners() == 0 && http->open_streams() == 0; }));
}

TEST_F(http_slow_client, an_http_sse_session_whose_client_stops_reading_ends) {
    auto o = options();
    o.legacy_sse = true;
    start(std::move(o));
    raw_client slow(port(), tiny_receive_buffer);
    const auto endpoint = open_legacy_stream(slow);
    ASSERT_EQ(endpoint.rfind("/messages?sessionId=", 0), 0u);
    raw_client poster(port());
    for (const auto& body : {initialize_body(1, "2024-11-05"),
                             std::string(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")}) {
        ASSERT_TRUE(poster.send(legacy_post(endpoint, body)));
        auto accepted = poster.read_response();
        ASSERT_TRUE(accepted);
        EXPECT_EQ(accepted->status, 202);
    }
    ASSERT_TRUE(eventually(
        [&] { return !mcp_server.sessions().empty() && mcp_server.sessions()[0]->initialized(); }));
    ASSERT_TRUE(log_until_cut_off()) << "the stream grew without bound";
    expect_one_cut_off_line("GET /sse");
    EXPECT_TRUE(slow.wait_eof());
    // The stream is the session.
    ASSERT_TRUE(eventually(
        [&] { return http->sessions() == 0 && mcp_server.sessions().empty() && http->open_streams() == 0; }));
}

} // namespace
