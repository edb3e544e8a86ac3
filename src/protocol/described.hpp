// The generated protocol codec: a protocol type described once with MCP_WIRE_DESCRIBE gets its
// to_json(x, r) and its path-naming parser from the description (mcp/json/describe.hpp machinery).
//
//     MCP_WIRE_DESCRIBE(tool, "Tool",
//                       (name), (title, when(wire_field::title)), (input_schema), ...,
//                       (meta, when(wire_field::entity_meta)))
//     MCP_WIRE_CODEC(tool)
//
// An entry is `(member, attributes...)`. The JSON name is the member's name in camelCase (`meta`
// is "_meta") unless field::wire_name says otherwise. when(f) / field::since(r) / field::until(r):
// the member is written only in the revisions that define it (and read only there when
// read_struct is given a revision; from_json reads every member). A member is required unless it is a
// std::optional, a list or a map (field::required makes those required; an optional list is
// omitted when empty). or_else(v): an unset optional member the revision defines is written as v.
// Members are written in the order of the description.
#pragma once

#include "protocol/wire.hpp"

#include <mcp/json/describe.hpp>

#include <boost/preprocessor/comparison/equal.hpp>
#include <boost/preprocessor/control/if.hpp>
#include <boost/preprocessor/tuple/eat.hpp>
#include <boost/preprocessor/tuple/size.hpp>

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mcp::wire {

/// A member name in camelCase, computed at compile time ("input_schema" -> "inputSchema"); `meta`
/// is "_meta", as everywhere in MCP.
template <std::size_t N> struct camel_case {
    char text[N + 1]{};
    constexpr camel_case(const char (&s)[N]) {
        std::size_t j = 0;
        if (std::string_view(s) == "meta") text[j++] = '_';
        bool upper = false;
        for (std::size_t i = 0; i + 1 < N; ++i) {
            if (s[i] == '_' && j > 0) {
                upper = true;
                continue;
            }
            text[j++] = upper && s[i] >= 'a' && s[i] <= 'z' ? static_cast<char>(s[i] - 'a' + 'A') : s[i];
            upper = false;
        }
    }
};
template <camel_case S> constexpr const char* camel() {
    return S.text;
}

/// The cache members of list and read results (2026-07-28, required there).
#define MCP_WIRE_CACHEABLE                                                                                   \
    (ttl_ms, when(wire_field::cacheable_result), or_else(std::int64_t{0})),                                  \
        (cache_scope, when(wire_field::cacheable_result), or_else("private"))

/// The revisions that define wire field `f` (one row of the table in mcp/protocol/codec.hpp).
constexpr field::versions when(wire_field f) {
    for (const auto& rule : field_rules)
        if (rule.f == f) return {static_cast<int>(rule.first), static_cast<int>(rule.last)};
    return {};
}

/// Written as `value` when the optional member is unset (and the revision defines it).
template <class V> struct or_else {
    V value;
    void apply(field_spec&) const {}
};
template <class V> or_else(V) -> or_else<V>;
template <class A> inline constexpr bool is_or_else = false;
template <class V> inline constexpr bool is_or_else<or_else<V>> = true;

template <class T> inline constexpr bool is_optional = false;
template <class T> inline constexpr bool is_optional<std::optional<T>> = true;
template <class T> inline constexpr bool is_list = false;
template <class T> inline constexpr bool is_list<std::vector<T>> = true;
template <class T> inline constexpr bool is_list<std::map<std::string, T>> = true;

template <class Field> constexpr bool is_required() {
    using M = typename Field::member_type;
    if constexpr (detail::has_attribute<field::required_t, Field>)
        return true;
    else
        return !(detail::has_attribute<field::optional_t, Field> || is_optional<M> || is_list<M>);
}

/// Where a value sits, for error messages; rendered ("Tool.icons[2].src") only when needed.
struct place {
    std::string_view parent;
    std::string_view key;
    std::size_t i = std::string::npos;
    std::string str() const { return i == std::string::npos ? join(parent, key) : index(parent, i); }
};

// --- reading one value ---
std::string read_string(const json::value& v, const place& at);
double read_number(const json::value& v, const place& at);
std::int64_t read_int(const json::value& v, const place& at);

template <class M> M read_value(const json::value& v, const place& at) {
    if constexpr (std::is_same_v<M, std::string>)
        return read_string(v, at);
    else if constexpr (std::is_same_v<M, bool>) {
        if (!v.is_bool()) fail(at.str(), "must be a boolean");
        return v.get_bool();
    } else if constexpr (std::is_same_v<M, double>)
        return read_number(v, at);
    else if constexpr (std::is_same_v<M, std::int64_t>)
        return read_int(v, at);
    else if constexpr (std::is_same_v<M, json::value>)
        return v;
    else if constexpr (std::is_same_v<M, json::object>) {
        if (!v.is_object()) fail(at.str(), "must be an object");
        return v.get_object();
    } else if constexpr (is_optional<M>)
        return read_value<typename M::value_type>(v, at);
    else if constexpr (is_list<M> && requires { typename M::key_type; }) {
        if (!v.is_object()) fail(at.str(), "must be an object");
        const std::string path = at.str();
        M out;
        for (const auto& kv : v.get_object())
            out.emplace(std::string(kv.key()), read_value<typename M::mapped_type>(kv.value(), {path, kv.key()}));
        return out;
    } else if constexpr (is_list<M>) {
        if (!v.is_array()) fail(at.str(), "must be an array");
        const auto& a = v.get_array();
        const std::string path = at.str();
        M out;
        out.reserve(a.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            out.push_back(read_value<typename M::value_type>(a[i], {path, {}, i}));
        return out;
    } else
        return parse(v, at.str(), type<M>{}); // a nested protocol type, read by its own codec
}

// --- writing one value ---
template <class M> json::value write_value(const M& m, revision r) {
    if constexpr (std::is_same_v<M, std::string>)
        return json::string(m);
    else if constexpr (std::is_arithmetic_v<M> || std::is_same_v<M, json::value> || std::is_same_v<M, json::object>)
        return m;
    else if constexpr (std::is_enum_v<M>)
        return json::string(to_string(m));
    else if constexpr (std::is_same_v<M, progress_token>) // also a request id
        return std::visit([](const auto& id) { return json::value(id); }, m);
    else if constexpr (is_list<M> && requires { typename M::key_type; }) {
        json::object o;
        for (const auto& [k, e] : m) o[k] = write_value(e, r);
        return o;
    } else if constexpr (is_list<M>) {
        json::array a;
        a.reserve(m.size());
        for (const auto& e : m) a.push_back(write_value(e, r));
        return a;
    } else
        return to_json(m, r); // a nested protocol type, written by its own codec
}

/// The description of T as a tuple of described fields, built once.
template <class T> const auto& fields_of() {
    static const auto fields = mcp_wire_fields(static_cast<const T*>(nullptr));
    return fields;
}

/// Add the members of x in the wire form of revision r to `o`.
template <class T> void write_into(json::object& o, const T& x, revision r) {
    std::apply(
        [&](const auto&... f) {
            auto one = [&](const auto& f) {
                using F = std::decay_t<decltype(f)>;
                using M = typename F::member_type;
                if (!detail::exists_in(f, static_cast<int>(r))) return;
                const M& m = x.*f.pointer;
                if constexpr (is_optional<M>) {
                    if (m)
                        o[f.name] = write_value(*m, r);
                    else
                        std::apply(
                            [&](const auto&... a) {
                                [[maybe_unused]] auto fallback = [&](const auto& at) {
                                    if constexpr (is_or_else<std::decay_t<decltype(at)>>) o[f.name] = at.value;
                                };
                                (fallback(a), ...);
                            },
                            f.attributes);
                } else if constexpr (is_list<M> && !is_required<F>()) {
                    if (!m.empty()) o[f.name] = write_value(m, r);
                } else
                    o[f.name] = write_value(m, r);
            };
            (one(f), ...);
        },
        fields_of<T>());
}

/// x in the wire form of revision r.
template <class T> json::object write_struct(const T& x, revision r) {
    json::object o;
    write_into(o, x, r);
    return o;
}

/// Parse T from `v` at schema path `path`. With a revision, members it does not define are
/// ignored (left as in `T{}`); without, every member is read (the tolerant parse of codec.hpp).
template <class T>
T read_struct(const json::value& v, std::string_view path, std::optional<revision> r = std::nullopt) {
    const auto& o = object(v, path);
    T x{};
    std::apply(
        [&](const auto&... f) {
            auto one = [&](const auto& f) {
                using F = std::decay_t<decltype(f)>;
                using M = typename F::member_type;
                if (r && !detail::exists_in(f, static_cast<int>(*r))) return;
                const json::value* m = o.if_contains(f.name);
                // null is absent, except for a required member of any JSON value (null is a datum)
                if (!m || (m->is_null() && !(std::is_same_v<M, json::value> && is_required<F>()))) {
                    if constexpr (is_required<F>()) fail(join(path, f.name), "is required");
                    return;
                }
                x.*f.pointer = read_value<M>(*m, {path, f.name});
            };
            (one(f), ...);
        },
        fields_of<T>());
    return x;
}

} // namespace mcp::wire

// An entry `(member, attrs...)` becomes make_field(&T::member, "memberInCamelCase", "", attrs...).
#define MCP_WIRE_DETAIL_ATTRS(entry) , BOOST_PP_TUPLE_ENUM(BOOST_PP_TUPLE_POP_FRONT(entry))
#define MCP_WIRE_DETAIL_FIELD(s, T, entry)                                                                   \
    ::mcp::detail::make_field(&T::BOOST_PP_TUPLE_ELEM(0, entry),                                             \
                              ::mcp::wire::camel<BOOST_PP_STRINGIZE(BOOST_PP_TUPLE_ELEM(0, entry))>(),       \
                              "" BOOST_PP_IF(BOOST_PP_EQUAL(BOOST_PP_TUPLE_SIZE(entry), 1), BOOST_PP_TUPLE_EAT(1), \
                                             MCP_WIRE_DETAIL_ATTRS)(entry))

/// Describe protocol type T, whose schema name is `schema_name` ("Tool", "CallToolRequest.params").
#define MCP_WIRE_DESCRIBE(T, schema_name, ...)                                                               \
    [[maybe_unused]] constexpr std::string_view mcp_wire_schema_name(const T*) { return schema_name; }       \
    [[maybe_unused]] inline auto mcp_wire_fields(const T*) {                                                 \
        using namespace ::mcp::wire;                                                                         \
        return std::make_tuple(BOOST_PP_SEQ_ENUM(                                                            \
            BOOST_PP_SEQ_TRANSFORM(MCP_WIRE_DETAIL_FIELD, T, BOOST_PP_VARIADIC_TO_SEQ(__VA_ARGS__))));       \
    }

/// The parser of a described T (as a member of another type).
#define MCP_WIRE_PARSER(T)                                                                                   \
    namespace wire {                                                                                         \
    T parse(const json::value& v, std::string_view path, type<T>) { return read_struct<T>(v, path); }       \
    }
/// from_json<T> of a described T.
#define MCP_WIRE_FROM_JSON(T)                                                                                \
    template <> T from_json<T>(const json::value& v) {                                                       \
        return wire::read_struct<T>(v, mcp_wire_schema_name(static_cast<const T*>(nullptr)));                \
    }
/// to_json and the member parser of a described T that is no public protocol type (e.g. the
/// shape of a nested wire object, in an unnamed namespace).
#define MCP_WIRE_INNER(T)                                                                                    \
    [[maybe_unused]] json::object to_json(const T& x, revision r) { return ::mcp::wire::write_struct(x, r); } \
    [[maybe_unused]] T parse(const json::value& v, std::string_view path, ::mcp::wire::type<T>) {           \
        return ::mcp::wire::read_struct<T>(v, path);                                                         \
    }
/// to_json, from_json and the member parser of a described T; MCP_WIRE_RESULT_CODEC adds the
/// `resultType` of server results.
#define MCP_WIRE_CODEC(T)                                                                                    \
    json::object to_json(const T& x, revision r) { return wire::write_struct(x, r); }                        \
    MCP_WIRE_FROM_JSON(T)                                                                                    \
    MCP_WIRE_PARSER(T)
#define MCP_WIRE_RESULT_CODEC(T)                                                                             \
    json::object to_json(const T& x, revision r) {                                                           \
        auto o = wire::write_struct(x, r);                                                                   \
        wire::put_result_type(o, r);                                                                         \
        return o;                                                                                            \
    }                                                                                                        \
    MCP_WIRE_FROM_JSON(T)                                                                                    \
    MCP_WIRE_PARSER(T)
