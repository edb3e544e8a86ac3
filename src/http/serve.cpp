// mcp::http::serve: a Streamable HTTP server that runs until SIGINT or SIGTERM (see
// mcp/http/server.hpp).
#include <mcp/http/server.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <poll.h>
#include <unistd.h>

namespace mcp::http {

namespace {
int signal_pipe[2] = {-1, -1};
extern "C" void on_stop_signal(int) {
    const char c = 's';
    [[maybe_unused]] auto n = ::write(signal_pipe[1], &c, 1);
}
} // namespace

int serve(mcp::server& s, server_options options) {
    server http(s, std::move(options));
    try {
        http.start();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpxx: %s\n", e.what());
        return 1;
    }
    // Any thread may receive the signal; the handler only writes to a pipe this thread waits on.
    if (signal_pipe[0] < 0 && ::pipe(signal_pipe) != 0) return 1;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    pollfd p{signal_pipe[0], POLLIN, 0};
    while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
    }
    http.stop(std::chrono::seconds(5));
    return 0;
}

} // namespace mcp::http
