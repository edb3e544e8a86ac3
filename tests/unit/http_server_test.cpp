// The HTTP/1.1 server core (src/http, mcp::http::core) over real sockets on 127.0.0.1: framing,
// keep-alive, pipelining, limits and the server's own error answers, timeouts, streams, client
// disconnects, slow consumers, abandoned writers, graceful stop, many connections, two I/O
// threads. The client side is plain POSIX sockets with a small hand-written response reader, so
// the bytes on the wire are what is tested.
#include "http/connection_budget.hpp"
#include "http/http_server.hpp"
#include "support/raw_http_client.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
namespace core = mcp::http::core;

namespace {

using mcp::test::can_connect;
using mcp::test::eventually;
using mcp::test::io_timeout;
using mcp::test::raw_client;
using mcp::test::response;

std::string get(std::string_view target, std::string_view extra = "") {
    return "GET " + std::string(target) + " HTTP/1.1\r\nHost: test\r\n" + std::string(extra) + "\r\n";
}

std::string post(std::string_view target, std::string_view body, std::string_view extra = "") {
    return "POST " + std::string(target) +
           " HTTP/1.1\r\nHost: test\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
           std::string(extra) + "\r\n" + std::string(body);
}

// Threads started by handlers; joined when the test ends (after the server is gone).
struct thread_bag {
    std::mutex mu;
    std::vector<std::thread> threads;
    template <class F> void spawn(F&& f) {
        std::lock_guard lk(mu);
        threads.emplace_back(std::forward<F>(f));
    }
    ~thread_bag() {
        std::lock_guard lk(mu);
        for (auto& t : threads) t.join();
    }
};

// A one-shot signal.
struct latch {
    std::mutex mu;
    std::condition_variable cv;
    bool set = false;
    void notify() {
        std::lock_guard lk(mu);
        set = true;
        cv.notify_all();
    }
    bool wait(std::chrono::milliseconds d = io_timeout) {
        std::unique_lock lk(mu);
        return cv.wait_for(lk, d, [&] { return set; });
    }
};

// Answers "<METHOD> <target> <body>" with Content-Type text/plain.
void echo(core::request&& r, std::shared_ptr<core::response_writer> w) {
    w->respond(200, {{"Content-Type", "text/plain"}}, r.method + " " + r.target + " " + r.body);
}

// What a server logs, kept for the test to read (the sink is called on an I/O thread).
struct log_capture {
    std::mutex mu;
    std::vector<std::string> lines;
    std::function<void(std::string_view)> sink() {
        return [this](std::string_view line) {
            std::lock_guard lk(mu);
            lines.emplace_back(line);
        };
    }
    std::vector<std::string> containing(std::string_view part) {
        std::lock_guard lk(mu);
        std::vector<std::string> out;
        for (const auto& l : lines)
            if (l.find(part) != std::string::npos) out.push_back(l);
        return out;
    }
};

core::server_options quick_options() {
    core::server_options o;
    o.header_timeout = 2s;
    o.body_timeout = 2s;
    o.idle_timeout = 2s;
    return o;
}

// ---- basics ----

TEST(http_server, get_and_post_with_content_length) {
    core::request seen;
    std::mutex mu;
    core::server srv(quick_options(), [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        {
            std::lock_guard lk(mu);
            seen = r;
        }
        echo(std::move(r), std::move(w));
    });
    srv.start();
    ASSERT_NE(srv.port(), 0);
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/hello?x=1", "X-Custom: Value\r\n")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->version, "HTTP/1.1");
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->reason, "OK");
    EXPECT_EQ(r->body, "GET /hello?x=1 ");
    EXPECT_EQ(r->header("Content-Length"), "15");
    EXPECT_TRUE(r->header("Date"));
    EXPECT_FALSE(r->header("Connection")); // HTTP/1.1 keep-alive is implicit
    {
        std::lock_guard lk(mu);
        EXPECT_EQ(seen.version, 11);
        EXPECT_EQ(seen.remote_address, "127.0.0.1");
        EXPECT_NE(seen.remote_port, 0);
        EXPECT_EQ(seen.header("x-custom"), "Value");
        EXPECT_EQ(seen.headers.front().first, "Host"); // names keep their case
    }

    ASSERT_TRUE(c.send(post("/mcp", "{\"jsonrpc\":\"2.0\"}", "Content-Type: application/json\r\n")));
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "POST /mcp {\"jsonrpc\":\"2.0\"}");
}

