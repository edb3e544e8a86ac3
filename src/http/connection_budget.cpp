// Fitting max_connections under the descriptor limit (see connection_budget.hpp).
#include "http/connection_budget.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace mcp::http::core::detail {
namespace {
// At most this many connections are answered 503 at once (each holds a descriptor for up to
// the 2 s linger of a graceful close).
constexpr std::size_t rejecting_cap = 256;
} // namespace

std::size_t reserved_descriptors(std::size_t fd_limit) noexcept {
    // 32 for what every process holds (stdio, the event loop, a log file, a few pipes), plus an
    // eighth of the limit for what grows with the work (client sockets, files, child processes).
    return 32 + fd_limit / 8;
}

connection_budget plan_connections(std::size_t max_connections, std::size_t per_address, bool raise_limit) {
    connection_budget b;
    max_connections = std::max<std::size_t>(max_connections, 1);
    rlimit lim{};
    const bool known = ::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY;
    std::size_t limit = known ? static_cast<std::size_t>(lim.rlim_cur) : 0;
    if (known && raise_limit) {
        // Only as far as the connections need: a larger soft limit than necessary breaks
        // programs that still pass descriptors to select().
        const std::size_t want_conn = max_connections + std::min(rejecting_cap, max_connections);
        // The limit L with L - reserved_descriptors(L) >= want_conn, with a little to spare.
        std::size_t want = (want_conn + 32) * 8 / 7 + 8;
        if (lim.rlim_max != RLIM_INFINITY) want = std::min(want, static_cast<std::size_t>(lim.rlim_max));
        if (want > limit) {
            rlimit raised = lim;
            raised.rlim_cur = static_cast<rlim_t>(want);
            if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) {
                b.note = "raised the descriptor limit (RLIMIT_NOFILE) from " + std::to_string(limit) +
                         " to " + std::to_string(want);
                limit = want;
            }
        }
    }
    b.max_connections = max_connections;
    b.max_rejecting = std::min(rejecting_cap, max_connections);
    if (known) {
        const std::size_t reserve = reserved_descriptors(limit);
        const std::size_t usable = limit > reserve + 2 ? limit - reserve : 2;
        // Seven parts served for one part refused.
        const std::size_t rejecting = std::clamp<std::size_t>(usable / 8, 1, rejecting_cap);
        const std::size_t fit = std::max<std::size_t>(usable - rejecting, 1);
        if (fit < max_connections) {
            if (!b.note.empty()) b.note += "; ";
            b.note += "max_connections " + std::to_string(max_connections) + " lowered to " +
                      std::to_string(fit) + " to fit the descriptor limit (RLIMIT_NOFILE " +
                      std::to_string(limit) + ", " + std::to_string(reserve) +
                      " kept for the rest of the process)";
            b.max_connections = fit;
        }
        b.max_rejecting = std::min(b.max_rejecting, rejecting);
    }
    b.fd_limit = limit;
    // An eighth of the whole, but not so few that a small server refuses a browser's handful.
    b.per_address = per_address
                        ? std::min(per_address, b.max_connections)
                        : std::max(b.max_connections / 8, std::min<std::size_t>(b.max_connections, 64));
    return b;
}

std::string refusal_tally::note(bool per_address, bool answered, const connection_budget& budget) {
    ++(per_address ? per_address_ : total_);
    if (!answered) ++silently_;
    const auto now = std::chrono::steady_clock::now();
    if (now - logged_ < std::chrono::seconds(1)) return {};
    logged_ = now;
    return take_line(budget);
}

std::string refusal_tally::take_line(const connection_budget& budget) {
    if (total_ + per_address_ == 0) return {};
    std::string line = "refused connections:";
    if (total_)
        line += " " + std::to_string(total_) + " over max_connections (" +
                std::to_string(budget.max_connections) + ")";
    if (per_address_)
        line += std::string(total_ ? "," : "") + " " + std::to_string(per_address_) +
                " over max_connections_per_address (" + std::to_string(budget.per_address) + ")";
    if (silently_)
        line += "; " + std::to_string(silently_) + " of them closed without a response (over " +
                std::to_string(budget.max_rejecting) + " being refused at once)";
    total_ = per_address_ = silently_ = 0;
    return line;
}

} // namespace mcp::http::core::detail
