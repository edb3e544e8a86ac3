#include "support/raw_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

raw_process::raw_process(std::vector<std::string> argv) {
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        throw std::runtime_error("pipe failed");
    std::signal(SIGPIPE, SIG_IGN);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
    fcntl(err_, F_SETFL, O_NONBLOCK);
}

raw_process::~raw_process() {
    close_stdin();
    if (!status_ && pid_ > 0) {
        if (!wait(std::chrono::milliseconds(2000))) {
            kill(pid_, SIGKILL);
            wait(std::chrono::milliseconds(2000));
        }
    }
    if (out_ >= 0) close(out_);
    if (err_ >= 0) close(err_);
}

bool raw_process::write(std::string_view bytes) {
    while (!bytes.empty()) {
        auto n = ::write(in_, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::optional<std::string> raw_process::read_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
            auto line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                          std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd p{out_, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        char buf[65536];
        auto n = ::read(out_, buf, sizeof buf);
        if (n <= 0) return std::nullopt;
        buffer_.append(buf, static_cast<std::size_t>(n));
        drain_stderr();
    }
}

void raw_process::close_stdin() {
    if (in_ >= 0) close(in_);
    in_ = -1;
}

std::optional<int> raw_process::wait(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        int st = 0;
        auto r = waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
            drain_stderr();
            return status_;
        }
        // Keep stdout and stderr flowing so the child never blocks on a full pipe.
        char buf[65536];
        pollfd p[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
        if (poll(p, 2, 10) > 0) {
            if (p[0].revents & POLLIN) {
                auto n = ::read(out_, buf, sizeof buf);
                if (n > 0) buffer_.append(buf, static_cast<std::size_t>(n));
            }
            drain_stderr();
        }
    }
    return std::nullopt;
}

std::optional<int> raw_process::exit_status() {
    if (!status_) {
        int st = 0;
        if (waitpid(pid_, &st, WNOHANG) == pid_) status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    }
    drain_stderr();
    return status_;
}

void raw_process::drain_stderr() {
    char buf[4096];
    for (;;) {
        auto n = ::read(err_, buf, sizeof buf);
        if (n <= 0) break;
        stderr_.append(buf, static_cast<std::size_t>(n));
    }
}

const std::string& raw_process::stderr_text() {
    drain_stderr();
    return stderr_;
}

} // namespace mcp::test