TEST(http_server, keep_alive_serves_two_requests_on_one_connection) {
    core::server srv(quick_options(), echo);
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/one")));
    auto r1 = c.read_response();
    ASSERT_TRUE(r1);
    EXPECT_EQ(r1->body, "GET /one ");
    ASSERT_TRUE(c.send(post("/two", "x")));
    auto r2 = c.read_response();
    ASSERT_TRUE(r2);
    EXPECT_EQ(r2->body, "POST /two x");
    EXPECT_EQ(srv.open_connections(), 1u);
}

TEST(http_server, pipelined_requests_are_answered_in_order) {
    std::promise<std::shared_ptr<core::response_writer>> slow;
    std::atomic<int> calls{0};
    core::server srv(quick_options(), [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        ++calls;
        if (r.target == "/slow")
            slow.set_value(std::move(w)); // answered later, from the test thread
        else
            echo(std::move(r), std::move(w));
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/slow") + post("/b", "body-b") + get("/c")));
    auto fut = slow.get_future();
    ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    auto w = fut.get();
    // The next request is not even parsed until the first response is out.
    EXPECT_TRUE(c.silent_for(20ms));
    EXPECT_EQ(calls.load(), 1);
    w->respond(200, {}, "slow");
    auto r1 = c.read_response();
    auto r2 = c.read_response();
    auto r3 = c.read_response();
    ASSERT_TRUE(r1 && r2 && r3);
    EXPECT_EQ(r1->body, "slow");
    EXPECT_EQ(r2->body, "POST /b body-b");
    EXPECT_EQ(r3->body, "GET /c ");
    EXPECT_EQ(calls.load(), 3);
}

TEST(http_server, chunked_request_body_is_decoded) {
    core::server srv(quick_options(), echo);
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n"));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "POST /c hello world");

    // The same request trickling in a few bytes at a time.
    const std::string req = "POST /d HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "3\r\nabc\r\n1\r\nd\r\n0\r\n\r\n";
    for (std::size_t i = 0; i < req.size(); i += 7) {
        ASSERT_TRUE(c.send(std::string_view(req).substr(i, 7)));
        std::this_thread::sleep_for(1ms);
    }
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "POST /d abcd");

    // The body one byte at a time (the last chunk arriving in pieces once tripped an assertion
    // inside Beast's parser).
    ASSERT_TRUE(c.send("POST /e HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"));
    for (char ch : std::string_view("2\r\nxy\r\n0\r\nTrailer: 1\r\n\r\n")) {
        ASSERT_TRUE(c.send(std::string_view(&ch, 1)));
        std::this_thread::sleep_for(1ms);
    }
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "POST /e xy");
}

TEST(http_server, expect_100_continue_gets_an_interim_response) {
    core::server srv(quick_options(), echo);
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"));
    auto interim = c.read_head();
    ASSERT_TRUE(interim);
    EXPECT_EQ(interim->status, 100);
    ASSERT_TRUE(c.send("12345"));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "POST /up 12345");
}

TEST(http_server, head_request_gets_no_body) {
    core::server srv(quick_options(), [](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->respond(200, {}, "hello");
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send("HEAD / HTTP/1.1\r\nHost: t\r\n\r\n"));
    auto r = c.read_response(true);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->header("Content-Length"), "5");
    // No body bytes follow: the next response starts right away.
    ASSERT_TRUE(c.send(get("/")));
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "hello");
}

TEST(http_server, server_owns_framing_and_connection_fields) {
    core::server srv(quick_options(), [](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target == "/204") {
            w->respond(204, {{"X-A", "1"}}, "ignored");
            return;
        }
        w->respond(201, {{"Content-Length", "999"}, {"Transfer-Encoding", "chunked"}, {"X-B", "2"}}, "abc");
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 201);
    EXPECT_EQ(r->header("Content-Length"), "3");
    EXPECT_FALSE(r->chunked);
    EXPECT_EQ(r->header("X-B"), "2");
    EXPECT_EQ(r->body, "abc");
    ASSERT_TRUE(c.send(get("/204")));
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 204);
    EXPECT_FALSE(r->header("Content-Length"));
    EXPECT_EQ(r->header("X-A"), "1");
    ASSERT_TRUE(c.send(get("/")));
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 201); // nothing of "ignored" was sent
}

TEST(http_server, connection_close_from_client_or_handler_closes_after_the_response) {
    core::server srv(quick_options(), [](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target == "/bye")
            w->respond(200, {{"Connection", "close"}}, "bye");
        else
            w->respond(200, {}, "ok");
    });
    srv.start();
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get("/", "Connection: close\r\n") + get("/ignored")));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->header("Connection"), "close");
        EXPECT_TRUE(c.wait_eof());
    }
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get("/bye")));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->body, "bye");
        EXPECT_EQ(r->header("Connection"), "close");
        EXPECT_TRUE(c.wait_eof());
    }
    EXPECT_TRUE(eventually([&] { return srv.open_connections() == 0; }));
}

