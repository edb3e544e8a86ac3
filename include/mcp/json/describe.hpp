// mcp/json/describe.hpp - describing a plain struct once, for JSON conversion and JSON Schema.
//
//     struct forecast_args {
//         std::string city;
//         int days = 3;                       // a default: not required, "default": 3
//         std::optional<units> unit;          // optional: not required
//         bool verbose = false;               // bool, lists, maps: absent means false / empty
//     };
//     MCP_DESCRIBE(forecast_args,
//                  (city, "City name", mcp::field::min_length(1)),
//                  (days, "Days ahead", mcp::field::range(1, 7)),
//                  (unit, "Units"),
//                  (verbose, "More detail"));
//
// Each entry is `(member, "description", attributes...)`. MCP_DESCRIBE goes at namespace scope,
// in the struct's namespace, after the struct (like BOOST_DESCRIBE_STRUCT). Enumerations are
// described with MCP_DESCRIBE_ENUM(units, celsius, fahrenheit) and travel as their names.
//
// What is required: a member is required unless
//   - it is a std::optional (no default), or
//   - it has a default: its value in a value-initialised `T{}` differs from a value-initialised
//     member (e.g. `int days = 3`); the schema says `"default": 3`, or
//   - it is a bool, a list or a map (absent means false / empty), or
//   - it carries mcp::field::optional (its value in `T{}` is its default, e.g. `int page = 0`).
// mcp::field::required makes any member required.
//
// mcp::field::wire_name("camelCase") gives the member's JSON name when it differs from the C++
// name. mcp::field::since(v) / until(v) say from which / through which version (any enumeration
// of versions, e.g. mcp::revision) a member exists; codecs that know a version (the protocol
// codec) neither write nor read it elsewhere; type_codec, which has no version, ignores them.
// Structs described only with BOOST_DESCRIBE_STRUCT are accepted too (no descriptions).
#pragma once

#include <mcp/json/json.hpp>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/preprocessor/seq/enum.hpp>
#include <boost/preprocessor/seq/transform.hpp>
#include <boost/preprocessor/stringize.hpp>
#include <boost/preprocessor/tuple/elem.hpp>
#include <boost/preprocessor/tuple/enum.hpp>
#include <boost/preprocessor/tuple/pop_front.hpp>
#include <boost/preprocessor/variadic/to_seq.hpp>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace mcp {

/// What the attributes of one member say, beyond its type: extra JSON Schema keywords and
/// whether it is required.
struct field_spec {
    json::object keywords;        ///< merged into the member's property schema
    std::optional<bool> required; ///< unset: decided by the rule in the header comment
};

/// Attributes for MCP_DESCRIBE entries. Each adds JSON Schema keywords to the member's property
/// schema (they are checked when a schema is validated, e.g. before a typed tool runs; the
/// conversion itself checks only types).
namespace field {

/// A bound as JSON: whole numbers as integers ("minimum": 1, not 1.0).
inline json::value number(double v) {
    if (v == static_cast<double>(static_cast<std::int64_t>(v)) && v > -9.0e18 && v < 9.0e18)
        return static_cast<std::int64_t>(v);
    return v;
}

struct keyword {
    const char* name;
    json::value value;
    void apply(field_spec& s) const { s.keywords[name] = value; }
};
inline keyword minimum(double v) {
    return {"minimum", number(v)};
}
inline keyword maximum(double v) {
    return {"maximum", number(v)};
}
inline keyword exclusive_minimum(double v) {
    return {"exclusiveMinimum", number(v)};
}
inline keyword exclusive_maximum(double v) {
    return {"exclusiveMaximum", number(v)};
}
inline keyword multiple_of(double v) {
    return {"multipleOf", number(v)};
}
inline keyword min_length(std::size_t n) {
    return {"minLength", n};
}
inline keyword max_length(std::size_t n) {
    return {"maxLength", n};
}
inline keyword min_items(std::size_t n) {
    return {"minItems", n};
}
inline keyword max_items(std::size_t n) {
    return {"maxItems", n};
}
inline keyword pattern(const char* ecma_regex) {
    return {"pattern", ecma_regex};
}
/// A `format` name (e.g. "email", "uri", "date", "date-time").
inline keyword format(const char* name) {
    return {"format", name};
}
inline keyword title(const char* text) {
    return {"title", text};
}
inline keyword examples(json::array values) {
    return {"examples", std::move(values)};
}

/// minimum and maximum at once (inclusive).
struct range {
    double lo, hi;
    range(double l, double h) : lo(l), hi(h) {}
    void apply(field_spec& s) const {
        s.keywords["minimum"] = number(lo);
        s.keywords["maximum"] = number(hi);
    }
};

struct optional_t {
    void apply(field_spec& s) const { s.required = false; }
};
struct required_t {
    void apply(field_spec& s) const { s.required = true; }
};
/// The member's JSON name, when it differs from the C++ member name.
struct wire_name {
    const char* name;
    void apply(field_spec&) const {}
};

/// The versions (ordinals of a version enumeration) in which the member exists, inclusive.
/// Several attributes intersect: since(a), until(b) is a..b.
struct versions {
    int first = INT_MIN;
    int last = INT_MAX;
    constexpr bool contain(int v) const noexcept { return v >= first && v <= last; }
    void apply(field_spec&) const {}
};
/// The member exists from version `v` on.
template <class E>
    requires std::is_enum_v<E>
constexpr versions since(E v) {
    return {static_cast<int>(v), INT_MAX};
}
/// The member exists up to and including version `v`.
template <class E>
    requires std::is_enum_v<E>
constexpr versions until(E v) {
    return {INT_MIN, static_cast<int>(v)};
}

/// Not required; its value in `T{}` is its default (`"default"` in the schema).
inline constexpr optional_t optional{};
/// Required even though it has a default.
inline constexpr required_t required{};

} // namespace field

