// The stdio client transport with real child processes.
#include <mcp/transport/child_process.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

namespace {

struct collector {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> lines;
    std::vector<std::string> errors;
    bool closed = false;
    mcp::transport_handler handler() {
        mcp::transport_handler h;
        h.on_message = [this](std::string_view l) {
            std::lock_guard lock(mu);
            lines.emplace_back(l);
            cv.notify_all();
        };
        h.on_error = [this](std::string_view e) {
            std::lock_guard lock(mu);
            errors.emplace_back(e);
        };
        h.on_close = [this] {
            std::lock_guard lock(mu);
            closed = true;
            cv.notify_all();
        };
        return h;
    }
    bool wait_lines(std::size_t n, std::chrono::milliseconds t = 5000ms) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return lines.size() >= n; });
    }
    bool wait_closed(std::chrono::milliseconds t = 5000ms) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return closed; });
    }
};

bool process_exists(int pid) { return ::kill(pid, 0) == 0; }

TEST(child_process, round_trips_ten_thousand_lines_through_cat) {
    auto t = mcp::child_process_transport::spawn({.command = "cat"});
    collector c;
    t->start(c.handler());
    for (int i = 0; i < 10000; ++i) t->send("{\"n\":" + std::to_string(i) + "}");
    ASSERT_TRUE(c.wait_lines(10000));
    for (int i = 0; i < 10000; ++i) ASSERT_EQ(c.lines[static_cast<std::size_t>(i)], "{\"n\":" + std::to_string(i) + "}");
    const int pid = t->pid();
    t->close();
    EXPECT_EQ(t->exit_status(), 0); // cat exits on stdin EOF
    EXPECT_FALSE(process_exists(pid));
}

TEST(child_process, applies_environment_and_working_directory) {
    auto t = mcp::child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "echo $MCPXX_FOO; pwd"}, .env = {{"MCPXX_FOO", "bar"}}, .cwd = "/tmp"});
    collector c;
    t->start(c.handler());
    ASSERT_TRUE(c.wait_lines(2));
    EXPECT_EQ(c.lines[0], "bar");
    EXPECT_EQ(c.lines[1], "/tmp");
    EXPECT_TRUE(c.wait_closed()); // the child exited: stdout ended
    t->close();
    EXPECT_EQ(t->exit_status(), 0);
}

TEST(child_process, captures_stderr_lines) {
    std::mutex mu;
    std::vector<std::string> err;
    auto t = mcp::child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "echo oops >&2; echo more >&2; echo out"},
         .stderr_handling = mcp::child_process_transport::stderr_mode::capture,
         .on_stderr_line = [&](std::string_view l) {
             std::lock_guard lock(mu);
             err.emplace_back(l);
         }});
    collector c;
    t->start(c.handler());
    ASSERT_TRUE(c.wait_lines(1));
    t->close();
    t.reset(); // joins the stderr reader
    std::lock_guard lock(mu);
    EXPECT_EQ(err, (std::vector<std::string>{"oops", "more"}));
}

TEST(child_process, command_not_found_is_a_clear_error) {
    try {
        mcp::child_process_transport::spawn({.command = "mcpxx-no-such-command-anywhere"});
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find("command not found: mcpxx-no-such-command-anywhere"), std::string::npos);
    }
    EXPECT_THROW(mcp::child_process_transport::spawn({.command = "cat", .cwd = "/no/such/dir"}), mcp::error);
}

TEST(child_process, a_child_that_ignores_eof_and_sigterm_is_killed_and_reaped) {
    auto t = mcp::child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "trap '' TERM; while :; do sleep 0.05; done"}, .shutdown_grace = 200ms});
    collector c;
    t->start(c.handler());
    const int pid = t->pid();
    std::this_thread::sleep_for(100ms);
    const auto t0 = std::chrono::steady_clock::now();
    t->close();
    const auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_LT(took, 2000ms);
    EXPECT_GE(took, 350ms); // both grace periods were given
    EXPECT_EQ(t->exit_status(), -SIGKILL);
    EXPECT_FALSE(process_exists(pid));
}

TEST(child_process, sigterm_ends_a_child_that_ignores_eof) {
    auto t = mcp::child_process_transport::spawn({.command = "sleep", .args = {"30"}, .shutdown_grace = 200ms});
    collector c;
    t->start(c.handler());
    t->close();
    EXPECT_EQ(t->exit_status(), -SIGTERM);
}

TEST(child_process, the_whole_process_group_goes) {
    // The shell starts a grandchild; shutting down the server must not leave it behind.
    auto t = mcp::child_process_transport::spawn(
        {.command = "/bin/sh", .args = {"-c", "sleep 30 & echo $!; wait"}, .shutdown_grace = 200ms});
    collector c;
    t->start(c.handler());
    ASSERT_TRUE(c.wait_lines(1));
    const int grandchild = std::stoi(c.lines[0]);
    EXPECT_TRUE(process_exists(grandchild));
    t->close();
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(process_exists(grandchild) && ::kill(grandchild, 0) == 0 && [&] {
        // a zombie reparented to init still answers kill(0); check its state
        std::string stat_path = "/proc/" + std::to_string(grandchild) + "/stat";
        FILE* f = std::fopen(stat_path.c_str(), "r");
        if (!f) return false;
        char buf[256] = {};
        (void)!std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        return std::string(buf).find(") Z") == std::string::npos;
    }());
}

} // namespace