TEST(http_server, http10_closes_unless_keep_alive_and_streams_unframed) {
    core::server srv(quick_options(), [](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target == "/stream") {
            w->start_stream(200, {});
            w->write("part1,");
            w->write("part2");
            w->end();
            return;
        }
        w->respond(200, {}, "v" + std::to_string(r.version));
    });
    srv.start();
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send("GET / HTTP/1.0\r\n\r\n")); // no Host needed
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->version, "HTTP/1.1");
        EXPECT_EQ(r->body, "v10");
        EXPECT_EQ(r->header("Connection"), "close");
        EXPECT_TRUE(c.wait_eof());
    }
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->header("Connection"), "keep-alive");
        ASSERT_TRUE(c.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        r = c.read_response(); // no framing: the body ends with the connection
        ASSERT_TRUE(r);
        EXPECT_FALSE(r->chunked);
        EXPECT_FALSE(r->header("Content-Length"));
        EXPECT_EQ(r->body, "part1,part2");
    }
}

// ---- the server's own error answers ----

// Sends `bytes`, expects `status` followed by the connection closing, and no handler call.
void expect_error(core::server_options o, const std::string& bytes, int status) {
    std::atomic<int> calls{0};
    core::server srv(std::move(o), [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        ++calls;
        echo(std::move(r), std::move(w));
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(bytes));
    auto r = c.read_response();
    ASSERT_TRUE(r) << "no response to: " << bytes.substr(0, 80);
    EXPECT_EQ(r->status, status) << bytes.substr(0, 80);
    EXPECT_EQ(r->header("Connection"), "close");
    EXPECT_TRUE(c.wait_eof());
    EXPECT_EQ(calls.load(), 0);
}

TEST(http_server, body_over_limit_by_content_length_is_413) {
    auto o = quick_options();
    o.max_body_bytes = 16;
    // Answered at once, before any body byte is sent (also with Expect: no 100 first).
    expect_error(o, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n", 413);
    expect_error(o, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 17\r\nExpect: 100-continue\r\n\r\n", 413);
}

TEST(http_server, chunked_body_growing_over_limit_is_413) {
    auto o = quick_options();
    o.max_body_bytes = 16;
    expect_error(o,
                 "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "a\r\n0123456789\r\na\r\n0123456789\r\n0\r\n\r\n",
                 413);
}

TEST(http_server, huge_header_is_431) {
    auto o = quick_options();
    o.max_header_bytes = 1024;
    expect_error(o, "GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n", 431);
}

TEST(http_server, malformed_requests_are_400) {
    expect_error(quick_options(), "BLAH\r\n\r\n", 400);
    expect_error(quick_options(), "GET / HTTP/1.1\r\n\r\n", 400);                       // no Host
    expect_error(quick_options(), "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400); // two Hosts
    expect_error(quick_options(), "GET / HTTP/1.1\r\nHost: a\r\nBad Field: x\r\n\r\n", 400);
    // Request smuggling: both framings.
    expect_error(
        quick_options(),
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400);
}

TEST(http_server, unknown_transfer_encoding_is_501_and_http2_is_505) {
    expect_error(quick_options(), "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501);
    expect_error(quick_options(), "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                 501);
    expect_error(quick_options(), "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505);
    expect_error(quick_options(), "GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505);
    expect_error(quick_options(), "GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400);
}

TEST(http_server, incomplete_head_or_body_times_out_with_408) {
    auto o = quick_options();
    o.header_timeout = 100ms;
    o.body_timeout = 100ms;
    core::server srv(o, echo);
    srv.start();
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send("GET / HTTP/1.1\r\nHo"));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 408);
        EXPECT_TRUE(c.wait_eof());
    }
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc"));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 408);
        EXPECT_TRUE(c.wait_eof());
    }
    {
        // A connection that never sends anything is closed without a response.
        raw_client c(srv.port());
        EXPECT_TRUE(c.wait_eof());
        EXPECT_TRUE(c.buffered().empty());
    }
}

TEST(http_server, idle_kept_alive_connection_is_closed) {
    auto o = quick_options();
    o.idle_timeout = 100ms;
    core::server srv(o, echo);
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    ASSERT_TRUE(c.read_response());
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(c.wait_eof());
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 80ms);
    EXPECT_TRUE(eventually([&] { return srv.open_connections() == 0; }));
}

TEST(http_server, over_max_connections_is_503) {
    auto o = quick_options();
    o.max_connections = 2;
    core::server srv(o, echo);
    srv.start();
    raw_client a(srv.port()), b(srv.port());
    ASSERT_TRUE(a.send(get("/a")) && b.send(get("/b")));
    ASSERT_TRUE(a.read_response() && b.read_response()); // both accepted and counted
    EXPECT_EQ(srv.open_connections(), 2u);
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get("/c")));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 503);
        EXPECT_TRUE(c.wait_eof());
    }
    EXPECT_EQ(srv.open_connections(), 2u);
    a.close();
    ASSERT_TRUE(eventually([&] { return srv.open_connections() == 1; }));
    raw_client d(srv.port());
    ASSERT_TRUE(d.send(get("/d")));
    auto r = d.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

// One address holding its whole share of connections (idle, never sending a byte) is refused
// at once, without its request being read, while a client from another address is served.
TEST(http_server, one_address_over_its_cap_is_refused_while_another_is_served) {
    auto o = quick_options();
    o.header_timeout = 10s;
    o.max_connections = 100;
    o.max_connections_per_address = 3;
    log_capture logged;
    o.log = logged.sink();
    core::server srv(o, echo);
    srv.start();
    std::vector<std::unique_ptr<raw_client>> held;
    for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<raw_client>(srv.port()));
    ASSERT_TRUE(eventually([&] { return srv.open_connections() == 3; }));
    const auto began = std::chrono::steady_clock::now();
    for (int i = 0; i < 5; ++i) {
        raw_client over(srv.port());
        auto r = over.read_response(); // nothing sent: the answer comes without a request
        ASSERT_TRUE(r) << i;
        EXPECT_EQ(r->status, 503);
        EXPECT_EQ(r->header("Connection"), "close");
        EXPECT_EQ(r->header("Retry-After"), "1");
        EXPECT_NE(r->body.find("max_connections_per_address"), std::string::npos) << r->body;
        EXPECT_TRUE(over.wait_eof());
    }
    {
        raw_client other(srv.port(), 0, "127.0.0.2");
        ASSERT_TRUE(other.send(get("/other")));
        auto r = other.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_EQ(r->body, "GET /other ");
    }
    // A slot given back is a slot for the same address again.
    held.pop_back();
    ASSERT_TRUE(eventually([&] { return srv.open_connections() == 2; }));
    raw_client again(srv.port());
    ASSERT_TRUE(again.send(get("/again")));
    auto r = again.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    srv.stop();
    const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    // Five refusals: a line at the first, then at most one a second, the rest at stop. On a
    // loaded machine the five may span seconds: the lines' counts add up to five, in at most
    // one line more than the seconds they took.
    const auto refusal_lines = logged.containing("refused connections");
    ASSERT_GE(refusal_lines.size(), 2u);
    EXPECT_LE(refusal_lines.size(), static_cast<std::size_t>(std::ceil(elapsed)) + 1) << elapsed << " s";
    EXPECT_NE(refusal_lines[0].find(" 1 over max_connections_per_address (3)"), std::string::npos)
        << refusal_lines[0];
    int total = 0;
    for (const auto& line : refusal_lines) {
        const auto at = line.find(" over max_connections_per_address (3)");
        ASSERT_NE(at, std::string::npos) << line;
        total += std::stoi(line.substr(line.rfind(' ', at - 1) + 1));
    }
    EXPECT_EQ(total, 5);
}

