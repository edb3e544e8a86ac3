// child_process_transport with real processes (/bin/sh, cat, sleep): spawning, environment,
// stderr capture, errors, the shutdown ladder, reaping, and hygiene (signals, descriptors).
#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/child_process.hpp>

#include <gtest/gtest.h>

#include "support/transport_collector.hpp"

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;
using mcp::child_process_transport;

namespace {

using mcp::test::collector;

// Alive and not a zombie.
bool running(int pid) {
    if (::kill(pid, 0) != 0) return false;
    std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return false;
    char buf[512] = {};
    (void)!std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    const std::string s(buf);
    const auto rp = s.rfind(')');
    return rp == std::string::npos || rp + 2 >= s.size() || s[rp + 2] != 'Z';
}

// No process with this pid at all (not even a zombie we failed to reap).
bool gone(int pid, std::chrono::milliseconds t = 2000ms) {
    const auto deadline = std::chrono::steady_clock::now() + t;
    while (::kill(pid, 0) == 0) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

// Must run first in this binary: the first spawn may create the helper thread that forks, and
// that thread must not pass its blocked signals on to children.
TEST(transport_child_process, children_do_not_inherit_blocked_signals) {
    std::shared_ptr<child_process_transport> t;
    std::thread spawner_thread([&] {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &set, nullptr); // common in programs that sigwait() on a thread
        t = child_process_transport::spawn({.command = "sleep", .args = {"30"}, .shutdown_grace = 300ms});
    });
    spawner_thread.join();
    ASSERT_TRUE(t);
    t->start({}); // no callbacks needed
    const auto t0 = std::chrono::steady_clock::now();
    t->close();
    EXPECT_EQ(t->exit_status(), -SIGTERM) << "SIGTERM was blocked in the child";
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 500ms);
}

TEST(transport_child_process, round_trips_ten_thousand_lines_through_bin_cat) {
    collector c;
    auto t = child_process_transport::spawn({.command = "/bin/cat"});
    t->start(c.handler());
    std::thread second([&] {
        for (int i = 5000; i < 10000; ++i) t->send("{\"m\":" + std::to_string(i) + "}");
    });
    for (int i = 0; i < 5000; ++i) t->send("{\"n\":" + std::to_string(i) + "}");
    second.join();
    ASSERT_TRUE(c.wait_lines(10000));
    std::vector<int> seen(10000, 0);
    for (auto& l : c.lines) {
        int v = -1;
        ASSERT_TRUE(std::sscanf(l.c_str(), "{\"n\":%d}", &v) == 1 ||
                    std::sscanf(l.c_str(), "{\"m\":%d}", &v) == 1)
            << l;
        ++seen[static_cast<std::size_t>(v)];
    }
    for (int v : seen) ASSERT_EQ(v, 1);
    const int pid = t->pid();
    EXPECT_GT(pid, 0);
    t->close();
    EXPECT_EQ(t->exit_status(), 0);
    EXPECT_TRUE(gone(pid)) << "not reaped";
    EXPECT_EQ(c.closes, 1);
}

TEST(transport_child_process, env_and_cwd_are_applied) {
    collector c;
    auto t = child_process_transport::spawn({.command = "/bin/sh",
                                             .args = {"-c", "echo $FOO; pwd; echo ${HOME:-nohome}"},
                                             .env = {{"FOO", "bar baz"}},
                                             .cwd = "/tmp"});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    ASSERT_EQ(c.lines.size(), 3u);
    EXPECT_EQ(c.lines[0], "bar baz");
    EXPECT_EQ(c.lines[1], "/tmp");
    if (const char* home = std::getenv("HOME")) {
        EXPECT_EQ(c.lines[2], home); // inherited
    }
}

TEST(transport_child_process, environment_without_inheritance) {
    ::setenv("MCPXX_TEST_INHERITED", "yes", 1);
    collector c;
    auto t = child_process_transport::spawn({.command = "/bin/sh",
                                             .args = {"-c", "echo ${MCPXX_TEST_INHERITED:-unset} $ONLY"},
                                             .env = {{"ONLY", "this"}},
                                             .inherit_environment = false});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    ASSERT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.lines[0], "unset this");
    ::unsetenv("MCPXX_TEST_INHERITED");
}

