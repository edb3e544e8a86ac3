// One peer of a server: identity, negotiated state, and the requests the server sends it.
#include "server/server_state.hpp"

namespace mcp {

bool server_session::initialized() const {
    std::lock_guard lock(state_->mu);
    return state_->initialize_done;
}

revision server_session::protocol_version() const {
    std::lock_guard lock(state_->mu);
    return state_->version;
}

implementation server_session::client_info() const {
    std::lock_guard lock(state_->mu);
    return state_->client;
}

client_capabilities server_session::client_caps() const {
    std::lock_guard lock(state_->mu);
    return state_->caps;
}

bool server_session::subscribed(const std::string& uri) const {
    std::lock_guard lock(state_->mu);
    return state_->subscriptions.count(uri) != 0;
}

namespace {
// Errors raised to the handler author (not sent on the wire) when a request cannot be made.
[[noreturn]] void refuse(const std::string& why) { throw error(error_code::invalid_request, why); }
} // namespace

create_message_result server_session::create_message(const create_message_request& request, request_options options) {
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
    if (!defines(r, wire_field::elicitation)) refuse("elicitation needs protocol revision 2025-06-18 or later");
    if (!caps.elicitation) refuse("the client does not support elicitation (no 'elicitation' capability)");
    if (request.mode == elicitation_mode::url) {
        if (!defines(r, wire_field::elicitation_modes)) refuse("URL-mode elicitation needs protocol revision 2025-11-25");
        if (!caps.elicitation->supports_url()) refuse("the client does not support URL-mode elicitation");
    } else if (!caps.elicitation->supports_form()) {
        refuse("the client does not support form-mode elicitation");
    }
    auto result = rpc_->call("elicitation/create", to_json(request, r), std::move(options));
    return from_json<elicit_result>(result);
}

list_roots_result server_session::list_roots(request_options options) {
    if (!client_caps().roots) refuse("the client does not offer roots (no 'roots' capability)");
    return from_json<list_roots_result>(rpc_->call("roots/list", nullptr, std::move(options)));
}

void server_session::notify_elicitation_complete(const std::string& elicitation_id) {
    const auto r = protocol_version();
    if (!defines(r, wire_field::elicitation_id)) return; // the revision has no such notification
    rpc_->notify("notifications/elicitation/complete",
                 to_json(elicitation_complete_notification{elicitation_id, std::nullopt}, r));
}

void server_session::log(logging_level level, json::value data, std::optional<std::string> logger) {
    revision r;
    {
        std::lock_guard lock(state_->mu);
        if (!state_->initialize_done || !state_->declared.logging) return;
        if (state_->level && !admits(*state_->level, level)) return;
        r = state_->version;
    }
    logging_message_notification n;
    n.level = level;
    n.logger = std::move(logger);
    n.data = std::move(data);
    rpc_->notify("notifications/message", to_json(n, r));
}

// ------------------------------------------------------------------ context

revision context::protocol_version() const { return peer_->protocol_version(); }

const implementation& context::client_info() const { return peer_->internal_state().client; }

const client_capabilities& context::client_caps() const { return peer_->internal_state().caps; }

void context::log(logging_level level, json::value data, std::optional<std::string> logger) const {
    peer_->log(level, std::move(data), std::move(logger));
}

namespace {

request_options with_timeout(std::optional<std::chrono::milliseconds> timeout, const cancellation_token& cancel) {
    request_options o;
    o.timeout = timeout;
    o.cancel = cancel; // when the tool call is cancelled, so is what it asked of the client
    return o;
}
} // namespace

// Runs a request to the client on behalf of a handler, reporting failure as client_request_failed.
template <class F>
auto to_client(const char* what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const error& e) {
        throw client_request_failed(error(e.code(), std::string(what) + " failed: " + e.what(), e.data()));
    }
}

create_message_result context::sample(const create_message_request& request,
                                      std::optional<std::chrono::milliseconds> timeout) const {
    return to_client("sampling", [&] { return peer_->create_message(request, with_timeout(timeout, cancellation())); });
}

elicit_result context::elicit(const elicit_request& request, std::optional<std::chrono::milliseconds> timeout) const {
    return to_client("elicitation", [&] { return peer_->elicit(request, with_timeout(timeout, cancellation())); });
}

elicit_result context::elicit(std::string message, json::object requested_schema) const {
    return elicit(form_elicitation(std::move(message), std::move(requested_schema)));
}

std::vector<root> context::roots() const {
    return to_client("roots/list", [&] { return peer_->list_roots(with_timeout(std::nullopt, cancellation())).roots; });
}

} // namespace mcp