// accept() out of descriptors (the limit lowered after start, below what the clamp planned):
// the waiting clients are accepted with the spare descriptor, told 503 and closed, instead of
// waiting in the backlog; once descriptors are free the server accepts again, and says so.
TEST(http_server, out_of_descriptors_waiting_clients_are_told_503) {
    auto o = quick_options();
    o.header_timeout = 10s;
    o.raise_descriptor_limit = false;
    log_capture logged;
    o.log = logged.sink();
    core::server srv(o, echo);
    srv.start();
    // The clients live in this process too: their sockets are made before the limit drops.
    constexpr int clients = 24;
    std::vector<int> fds;
    for (int i = 0; i < clients; ++i) fds.push_back(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    std::size_t used = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++used;
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = used + 4; // room for a few accepted connections, then EMFILE
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(srv.port());
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int fd : fds) ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    // The refusals are written at once: wait until all but the few the limit lets in have one.
    const auto answered = [&] {
        int n = 0;
        for (int fd : fds) {
            pollfd p{fd, POLLIN, 0};
            n += ::poll(&p, 1, 0) == 1;
        }
        return n;
    };
    EXPECT_TRUE(eventually([&] { return answered() >= clients - 8; }, 10s)) << answered();
    int silent = 0, told = 0;
    for (int fd : fds) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 0) != 1) {
            ++silent; // accepted, waiting for its request
            continue;
        }
        char buf[512] = {};
        const auto n = ::recv(fd, buf, sizeof buf - 1, 0);
        const std::string got(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
        EXPECT_NE(got.find("HTTP/1.1 503"), std::string::npos) << got;
        EXPECT_NE(got.find("out of file descriptors"), std::string::npos) << got;
        ++told;
    }
    ::setrlimit(RLIMIT_NOFILE, &saved);
    for (int fd : fds) ::close(fd);
    EXPECT_GE(told, clients - 8) << "silent: " << silent;
    EXPECT_LE(silent, 8);
    // Descriptors again: served.
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/after")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    srv.stop();
    EXPECT_EQ(logged.containing("accept failed").size(), 1u);
    EXPECT_EQ(logged.containing("accepting again").size(), 1u);
}

