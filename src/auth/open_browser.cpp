// auth/open_browser.cpp - handing the authorization URL to the user's browser (see
// mcp/auth/loopback_redirect.hpp).
#include <mcp/auth/loopback_redirect.hpp>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::auth {
namespace {

std::optional<std::string> find_on_path(std::string_view program) {
    const char* path = std::getenv("PATH");
    if (!path) return std::nullopt;
    std::string_view rest(path);
    while (!rest.empty()) {
        const auto colon = rest.find(':');
        const auto dir = rest.substr(0, colon);
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        if (dir.empty() || dir.front() != '/') continue; // a relative PATH entry is the current directory's
        auto candidate = std::string(dir) + "/" + std::string(program);
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

bool has_display() {
    for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY"})
        if (const char* s = std::getenv(v); s && *s) return true;
    return false;
}

// Starts `program url` detached: its child is adopted by init, so nothing waits for the browser
// and no zombie remains. Its standard streams are /dev/null: a text browser must not take over
// the terminal the program is using.
bool start_detached(const std::string& program, const std::string& url) {
    const char* argv[] = {program.c_str(), url.c_str(), nullptr};
    const pid_t child = ::fork();
    if (child < 0) return false;
    if (child == 0) {
        // Only async-signal-safe calls from here on: the parent may have other threads.
        ::setsid();
        if (::fork() != 0) ::_exit(0);
        const int null = ::open("/dev/null", O_RDWR);
        if (null >= 0) {
            ::dup2(null, 0);
            ::dup2(null, 1);
            ::dup2(null, 2);
        }
        ::execv(program.c_str(), const_cast<char* const*>(argv));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

bool open_in_browser(std::string_view url, std::ostream& out) {
    std::optional<std::string> opener;
    // Only web addresses: anything else could be taken by xdg-open for an option or a file.
    const bool web = url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0;
    if (web && has_display()) opener = find_on_path("xdg-open");
    const bool asked = opener && start_detached(*opener, std::string(url));
    if (asked)
        out << "Opening the browser to sign in. If it does not open, visit:\n  " << url << "\n";
    else
        out << "Open this address in a browser to sign in:\n  " << url << "\n";
    out.flush();
    return asked;
}

} // namespace mcp::auth
