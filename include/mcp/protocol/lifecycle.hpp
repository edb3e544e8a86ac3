// mcp/protocol/lifecycle.hpp - the handshake: initialize (2024-11-05 .. 2025-11-25) and
// server/discover (2026-07-28+).
#pragma once

#include <mcp/protocol/capabilities.hpp>
#include <mcp/protocol/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Params of initialize. `protocol_version` is kept as the string the client sent so that a
/// server can answer an unknown version with a counter-offer.
struct initialize_request {
    std::string protocol_version;
    client_capabilities capabilities;
    implementation client_info;
    std::optional<json::object> meta;
    bool operator==(const initialize_request&) const = default;
};
json::object to_json(const initialize_request& x, revision r);
template <> initialize_request from_json<initialize_request>(const json::value& v);

/// Result of initialize.
struct initialize_result {
    std::string protocol_version;
    server_capabilities capabilities;
    implementation server_info;
    std::optional<std::string> instructions;
    std::optional<json::object> meta;
    bool operator==(const initialize_result&) const = default;
};
json::object to_json(const initialize_result& x, revision r);
template <> initialize_result from_json<initialize_result>(const json::value& v);

/// Result of server/discover (2026-07-28+).
struct discover_result {
    std::vector<std::string> supported_versions;
    server_capabilities capabilities;
    std::optional<std::string> instructions;
    std::optional<std::int64_t> ttl_ms;     ///< 0 when unset
    std::optional<std::string> cache_scope; ///< "private" when unset
    std::optional<json::object> meta;
    bool operator==(const discover_result&) const = default;
};
json::object to_json(const discover_result& x, revision r);
template <> discover_result from_json<discover_result>(const json::value& v);

/// The server's identity a result of 2026-07-28 carries in
/// `_meta["io.modelcontextprotocol/serverInfo"]` (every result of that era should, for display
/// and logs only), given the result's `meta`; nullopt when absent or malformed.
std::optional<implementation> result_server_info(const std::optional<json::object>& result_meta);

} // namespace mcp
