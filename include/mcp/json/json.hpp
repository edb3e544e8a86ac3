// mcp/json/json.hpp - the JSON DOM used everywhere in mcpxx (Boost.JSON), plus the few things
// Boost.JSON 1.81 does not do the way MCP wants: compact serialization with shortest round-trip
// doubles ("2.5", never "2.5E0"), and helpers to read optional members without exceptions.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

namespace json = boost::json;

/// Serialize `v` compactly. Doubles use the shortest representation that round-trips
/// (std::to_chars); non-finite doubles, which JSON cannot express, are written as null.
std::string to_json(const json::value& v);
/// Append the serialization of `v` to `out` (no allocation beyond growing `out`).
void append_json(std::string& out, const json::value& v);
/// Append `s` as a JSON string literal (quoted, escaped) to `out`.
void append_json_string(std::string& out, std::string_view s);

/// Parse JSON text; returns nullopt (and sets `ec`) on a syntax error. Rejects invalid UTF-8.
std::optional<json::value> parse_json(std::string_view text, boost::system::error_code& ec);

/// Member lookup helpers that never throw: null when absent or of another kind.
const json::value* find_member(const json::object& o, std::string_view key) noexcept;
const json::object* find_object(const json::object& o, std::string_view key) noexcept;
const json::array* find_array(const json::object& o, std::string_view key) noexcept;
std::optional<std::string_view> find_string(const json::object& o, std::string_view key) noexcept;
std::optional<bool> find_bool(const json::object& o, std::string_view key) noexcept;
/// A number member as double (integers convert); nullopt when absent or not a number.
std::optional<double> find_number(const json::object& o, std::string_view key) noexcept;
/// An integral member (int64 or uint64 that fits, or a double with no fraction).
std::optional<std::int64_t> find_int(const json::object& o, std::string_view key) noexcept;

} // namespace mcp