// max_connections is fitted under the descriptor limit, with a reserve for the rest of the
// process; the soft limit is raised toward the hard limit only as far as needed.
TEST(connection_budget, fits_the_descriptor_limit) {
    using mcp::http::core::detail::plan_connections;
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
    auto kept = plan_connections(10000, 0, false);
    EXPECT_LT(kept.max_connections + kept.max_rejecting + mcp::http::core::detail::reserved_descriptors(1024),
              1025u);
    EXPECT_GT(kept.max_connections, 500u);
    EXPECT_EQ(kept.per_address, kept.max_connections / 8);
    EXPECT_EQ(plan_connections(40, 0, false).per_address, 40u);  // small: the whole
    EXPECT_EQ(plan_connections(300, 0, false).per_address, 64u); // at least 64
    EXPECT_NE(kept.note.find("lowered"), std::string::npos) << kept.note;
    rlimit now{};
    ::getrlimit(RLIMIT_NOFILE, &now);
    EXPECT_EQ(now.rlim_cur, 1024u);
    EXPECT_EQ(plan_connections(100, 500, false).per_address, 100u);
    EXPECT_EQ(plan_connections(100, 0, false).note, ""); // 100 fit: nothing to say
    if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max > 2000) {
        auto raised = plan_connections(1000, 0, true);
        ::getrlimit(RLIMIT_NOFILE, &now);
        EXPECT_GT(now.rlim_cur, 1024u);
        EXPECT_LE(now.rlim_cur, saved.rlim_max);
        EXPECT_EQ(raised.max_connections, 1000u) << raised.note;
        EXPECT_NE(raised.note.find("raised"), std::string::npos);
    }
    ::setrlimit(RLIMIT_NOFILE, &saved);
}

// ---- streams ----

TEST(http_server, streamed_response_written_from_another_thread) {
    thread_bag bag;
    latch closed;
    core::server srv(quick_options(), [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target != "/events") {
            echo(std::move(r), std::move(w));
            return;
        }
        w->on_close([&] { closed.notify(); });
        EXPECT_TRUE(w->start_stream(200, {{"Content-Type", "text/event-stream"}}));
        EXPECT_FALSE(w->start_stream(200, {})); // only once
        bag.spawn([w] {
            for (std::string s : {"data: a\n\n", "data: bb\n\n", "data: ccc\n\n"}) {
                EXPECT_TRUE(w->write(s));
                std::this_thread::sleep_for(1ms);
            }
            EXPECT_TRUE(w->write("")); // no-op, not the end
            w->end();
            w->end(); // idempotent
            EXPECT_FALSE(w->write("late"));
            EXPECT_TRUE(w->closed());
        });
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/events")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(r->chunked);
    EXPECT_FALSE(r->header("Content-Length"));
    EXPECT_EQ(r->header("Content-Type"), "text/event-stream");
    EXPECT_EQ(r->body, "data: a\n\ndata: bb\n\ndata: ccc\n\n");
    EXPECT_GE(r->chunks.size(), 1u);
    EXPECT_TRUE(closed.wait());
    EXPECT_EQ(srv.open_streams(), 0u);
    // The connection is kept alive after the stream.
    ASSERT_TRUE(c.send(get("/after")));
    r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "GET /after ");
}

TEST(http_server, client_disconnect_mid_stream_runs_on_close) {
    std::promise<std::shared_ptr<core::response_writer>> writer;
    latch closed;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->on_close([&] { closed.notify(); });
        w->start_stream(200, {{"Content-Type", "text/event-stream"}});
        w->write("first");
        writer.set_value(std::move(w));
    });
    srv.start();
    auto fut = writer.get_future();
    {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get("/")));
        auto head = c.read_head();
        ASSERT_TRUE(head);
        EXPECT_EQ(c.read_chunk(), "first");
        ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
        EXPECT_EQ(srv.open_streams(), 1u);
    } // closed mid-stream
    EXPECT_TRUE(closed.wait());
    EXPECT_EQ(srv.open_streams(), 0u);
    auto w = fut.get();
    EXPECT_TRUE(w->closed());
    EXPECT_FALSE(w->write("more"));
    bool ran = false;
    w->on_close([&] { ran = true; }); // already over: runs at once
    EXPECT_TRUE(ran);
    EXPECT_TRUE(eventually([&] { return srv.open_connections() == 0; }));
}

