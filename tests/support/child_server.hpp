// A server program run as a child process on a free loopback port, for tests that need a real
// HTTP server in another process (everything_server --http, the npm peers' HTTP modes).
//
//   mcp::test::child_server s({bin + "/everything_server", "--http", "127.0.0.1:{port}"});
//   ASSERT_TRUE(s.ready());
//   connect_to(s.url("/mcp"));
//
// "{port}" in an argument or an environment value becomes the port. The child runs in a process
// group of its own with stdin, stdout and stderr on /dev/null, and is ready once the port accepts
// connections (a port taken meanwhile by someone else makes it exit: another port is tried).
#pragma once

#include "support/loopback_port.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mcp::test {

class child_server {
public:
    using env_list = std::vector<std::pair<std::string, std::string>>;

    explicit child_server(std::vector<std::string> argv, env_list env = {},
                          std::chrono::milliseconds wait = std::chrono::seconds(60))
        : argv_(std::move(argv)), env_(std::move(env)), wait_(wait) {
        for (int attempt = 0; attempt < 3 && !ready_; ++attempt) launch(free_loopback_port());
    }
    ~child_server() { stop(); }
    child_server(const child_server&) = delete;
    child_server& operator=(const child_server&) = delete;

    bool ready() const { return ready_; }
    unsigned short port() const { return port_; }
    pid_t pid() const { return pid_; }
    std::string url(const std::string& path) const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

    /// SIGTERM to the group, SIGKILL after 2 s.
    void stop() {
        if (pid_ <= 0) return;
        ::kill(-pid_, SIGTERM);
        for (int i = 0; i < 100; ++i) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                ready_ = false;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
        ready_ = false;
    }
    /// Start it again on the same port (after stop()); true when it accepts connections.
    bool restart() {
        stop();
        launch(port_);
        return ready_;
    }

private:
    static std::string with_port(std::string s, unsigned short port) {
        for (std::size_t p; (p = s.find("{port}")) != std::string::npos;)
            s.replace(p, 6, std::to_string(port));
        return s;
    }

    void launch(unsigned short port) {
        port_ = port;
        std::vector<std::string> args;
        for (const auto& a : argv_) args.push_back(with_port(a, port));
        env_list env;
        for (const auto& [k, v] : env_) env.emplace_back(k, with_port(v, port));
        pid_ = ::fork();
        if (pid_ == 0) {
            ::setpgid(0, 0);
            const int devnull = ::open("/dev/null", O_RDWR);
            ::dup2(devnull, 0);
            ::dup2(devnull, 1);
            ::dup2(devnull, 2);
            for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
            std::vector<char*> cargs;
            for (auto& a : args) cargs.push_back(a.data());
            cargs.push_back(nullptr);
            ::execvp(cargs[0], cargs.data());
            ::_exit(127);
        }
        const auto deadline = std::chrono::steady_clock::now() + wait_;
        while (std::chrono::steady_clock::now() < deadline) {
            if (loopback_port_accepts(port)) {
                ready_ = true;
                return;
            }
            int st = 0;
            if (::waitpid(pid_, &st, WNOHANG) == pid_) { // exited (port taken?)
                pid_ = -1;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        stop();
    }

    std::vector<std::string> argv_;
    env_list env_;
    std::chrono::milliseconds wait_;
    pid_t pid_ = -1;
    unsigned short port_ = 0;
    bool ready_ = false;
};

} // namespace mcp::test
