// mcp/schema/from_type.hpp - the JSON Schema of a C++ type, and a compiled validator for it,
// each built once per type (on first use, thread-safe) and never per request.
//
//     const mcp::json::object& s = mcp::schema::schema_of<forecast_args>();
//     bool ok = mcp::schema::validator_of<forecast_args>().is_valid(args);
//     auto form = mcp::schema::elicitation_schema_of<contact_form>();   // flat subset only
#pragma once

#include <mcp/json/type_codec.hpp>
#include <mcp/schema/validator.hpp>

#include <set>
#include <string>
#include <vector>

namespace mcp::schema {

/// Validation errors as one readable line for a person or a model, e.g.
/// "/days: 9 is greater than the maximum 7; /city: ..." (at most `max_errors`, then "and N more").
std::string summarize(const std::vector<validation_error>& errors, std::size_t max_errors = 3);

/// The JSON Schema (2020-12) of T, as type_codec<T> describes it.
template <json_convertible T> const json::object& schema_of() {
    static const json::object s = type_codec<T>::schema();
    return s;
}

/// A validator compiled from schema_of<T>().
template <json_convertible T> const validator& validator_of() {
    static const validator v = validator::compile(schema_of<T>());
    return v;
}

namespace detail {
template <class T>
struct elicitation_field : std::bool_constant<std::is_arithmetic_v<T> || std::is_same_v<T, std::string> ||
                                              mcp::described_enum<T>> {};
template <class T> struct elicitation_field<std::optional<T>> : elicitation_field<T> {};
/// Multi-select enumerations (2025-11-25).
template <class E, class A>
struct elicitation_field<std::vector<E, A>> : std::bool_constant<mcp::described_enum<E>> {};
template <class E, class C, class A>
struct elicitation_field<std::set<E, C, A>> : std::bool_constant<mcp::described_enum<E>> {};

template <class Fields> struct all_elicitable;
template <class... Fields>
struct all_elicitable<std::tuple<Fields...>>
    : std::bool_constant<(elicitation_field<typename Fields::member_type>::value && ...)> {};

template <class T> constexpr bool all_fields_elicitable() {
    if constexpr (requires { mcp_describe(static_cast<const T*>(nullptr)); })
        return all_elicitable<decltype(mcp_describe(static_cast<const T*>(nullptr)))>::value;
    else
        return false; // only MCP_DESCRIBE'd structs (their members are known at compile time here)
}
} // namespace detail

/// True when T can be asked for in a form-mode elicitation: a described struct whose members
/// are booleans, numbers, strings, described enums (optionally std::optional) or vectors/sets of
/// described enums (multi-select).
template <class T>
concept elicitable = described_struct<T> && detail::all_fields_elicitable<T>();

/// The requestedSchema for T: schema_of<T>() (already flat for an elicitable T).
template <elicitable T> const json::object& elicitation_schema_of() {
    return schema_of<T>();
}

} // namespace mcp::schema
