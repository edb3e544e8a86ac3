// schema/uri.hpp - the little URI arithmetic JSON Schema needs: RFC 3986 reference resolution,
// splitting off fragments, and JSON pointer decoding. Private to src/schema.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::schema::detail {

/// RFC 3986 section 5.2 resolution of `ref` against `base` (base may be empty or relative;
/// the algorithm is applied syntactically either way).
std::string resolve_uri(std::string_view base, std::string_view ref);

/// Split "a#b" into {"a", "b"}; no '#' gives {"a", ""}.
std::pair<std::string_view, std::string_view> split_fragment(std::string_view uri) noexcept;

/// Decode %XX escapes; nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view s);

/// Split a JSON pointer ("/a~1b/0") into unescaped tokens; nullopt when malformed
/// (not starting with '/', or a '~' not followed by 0 or 1).
std::optional<std::vector<std::string>> parse_json_pointer(std::string_view ptr);

/// Escape one reference token for a JSON pointer ('~' -> "~0", '/' -> "~1").
void append_pointer_token(std::string& out, std::string_view token);

} // namespace mcp::schema::detail
