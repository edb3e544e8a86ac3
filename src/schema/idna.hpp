// schema/idna.hpp - internationalized host names for the `hostname` and `idn-hostname` formats:
// Punycode (RFC 3492) and the IDNA2008 label rules (RFC 5890-5893).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::schema::detail {

/// Decode Punycode (the part of an A-label after "xn--") to code points; nullopt when malformed
/// or when it decodes to something that is not a Unicode scalar value.
std::optional<std::u32string> punycode_decode(std::string_view encoded);
/// Encode code points as Punycode (lowercase digits, no "xn--"); nullopt on overflow.
std::optional<std::string> punycode_encode(std::u32string_view label);

/// RFC 5891 5.4 for one U-label: no "--" in positions 3-4, no leading or trailing hyphen, no
/// leading combining mark, and every code point PVALID or CONTEXTJ / CONTEXTO with its rule
/// (RFC 5892 Appendix A) satisfied. The PVALID / DISALLOWED split follows RFC 5892's exceptions
/// and categories (letters, digits and marks that are not uppercase or compatibility forms),
/// using the C.UTF-8 locale's character classes where we keep no table.
bool is_valid_u_label(std::u32string_view label);

/// RFC 5893: once any label of a domain has a right-to-left character (R, AL or AN), every label
/// must satisfy the Bidi rule.
bool satisfies_bidi_rule(const std::vector<std::u32string>& labels);

} // namespace mcp::schema::detail
