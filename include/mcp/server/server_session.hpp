// mcp/server/server_session.hpp - one connected peer of a server: its negotiated revision,
// capabilities and identity, its log level and subscriptions, and the requests the server can
// send it.
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/session/session.hpp>

#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcp {

class server_session {
public:
    /// The JSON-RPC engine of this peer (low-level access).
    mcp::session& rpc() const noexcept { return *rpc_; }
    std::shared_ptr<mcp::session> rpc_ptr() const noexcept { return rpc_; }

    bool initialized() const;
    /// Negotiated revision (the newest supported before initialize).
    revision protocol_version() const;
    implementation client_info() const;
    client_capabilities client_caps() const;

    // --- requests to the client (throw mcp::error without the capability, or on failure) ---
    create_message_result create_message(const create_message_request& request, request_options options = {});
    elicit_result elicit(const elicit_request& request, request_options options = {});
    list_roots_result list_roots(request_options options = {},
                                 std::optional<json::object> meta = std::nullopt);
    /// notifications/elicitation/complete for a URL-mode elicitation (2025-11-25).
    void notify_elicitation_complete(const std::string& elicitation_id);

    // --- notifications ---
    void log(logging_level level, json::value data, std::optional<std::string> logger = std::nullopt);
    /// The params of a notifications/message for this peer, or nullopt when its level (or the
    /// declared capabilities) filter the message out.
    std::optional<json::object> log_params(logging_level level, json::value data,
                                           std::optional<std::string> logger = std::nullopt) const;
    bool subscribed(const std::string& uri) const;
    void close() { rpc_->close(); }

    struct state;
    server_session(std::shared_ptr<mcp::session> rpc, std::shared_ptr<state> st)
        : rpc_(std::move(rpc)), state_(std::move(st)) {}
    state& internal_state() const noexcept { return *state_; }
    const std::shared_ptr<state>& state_ptr() const noexcept { return state_; }

private:
    std::shared_ptr<mcp::session> rpc_;
    std::shared_ptr<state> state_;
};

} // namespace mcp