// A stream writer producing 16 KiB chunks at a steady pace until write() refuses or `chunks`
// were written (then end()). Returns how many were accepted, through `accepted`.
struct paced_writer {
    latch closed;
    std::atomic<int> accepted{0};
    std::atomic<bool> refused{false};
    std::atomic<bool> finished{false};
    thread_bag bag; // after what its threads use: joined first

    core::handler handler(int chunks, std::chrono::microseconds pause) {
        return [this, chunks, pause](core::request&&, std::shared_ptr<core::response_writer> w) {
            w->on_close([this] { closed.notify(); });
            w->start_stream(200, {});
            bag.spawn([this, w, chunks, pause] {
                const std::string chunk(16 * 1024, 'x');
                for (int i = 0; i < chunks; ++i) {
                    if (!w->write(chunk)) {
                        refused = true;
                        return;
                    }
                    ++accepted;
                    std::this_thread::sleep_for(pause);
                }
                w->end();
                finished = true;
            });
        };
    }
};

TEST(http_server, request_pipelined_behind_a_stream_waits_for_its_end) {
    std::promise<std::shared_ptr<core::response_writer>> writer;
    core::server srv(quick_options(), [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target != "/stream") {
            echo(std::move(r), std::move(w));
            return;
        }
        w->start_stream(200, {});
        w->write("s1");
        writer.set_value(std::move(w));
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/stream") + get("/next")));
    ASSERT_TRUE(c.read_head());
    EXPECT_EQ(c.read_chunk(), "s1");
    auto fut = writer.get_future();
    ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    auto w = fut.get();
    EXPECT_TRUE(c.silent_for(20ms));
    EXPECT_TRUE(w->write("s2"));
    w->end();
    EXPECT_EQ(c.read_chunk(), "s2");
    EXPECT_EQ(c.read_chunk(), ""); // the last chunk
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "GET /next ");
}

TEST(http_server, half_close_while_waiting_counts_as_gone) {
    std::promise<std::shared_ptr<core::response_writer>> writer;
    latch closed;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->on_close([&] { closed.notify(); });
        writer.set_value(std::move(w));
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto fut = writer.get_future();
    ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    c.shutdown_write();
    EXPECT_TRUE(closed.wait());
    auto w = fut.get();
    EXPECT_TRUE(w->closed());
    w->respond(200, {}, "too late"); // ignored
    EXPECT_EQ(c.read_until_eof(), "");
}

TEST(http_server, slow_consumer_is_cut_off_at_the_queue_bound) {
    paced_writer pw;
    auto o = quick_options();
    o.max_stream_queue_bytes = 256 * 1024;
    std::mutex log_mu;
    std::vector<std::string> log;
    o.log = [&](std::string_view line) {
        std::lock_guard lock(log_mu);
        log.emplace_back(line);
    };
    // 64 MiB offered: far more than the socket buffers of a client that never reads can hold.
    core::server srv(o, pw.handler(4096, 100us));
    srv.start();
    raw_client c(srv.port(), 4096); // a small receive window, and it never reads
    ASSERT_TRUE(c.send(get("/stream?secret=1")));
    EXPECT_TRUE(pw.closed.wait());
    EXPECT_TRUE(eventually([&] { return pw.refused.load(); }));
    EXPECT_LT(pw.accepted.load(), 4096);
    EXPECT_EQ(srv.open_streams(), 0u);
    EXPECT_TRUE(eventually([&] { return srv.open_connections() == 0; }));
    EXPECT_TRUE(c.wait_eof());
    std::lock_guard lock(log_mu);
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].rfind("closed the connection of 127.0.0.1:", 0), 0u) << log[0];
    EXPECT_NE(log[0].find(" (GET /stream): it stopped reading its response: "), std::string::npos)
        << "method and path, never the query: " << log[0];
    EXPECT_NE(log[0].find("over max_stream_queue_bytes (262144)"), std::string::npos) << log[0];
}

TEST(http_server, a_write_larger_than_the_bound_goes_when_only_the_head_waits) {
    // A replay of stored events is one write, possibly larger than the bound: it is queued
    // right behind the head, which does not count.
    auto o = quick_options();
    o.max_stream_queue_bytes = 16 * 1024;
    const std::string big(256 * 1024, 'r');
    core::server srv(o, [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->start_stream(200, {});
        EXPECT_TRUE(w->write(big));
        w->end();
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, big);
}

TEST(http_server, reading_consumer_is_not_cut_off) {
    paced_writer pw;
    auto o = quick_options();
    // 1.6 MiB in total, well over the bound; the bound leaves the I/O thread 64 ms of slack on
    // a loaded machine.
    o.max_stream_queue_bytes = 1024 * 1024;
    core::server srv(o, pw.handler(100, 1ms));
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body.size(), 100u * 16 * 1024);
    EXPECT_TRUE(eventually([&] { return pw.finished.load(); }));
    EXPECT_FALSE(pw.refused.load());
    EXPECT_TRUE(pw.closed.wait());
}

