// What the Streamable HTTP server shares with its sessions and streams: the options, the stores,
// and the counters tests and metrics read.
#pragma once

#include "http/open_responses.hpp"

#include <mcp/http/server.hpp>

#include <atomic>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace mcp::http::detail {

struct host_state {
    server_options opts;
    mcp::server* mcp = nullptr;
    std::shared_ptr<event_store> events; ///< null when not resumable
    std::shared_ptr<session_store> store;
    std::atomic<std::size_t> live_streams{0}; ///< logical streams of every session
    /// Responses served without a session that are still open (keep-alive: open_responses.hpp).
    const std::shared_ptr<open_responses> sessionless_responses = std::make_shared<open_responses>();
    /// Requests served without a session and not answered yet (subscriptions/listen excepted:
    /// a listen request is a stream, answered when it ends).
    std::atomic<std::size_t> sessionless_requests{0};
};

/// Counts one request served without a session in host_state::sessionless_requests until it is
/// answered (done) or dropped unanswered (destroyed). Not thread-safe: its owner serialises it.
class sessionless_request_count {
public:
    explicit sessionless_request_count(std::shared_ptr<host_state> host) : host_(std::move(host)) {
        if (host_) host_->sessionless_requests.fetch_add(1, std::memory_order_relaxed);
    }
    sessionless_request_count(const sessionless_request_count&) = delete;
    sessionless_request_count& operator=(const sessionless_request_count&) = delete;
    ~sessionless_request_count() { done(); }
    void done() noexcept {
        if (host_) host_->sessionless_requests.fetch_sub(1, std::memory_order_relaxed);
        host_.reset();
    }

private:
    std::shared_ptr<host_state> host_;
};

/// HTTP status for a JSON-RPC error of the stateless era: 400 for request problems (params,
/// headers, versions, capabilities), 404 for an unknown method, 429/401/403 for mcpxx's access
/// errors (middleware), else 200.
int http_status_of(int jsonrpc_code) noexcept;
/// The code of a serialized error response when it is one of mcpxx's access errors
/// (rate_limited, unauthorized, forbidden), which get their HTTP status in every era.
std::optional<int> access_error_code(std::string_view message) noexcept;
/// Headers that go with such an error (Retry-After for 429, WWW-Authenticate for 401).
void add_access_error_headers(int code, std::string_view message,
                              std::vector<std::pair<std::string, std::string>>& headers);

} // namespace mcp::http::detail
