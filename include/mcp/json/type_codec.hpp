// mcp/json/type_codec.hpp - C++ values <-> JSON, and the JSON Schema of a C++ type.
//
//     forecast_args a = mcp::from_value<forecast_args>(json);   // throws mcp::conversion_error
//     mcp::json::value v = mcp::to_value(a);
//
// Supported: bool, integers (range-checked), floating point, std::string, described enums (as
// their names), std::optional (absent / null), std::vector, std::set, std::map and
// std::unordered_map with string keys (objects), std::variant (oneOf; the first alternative that
// converts wins, so order alternatives from the most to the least specific), json::value,
// json::object, json::array, and structs described with MCP_DESCRIBE (objects; members not in
// the JSON keep their value in `T{}`, unknown members are ignored).
//
// Your own type: specialise mcp::type_codec<T> with the three static functions below.
#pragma once

#include <mcp/json/describe.hpp>

#include <boost/describe/enum_from_string.hpp>
#include <boost/describe/enum_to_string.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace mcp {

/// A JSON value that does not fit the C++ type. what() is "<JSON pointer>: <reason>", e.g.
/// "/days: expected an integer, got string".
class conversion_error : public std::runtime_error {
public:
    conversion_error(std::string location, std::string reason)
        : std::runtime_error((location.empty() ? std::string("(root)") : location) + ": " + reason),
          location_(std::move(location)), reason_(std::move(reason)) {}
    /// JSON pointer of the offending value ("" = the root).
    const std::string& location() const noexcept { return location_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    std::string location_, reason_;
};

/// The customisation point: one specialisation per supported type, with
///   static json::value to_value(const T&);
///   static T from_value(const json::value&);          // throws conversion_error("", reason)
///   static json::object schema();                      // the type's JSON Schema
///   static constexpr bool optional;                    // (optional) absent allowed in structs
template <class T, class Enable = void> struct type_codec;

template <class T>
concept json_convertible = requires(const T& t, const json::value& v) {
    { type_codec<T>::to_value(t) } -> std::convertible_to<json::value>;
    { type_codec<T>::from_value(v) } -> std::convertible_to<T>;
    { type_codec<T>::schema() } -> std::convertible_to<json::object>;
};

template <json_convertible T> json::value to_value(const T& x) {
    return type_codec<T>::to_value(x);
}
template <json_convertible T> T from_value(const json::value& v) {
    return type_codec<T>::from_value(v);
}

namespace detail {

std::string_view json_kind_name(const json::value& v) noexcept;
/// Escape a member name for use in a JSON pointer (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_escape(std::string_view name);
[[noreturn]] void throw_expected(std::string_view what, const json::value& got);

/// Run `f`; a conversion_error from it gets `segment` prepended to its location.
template <class F> decltype(auto) at_location(std::string_view segment, F&& f) {
    try {
        return f();
    } catch (const conversion_error& e) {
        throw conversion_error("/" + pointer_escape(segment) + e.location(), e.reason());
    }
}

template <class T> constexpr bool is_optional_member() {
    if constexpr (requires { type_codec<T>::optional; })
        return type_codec<T>::optional;
    else
        return false;
}

/// Types whose value-initialised value is a natural "absent" (false, an empty list or map):
/// such members are not required and default to that value.
template <class T> constexpr bool has_natural_default() {
    if constexpr (requires { type_codec<T>::natural_default; })
        return type_codec<T>::natural_default;
    else
        return false;
}

/// Guards schema construction against recursive types (which cannot be inlined).
struct schema_depth_guard {
    static inline thread_local int depth = 0;
    schema_depth_guard() {
        if (++depth > 32) {
            depth = 0;
            throw std::logic_error(
                "mcp: a described type nests more than 32 levels deep (a recursive type?); "
                "give it a type_codec with a hand-written schema");
        }
    }
    ~schema_depth_guard() { --depth; }
    schema_depth_guard(const schema_depth_guard&) = delete;
    schema_depth_guard& operator=(const schema_depth_guard&) = delete;
};

} // namespace detail

// --------------------------------------------------------------------------- scalars

template <> struct type_codec<bool> {
    static constexpr bool natural_default = true;
    static json::value to_value(bool b) { return b; }
    static bool from_value(const json::value& v) {
        if (!v.is_bool()) detail::throw_expected("a boolean", v);
        return v.get_bool();
    }
    static json::object schema() { return {{"type", "boolean"}}; }
};

template <class T>
struct type_codec<
    T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>>> {
    static json::value to_value(T x) {
        if constexpr (std::is_signed_v<T>)
            return static_cast<std::int64_t>(x);
        else
            return static_cast<std::uint64_t>(x);
    }
    static T from_value(const json::value& v) {
        if (v.is_int64()) return checked(v.get_int64());
        if (v.is_uint64()) {
            const auto u = v.get_uint64();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) out_of_range();
            return static_cast<T>(u);
        }
        if (v.is_double()) {
            const double d = v.get_double();
            // 3.0 is an integer in JSON Schema; 3.5 is not.
            if (std::trunc(d) != d || !(std::fabs(d) < 9.2e18)) detail::throw_expected("an integer", v);
            return checked(static_cast<std::int64_t>(d));
        }
        detail::throw_expected("an integer", v);
    }
    static json::object schema() {
        json::object s{{"type", "integer"}};
        if constexpr (std::is_unsigned_v<T>) s["minimum"] = 0;
        return s;
    }

private:
    static T checked(std::int64_t i) {
        if constexpr (std::is_signed_v<T>) {
            if (i < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
                i > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
                out_of_range();
        } else {
            if (i < 0 ||
                static_cast<std::uint64_t>(i) > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
                out_of_range();
        }
        return static_cast<T>(i);
    }
    [[noreturn]] static void out_of_range() {
        throw conversion_error("", "integer out of range [" + std::to_string(std::numeric_limits<T>::min()) +
                                       ", " + std::to_string(std::numeric_limits<T>::max()) + "]");
    }
};

template <class T> struct type_codec<T, std::enable_if_t<std::is_floating_point_v<T>>> {
    static json::value to_value(T x) { return static_cast<double>(x); }
    static T from_value(const json::value& v) {
        if (v.is_double()) return static_cast<T>(v.get_double());
        if (v.is_int64()) return static_cast<T>(v.get_int64());
        if (v.is_uint64()) return static_cast<T>(v.get_uint64());
        detail::throw_expected("a number", v);
    }
    static json::object schema() { return {{"type", "number"}}; }
};

template <> struct type_codec<std::string> {
    static json::value to_value(const std::string& s) { return json::string(s); }
    static std::string from_value(const json::value& v) {
        if (!v.is_string()) detail::throw_expected("a string", v);
        return std::string(v.get_string());
    }
    static json::object schema() { return {{"type", "string"}}; }
};

template <described_enum E> struct type_codec<E> {
    static json::value to_value(E e) {
        const char* name = boost::describe::enum_to_string(e, nullptr);
        if (!name)
            throw conversion_error("", "value " + std::to_string(static_cast<long long>(e)) +
                                           " is not an enumerator of its described enumeration");
        return json::string(name);
    }
    static E from_value(const json::value& v) {
        if (!v.is_string()) detail::throw_expected("a string", v);
        E e{};
        if (!boost::describe::enum_from_string(std::string(v.get_string()).c_str(), e))
            throw conversion_error("",
                                   "\"" + std::string(v.get_string()) + "\" is not one of " + names_list());
        return e;
    }
    static json::object schema() {
        json::array names;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
            [&](auto d) { names.emplace_back(d.name); });
        return {{"type", "string"}, {"enum", std::move(names)}};
    }

private:
    static std::string names_list() {
        std::string out;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
            if (!out.empty()) out += ", ";
            out += d.name;
        });
        return out;
    }
};

