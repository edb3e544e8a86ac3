// What the Streamable HTTP server shares with its sessions and streams: the options, the stores,
// and the counters tests and metrics read.
#pragma once

#include <mcp/http/server.hpp>

#include <atomic>
#include <memory>

namespace mcp::http::detail {

struct host_state {
    server_options opts;
    mcp::server* mcp = nullptr;
    std::shared_ptr<event_store> events; ///< null when not resumable
    std::shared_ptr<session_store> store;
    std::atomic<std::size_t> live_streams{0}; ///< logical streams of every session
};

/// HTTP status for a JSON-RPC error of the stateless era: 400 for request problems (params,
/// headers, versions, capabilities), 404 for an unknown method, else 200.
int http_status_of(int jsonrpc_code) noexcept;

} // namespace mcp::http::detail
