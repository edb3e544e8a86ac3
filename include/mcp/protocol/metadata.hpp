// mcp/protocol/metadata.hpp - small types shared by the whole data model: roles, icons,
// annotations, the identity of a client or server (Implementation), pagination params.
#pragma once

#include <mcp/protocol/codec.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Sender or recipient of messages and data (Role).
enum class role { user, assistant };
std::string_view to_string(role r) noexcept;

enum class icon_theme { light, dark };
std::string_view to_string(icon_theme t) noexcept;

/// An icon for display in a user interface (Icon, 2025-11-25+).
struct icon {
    std::string src;                      ///< http(s) URL or data: URI
    std::optional<std::string> mime_type; ///< e.g. "image/png"
    std::vector<std::string> sizes;       ///< e.g. {"48x48"}, {"any"}; empty = omitted
    std::optional<icon_theme> theme;
    bool operator==(const icon&) const = default;
};
json::object to_json(const icon& x, revision r);
template <> icon from_json<icon>(const json::value& v);

/// Hints to the client about how to use or display an object (Annotations).
struct annotations {
    std::vector<role> audience;               ///< empty = omitted
    std::optional<double> priority;           ///< 0 (least) .. 1 (most important)
    std::optional<std::string> last_modified; ///< ISO 8601 timestamp (2025-06-18+)
    bool operator==(const annotations&) const = default;
};
json::object to_json(const annotations& x, revision r);
template <> annotations from_json<annotations>(const json::value& v);

/// Name and version of an MCP client or server (Implementation).
struct implementation {
    std::string name;
    std::string version;
    std::optional<std::string> title;       ///< 2025-06-18+
    std::optional<std::string> description; ///< 2025-11-25+
    std::vector<icon> icons;                ///< 2025-11-25+; empty = omitted
    std::optional<std::string> website_url; ///< 2025-11-25+
    bool operator==(const implementation&) const = default;
};
json::object to_json(const implementation& x, revision r);
template <> implementation from_json<implementation>(const json::value& v);

/// Params of the paginated list requests (tools/list, resources/list, ...).
struct paginated_request {
    std::optional<std::string> cursor;
    std::optional<json::object> meta;
    bool operator==(const paginated_request&) const = default;
};
json::object to_json(const paginated_request& x, revision r);
template <> paginated_request from_json<paginated_request>(const json::value& v);

/// Parse a role / icon theme; throws invalid_params naming `where` for anything else.
template <> role from_json<role>(const json::value& v);

} // namespace mcp