// ---- handler mistakes ----

TEST(http_server, dropped_or_throwing_handler_gets_500) {
    core::server srv(quick_options(), [](core::request&& r, std::shared_ptr<core::response_writer>) {
        if (r.target == "/throw") throw std::runtime_error("boom");
        // dropped unanswered
    });
    srv.start();
    for (const char* target : {"/drop", "/throw"}) {
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get(target)));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 500) << target;
        EXPECT_EQ(r->header("Connection"), "close") << target;
        EXPECT_TRUE(c.wait_eof());
    }
}

TEST(http_server, dropped_stream_is_cut_and_on_close_still_runs) {
    latch closed;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->on_close([&] { closed.notify(); });
        w->start_stream(200, {});
        w->write("partial");
        // dropped mid-stream
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(c.read_chunk(), "partial");
    EXPECT_TRUE(c.wait_eof()); // no terminating chunk: the truncation is visible
    EXPECT_TRUE(closed.wait());
    EXPECT_EQ(srv.open_streams(), 0u);
}

TEST(http_server, bad_status_or_header_throws_invalid_argument) {
    std::atomic<int> thrown{0};
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        auto expect_throw = [&](auto fn) {
            try {
                fn();
            } catch (const std::invalid_argument&) {
                ++thrown;
            }
        };
        expect_throw([&] { w->respond(200, {{"X-Bad", "a\r\nInjected: 1"}}, "x"); });
        expect_throw([&] { w->respond(200, {{"X-Bad", std::string("a\0b", 3)}}, "x"); });
        expect_throw([&] { w->respond(200, {{"Bad Name", "v"}}, "x"); });
        expect_throw([&] { w->respond(200, {{"", "v"}}, "x"); });
        expect_throw([&] { w->respond(99, {}, "x"); });
        expect_throw([&] { w->respond(1000, {}, "x"); });
        expect_throw([&] { w->start_stream(200, {{"X-Bad", "\n"}}); });
        expect_throw([&] { w->start_stream(204, {}); });
        EXPECT_FALSE(w->closed()); // nothing was sent
        w->respond(200, {{"X-Good", "v"}}, "fine");
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "fine");
    EXPECT_FALSE(r->header("Injected"));
    EXPECT_EQ(thrown.load(), 8);
}

TEST(http_server, stop_from_an_io_thread_throws_logic_error) {
    core::server* self = nullptr;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        try {
            self->stop();
            w->respond(200, {}, "stopped?");
        } catch (const std::logic_error&) {
            w->respond(200, {}, "logic_error");
        }
    });
    self = &srv;
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/")));
    auto r = c.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "logic_error");
}

// ---- lifecycle ----

TEST(http_server, start_errors) {
    core::server a(quick_options(), echo);
    a.start();
    EXPECT_THROW(a.start(), std::logic_error);
    auto o = quick_options();
    o.port = a.port();
    core::server b(o, echo);
    try {
        b.start();
        ADD_FAILURE() << "two servers on one port";
    } catch (const std::system_error& e) {
        EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(a.port())), std::string::npos)
            << e.what();
    }
    o.address = "not-an-address";
    core::server c(o, echo);
    EXPECT_THROW(c.start(), std::system_error);
    EXPECT_EQ(c.port(), 0);
}

TEST(http_server, stop_lets_an_in_flight_response_finish) {
    std::promise<std::shared_ptr<core::response_writer>> writer;
    latch closed;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->on_close([&] { closed.notify(); });
        writer.set_value(std::move(w));
    });
    srv.start();
    const auto port = srv.port();
    raw_client idle(port);
    raw_client busy(port);
    ASSERT_TRUE(busy.send(get("/slow")));
    auto fut = writer.get_future();
    ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    auto w = fut.get();

    auto t0 = std::chrono::steady_clock::now();
    std::thread stopper([&] { srv.stop(3s); });
    // Once stop has begun, new connections are refused and the idle one is closed...
    EXPECT_TRUE(eventually([&] { return !can_connect(port); }));
    EXPECT_TRUE(idle.wait_eof());
    // ...but the request in progress is still answered, with Connection: close.
    EXPECT_FALSE(w->closed());
    w->respond(200, {}, "late but complete");
    auto r = busy.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->body, "late but complete");
    EXPECT_EQ(r->header("Connection"), "close");
    EXPECT_TRUE(busy.wait_eof());
    busy.close();
    stopper.join();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s); // did not wait for the whole grace
    EXPECT_TRUE(closed.wait(0ms));
    EXPECT_EQ(srv.open_connections(), 0u);
    srv.stop(); // idempotent
}