// --------------------------------------------------------------------------- JSON itself

template <> struct type_codec<json::value> {
    static json::value to_value(const json::value& v) { return v; }
    static json::value from_value(const json::value& v) { return v; }
    static json::object schema() { return {}; }
};
template <> struct type_codec<json::object> {
    static json::value to_value(const json::object& o) { return o; }
    static json::object from_value(const json::value& v) {
        if (!v.is_object()) detail::throw_expected("an object", v);
        return v.get_object();
    }
    static json::object schema() { return {{"type", "object"}}; }
};
template <> struct type_codec<json::array> {
    static json::value to_value(const json::array& a) { return a; }
    static json::array from_value(const json::value& v) {
        if (!v.is_array()) detail::throw_expected("an array", v);
        return v.get_array();
    }
    static json::object schema() { return {{"type", "array"}}; }
};

// --------------------------------------------------------------------------- wrappers

template <json_convertible T> struct type_codec<std::optional<T>> {
    static constexpr bool optional = true;
    static json::value to_value(const std::optional<T>& x) {
        return x ? type_codec<T>::to_value(*x) : json::value();
    }
    static std::optional<T> from_value(const json::value& v) {
        if (v.is_null()) return std::nullopt;
        return type_codec<T>::from_value(v);
    }
    /// The schema of T: "optional" means "may be absent", which the enclosing object's
    /// `required` expresses; null is accepted on input but not advertised.
    static json::object schema() { return type_codec<T>::schema(); }
};

