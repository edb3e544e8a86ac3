// Reading and checking x-mcp-header annotations (see header_annotations.hpp).
#include "protocol/header_annotations.hpp"

#include <mcp/json/text.hpp>
#include <mcp/json/type_codec.hpp> // detail::pointer_escape

#include <map>
#include <optional>
#include <utility>

namespace mcp::detail {

namespace {

bool tchar(unsigned char c) noexcept {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return c != 0 && std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
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

constexpr int max_depth = 64;

struct walker {
    header_annotations out;
    std::map<std::string, std::string> seen; // lower-case name -> where it was first used
    std::vector<std::string> pointer;        // where in the schema we are (JSON pointer tokens)
    std::vector<std::string> path;           // property names, while reachable

    void fail(std::string why) {
        if (out.error.empty()) out.error = std::move(why);
    }

    std::string here(std::string_view last = {}) const {
        std::string s;
        for (const auto& t : pointer) s += "/" + pointer_escape(t);
        if (!last.empty()) s += "/" + pointer_escape(last);
        return printable(s.empty() ? "(the schema's root)" : s);
    }

    void too_deep() {
        fail("the inputSchema is nested more than " + std::to_string(max_depth) + " levels deep at " +
             here() + ": its x-mcp-header annotations cannot be checked");
    }

    // `reachable`: the schema is the root or reached from it through `properties` only; `path`
    // is then the chain of property names.
    void walk(const json::value& v, bool reachable, int depth) {
        if (!out.error.empty()) return;
        if (depth > max_depth) return too_deep();
        if (const auto* o = v.if_object()) walk_object(*o, reachable, depth); // true / false carry nothing
    }

    void walk_object(const json::object& o, bool reachable, int depth) {
        if (const auto* h = o.if_contains("x-mcp-header")) check(*h, o, reachable);
        for (const auto& kv : o) {
            if (!out.error.empty()) return;
            const auto kind = subschema_keyword(kv.key());
            if (!kind) continue;
            const json::value& sub = kv.value();
            const bool through_properties = reachable && kv.key() == "properties";
            pointer.emplace_back(kv.key());
            if (*kind == holds::schema_map) {
                if (const auto* members = sub.if_object()) {
                    for (const auto& p : *members) {
                        pointer.emplace_back(p.key());
                        if (through_properties) path.emplace_back(p.key());
                        walk_any(p.value(), through_properties, depth + 1);
                        if (through_properties) path.pop_back();
                        pointer.pop_back();
                    }
                }
            } else {
                // A schema or an array of schemas, whichever the keyword says: read both
                // forms for every keyword, so that no spelling of a schema goes unread.
                walk_any(sub, false, depth + 1);
            }
            pointer.pop_back();
        }
    }

    // A schema, or an array of them (tuple `items`, `allOf`...); an array under `properties`
    // is not a schema and is read as one only to find annotations, which are invalid there.
    void walk_any(const json::value& v, bool reachable, int depth) {
        if (!v.is_array()) return walk(v, reachable, depth);
        if (depth > max_depth) return too_deep();
        const auto& items = v.get_array();
        for (std::size_t i = 0; i < items.size() && out.error.empty(); ++i) {
            pointer.push_back(std::to_string(i));
            walk_any(items[i], false, depth + 1);
            pointer.pop_back();
        }
    }

    void check(const json::value& h, const json::object& schema, bool reachable) {
        const std::string at = here("x-mcp-header");
        const std::string shown =
            h.is_string() ? "\"" + printable(h.get_string()) + "\"" : printable(to_json(h));
        if (!reachable || path.empty()) {
            fail("x-mcp-header " + shown + " at " + at +
                 " is not on a property reached from the root through \"properties\" alone (not through "
                 "items, compositions, conditionals, $defs/$ref or other keywords)");
            return;
        }
        if (!h.is_string() || h.get_string().empty()) {
            fail("x-mcp-header " + shown + " at " + at + " is not a non-empty string");
            return;
        }
        const std::string_view name = h.get_string();
        if (!is_token(name)) {
            fail("x-mcp-header " + shown + " at " + at +
                 " is not a valid header name (an RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~)");
            return;
        }
        if (!primitive_type(schema)) {
            const auto* t = schema.if_contains("type");
            fail("x-mcp-header " + shown + " at " + at + " is on a property of type " +
                 (t ? printable(to_json(*t)) : std::string("(none)")) +
                 ": only string, integer and boolean may carry one");
            return;
        }
        auto [first, fresh] = seen.emplace(lower(name), at);
        if (!fresh) {
            fail("x-mcp-header " + shown + " at " + at + " repeats the name used at " + first->second +
                 " (names must be unique, ignoring case)");
            return;
        }
        out.params.push_back(header_parameter{std::string(name), path});
    }
};

} // namespace

bool is_token(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (char c : s)
        if (!tchar(static_cast<unsigned char>(c))) return false;
    return true;
}

header_annotations read_header_annotations(const json::value& input_schema) {
    walker w;
    w.walk(input_schema, true, 0);
    if (!w.out.error.empty()) w.out.params.clear();
    return std::move(w.out);
}

header_annotations read_header_annotations(const json::object& input_schema) {
    walker w;
    w.walk_object(input_schema, true, 0);
    if (!w.out.error.empty()) w.out.params.clear();
    return std::move(w.out);
}

} // namespace mcp::detail
