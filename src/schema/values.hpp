// schema/values.hpp - JSON value helpers shared by the evaluator (see values.cpp).
#pragma once

#include "schema/node.hpp"

#include <cstdint>
#include <string>

namespace mcp::schema::detail {

/// A double with no fractional part counts as an integer (JSON Schema's data model).
bool is_integral(const json::value& v) noexcept;
/// The type_bit set `v` satisfies (an integer satisfies both integer and number).
std::uint8_t type_bits_of(const json::value& v) noexcept;
/// -1, 0, 1; exact for any mix of int64, uint64 and double (no rounding through double).
int compare_numbers(const json::value& a, const json::value& b) noexcept;
/// multipleOf on the decimal values (doubles in shortest round-trip form), exactly: 19.99 is a
/// multiple of 0.01, 1e20 is not a multiple of 3, 1.0000000001 is not a multiple of 1.
bool is_multiple_of(const json::value& x, const json::value& m) noexcept;
/// "string or null" for a type_bit set.
std::string type_list(std::uint8_t bits);

} // namespace mcp::schema::detail
