// The JSON of session_record::data (see mcp/http/session_store.hpp for the shape).
#include <mcp/http/session_store.hpp>

namespace mcp::http {

namespace {
constexpr std::int64_t data_version = 1;
}

json::object encode_session_data(const session_snapshot& s) {
    json::object o;
    o["v"] = data_version;
    o["protocolVersion"] = to_string(s.protocol_version);
    o["clientInfo"] = to_json(s.client_info, latest_initialize_revision);
    o["clientCapabilities"] = s.client_capabilities;
    // 2026-07-28 writes every field a declaration can have (completions, extensions).
    o["serverCapabilities"] = to_json(s.declared, revision::v2026_07_28);
    o["initialized"] = s.initialized;
    if (s.log_level) o["logLevel"] = to_string(*s.log_level);
    json::array subscriptions;
    subscriptions.reserve(s.subscriptions.size());
    for (const auto& uri : s.subscriptions) subscriptions.emplace_back(uri);
    o["subscriptions"] = std::move(subscriptions);
    return o;
}

std::optional<session_snapshot> decode_session_data(const json::object& data) {
    const auto* v = data.if_contains("v");
    if (!v || !v->is_int64() || v->get_int64() != data_version) return std::nullopt;
    try {
        session_snapshot s;
        const auto revision_name = find_string(data, "protocolVersion");
        const auto r = revision_name ? parse_revision(*revision_name) : std::nullopt;
        if (!r) return std::nullopt;
        s.protocol_version = *r;
        const auto* info = data.if_contains("clientInfo");
        const auto* client_caps = find_object(data, "clientCapabilities");
        const auto* server_caps = data.if_contains("serverCapabilities");
        if (!info || !client_caps || !server_caps) return std::nullopt;
        s.client_info = from_json<implementation>(*info);
        s.client_capabilities = *client_caps;
        s.declared = from_json<server_capabilities>(*server_caps);
        if (const auto* initialized = data.if_contains("initialized"); initialized && initialized->is_bool())
            s.initialized = initialized->get_bool();
        if (const auto* level = data.if_contains("logLevel")) s.log_level = from_json<logging_level>(*level);
        if (const auto* subscriptions = data.if_contains("subscriptions")) {
            if (!subscriptions->is_array()) return std::nullopt;
            for (const auto& uri : subscriptions->get_array()) {
                if (!uri.is_string()) return std::nullopt;
                s.subscriptions.emplace(uri.get_string());
            }
        }
        return s;
    } catch (const std::exception&) { // from_json: a member that does not parse (mcp::error)
        return std::nullopt;
    }
}

} // namespace mcp::http
