#include "support/tmux_session.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace mcp::test {
namespace {

/// Run `argv`, return its stdout (stderr is dropped).
std::string run(const std::vector<std::string>& argv) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out[1], 1);
        const int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        ::dup2(null, 2);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    ::close(out[1]);
    std::string text;
    char buf[8192];
    for (;;) {
        const auto n = ::read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return text;
}

std::string rtrim(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
    return s;
}

} // namespace

bool tmux_session::available() {
    return run({"tmux", "-V"}).rfind("tmux ", 0) == 0;
}

tmux_session::tmux_session(const std::filesystem::path& dir, const std::string& command, int width,
                           int height)
    : socket_((dir / "tmux.sock").string()) {
    // -f /dev/null: no user configuration; the session gets the environment of this process.
    tmux({"-f", "/dev/null", "new-session", "-d", "-s", "test", "-x", std::to_string(width), "-y",
          std::to_string(height), command});
}

tmux_session::~tmux_session() {
    tmux({"kill-server"});
}

std::string tmux_session::tmux(std::vector<std::string> args) const {
    args.insert(args.begin(), {"tmux", "-S", socket_});
    return run(args);
}

void tmux_session::keys(const std::vector<std::string>& names) const {
    std::vector<std::string> args{"send-keys", "-t", "test"};
    args.insert(args.end(), names.begin(), names.end());
    tmux(args);
}

void tmux_session::type(const std::string& text) const {
    tmux({"send-keys", "-t", "test", "-l", text});
}

std::string tmux_session::screen() const {
    return tmux({"capture-pane", "-p", "-t", "test"});
}

std::string tmux_session::contents() const {
    return tmux({"capture-pane", "-p", "-J", "-S", "-", "-t", "test"});
}

std::string tmux_session::last_line() const {
    const auto s = rtrim(screen());
    const auto nl = s.rfind('\n');
    return rtrim(nl == std::string::npos ? s : s.substr(nl + 1));
}

bool tmux_session::wait_for(const std::string& text, int count, std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto c = contents();
        int found = 0;
        for (auto p = c.find(text); p != std::string::npos; p = c.find(text, p + text.size())) ++found;
        if (found >= count) return true;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

bool tmux_session::wait_for_last_line(const std::string& line, std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (last_line() == rtrim(line)) return true;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

} // namespace mcp::test
