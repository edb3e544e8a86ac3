// The bound on what a pipe transport queues for a peer that does not read (max_queued_bytes):
// over real pipes and a real child process, a peer that stops reading is cut off at the limit
// with one line, without blocking a sender, while a peer that reads (however slowly) never is.
#include <mcp/jsonrpc/error.hpp>
#include <mcp/session/session.hpp>
#include <mcp/transport/child_process.hpp>
#include <mcp/transport/stdio.hpp>

#include <gtest/gtest.h>

#include "support/eventually.hpp"
#include "support/pipe_pair.hpp"
#include "support/transport_collector.hpp"

#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;
using mcp::test::collector;
using mcp::test::eventually;
using mcp::test::pipe_pair;

namespace {

constexpr std::size_t kib = 1024;

/// Read what the pipe holds now, without waiting; the number of bytes.
std::size_t drain(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    std::size_t total = 0;
    char buf[64 * 1024];
    for (;;) {
        const auto n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        total += static_cast<std::size_t>(n);
    }
    ::fcntl(fd, F_SETFL, flags);
    return total;
}

/// A thread that reads a pipe until its end, counting the bytes.
class pipe_reader {
public:
    /// Reads `fd` until end of file. `writer_fd` is the pipe's other end: if the test has not
    /// closed it by the time the reader goes (an assertion returned early), the reader closes
    /// it, so that its thread sees end of file instead of hanging the test in join().
    pipe_reader(int fd, int& writer_fd)
        : writer_fd_(writer_fd), thread_([this, fd] {
              char buf[64 * 1024];
              for (;;) {
                  const auto n = ::read(fd, buf, sizeof buf);
                  if (n < 0 && errno == EINTR) continue;
                  if (n <= 0) return;
                  received += static_cast<std::size_t>(n);
              }
          }) {}
    ~pipe_reader() {
        if (writer_fd_ >= 0) {
            ::close(writer_fd_);
            writer_fd_ = -1;
        }
        thread_.join();
    }
    std::atomic<std::size_t> received{0};

private:
    int& writer_fd_;
    std::thread thread_;
};

/// A message of about `size` bytes (a JSON object padded with x).
std::string padded_message(std::size_t size) {
    return "{\"pad\":\"" + std::string(size, 'x') + "\"}";
}

/// The collector's handler, with failures (on_error, severity::failure) recorded apart.
struct failure_log {
    std::mutex mu;
    std::vector<std::string> lines;
    std::atomic<bool> any{false};
    void attach(mcp::transport_handler& h) {
        h.on_error = [this, next = h.on_error](std::string_view why, mcp::transport_handler::severity level) {
            if (level != mcp::transport_handler::severity::failure) {
                if (next) next(why, level);
                return;
            }
            {
                std::lock_guard lock(mu);
                lines.emplace_back(why);
            }
            any = true;
        };
    }
    std::string text() {
        std::lock_guard lock(mu);
        std::string out;
        for (const auto& l : lines) out += "failure: " + l + "\n";
        return out;
    }
};

TEST(transport_queue_limit, a_client_that_stops_reading_a_stdio_server_is_cut_off_at_the_limit) {
    pipe_pair in, out;
    collector c;
    failure_log failures;
    auto h = c.handler();
    failures.attach(h);
    auto t = std::make_shared<mcp::stdio_transport>(
        mcp::stdio_options{.in_fd = in.fd[0], .out_fd = out.fd[1], .max_queued_bytes = 256 * kib});
    t->start(h);
    // 128 MiB offered to a client that reads nothing: every send() returns (the loop ends), and
    // the transport gives up once 256 KiB wait.
    const auto message = padded_message(64 * kib);
    int sent = 0;
    while (!failures.any && sent < 2048) {
        t->send(message);
        ++sent;
    }
    ASSERT_TRUE(failures.any) << "the queue grew past its limit without the transport giving up";
    EXPECT_TRUE(c.wait_closed()) << "giving up on the peer closes the transport";
    // What left is what the pipe holds; the rest was dropped with the queue.
    const auto pipe_capacity = static_cast<std::size_t>(::fcntl(out.fd[0], F_GETPIPE_SZ));
    EXPECT_LE(drain(out.fd[0]), pipe_capacity);
    EXPECT_LT(static_cast<std::size_t>(sent) * message.size(),
              256 * kib + pipe_capacity + 2 * message.size());
    // Later sends are dropped at once, and nothing more is said about it.
    t->send(message);
    EXPECT_EQ(drain(out.fd[0]), 0u);
    std::lock_guard lock(failures.mu);
    ASSERT_EQ(failures.lines.size(), 1u);
    const auto& line = failures.lines[0];
    EXPECT_NE(line.find("stdio: the peer stopped reading"), std::string::npos) << line;
    EXPECT_NE(line.find("the limit is 262144 bytes"), std::string::npos) << line;
    EXPECT_EQ(line.find('\n'), std::string::npos) << "one line";
    std::lock_guard clock(c.mu);
    EXPECT_TRUE(c.errors.empty()) << "the line is a failure, not an error the peer is told";
    EXPECT_EQ(c.closes, 1);
}

TEST(transport_queue_limit, the_line_goes_to_on_error_as_a_failure) {
    pipe_pair in, out;
    collector c;
    auto t = std::make_shared<mcp::stdio_transport>(
        mcp::stdio_options{.in_fd = in.fd[0], .out_fd = out.fd[1], .max_queued_bytes = 128 * kib});
    t->start(c.handler());
    const auto message = padded_message(32 * kib);
    const auto reported = [&] {
        std::lock_guard lock(c.mu);
        return !c.failures.empty();
    };
    for (int i = 0; i < 1024 && !reported(); ++i) t->send(message);
    ASSERT_TRUE(c.wait_closed());
    std::lock_guard lock(c.mu);
    EXPECT_TRUE(c.errors.empty());
    ASSERT_EQ(c.failures.size(), 1u);
    EXPECT_NE(c.failures[0].find("the peer stopped reading"), std::string::npos) << c.failures[0];
}

TEST(transport_queue_limit, a_peer_that_reads_is_never_cut_off) {
    pipe_pair in, out;
    collector c;
    failure_log failures;
    auto h = c.handler();
    failures.attach(h);
    std::size_t total = 0;
    {
        auto t = std::make_shared<mcp::stdio_transport>(
            mcp::stdio_options{.in_fd = in.fd[0], .out_fd = out.fd[1], .max_queued_bytes = 1024 * kib});
        t->start(h);
        pipe_reader reader(out.fd[0], out.fd[1]);
        // 8 MiB in all, eight times the limit; the sender keeps at most 512 KiB unread, paced
        // on what the reader has received (not on time).
        const auto message = padded_message(16 * kib);
        for (int i = 0; i < 512; ++i) {
            ASSERT_TRUE(eventually([&] { return total - reader.received <= 512 * kib; }, 10s))
                << "message " << i << ": sent " << total << ", received " << reader.received.load()
                << "; transport closed " << [&] {
                       std::lock_guard lock(c.mu);
                       return c.closes;
                   }() << " times, " << failures.text();
            t->send(message);
            total += message.size() + 1;
        }
        EXPECT_TRUE(eventually([&] { return reader.received == total; }, 10s));
        t->close();
        ::close(out.fd[1]); // the reader's end of file (stdio_transport never closes it)
        out.fd[1] = -1;
    }
    EXPECT_FALSE(failures.any);
    std::lock_guard lock(c.mu);
    EXPECT_TRUE(c.errors.empty());
}

TEST(transport_queue_limit, one_message_larger_than_the_limit_goes_when_nothing_waits) {
    pipe_pair in, out;
    collector c;
    failure_log failures;
    auto h = c.handler();
    failures.attach(h);
    const auto message = padded_message(1024 * kib); // sixteen times the limit
    {
        auto t = std::make_shared<mcp::stdio_transport>(
            mcp::stdio_options{.in_fd = in.fd[0], .out_fd = out.fd[1], .max_queued_bytes = 64 * kib});
        t->start(h);
        pipe_reader reader(out.fd[0], out.fd[1]);
        t->send(message);
        EXPECT_TRUE(eventually([&] { return reader.received == message.size() + 1; }, 10s));
        t->send(message); // again, once the first is out
        EXPECT_TRUE(eventually([&] { return reader.received == 2 * (message.size() + 1); }, 10s));
        t->close();
        ::close(out.fd[1]);
        out.fd[1] = -1;
    }
    EXPECT_FALSE(failures.any);
}

TEST(transport_queue_limit, a_server_that_stops_reading_its_stdin_ends_the_client_session) {
    // `sleep` never reads its stdin: it stands for a server stuck in a loop.
    auto t = mcp::child_process_transport::spawn(
        {.command = "sleep", .args = {"30"}, .shutdown_grace = 200ms, .max_queued_bytes = 256 * kib});
    const int pid = t->pid();
    std::mutex mu;
    std::vector<std::string> diagnostics;
    mcp::session_options so;
    so.diagnostic_sink = [&](std::string_view line) {
        std::lock_guard lock(mu);
        diagnostics.emplace_back(line);
    };
    auto s = mcp::session::create(t, so);
    s->start();
    std::atomic<int> closed_errors{0}, other_outcomes{0};
    const auto done = [&](mcp::response_outcome o) {
        if (!o.ok() && o.error->code() == mcp::error_code::connection_closed)
            ++closed_errors;
        else
            ++other_outcomes;
    };
    const mcp::json::value params = mcp::json::object{{"pad", std::string(64 * kib, 'x')}};
    int sent = 0;
    // The transport is cut off at the bound at once (its one diagnostic line says so); the
    // session is marked closed only after the child's shutdown grace, which a fast machine
    // can outrun with all 2048 requests: stop offering at the cut-off.
    const auto cut_off = [&] {
        std::lock_guard lock(mu);
        return !diagnostics.empty();
    };
    while (!s->is_closed() && !cut_off() && sent < 2048) { // 128 MiB offered at most
        s->async_request("tools/call", params, {}, done);
        ++sent;
    }
    ASSERT_TRUE(eventually([&] { return s->is_closed(); })) << "the session did not end";
    EXPECT_LT(sent, 2048);
    // Every request fails as for a connection that closed, none is left waiting.
    EXPECT_TRUE(eventually([&] { return closed_errors + other_outcomes == sent; }));
    EXPECT_EQ(other_outcomes, 0);
    {
        std::lock_guard lock(mu);
        ASSERT_EQ(diagnostics.size(), 1u);
        EXPECT_NE(diagnostics[0].find("sleep (pid " + std::to_string(pid) + "): the peer stopped reading"),
                  std::string::npos)
            << diagnostics[0];
    }
    t->close(); // the shutdown ladder still ends the child
    EXPECT_TRUE(eventually([&] { return ::kill(pid, 0) != 0; }));
}

} // namespace
