// schema/unicode_tables.hpp - the few Unicode character properties the IDNA checks need
// (general category marks, bidirectional classes, viramas); tables in unicode_tables.cpp.
#pragma once

namespace mcp::schema::detail {

/// General_Category Mn or Me (combining marks that take no space).
bool is_nonspacing_mark(char32_t c) noexcept;
/// General_Category Mc.
bool is_spacing_mark(char32_t c) noexcept;
/// Canonical_Combining_Class 9 (Virama).
bool is_virama(char32_t c) noexcept;

/// Bidi_Class as the Bidi rule of RFC 5893 needs it: R and AL together, AN, EN, NSM, L, and the
/// neutrals (ES, CS, ET, ON, BN, ...) as `other`.
enum class bidi_class {
    left_to_right,
    right_to_left,
    arabic_number,
    european_number,
    nonspacing_mark,
    other
};
bidi_class bidi_class_of(char32_t c) noexcept;

} // namespace mcp::schema::detail
