// fd_stream_transport and stdio_transport over real pipes and sockets: framing at the byte
// level, the coalescing writer, and the close / lifetime rules every transport must keep.
#include <mcp/transport/fd_stream.hpp>
#include <mcp/transport/line_framer.hpp>
#include <mcp/transport/stdio.hpp>

#include <gtest/gtest.h>

#include "support/pipe_pair.hpp"
#include "support/transport_collector.hpp"

#include <atomic>
#include <condition_variable>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;

namespace {

using mcp::test::collector;
using mcp::test::pipe_pair;

void write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        auto n = ::write(fd, data.data(), data.size());
        ASSERT_GT(n, 0);
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

int thread_count() {
    // ThreadSanitizer starts a thread of its own at the first pthread_create of the process: one
    // thread started (and joined) before the first count keeps it out of the differences.
    static const bool runtime_threads_started = [] {
        std::thread([] {}).join();
        return true;
    }();
    (void)runtime_threads_started;
    int n = 0;
    if (DIR* d = ::opendir("/proc/self/task")) {
        while (auto* e = ::readdir(d))
            if (e->d_name[0] != '.') ++n;
        ::closedir(d);
    }
    return n;
}

bool wait_threads(int at_most, std::chrono::milliseconds t = 3000ms) {
    const auto deadline = std::chrono::steady_clock::now() + t;
    while (thread_count() > at_most) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

// A transport reading from a pipe the test writes to (and writing to /dev/null).
struct reading_fixture {
    collector c; // outlives the transport
    pipe_pair in;
    int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    std::shared_ptr<mcp::fd_stream_transport> t = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{in.release(0), devnull, true, "test"});
    reading_fixture() {}
    void start() { t->start(c.handler()); }
    void feed(std::string_view s) { write_all(in.fd[1], s); }
    void eof() { in.close_end(1); }
};

TEST(transport_fd_stream, splits_lines_across_reads_with_crlf_and_empty_lines) {
    reading_fixture f;
    f.start();
    f.feed("{\"a\":1}\r\n\n\r\n{\"b\"");
    std::this_thread::sleep_for(20ms);
    f.feed(":2}\n{\"c\":3}\n");
    f.eof();
    ASSERT_TRUE(f.c.wait_closed());
    EXPECT_EQ(f.c.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    EXPECT_TRUE(f.c.errors.empty());
    EXPECT_EQ(f.c.closes, 1);
}

TEST(transport_fd_stream, byte_by_byte_input) {
    reading_fixture f;
    f.start();
    const std::string text = "{\"x\":\"hello\"}\r\n{\"y\":[1,2,3]}\n";
    for (char ch : text) f.feed(std::string_view(&ch, 1));
    f.eof();
    ASSERT_TRUE(f.c.wait_closed());
    EXPECT_EQ(f.c.lines, (std::vector<std::string>{"{\"x\":\"hello\"}", "{\"y\":[1,2,3]}"}));
}

TEST(transport_fd_stream, a_ten_mib_line_is_discarded_with_an_error_and_reading_goes_on) {
    reading_fixture f;
    f.t->set_max_message_size(1 << 20);
    f.start();
    std::thread writer([&] {
        f.feed("{\"before\":1}\n");
        const std::string chunk(64 * 1024, 'x');
        for (int i = 0; i < 160; ++i) f.feed(chunk); // 10 MiB, no newline yet
        f.feed("\n{\"after\":2}\n");
        f.eof();
    });
    ASSERT_TRUE(f.c.wait_closed(20000ms));
    writer.join();
    EXPECT_EQ(f.c.lines, (std::vector<std::string>{"{\"before\":1}", "{\"after\":2}"}));
    ASSERT_EQ(f.c.errors.size(), 1u);
    EXPECT_NE(f.c.errors[0].find("message of 10485760 bytes exceeds the limit of 1048576 bytes"),
              std::string::npos)
        << f.c.errors[0];
}

TEST(transport_fd_stream, eof_in_the_middle_of_a_message_is_an_error_then_close) {
    reading_fixture f;
    f.start();
    f.feed("{\"whole\":1}\n{\"cut");
    f.eof();
    ASSERT_TRUE(f.c.wait_closed());
    EXPECT_EQ(f.c.lines, std::vector<std::string>{"{\"whole\":1}"});
    ASSERT_EQ(f.c.errors.size(), 1u);
    EXPECT_NE(f.c.errors[0].find("stream ended in the middle of a message"), std::string::npos)
        << f.c.errors[0];
    EXPECT_EQ(f.c.closes, 1);
}

TEST(transport_fd_stream, coalescing_writer_with_eight_concurrent_senders) {
    pipe_pair out;
    auto t = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{-1, out.release(1), true, "w"});
    // The test reads the other end and counts the read() calls it needed.
    std::string received;
    std::thread reader([&] {
        char buf[1 << 16];
        for (;;) {
            auto n = ::read(out.fd[0], buf, sizeof buf);
            if (n <= 0) break;
            received.append(buf, static_cast<std::size_t>(n));
        }
    });
    constexpr int senders = 8, per_sender = 5000;
    std::vector<std::thread> threads;
    for (int s = 0; s < senders; ++s)
        threads.emplace_back([&, s] {
            for (int i = 0; i < per_sender; ++i)
                t->send("{\"s\":" + std::to_string(s) + ",\"i\":" + std::to_string(i) + ",\"pad\":\"" +
                        std::string(static_cast<std::size_t>(i % 300), 'p') + "\"}");
        });
    for (auto& th : threads) th.join();
    t->close(); // the write end closes: the reader sees EOF
    reader.join();
    std::vector<int> next(senders, 0);
    std::size_t pos = 0, count = 0;
    while (pos < received.size()) {
        auto nl = received.find('\n', pos);
        ASSERT_NE(nl, std::string::npos);
        std::string line = received.substr(pos, nl - pos);
        pos = nl + 1;
        int s = -1, i = -1;
        ASSERT_EQ(std::sscanf(line.c_str(), "{\"s\":%d,\"i\":%d", &s, &i), 2) << line;
        ASSERT_GE(s, 0);
        ASSERT_LT(s, senders);
        ASSERT_EQ(i, next[static_cast<std::size_t>(s)])
            << "sender " << s; // per-sender order, no loss, no dup
        ASSERT_EQ(line, "{\"s\":" + std::to_string(s) + ",\"i\":" + std::to_string(i) + ",\"pad\":\"" +
                            std::string(static_cast<std::size_t>(i % 300), 'p') + "\"}");
        ++next[static_cast<std::size_t>(s)];
        ++count;
    }
    EXPECT_EQ(count, static_cast<std::size_t>(senders * per_sender));
}

TEST(transport_fd_stream, close_wakes_a_reader_blocked_on_a_silent_pipe_and_joins_it) {
    const int before = thread_count();
    {
        reading_fixture f; // the test keeps the write end open: read() would block forever
        f.start();
        f.feed("{\"a\":1}\n");
        ASSERT_TRUE(f.c.wait_lines(1));
        f.t->close();
        EXPECT_TRUE(f.c.wait_closed(2000ms));
        f.t.reset();
        EXPECT_EQ(f.c.closes, 1);
    }
    EXPECT_TRUE(wait_threads(before)) << "the reader thread outlived the transport";
}

TEST(transport_fd_stream, destructor_without_close_joins_the_reader) {
    const int before = thread_count();
    reading_fixture f;
    f.start();
    f.t.reset();
    EXPECT_TRUE(wait_threads(before)) << "the reader thread outlived the transport";
}

TEST(transport_fd_stream, on_close_never_overlaps_an_on_message_in_progress) {
    reading_fixture f;
    f.c.message_delay = 300ms;
    f.start();
    f.feed("{\"slow\":1}\n");
    while (!f.c.in_message) std::this_thread::sleep_for(1ms);
    f.t->close(); // from another thread while the reader is inside on_message
    ASSERT_TRUE(f.c.wait_closed());
    EXPECT_FALSE(f.c.close_during_message) << "on_close ran while on_message was still running";
    EXPECT_EQ(f.c.lines.size(), 1u);
}

TEST(transport_fd_stream, close_and_send_from_inside_on_message) {
    pipe_pair in, out;
    auto t = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{in.release(0), out.release(1), true, "re-entrant"});
    std::atomic<int> closes{0};
    std::atomic<int> messages{0};
    mcp::transport_handler h;
    h.on_message = [&](mcp::jsonrpc::incoming_message&& message) {
        const std::string_view m = message.text;
        ++messages;
        t->send(std::string("echo:") + std::string(m));
        if (m == "\"stop\"") t->close();
    };
    h.on_close = [&] { ++closes; };
    t->start(h);
    write_all(in.fd[1], "\"one\"\n\"stop\"\n\"never\"\n");
    // The echo of both messages arrives, then EOF (close() closed the write side).
    std::string got;
    char buf[256];
    for (;;) {
        pollfd p{out.fd[0], POLLIN, 0};
        ASSERT_GT(::poll(&p, 1, 3000), 0) << "no EOF after close()";
        auto n = ::read(out.fd[0], buf, sizeof buf);
        if (n <= 0) break;
        got.append(buf, static_cast<std::size_t>(n));
    }
    EXPECT_EQ(got, "echo:\"one\"\necho:\"stop\"\n");
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (closes == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(closes, 1);
    EXPECT_EQ(messages, 2);
    t->close(); // idempotent
    EXPECT_EQ(closes, 1);
}

TEST(transport_fd_stream, the_last_reference_dropped_inside_on_close) {
    pipe_pair in;
    int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    auto holder =
        std::make_shared<std::shared_ptr<mcp::transport>>(std::make_shared<mcp::fd_stream_transport>(
            mcp::fd_stream_transport::options{in.release(0), devnull, true, "t"}));
    std::atomic<bool> done{false};
    mcp::transport_handler h;
    h.on_message = [](mcp::jsonrpc::incoming_message&&) {};
    h.on_close = [holder, &done] {
        holder->reset(); // destroys the transport on its own reader thread
        done = true;
    };
    (*holder)->start(h);
    in.close_end(1);
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (!done && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    EXPECT_TRUE(done);
}

TEST(transport_fd_stream, a_write_error_is_reported_once_and_closes) {
    pipe_pair in, out;
    collector c;
    auto t = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{in.release(0), out.release(1), true, "broken"});
    t->start(c.handler());
    out.close_end(0); // nobody reads: EPIPE (SIGPIPE must not kill us)
    for (int i = 0; i < 10; ++i) t->send("{\"lost\":true}");
    ASSERT_TRUE(c.wait_errors(1));
    EXPECT_TRUE(c.wait_closed()) << "a write error must close the transport";
    std::this_thread::sleep_for(20ms);
    std::lock_guard lock(c.mu);
    EXPECT_EQ(c.errors.size(), 1u);
    EXPECT_NE(c.errors[0].find("write failed"), std::string::npos) << c.errors[0];
    EXPECT_EQ(c.closes, 1);
}

TEST(transport_fd_stream, a_socket_round_trip_and_peer_shutdown) {
    int sv[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    collector ca, cb;
    auto a = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{sv[0], sv[0], true, "a"});
    auto b = std::make_shared<mcp::fd_stream_transport>(
        mcp::fd_stream_transport::options{sv[1], sv[1], true, "b"});
    a->start(ca.handler());
    b->start(cb.handler());
    for (int i = 0; i < 1000; ++i) a->send("{\"i\":" + std::to_string(i) + "}");
    ASSERT_TRUE(cb.wait_lines(1000));
    EXPECT_EQ(cb.lines[999], "{\"i\":999}");
    a->close();
    EXPECT_TRUE(ca.wait_closed());
    EXPECT_TRUE(cb.wait_closed()) << "the peer sees EOF when one side closes";
}

TEST(transport_fd_stream, stdio_transport_on_given_descriptors_never_closes_them) {
    pipe_pair in, out;
    collector c;
    {
        auto t = std::make_shared<mcp::stdio_transport>(in.fd[0], out.fd[1]);
        mcp::transport_handler h = c.handler();
        auto record = h.on_message;
        h.on_message = [&, record](mcp::jsonrpc::incoming_message&& message) {
            const std::string_view m = message.text;
            record(std::move(message));
            t->send(std::string(m));
        };
        t->start(h);
        write_all(in.fd[1], "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n");
        ASSERT_TRUE(c.wait_lines(1));
        char buf[256];
        const auto n = ::read(out.fd[0], buf, sizeof buf);
        EXPECT_EQ(std::string(buf, static_cast<std::size_t>(n > 0 ? n : 0)),
                  "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n");
        t->close(); // stdin stays open: the reader must still stop
        EXPECT_TRUE(c.wait_closed(2000ms));
    }
    EXPECT_EQ(::fcntl(in.fd[0], F_GETFD), FD_CLOEXEC) << "stdin was closed";
    EXPECT_EQ(::fcntl(out.fd[1], F_GETFD), FD_CLOEXEC) << "stdout was closed";
}

TEST(transport_line_framer, ten_mib_line_in_chunks_and_limits) {
    mcp::line_framer f(1024);
    std::vector<std::string> lines;
    std::vector<std::size_t> over;
    auto on_line = [&](std::string_view l, bool) { lines.emplace_back(l); };
    auto on_over = [&](std::size_t n) { over.push_back(n); };
    f.feed("ok1\nxx", on_line, on_over);
    const std::string chunk(4096, 'y');
    for (int i = 0; i < 2560; ++i) f.feed(chunk, on_line, on_over); // 10 MiB
    f.feed("zz\r\nok2\r\n", on_line, on_over);
    EXPECT_EQ(lines, (std::vector<std::string>{"ok1", "ok2"}));
    EXPECT_EQ(over, std::vector<std::size_t>{2 + 10485760 + 3}); // "xx" + chunks + "zz\r"
    EXPECT_FALSE(f.partial());
    // Exactly at the limit is accepted; one more byte is not.
    lines.clear();
    over.clear();
    f.feed(std::string(1024, 'a') + "\n" + std::string(1025, 'b') + "\n", on_line, on_over);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].size(), 1024u);
    EXPECT_EQ(over, std::vector<std::size_t>{1025});
}

} // namespace
