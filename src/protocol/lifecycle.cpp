// Codec of initialize (request params and result) and server/discover.
#include "protocol/described.hpp"

namespace mcp {

MCP_WIRE_DESCRIBE(initialize_request, "InitializeRequest.params", (protocol_version), (capabilities),
                  (client_info), (meta))
MCP_WIRE_CODEC(initialize_request)

MCP_WIRE_DESCRIBE(initialize_result, "InitializeResult", (protocol_version), (capabilities), (server_info),
                  (instructions), (meta))
MCP_WIRE_CODEC(initialize_result)

// server/discover exists in 2026-07-28 only, where the cache members and resultType are required:
// they are always written.
MCP_WIRE_DESCRIBE(discover_result, "DiscoverResult", (supported_versions, field::required), (capabilities),
                  (instructions), (ttl_ms, or_else(std::int64_t{0})), (cache_scope, or_else("private")),
                  (meta))
MCP_WIRE_FROM_JSON(discover_result)
json::object to_json(const discover_result& x, revision r) {
    json::object o = wire::write_struct(x, r);
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

} // namespace mcp
