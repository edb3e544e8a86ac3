// One peer of a server (initialize era): identity, negotiated state, and the requests the server
// sends it.
#include "server/server_state.hpp"

namespace mcp {

bool server_session::initialized() const {
    std::lock_guard lock(state_->mu);
    return state_->initialize_done;
}

revision server_session::protocol_version() const {
    std::lock_guard lock(state_->mu);
    return state_->caller->protocol_version;
}

implementation server_session::client_info() const {
    std::lock_guard lock(state_->mu);
    return state_->caller->client;
}

client_capabilities server_session::client_caps() const {
    std::lock_guard lock(state_->mu);
    return state_->caller->capabilities;
}

bool server_session::subscribed(const std::string& uri) const {
    std::lock_guard lock(state_->mu);
    return state_->subscriptions.count(uri) != 0;
}

namespace {
// Errors raised to the handler author (not sent on the wire) when a request cannot be made.
[[noreturn]] void refuse(const std::string& why) {
    throw error(error_code::invalid_request, why);
}
} // namespace

create_message_result server_session::create_message(const create_message_request& request,
                                                     request_options options) {
    const auto caps = client_caps();
    const auto r = protocol_version();
    if (!caps.sampling) refuse("the client does not support sampling (no 'sampling' capability)");
    if ((!request.tools.empty() || request.tool_choice) && !caps.sampling->tools)
        refuse("the client does not support tools in sampling (no 'sampling.tools' capability)");
    auto result = rpc_->call("sampling/createMessage", to_json(request, r), std::move(options));
    return from_json<create_message_result>(result);
}

elicit_result server_session::elicit(const elicit_request& request, request_options options) {
    const auto caps = client_caps();
    const auto r = protocol_version();
    if (!defines(r, wire_field::elicitation))
        refuse("elicitation needs protocol revision 2025-06-18 or later");
    if (!caps.elicitation) refuse("the client does not support elicitation (no 'elicitation' capability)");
    if (request.mode == elicitation_mode::url) {
        if (!defines(r, wire_field::elicitation_modes))
            refuse("URL-mode elicitation needs protocol revision 2025-11-25");
        if (!caps.elicitation->supports_url()) refuse("the client does not support URL-mode elicitation");
    } else if (!caps.elicitation->supports_form()) {
        refuse("the client does not support form-mode elicitation");
    }
    auto result = rpc_->call("elicitation/create", to_json(request, r), std::move(options));
    return from_json<elicit_result>(result);
}

list_roots_result server_session::list_roots(request_options options, std::optional<json::object> meta) {
    if (!client_caps().roots) refuse("the client does not offer roots (no 'roots' capability)");
    json::value params = nullptr;
    if (meta) params = json::object{{"_meta", std::move(*meta)}};
    return from_json<list_roots_result>(rpc_->call("roots/list", std::move(params), std::move(options)));
}

void server_session::notify_elicitation_complete(const std::string& elicitation_id) {
    const auto r = protocol_version();
    if (!defines(r, wire_field::elicitation_id)) return; // the revision has no such notification
    rpc_->notify("notifications/elicitation/complete",
                 to_json(elicitation_complete_notification{elicitation_id, std::nullopt}, r));
}

std::optional<json::object> server_session::log_params(logging_level level, json::value data,
                                                       std::optional<std::string> logger) const {
    revision r;
    {
        std::lock_guard lock(state_->mu);
        if (!state_->initialize_done || !state_->declared.logging) return std::nullopt;
        if (state_->level && !admits(*state_->level, level)) return std::nullopt;
        r = state_->caller->protocol_version;
    }
    logging_message_notification n;
    n.level = level;
    n.logger = std::move(logger);
    n.data = std::move(data);
    return to_json(n, r);
}

void server_session::log(logging_level level, json::value data, std::optional<std::string> logger) {
    if (auto params = log_params(level, std::move(data), std::move(logger)))
        rpc_->notify("notifications/message", std::move(*params));
}

std::optional<session_snapshot> snapshot_of(const server_session::state& st) {
    std::lock_guard lock(st.mu);
    if (!st.initialize_done) return std::nullopt;
    session_snapshot s;
    s.protocol_version = st.caller->protocol_version;
    s.client_info = st.caller->client;
    s.client_capabilities = st.caller->capabilities_json;
    s.declared = to_server_capabilities(st.declared);
    s.initialized = st.initialized_notified;
    s.log_level = st.level;
    s.subscriptions = st.subscriptions;
    return s;
}

std::optional<session_snapshot> server_session::snapshot() const {
    return snapshot_of(*state_);
}

void server_session::on_snapshot_changed(std::function<void(const session_snapshot&)> callback) {
    std::lock_guard lock(state_->publish_mu);
    state_->on_snapshot_changed = std::move(callback);
}

void server_session::adopt(const session_snapshot& newer) {
    std::lock_guard lock(state_->mu);
    state_->level = newer.log_level;
    state_->subscriptions = newer.subscriptions;
    // on_initialized ran wherever notifications/initialized arrived; it must not run again here.
    if (newer.initialized) state_->initialized_notified = true;
}

void publish_snapshot(server_session::state& st) {
    std::lock_guard lock(st.publish_mu);
    if (!st.on_snapshot_changed) return;
    // Taken under publish_mu: of two changes racing, the later snapshot is published last.
    if (auto snapshot = snapshot_of(st)) st.on_snapshot_changed(*snapshot);
}

} // namespace mcp
