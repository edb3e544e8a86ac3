// mcp/protocol/roots.hpp - roots the client exposes (roots/list).
#pragma once

#include <mcp/protocol/codec.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A root directory or file the server may operate on (Root); `uri` is a file:// URI.
struct root {
    std::string uri;
    std::optional<std::string> name;
    std::optional<json::object> meta; ///< 2025-06-18+
    bool operator==(const root&) const = default;
};
json::object to_json(const root& x, revision r);
template <> root from_json<root>(const json::value& v);

/// Result of roots/list.
struct list_roots_result {
    std::vector<root> roots;
    std::optional<json::object> meta; ///< not in 2026-07-28 (embedded input response)
    bool operator==(const list_roots_result&) const = default;
};
json::object to_json(const list_roots_result& x, revision r);
template <> list_roots_result from_json<list_roots_result>(const json::value& v);

} // namespace mcp
