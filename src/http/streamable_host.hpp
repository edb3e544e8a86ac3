// What the Streamable HTTP server shares with its sessions and streams: the options, the stores,
// and the counters tests and metrics read.
#pragma once

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