TEST(transport_child_process, a_child_that_exits_on_its_own_closes_after_its_last_line_and_is_reaped) {
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "for i in 1 2 3; do echo $i; done; exit 7"}});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    EXPECT_EQ(c.lines, (std::vector<std::string>{"1", "2", "3"}));
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    while (!t->exit_status() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(2ms);
    EXPECT_EQ(t->exit_status(), 7);
    EXPECT_TRUE(gone(t->pid()));
    t->close();
    EXPECT_EQ(c.closes, 1);
}

// A server that writes blank lines between its messages (or before its end) sends nothing:
// no message, no error, and no "ended in the middle of a message" at its exit.
TEST(transport_child_process, blank_lines_between_messages_are_skipped_silently) {
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh",
         .args = {"-c", "printf '\\n\\n{\"a\":1}\\n\\r\\n \\t\\r\\n{\"b\":2}\\r\\n\\n \\r'"}});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    t->close();
    EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
    EXPECT_TRUE(c.errors.empty()) << c.errors.front();
}

TEST(transport_child_process, stderr_is_captured_line_by_line_and_kept_in_a_tail) {
    std::mutex mu;
    std::vector<std::string> err;
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh",
         .args = {"-c", "echo first >&2; printf 'second\\r\\nthird' >&2; echo out"},
         .stderr_handling = child_process_transport::stderr_mode::capture,
         .on_stderr_line = [&](std::string_view l) {
             std::lock_guard lock(mu);
             err.emplace_back(l);
         }});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    t->close();
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    for (;;) {
        {
            std::lock_guard lock(mu);
            if (err.size() >= 3 || std::chrono::steady_clock::now() > deadline) break;
        }
        std::this_thread::sleep_for(2ms);
    }
    {
        std::lock_guard lock(mu);
        EXPECT_EQ(err, (std::vector<std::string>{"first", "second", "third"}));
    }
    EXPECT_NE(t->stderr_tail().find("first"), std::string::npos);
    EXPECT_NE(t->stderr_tail().find("third"), std::string::npos);
    EXPECT_EQ(c.lines, std::vector<std::string>{"out"});
}

TEST(transport_child_process, stderr_tail_is_bounded) {
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh",
         .args = {"-c", "i=0; while [ $i -lt 3000 ]; do echo \"line $i "
                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" >&2; i=$((i+1)); done"},
         .stderr_handling = child_process_transport::stderr_mode::capture});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    t->close();
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (t->stderr_tail().find("line 2999") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    const auto tail = t->stderr_tail();
    EXPECT_LE(tail.size(), 64u * 1024u);
    EXPECT_GE(tail.size(), 60u * 1024u);
    EXPECT_NE(tail.find("line 2999"), std::string::npos);
    EXPECT_EQ(tail.find("line 0 "), std::string::npos);
}

TEST(transport_child_process, stderr_discard_and_a_grandchild_holding_stderr_does_not_hang_close) {
    // The shell exits at once, but its background child keeps the stderr pipe open for 30 s.
    const auto t0 = std::chrono::steady_clock::now();
    {
        collector c;
        auto t = child_process_transport::spawn(
            {.command = "/bin/sh",
             .args = {"-c", "echo hi >&2; sleep 30 </dev/null >/dev/null & echo started"},
             .stderr_handling = child_process_transport::stderr_mode::capture,
             .shutdown_grace = 200ms});
        t->start(c.handler());
        ASSERT_TRUE(c.wait_lines(1));
        t->close();
    } // destructor joins the stderr reader
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
    auto d =
        child_process_transport::spawn({.command = "/bin/sh",
                                        .args = {"-c", "echo to-nowhere >&2; echo ok"},
                                        .stderr_handling = child_process_transport::stderr_mode::discard});
    collector c;
    d->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    EXPECT_EQ(c.lines, std::vector<std::string>{"ok"});
    EXPECT_EQ(d->stderr_tail(), "");
}

TEST(transport_child_process, command_not_found_is_a_clear_synchronous_error) {
    try {
        (void)child_process_transport::spawn({.command = "mcpxx-definitely-not-a-command"});
        FAIL() << "no exception";
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find("command not found: mcpxx-definitely-not-a-command"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)child_process_transport::spawn({.command = "/no/such/dir/server"}), mcp::error);
    EXPECT_THROW((void)child_process_transport::spawn({.command = "/bin/cat", .cwd = "/no/such/dir"}),
                 mcp::error);
    // Not executable.
    EXPECT_THROW((void)child_process_transport::spawn({.command = "/etc/hostname"}), mcp::error);
}