TEST(http_server, stop_closes_an_endless_stream_after_grace) {
    thread_bag bag;
    latch closed;
    std::promise<std::shared_ptr<core::response_writer>> writer;
    core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
        w->on_close([&] { closed.notify(); });
        w->start_stream(200, {});
        bag.spawn([w] {
            while (w->write("tick\n")) std::this_thread::sleep_for(2ms);
        });
        writer.set_value(std::move(w));
    });
    srv.start();
    raw_client c(srv.port());
    ASSERT_TRUE(c.send(get("/forever")));
    ASSERT_TRUE(c.read_head());
    EXPECT_EQ(c.read_chunk(), "tick\n");
    auto fut = writer.get_future();
    ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    auto w = fut.get();
    auto t0 = std::chrono::steady_clock::now();
    srv.stop(150ms);
    auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_GE(took, 140ms);
    EXPECT_LT(took, 1s);
    EXPECT_TRUE(closed.wait(0ms));
    EXPECT_EQ(srv.open_streams(), 0u);
    EXPECT_EQ(srv.open_connections(), 0u);
    EXPECT_TRUE(c.wait_eof());
    // The writer outlives the server harmlessly.
    EXPECT_FALSE(w->write("after stop"));
    w->end();
    EXPECT_TRUE(w->closed());
}

TEST(http_server, writer_kept_past_server_destruction) {
    std::promise<std::shared_ptr<core::response_writer>> writer;
    auto fut = writer.get_future();
    {
        core::server srv(quick_options(), [&](core::request&&, std::shared_ptr<core::response_writer> w) {
            writer.set_value(std::move(w));
        });
        srv.start();
        raw_client c(srv.port());
        ASSERT_TRUE(c.send(get("/")));
        ASSERT_EQ(fut.wait_for(io_timeout), std::future_status::ready);
    } // ~server: stop(0)
    auto w = fut.get();
    EXPECT_TRUE(w->closed());
    w->respond(200, {}, "nobody listens"); // ignored
    EXPECT_FALSE(w->start_stream(200, {}));
}

// ---- load and threads ----

void many_connections(std::size_t threads, int connections, int requests_per_connection) {
    thread_bag bag;
    auto o = quick_options();
    o.threads = threads;
    // Connecting them all can take longer than 2 s under TSan: the first must not idle out.
    o.header_timeout = o.idle_timeout = mcp::test::scaled(o.idle_timeout);
    core::server srv(o, [&](core::request&& r, std::shared_ptr<core::response_writer> w) {
        if (r.target.rfind("/async", 0) == 0) { // answered from another thread
            bag.spawn([w, t = r.target] { w->respond(200, {}, t); });
            return;
        }
        if (r.target.rfind("/stream", 0) == 0) {
            w->start_stream(200, {});
            bag.spawn([w, t = r.target] {
                w->write(t);
                w->write("!");
                w->end();
            });
            return;
        }
        w->respond(200, {}, r.target);
    });
    srv.start();
    std::vector<std::unique_ptr<raw_client>> clients;
    for (int i = 0; i < connections; ++i) clients.push_back(std::make_unique<raw_client>(srv.port()));
    const char* kinds[] = {"/inline", "/async", "/stream"};
    for (int round = 0; round < requests_per_connection; ++round) {
        for (int i = 0; i < connections; ++i)
            ASSERT_TRUE(clients[i]->send(get(std::string(kinds[(i + round) % 3]) + "/" + std::to_string(i))));
        for (int i = 0; i < connections; ++i) {
            auto r = clients[i]->read_response();
            ASSERT_TRUE(r) << i;
            const std::string expected = std::string(kinds[(i + round) % 3]) + "/" + std::to_string(i);
            EXPECT_EQ(r->body, (i + round) % 3 == 2 ? expected + "!" : expected);
        }
    }
    EXPECT_EQ(srv.open_connections(), static_cast<std::size_t>(connections));
    clients.clear();
    EXPECT_TRUE(eventually([&] { return srv.open_connections() == 0; }));
    EXPECT_EQ(srv.open_streams(), 0u);
}

TEST(http_server, two_hundred_concurrent_connections) {
    many_connections(1, 200, 2);
}

TEST(http_server, two_io_threads) {
    many_connections(2, 100, 3);
}

} // namespace
