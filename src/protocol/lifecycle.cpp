// Codec of initialize (request params and result) and server/discover.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

json::object to_json(const initialize_request& x, revision r) {
    json::object o;
    o["protocolVersion"] = x.protocol_version;
    o["capabilities"] = to_json(x.capabilities, r);
    o["clientInfo"] = to_json(x.client_info, r);
    put_meta(o, x.meta, true);
    return o;
}
template <> initialize_request from_json<initialize_request>(const json::value& v) {
    constexpr std::string_view path = "InitializeRequest.params";
    const auto& o = object(v, path);
    initialize_request x;
    x.protocol_version = req_string(o, "protocolVersion", path);
    const auto* c = member(o, "capabilities");
    if (!c) fail(join(path, "capabilities"), "is required");
    x.capabilities = read_client_capabilities(*c, join(path, "capabilities"));
    const auto* i = member(o, "clientInfo");
    if (!i) fail(join(path, "clientInfo"), "is required");
    x.client_info = read_implementation(*i, join(path, "clientInfo"));
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const initialize_result& x, revision r) {
    json::object o;
    o["protocolVersion"] = x.protocol_version;
    o["capabilities"] = to_json(x.capabilities, r);
    o["serverInfo"] = to_json(x.server_info, r);
    put(o, "instructions", x.instructions);
    put_meta(o, x.meta, true);
    return o;
}
template <> initialize_result from_json<initialize_result>(const json::value& v) {
    constexpr std::string_view path = "InitializeResult";
    const auto& o = object(v, path);
    initialize_result x;
    x.protocol_version = req_string(o, "protocolVersion", path);
    const auto* c = member(o, "capabilities");
    if (!c) fail(join(path, "capabilities"), "is required");
    x.capabilities = read_server_capabilities(*c, join(path, "capabilities"));
    const auto* i = member(o, "serverInfo");
    if (!i) fail(join(path, "serverInfo"), "is required");
    x.server_info = read_implementation(*i, join(path, "serverInfo"));
    x.instructions = opt_string(o, "instructions", path);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const discover_result& x, revision r) {
    json::object o;
    json::array a;
    for (const auto& s : x.supported_versions) a.emplace_back(s);
    o["supportedVersions"] = std::move(a);
    o["capabilities"] = to_json(x.capabilities, r);
    put(o, "instructions", x.instructions);
    // Defined by 2026-07-28 only; it is the one revision that has server/discover, and there the
    // cache members are required, so they are always written.
    o["ttlMs"] = x.ttl_ms.value_or(0);
    o["cacheScope"] = x.cache_scope.value_or("private");
    put_meta(o, x.meta, true);
    o["resultType"] = "complete";
    return o;
}
std::optional<implementation> result_server_info(const std::optional<json::object>& result_meta) {
    if (!result_meta) return std::nullopt;
    const auto* info = result_meta->if_contains("io.modelcontextprotocol/serverInfo");
    if (!info) return std::nullopt;
    try {
        return from_json<implementation>(*info);
    } catch (const error&) {
        return std::nullopt; // identity is for display only: a malformed one is not an error
    }
}

template <> discover_result from_json<discover_result>(const json::value& v) {
    constexpr std::string_view path = "DiscoverResult";
    const auto& o = object(v, path);
    discover_result x;
    x.supported_versions =
        string_array(req_array(o, "supportedVersions", path), join(path, "supportedVersions"));
    const auto* c = member(o, "capabilities");
    if (!c) fail(join(path, "capabilities"), "is required");
    x.capabilities = read_server_capabilities(*c, join(path, "capabilities"));
    x.instructions = opt_string(o, "instructions", path);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
