// Opaque pagination cursors. A cursor names the last key of the previous page (base64 of
// "after:" + key), so pages stay correct when items are added or removed between calls.
#pragma once

#include <mcp/json/base64.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

inline std::string make_cursor(std::string_view last_key) {
    return base64::encode(std::string("after:").append(last_key));
}

/// The key to resume after, or nullopt for the first page. Throws invalid_params for a cursor
/// this server did not issue.
inline std::optional<std::string> parse_cursor(const json::object& params) {
    const auto* c = params.if_contains("cursor");
    if (!c || c->is_null()) return std::nullopt;
    if (!c->is_string())
        throw error(error_code::invalid_params, "Invalid params: \"cursor\" must be a string");
    auto decoded = base64::decode(std::string_view(c->get_string()));
    if (!decoded || decoded->rfind("after:", 0) != 0)
        throw error(error_code::invalid_params, "Invalid params: unknown or malformed cursor");
    return decoded->substr(6);
}

} // namespace mcp::detail
