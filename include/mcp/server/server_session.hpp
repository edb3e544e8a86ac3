// mcp/server/server_session.hpp - one connected peer of a server: its negotiated revision,
// capabilities and identity, its log level and subscriptions, and the requests the server can
// send it.
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/session/session.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace mcp {

/// What a peer of the initialize era negotiated and has set since: all another process needs to
/// go on serving it (see server::restore_session), e.g. a replica behind a load balancer that
/// gets the peer's next request. Requests in flight, and requests the server sent the peer, are
/// not part of it: they live in the process that has them.
struct session_snapshot {
    revision protocol_version = latest_initialize_revision;
    implementation client_info;
    json::object client_capabilities;       ///< ClientCapabilities as the client sent them
    server_capabilities declared;           ///< what the initialize result declared (gates requests)
    bool initialized = false;               ///< notifications/initialized arrived (on_initialized ran)
    std::optional<logging_level> log_level; ///< logging/setLevel; none: every level is sent
    std::set<std::string> subscriptions;    ///< resources/subscribe URIs
    bool operator==(const session_snapshot&) const = default;
};

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

    // --- the peer's state, for keeping it outside the process (replicas) ---
    /// The state another process needs to serve this peer; nullopt until initialize is answered.
    std::optional<session_snapshot> snapshot() const;
    /// Call `callback` with the new snapshot whenever it changes: initialize answered,
    /// notifications/initialized, logging/setLevel, resources/subscribe and unsubscribe. It runs
    /// on the thread that made the change, before the response to the request that made it is
    /// sent (a store written here is current when the client sees the response), one call at a
    /// time and in the order of the changes. An exception it throws fails that request (-32603;
    /// the change stays in this process). Set it before the peer sends anything; replaces any
    /// earlier callback.
    void on_snapshot_changed(std::function<void(const session_snapshot&)> callback);
    /// Take what may change after initialize (log level, subscriptions, initialized) from a
    /// newer snapshot of the same peer, written by another process that served it meanwhile.
    /// What initialize fixed (revision, client, capabilities) stays. The callback is not called.
    void adopt(const session_snapshot& newer);

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