namespace detail {

/// One described member: pointer, name, description and attribute list.
template <class T, class M, class... Attrs> struct described_field {
    using owner_type = T;
    using member_type = M;
    M T::*pointer;
    const char* name;
    const char* description;
    std::tuple<Attrs...> attributes;

    field_spec spec() const {
        field_spec s;
        std::apply([&](const auto&... a) { (a.apply(s), ...); }, attributes);
        return s;
    }
};

template <class T, class M, class... Attrs>
described_field<T, M, std::decay_t<Attrs>...> make_field(M T::*p, const char* name, const char* description,
                                                         Attrs&&... attrs) {
    [[maybe_unused]] auto rename = [&name](const auto& a) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, field::wire_name>) name = a.name;
    };
    (rename(attrs), ...);
    return {p, name, description, {std::forward<Attrs>(attrs)...}};
}

/// Whether described member `f` exists in version `v` (see field::since / field::until).
template <class Field> constexpr bool exists_in(const Field& f, int v) noexcept {
    return std::apply(
        [v](const auto&... a) {
            [[maybe_unused]] auto in = [v](const auto& x) {
                if constexpr (std::is_same_v<std::decay_t<decltype(x)>, field::versions>)
                    return x.contain(v);
                else
                    return true;
            };
            return (in(a) && ... && true);
        },
        f.attributes);
}

template <class A, class Tuple> struct tuple_has;
template <class A, class... X> struct tuple_has<A, std::tuple<X...>> : std::bool_constant<(std::is_same_v<A, X> || ...)> {};
/// Whether described member type Field carries an attribute of type A.
template <class A, class Field> inline constexpr bool has_attribute = tuple_has<A, decltype(Field::attributes)>::value;

} // namespace detail

/// True for a struct described with MCP_DESCRIBE (or BOOST_DESCRIBE_STRUCT).
template <class T>
concept described_struct = std::is_class_v<T> &&(requires { mcp_describe(static_cast<const T*>(nullptr)); } ||
                                                 boost::describe::has_describe_members<T>::value);

/// True for an enumeration described with MCP_DESCRIBE_ENUM (or BOOST_DESCRIBE_ENUM).
template <class T>
concept described_enum = std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

/// Call `f(field)` for every described member of T, in declaration order of the description.
/// `field` has `.pointer`, `.name`, `.description` and `.spec()`.
template <described_struct T, class F> void for_each_field(F&& f) {
    if constexpr (requires { mcp_describe(static_cast<const T*>(nullptr)); }) {
        std::apply([&](const auto&... fields) { (f(fields), ...); },
                   mcp_describe(static_cast<const T*>(nullptr)));
    } else {
        using members = boost::describe::describe_members<T, boost::describe::mod_public>;
        boost::mp11::mp_for_each<members>([&](auto d) {
            using M = std::remove_reference_t<decltype(std::declval<T&>().*d.pointer)>;
            f(detail::described_field<T, M>{d.pointer, d.name, "", {}});
        });
    }
}

} // namespace mcp

// ---------------------------------------------------------------------------------------------
// The macros. An entry `(member, "description", attrs...)` becomes
// `mcp::detail::make_field(&T::member, "member", "description", attrs...)`.
#define MCP_DETAIL_DESCRIBE_FIELD(s, T, entry)                                                               \
    ::mcp::detail::make_field(&T::BOOST_PP_TUPLE_ELEM(0, entry),                                             \
                              BOOST_PP_STRINGIZE(BOOST_PP_TUPLE_ELEM(0, entry)),                             \
                                                 BOOST_PP_TUPLE_ENUM(BOOST_PP_TUPLE_POP_FRONT(entry)))

/// Describe the members of struct T: MCP_DESCRIBE(T, (member, "description", attributes...)...).
#define MCP_DESCRIBE(T, ...)                                                                                 \
    [[maybe_unused]] inline auto mcp_describe(const T*) {                                                    \
        return std::make_tuple(BOOST_PP_SEQ_ENUM(                                                            \
            BOOST_PP_SEQ_TRANSFORM(MCP_DETAIL_DESCRIBE_FIELD, T, BOOST_PP_VARIADIC_TO_SEQ(__VA_ARGS__))));   \
    }

/// Describe an enumeration: MCP_DESCRIBE_ENUM(E, a, b, c). Its values travel as "a", "b", "c".
#define MCP_DESCRIBE_ENUM(E, ...) BOOST_DESCRIBE_ENUM(E, __VA_ARGS__)
