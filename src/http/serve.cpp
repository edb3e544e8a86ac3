// mcp::http::serve: a Streamable HTTP server that runs until SIGINT or SIGTERM (see
// mcp/http/server.hpp).
#include <mcp/http/server.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <poll.h>
#include <stdexcept>
#include <unistd.h>

namespace mcp::http {

namespace {
int signal_pipe[2] = {-1, -1};
extern "C" void on_stop_signal(int) {
    const char c = 's';
    [[maybe_unused]] auto n = ::write(signal_pipe[1], &c, 1);
}
} // namespace

void install_stop_signals() {
    // Any thread may receive the signal; the handler only writes to a pipe the waiter polls.
    if (signal_pipe[0] < 0 && ::pipe(signal_pipe) != 0) throw std::runtime_error("pipe() failed");
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
}

void wait_for_stop_signal() {
    pollfd p{signal_pipe[0], POLLIN, 0};
    while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
    }
}

bool wait_for_stop_signal(std::chrono::milliseconds timeout) {
    pollfd p{signal_pipe[0], POLLIN, 0};
    // A "forever" timeout (milliseconds::max) would overflow the clock's nanoseconds: 50 years will do.
    const auto until = std::chrono::steady_clock::now() +
                       std::min<std::chrono::milliseconds>(timeout, std::chrono::hours(24 * 365 * 50));
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        // Clamped: beyond ~24.8 days the milliseconds overflow an int (the loop polls again).
        const int n = ::poll(&p, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30)));
        if (n > 0) return true;
        if (n == 0) {
            if (left.count() > (1 << 30)) continue; // a clamped wait ended, not the timeout
            return false;
        }
        if (errno != EINTR) return false;
    }
}

int serve(mcp::server& s, server_options options) {
    server http(s, std::move(options));
    try {
        install_stop_signals();
        http.start();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpxx: %s\n", e.what());
        return 1;
    }
    wait_for_stop_signal();
    http.stop(std::chrono::seconds(5));
    return 0;
}

} // namespace mcp::http