TEST(transport_child_process,
     a_child_ignoring_eof_and_sigterm_is_sigkilled_within_twice_the_grace_and_reaped) {
    const auto grace = 300ms;
    collector c;
    auto t = child_process_transport::spawn({.command = "/bin/sh",
                                             .args = {"-c", "trap '' TERM; echo ready; sleep 100"},
                                             .shutdown_grace = grace});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_lines(1)); // the trap is installed
    const int pid = t->pid();
    const auto t0 = std::chrono::steady_clock::now();
    t->close();
    const auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_GE(took, 2 * grace - 20ms);
    EXPECT_LT(took, 2 * grace + 700ms);
    EXPECT_EQ(t->exit_status(), -SIGKILL);
    EXPECT_TRUE(gone(pid)) << "zombie or still running";
    EXPECT_TRUE(c.wait_closed());
    EXPECT_EQ(c.closes, 1);
}

TEST(transport_child_process, the_process_group_is_terminated_no_orphans) {
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "sleep 60 & echo $!; wait"}, .shutdown_grace = 200ms});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_lines(1));
    const int grandchild = std::stoi(c.lines[0]);
    EXPECT_TRUE(running(grandchild));
    t->close();
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    while (running(grandchild) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    EXPECT_FALSE(running(grandchild));
}

TEST(transport_child_process, the_child_survives_the_thread_that_spawned_it) {
    // PR_SET_PDEATHSIG fires when the forking *thread* exits; spawning from a short-lived thread
    // must not kill the child.
    std::shared_ptr<child_process_transport> t;
    std::thread([&] { t = child_process_transport::spawn({.command = "/bin/cat"}); }).join();
    collector c;
    t->start(c.handler());
    std::this_thread::sleep_for(50ms);
    t->send("{\"still\":\"alive\"}");
    ASSERT_TRUE(c.wait_lines(1, 3000ms));
    EXPECT_EQ(c.lines[0], "{\"still\":\"alive\"}");
    t->close();
    EXPECT_EQ(t->exit_status(), 0);
}

TEST(transport_child_process, no_descriptor_leaks_into_the_child) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0); // deliberately without O_CLOEXEC, moved to numbers no shell uses
    int leaky[2] = {::fcntl(fds[0], F_DUPFD, 200), ::fcntl(fds[1], F_DUPFD, 200)};
    ::close(fds[0]);
    ::close(fds[1]);
    collector c;
    auto t = child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "cd /proc/$$/fd && for f in *; do echo $f; done"}});
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed());
    ::close(leaky[0]);
    ::close(leaky[1]);
    std::vector<std::string> unexpected;
    for (auto& l : c.lines)
        if (l == std::to_string(leaky[0]) || l == std::to_string(leaky[1])) unexpected.push_back(l);
    EXPECT_TRUE(unexpected.empty()) << "leaked descriptor " << (unexpected.empty() ? "" : unexpected[0]);
}

TEST(transport_child_process, destructor_without_close_shuts_down_and_reaps) {
    int pid = -1;
    {
        auto t = child_process_transport::spawn({.command = "/bin/cat", .shutdown_grace = 300ms});
        t->start({}); // no callbacks needed
        pid = t->pid();
    }
    EXPECT_TRUE(gone(pid));
}

TEST(transport_child_process, close_from_inside_on_message) {
    auto t = child_process_transport::spawn({.command = "/bin/cat", .shutdown_grace = 300ms});
    std::atomic<int> closes{0};
    std::weak_ptr<child_process_transport> weak = t;
    mcp::transport_handler h;
    h.on_message = [weak](mcp::jsonrpc::incoming_message&& m) {
        if (m.text != "\"quit\"") return;
        if (auto self = weak.lock()) self->close();
    };
    h.on_close = [&] { ++closes; };
    t->start(h);
    t->send("\"hello\"");
    t->send("\"quit\"");
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (closes == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(2ms);
    EXPECT_EQ(closes, 1);
    EXPECT_EQ(t->exit_status(), 0);
}

} // namespace
