// How many connections a server can really hold: max_connections as configured, clamped to the
// process's descriptor limit (RLIMIT_NOFILE) minus a reserve for everything else the process
// opens (files, pipes to child processes, client sockets, the event loop's own descriptors).
// Without the clamp a server with the usual `ulimit -n 1024` and max_connections 10000 meets
// EMFILE in accept() long before its cap, and every later client waits unanswered in the
// listen backlog instead of being refused.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace mcp::http::core::detail {

struct connection_budget {
    std::size_t max_connections = 0; ///< served at once
    std::size_t max_rejecting = 0;   ///< answered 503 at once (beyond: closed without a word)
    std::size_t per_address = 0;     ///< served at once for one client address
    std::size_t fd_limit = 0;        ///< the soft RLIMIT_NOFILE after any raise
    std::string note;                ///< what was changed and why (for the log), or empty
};

/// Raises the soft RLIMIT_NOFILE toward the hard limit (as far as `max_connections` needs, when
/// `raise_limit`), then fits the connection counts under it. `per_address` 0 means
/// max_connections / 8, but at least 64 (or max_connections when that is lower).
connection_budget plan_connections(std::size_t max_connections, std::size_t per_address, bool raise_limit);

/// The descriptors kept free for the rest of the process when the limit is `fd_limit`.
std::size_t reserved_descriptors(std::size_t fd_limit) noexcept;

/// Connections refused since the last log line about them: a flood of connections must not
/// become a flood of log lines, so the line goes at most once a second. Not thread-safe (the
/// server counts under its connection mutex and logs the returned line after unlocking).
class refusal_tally {
public:
    /// Counts one refusal (over the per-address cap, else over max_connections; `answered`:
    /// told 503 rather than closed silently); returns the line to log now, or empty.
    std::string note(bool per_address, bool answered, const connection_budget& budget);
    /// The counts so far as one line (empty when none), and a fresh start.
    std::string take_line(const connection_budget& budget);

private:
    std::size_t total_ = 0, per_address_ = 0, silently_ = 0;
    std::chrono::steady_clock::time_point logged_{};
};

} // namespace mcp::http::core::detail
