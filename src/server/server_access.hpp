// The entry points of a server that the Streamable HTTP transport uses to serve messages that
// came without a session. Not part of mcp::server's interface: users connect transports; only
// the library's own HTTP layer (and tests) reach these.
#pragma once

#include <mcp/server/server.hpp>

namespace mcp::detail {

struct server_access {
    /// Serve one request without a session and return at once; its notifications and response
    /// go to `stream` (from a handler thread). Without `initialize_era` it is a request of the
    /// stateless era: its _meta is checked (-32602 when missing, -32022 for an unsupported
    /// version), removed methods get -32601, input comes through MRTR. With `initialize_era` it
    /// is served as that revision with no session behind it (a stateless HTTP server for clients
    /// of the initialize era): initialize is answered, nothing is remembered, and input from the
    /// client is not available. Cancelling `cancel` cancels the request.
    static void handle_request(server& s, jsonrpc::request request, std::shared_ptr<request_stream> stream,
                               cancellation_token cancel = {},
                               std::shared_ptr<const message_origin> origin = nullptr,
                               std::optional<revision> initialize_era = std::nullopt);
    /// Take a notification that arrived without a session (an HTTP POST with no session):
    /// notification middleware see it, and then nothing is done with it, as there is no peer
    /// state for it to change. `initialize_era` as for handle_request.
    static void handle_notification(server& s, jsonrpc::notification notification,
                                    std::shared_ptr<const message_origin> origin = nullptr,
                                    std::optional<revision> initialize_era = std::nullopt);
};

} // namespace mcp::detail
