// http/client/mcp_headers.cpp - see mcp_headers.hpp.
#include "mcp_headers.hpp"

#include "errors.hpp" // printable

#include <mcp/json/base64.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace mcp::http::detail {

namespace {

bool tchar(unsigned char c) noexcept {
    if (std::isalnum(c)) return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Keywords whose value holds subschemas: where an annotation could hide. Everything else
// (const, enum, default, examples...) is data. JSON Schema 2020-12 and draft-07 both:
//   a schema, or (draft-07 `items` / `additionalItems` in tuple form) an array of schemas;
//   an array of schemas;
//   a map of schemas (draft-07 `dependencies` values may also be arrays of names: data).
enum class holds { schema, schema_array, schema_map };
std::optional<holds> subschema_keyword(std::string_view k) {
    static const std::pair<std::string_view, holds> table[] = {
        {"properties", holds::schema_map},
        {"patternProperties", holds::schema_map},
        {"$defs", holds::schema_map},
        {"definitions", holds::schema_map},
        {"dependentSchemas", holds::schema_map},
        {"dependencies", holds::schema_map},
        {"additionalProperties", holds::schema},
        {"unevaluatedProperties", holds::schema},
        {"propertyNames", holds::schema},
        {"items", holds::schema},
        {"additionalItems", holds::schema},
        {"unevaluatedItems", holds::schema},
        {"contains", holds::schema},
        {"contentSchema", holds::schema},
        {"not", holds::schema},
        {"if", holds::schema},
        {"then", holds::schema},
        {"else", holds::schema},
        {"prefixItems", holds::schema_array},
        {"allOf", holds::schema_array},
        {"anyOf", holds::schema_array},
        {"oneOf", holds::schema_array},
    };
    for (const auto& [name, h] : table)
        if (name == k) return h;
    return std::nullopt;
}

// A type that may carry an annotation: "string", "integer" or "boolean" (a list of types may
// add "null" to one of them: an optional value is still one primitive when present).
bool primitive_type(const json::object& schema) {
    const auto* t = schema.if_contains("type");
    if (!t) return false;
    auto ok = [](std::string_view s) { return s == "string" || s == "integer" || s == "boolean"; };
    if (t->is_string()) return ok(t->get_string());
    if (!t->is_array()) return false;
    int primitives = 0;
    for (const auto& e : t->get_array()) {
        if (!e.is_string()) return false;
        if (ok(e.get_string()))
            ++primitives;
        else if (e.get_string() != "null")
            return false;
    }
    return primitives == 1;
}

struct walker {
    tool_annotations out;
    std::map<std::string, std::string> seen; // lower-case name -> name

    void fail(std::string why) {
        if (out.error.empty()) out.error = std::move(why);
    }

    static std::string where(const std::vector<std::string>& path) {
        std::string s = "/";
        for (std::size_t i = 0; i < path.size(); ++i) s += (i ? "/" : "") + path[i];
        return s;
    }

    // `reachable`: the schema is the root or reached from it through `properties` only;
    // `path` is then the chain of property names.
    void walk(const json::value& v, bool reachable, std::vector<std::string>& path, int depth) {
        if (!out.error.empty()) return;
        if (depth > 64) {
            fail("the inputSchema is nested too deeply to check its x-mcp-header annotations");
            return;
        }
        if (!v.is_object()) return; // true / false schemas carry nothing
        const auto& o = v.get_object();
        if (const auto* h = o.if_contains("x-mcp-header")) check(*h, o, reachable, path);
        for (const auto& kv : o) {
            const auto kind = subschema_keyword(kv.key());
            if (!kind) continue;
            const json::value& sub = kv.value();
            const bool through_properties = reachable && kv.key() == "properties";
            if (*kind == holds::schema_map) {
                if (!sub.is_object()) continue;
                for (const auto& p : sub.get_object()) {
                    if (through_properties) path.emplace_back(p.key());
                    walk_any(p.value(), through_properties, path, depth + 1);
                    if (through_properties) path.pop_back();
                }
            } else {
                // A schema or an array of schemas, whichever the keyword says: read both
                // forms for every keyword, so that no spelling of a schema goes unread.
                walk_any(sub, false, path, depth + 1);
            }
        }
    }

    // A schema, or an array of them (tuple `items`, `allOf`...); an array under `properties`
    // is not a schema and is read as one only to find annotations, which are invalid there.
    void walk_any(const json::value& v, bool reachable, std::vector<std::string>& path, int depth) {
        if (!v.is_array()) {
            walk(v, reachable, path, depth);
            return;
        }
        if (depth > 64) {
            fail("the inputSchema is nested too deeply to check its x-mcp-header annotations");
            return;
        }
        for (const auto& e : v.get_array()) walk_any(e, false, path, depth + 1);
    }

    void check(const json::value& h, const json::object& schema, bool reachable,
               const std::vector<std::string>& path) {
        if (!reachable || path.empty()) {
            fail("x-mcp-header at a schema that is not a property reachable through `properties` alone");
            return;
        }
        // Names from the server go into a log line (the dropped tool's warning): escaped.
        const std::string at = printable(where(path));
        if (!h.is_string() || h.get_string().empty()) {
            fail("x-mcp-header of " + at + " is not a non-empty string");
            return;
        }
        const std::string_view name = h.get_string();
        const std::string shown = printable(name);
        if (!is_token(name)) {
            fail("x-mcp-header \"" + shown + "\" of " + at + " is not a valid header name token");
            return;
        }
        if (!primitive_type(schema)) {
            const auto* t = schema.if_contains("type");
            fail("x-mcp-header \"" + shown + "\" of " + at + " is on a property of type " +
                 (t ? printable(to_json(*t)) : std::string("(none)")) +
                 ": only string, integer and boolean may carry one");
            return;
        }
        auto [it, fresh] = seen.emplace(lower(name), std::string(name));
        if (!fresh) {
            fail("x-mcp-header \"" + shown + "\" of " + at + " repeats \"" + it->second +
                 "\" (names must be unique, ignoring case)");
            return;
        }
        out.params.push_back(param_header{std::string(name), path});
    }
};

} // namespace

bool is_token(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (char c : s)
        if (!tchar(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string encode_header_value(std::string_view v) {
    bool plain = !v.empty() && v.front() != ' ' && v.front() != '\t' && v.back() != ' ' && v.back() != '\t';
    for (std::size_t i = 0; plain && i < v.size(); ++i) {
        const auto c = static_cast<unsigned char>(v[i]);
        plain = c == '\t' || (c >= 0x20 && c <= 0x7E);
    }
    // A plain value that looks like an encoded one must be encoded, or it would be decoded.
    if (plain && v.size() >= 11 && v.substr(0, 9) == "=?base64?" && v.substr(v.size() - 2) == "?=")
        plain = false;
    if (plain) return std::string(v);
    // The empty string has no plain form (header whitespace trimming would make it absent):
    // it encodes to the sentinel around nothing.
    return "=?base64?" + base64::encode(v) + "?=";
}

namespace {

constexpr std::int64_t max_safe_integer = 9007199254740991; // 2^53 - 1

// An integer (or an integral double) outside -(2^53-1) .. 2^53-1.
bool unsafe_integer(const json::value& v) {
    switch (v.kind()) {
    case json::kind::int64:
        return v.get_int64() > max_safe_integer || v.get_int64() < -max_safe_integer;
    case json::kind::uint64:
        return v.get_uint64() > static_cast<std::uint64_t>(max_safe_integer);
    case json::kind::double_: {
        const double d = v.get_double();
        return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) > static_cast<double>(max_safe_integer);
    }
    default:
        return false;
    }
}

const json::value* argument_at(const json::value& arguments, const std::vector<std::string>& path) {
    const json::value* v = &arguments;
    for (const auto& step : path) {
        if (!v->is_object()) return nullptr;
        v = v->get_object().if_contains(step);
        if (!v) return nullptr;
    }
    return v;
}

} // namespace

std::optional<std::string> header_text(const json::value& v) {
    if (unsafe_integer(v)) return std::nullopt;
    switch (v.kind()) {
    case json::kind::string:
        return std::string(v.get_string());
    case json::kind::int64:
        return std::to_string(v.get_int64());
    case json::kind::uint64:
        return std::to_string(v.get_uint64());
    case json::kind::bool_:
        return v.get_bool() ? "true" : "false";
    case json::kind::double_: {
        const double d = v.get_double();
        if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
        return std::to_string(static_cast<long long>(d));
    }
    default:
        return std::nullopt;
    }
}

std::string unmirrorable_argument(const std::vector<param_header>& params, const json::value& arguments) {
    for (const auto& p : params) {
        const json::value* v = argument_at(arguments, p.path);
        if (!v || !unsafe_integer(*v)) continue;
        std::string at;
        for (const auto& step : p.path) at += "/" + step;
        return "the argument " + printable(at) + " (" + to_json(*v) +
               ") is mirrored into the header Mcp-Param-" + printable(p.name) +
               ", and a header may carry only integers from -(2^53-1) to 2^53-1 (the 2026-07-28 Streamable "
               "HTTP transport, \"Custom Headers from Tool Parameters\")";
    }
    return {};
}

tool_annotations read_annotations(const json::value& input_schema) {
    walker w;
    std::vector<std::string> path;
    w.walk(input_schema, true, path, 0);
    if (!w.out.error.empty()) w.out.params.clear();
    return std::move(w.out);
}

std::vector<std::pair<std::string, std::string>> param_headers(const std::vector<param_header>& params,
                                                               const json::value& arguments) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : params) {
        const json::value* v = argument_at(arguments, p.path);
        if (!v) continue; // absent: the header is omitted
        auto text = header_text(*v);
        if (!text) continue; // null (or not a primitive)
        out.emplace_back("Mcp-Param-" + p.name, encode_header_value(*text));
    }
    return out;
}

tools_filter filter_tools(json::object& result) {
    tools_filter f;
    auto* tools = result.if_contains("tools");
    if (!tools || !tools->is_array()) return f;
    auto& arr = tools->get_array();
    for (auto it = arr.begin(); it != arr.end();) {
        std::string name;
        const json::value* schema = nullptr;
        if (it->is_object()) {
            const auto& t = it->get_object();
            if (auto n = find_string(t, "name")) name = std::string(*n);
            schema = t.if_contains("inputSchema");
        }
        tool_annotations a = schema ? read_annotations(*schema) : tool_annotations{};
        if (!a.error.empty()) {
            f.dropped.emplace_back(name, std::move(a.error));
            it = arr.erase(it);
            continue;
        }
        if (!a.params.empty()) f.annotated.emplace(name, std::move(a.params));
        f.listed.push_back(std::move(name));
        ++it;
    }
    return f;
}

} // namespace mcp::http::detail
