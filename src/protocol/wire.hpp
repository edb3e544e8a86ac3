// Private helpers of the protocol codec: reading members with errors that name the member,
// writing optional members. Every parser takes the schema path of the value it reads
// ("Tool", "CallToolResult.content[2]") so that error messages name the offending field.
#pragma once

#include <mcp/protocol/types.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::wire {

/// Throws mcp::error(invalid_params, "Invalid params: <path> <problem>").
[[noreturn]] void fail(std::string_view path, std::string_view problem);
std::string join(std::string_view path, std::string_view key);
std::string index(std::string_view path, std::size_t i);

const json::object& object(const json::value& v, std::string_view path);
/// The member, or nullptr when absent or null.
const json::value* member(const json::object& o, std::string_view key) noexcept;

std::string req_string(const json::object& o, std::string_view key, std::string_view path);
std::optional<std::string> opt_string(const json::object& o, std::string_view key, std::string_view path);
std::optional<bool> opt_bool(const json::object& o, std::string_view key, std::string_view path);
json::object req_object(const json::object& o, std::string_view key, std::string_view path);
std::optional<json::object> opt_object(const json::object& o, std::string_view key, std::string_view path);
/// `_meta` as an object (absent/null -> nullopt).
std::optional<json::object> meta(const json::object& o, std::string_view path);

// --- parsers of nested types, one overload per type, defined by the type's codec ---
template <class T> struct type {};
icon parse(const json::value& v, std::string_view path, type<icon>);
annotations parse(const json::value& v, std::string_view path, type<annotations>);
implementation parse(const json::value& v, std::string_view path, type<implementation>);
role parse(const json::value& v, std::string_view path, type<role>);
/// A progress token or a request id: a string or an integer.
progress_token parse(const json::value& v, std::string_view path, type<progress_token>);
content_block parse(const json::value& v, std::string_view path, type<content_block>);
sampling_content parse(const json::value& v, std::string_view path, type<sampling_content>);
resource_contents parse(const json::value& v, std::string_view path, type<resource_contents>);
tool parse(const json::value& v, std::string_view path, type<tool>);
client_capabilities parse(const json::value& v, std::string_view path, type<client_capabilities>);
server_capabilities parse(const json::value& v, std::string_view path, type<server_capabilities>);

/// An enumerator named by its to_string; else fails with `must be "a", "b" or "c"`.
template <class E, std::size_t N> E read_enum(const json::value& v, std::string_view path, const E (&all)[N]) {
    if (v.is_string())
        for (E e : all)
            if (v.get_string() == to_string(e)) return e;
    std::string names;
    for (std::size_t i = 0; i < N; ++i)
        names.append(i == 0 ? "" : i + 1 == N ? " or " : ", ").append("\"").append(to_string(all[i])).append("\"");
    fail(path, "must be " + names);
}

// --- writers ---
inline void put(json::object& o, std::string_view k, const std::optional<std::string>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<bool>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<json::object>& v) {
    if (v) o[k] = *v;
}
/// `_meta` when the revision allows it on this kind of object.
inline void put_meta(json::object& o, const std::optional<json::object>& m, bool allowed) {
    if (m && allowed) o["_meta"] = *m;
}
/// `resultType: "complete"` for server results (2026-07-28+).
void put_result_type(json::object& o, revision r);
} // namespace mcp::wire