namespace detail {
template <class Seq, class Elem, bool Unique> struct sequence_codec {
    static constexpr bool natural_default = true;
    static json::value to_value(const Seq& s) {
        json::array a;
        a.reserve(s.size());
        for (const auto& e : s) a.push_back(type_codec<Elem>::to_value(e));
        return a;
    }
    static Seq from_value(const json::value& v) {
        if (!v.is_array()) throw_expected("an array", v);
        Seq out;
        std::size_t i = 0;
        for (const auto& e : v.get_array()) {
            auto x = at_location(std::to_string(i++), [&] { return type_codec<Elem>::from_value(e); });
            if constexpr (Unique)
                out.insert(std::move(x));
            else
                out.push_back(std::move(x));
        }
        return out;
    }
    static json::object schema() {
        schema_depth_guard guard;
        json::object s{{"type", "array"}, {"items", type_codec<Elem>::schema()}};
        if (Unique) s["uniqueItems"] = true;
        return s;
    }
};

template <class Map, class Elem> struct map_codec {
    static constexpr bool natural_default = true;
    static json::value to_value(const Map& m) {
        json::object o;
        o.reserve(m.size());
        for (const auto& [k, e] : m) o[k] = type_codec<Elem>::to_value(e);
        return o;
    }
    static Map from_value(const json::value& v) {
        if (!v.is_object()) throw_expected("an object", v);
        Map out;
        for (const auto& kv : v.get_object())
            out.emplace(std::string(kv.key()),
                        at_location(kv.key(), [&] { return type_codec<Elem>::from_value(kv.value()); }));
        return out;
    }
    static json::object schema() {
        schema_depth_guard guard;
        return {{"type", "object"}, {"additionalProperties", type_codec<Elem>::schema()}};
    }
};
} // namespace detail

template <json_convertible T, class A>
struct type_codec<std::vector<T, A>> : detail::sequence_codec<std::vector<T, A>, T, false> {};
template <json_convertible T, class C, class A>
struct type_codec<std::set<T, C, A>> : detail::sequence_codec<std::set<T, C, A>, T, true> {};
template <json_convertible T, class C, class A>
struct type_codec<std::map<std::string, T, C, A>> : detail::map_codec<std::map<std::string, T, C, A>, T> {};
template <json_convertible T, class H, class E, class A>
struct type_codec<std::unordered_map<std::string, T, H, E, A>>
    : detail::map_codec<std::unordered_map<std::string, T, H, E, A>, T> {};

