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
double req_number(const json::object& o, std::string_view key, std::string_view path);
std::optional<double> opt_number(const json::object& o, std::string_view key, std::string_view path);
std::int64_t req_int(const json::object& o, std::string_view key, std::string_view path);
std::optional<std::int64_t> opt_int(const json::object& o, std::string_view key, std::string_view path);
json::object req_object(const json::object& o, std::string_view key, std::string_view path);
std::optional<json::object> opt_object(const json::object& o, std::string_view key, std::string_view path);
const json::array& req_array(const json::object& o, std::string_view key, std::string_view path);
const json::array* opt_array(const json::object& o, std::string_view key, std::string_view path);
std::vector<std::string> string_array(const json::array& a, std::string_view path);
std::map<std::string, std::string> string_map(const json::object& o, std::string_view path);
/// `_meta` as an object (absent/null -> nullopt).
std::optional<json::object> meta(const json::object& o, std::string_view path);

/// Parse every element of `a` with `f(value, path)`.
template <class T, class F> std::vector<T> each(const json::array& a, std::string_view path, F&& f) {
    std::vector<T> out;
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out.push_back(f(a[i], index(path, i)));
    return out;
}

// --- internal parsers shared between translation units ---
icon read_icon(const json::value& v, std::string_view path);
std::vector<icon> read_icons(const json::object& o, std::string_view path);
annotations read_annotations(const json::value& v, std::string_view path);
std::optional<annotations> opt_annotations(const json::object& o, std::string_view path);
implementation read_implementation(const json::value& v, std::string_view path);
role read_role(const json::value& v, std::string_view path);
content_block read_content_block(const json::value& v, std::string_view path);
std::vector<content_block> read_content_blocks(const json::array& a, std::string_view path);
sampling_content read_sampling_content(const json::value& v, std::string_view path);
resource_contents read_resource_contents(const json::value& v, std::string_view path);
tool read_tool(const json::value& v, std::string_view path);
client_capabilities read_client_capabilities(const json::value& v, std::string_view path);
server_capabilities read_server_capabilities(const json::value& v, std::string_view path);

// --- writers ---
inline void put(json::object& o, std::string_view k, const std::optional<std::string>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<bool>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<double>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<std::int64_t>& v) {
    if (v) o[k] = *v;
}
inline void put(json::object& o, std::string_view k, const std::optional<json::object>& v) {
    if (v) o[k] = *v;
}
/// `_meta` when the revision allows it on this kind of object.
inline void put_meta(json::object& o, const std::optional<json::object>& m, bool allowed) {
    if (m && allowed) o["_meta"] = *m;
}
void put_icons(json::object& o, const std::vector<icon>& icons, revision r);
void put_annotations(json::object& o, const std::optional<annotations>& a, revision r);
/// `resultType: "complete"` for server results (2026-07-28+).
void put_result_type(json::object& o, revision r);
/// `ttlMs` / `cacheScope` for cacheable results (2026-07-28+), with defaults 0 / "private".
void put_cacheable(json::object& o, const std::optional<std::int64_t>& ttl_ms,
                   const std::optional<std::string>& cache_scope, revision r);
/// Reads ttlMs / cacheScope.
void read_cacheable(const json::object& o, std::string_view path, std::optional<std::int64_t>& ttl_ms,
                    std::optional<std::string>& cache_scope);

} // namespace mcp::wire