template <json_convertible... Ts> struct type_codec<std::variant<Ts...>> {
    static json::value to_value(const std::variant<Ts...>& x) {
        return std::visit([](const auto& alt) { return mcp::to_value(alt); }, x);
    }
    static std::variant<Ts...> from_value(const json::value& v) {
        std::optional<std::variant<Ts...>> out;
        std::string reasons;
        (try_one<Ts>(v, out, reasons), ...);
        if (!out) throw conversion_error("", "matches no alternative (" + reasons + ")");
        return std::move(*out);
    }
    static json::object schema() {
        detail::schema_depth_guard guard;
        return {{"oneOf", json::array{json::value(type_codec<Ts>::schema())...}}};
    }

private:
    template <class T>
    static void try_one(const json::value& v, std::optional<std::variant<Ts...>>& out, std::string& reasons) {
        if (out) return;
        try {
            out.emplace(std::in_place_type<T>, type_codec<T>::from_value(v));
        } catch (const conversion_error& e) {
            if (!reasons.empty()) reasons += "; ";
            reasons += e.what();
        }
    }
};

// --------------------------------------------------------------------------- described structs

namespace detail {
/// Whether member `f` of T has a default: its value in `T{}` differs from a value-initialised
/// member (compared as JSON, so it works for any convertible member type).
template <class T, class Field> std::optional<json::value> default_of(const Field& f) {
    using M = typename Field::member_type;
    static_assert(std::is_default_constructible_v<T>, "a described struct must be default-constructible");
    const T defaults{};
    json::value d = type_codec<M>::to_value(defaults.*f.pointer);
    if (d == type_codec<M>::to_value(M{})) return std::nullopt;
    return d;
}
} // namespace detail

template <described_struct T> struct type_codec<T> {
    static json::value to_value(const T& x) {
        json::object o;
        for_each_field<T>([&](const auto& f) {
            using M = typename std::decay_t<decltype(f)>::member_type;
            const M& m = x.*f.pointer;
            if constexpr (detail::is_optional_member<M>()) {
                if (!m) return; // absent, not null
            }
            o[f.name] = type_codec<M>::to_value(m);
        });
        return o;
    }
    static T from_value(const json::value& v) {
        if (!v.is_object()) detail::throw_expected("an object", v);
        const auto& o = v.get_object();
        T out{};
        std::size_t index = 0;
        for_each_field<T>([&](const auto& f) {
            using M = typename std::decay_t<decltype(f)>::member_type;
            const bool is_required = required_flags()[index++];
            const json::value* member = o.if_contains(f.name);
            if (!member || (member->is_null() && detail::is_optional_member<M>())) {
                if (is_required)
                    throw conversion_error("", std::string("missing required property \"") + f.name + "\"");
                return;
            }
            out.*f.pointer = detail::at_location(f.name, [&] { return type_codec<M>::from_value(*member); });
        });
        return out;
    }
    static json::object schema() {
        detail::schema_depth_guard guard;
        json::object properties;
        json::array required_names;
        for_each_field<T>([&](const auto& f) {
            using M = typename std::decay_t<decltype(f)>::member_type;
            json::object p = type_codec<M>::schema();
            if (f.description && *f.description) p["description"] = f.description;
            auto spec = f.spec();
            for (auto& kv : spec.keywords) p[kv.key()] = kv.value();
            if constexpr (!detail::is_optional_member<M>()) {
                if (auto d = detail::default_of<T>(f))
                    p["default"] = *d;
                else if (spec.required == false || (!spec.required && detail::has_natural_default<M>()))
                    p["default"] = type_codec<M>::to_value(M{});
            }
            if (required(f)) required_names.emplace_back(f.name);
            properties[f.name] = std::move(p);
        });
        json::object s{{"type", "object"}, {"properties", std::move(properties)}};
        if (!required_names.empty()) s["required"] = std::move(required_names);
        return s;
    }

private:
    /// required(f) of every field, in order; computed once per type.
    static const std::vector<bool>& required_flags() {
        static const std::vector<bool> flags = [] {
            std::vector<bool> v;
            for_each_field<T>([&](const auto& f) { v.push_back(required(f)); });
            return v;
        }();
        return flags;
    }
    template <class Field> static bool required(const Field& f) {
        using M = typename Field::member_type;
        if (auto r = f.spec().required) return *r;
        if constexpr (detail::is_optional_member<M>() || detail::has_natural_default<M>())
            return false;
        else
            return !detail::default_of<T>(f).has_value();
    }
};

} // namespace mcp
