// Character classes and operator rules of RFC 6570 shared by parsing, expansion and matching.
#pragma once

#include <mcp/json/utf8.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::uri_template_detail {

constexpr bool is_alpha(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

constexpr int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// True if s[i] starts a "%XX" triplet.
constexpr bool is_triplet(std::string_view s, std::size_t i) noexcept {
    return i + 2 < s.size() && s[i] == '%' && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0;
}

/// RFC 3986 unreserved: ALPHA DIGIT - . _ ~
constexpr bool is_unreserved(char c) noexcept {
    return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/// RFC 3986 reserved: gen-delims and sub-delims.
constexpr bool is_reserved(char c) noexcept {
    switch (c) {
    case ':':
    case '/':
    case '?':
    case '#':
    case '[':
    case ']':
    case '@':
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
        return true;
    default:
        return false;
    }
}

/// The expansion rules of one operator (RFC 6570 Appendix A).
struct op_rules {
    char first;          ///< written before the first defined value (0: nothing)
    char sep;            ///< between values
    bool named;          ///< name=value pairs
    bool ifemp_equals;   ///< an empty named value is written "name=" (else "name")
    bool allow_reserved; ///< reserved characters and pct-triplets are copied, not encoded
};

constexpr op_rules rules_of(char op) noexcept {
    switch (op) {
    case '+':
        return {0, ',', false, false, true};
    case '#':
        return {'#', ',', false, false, true};
    case '.':
        return {'.', '.', false, false, false};
    case '/':
        return {'/', '/', false, false, false};
    case ';':
        return {';', ';', true, false, false};
    case '?':
        return {'?', '&', true, true, false};
    case '&':
        return {'&', '&', true, true, false};
    default:
        return {0, ',', false, false, false};
    }
}

constexpr bool is_operator(char c) noexcept {
    return c == '+' || c == '#' || c == '.' || c == '/' || c == ';' || c == '?' || c == '&';
}

/// Append `s` to `out`, percent-encoding every byte outside the allowed set: unreserved, plus
/// (when `allow_reserved`) reserved characters and existing pct-triplets.
inline void append_encoded(std::string& out, std::string_view s, bool allow_reserved) {
    static constexpr char digits[] = "0123456789ABCDEF";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (is_unreserved(c) || (allow_reserved && (is_reserved(c) || is_triplet(s, i)))) {
            out.push_back(c);
        } else {
            const auto b = static_cast<unsigned char>(c);
            out.push_back('%');
            out.push_back(digits[b >> 4]);
            out.push_back(digits[b & 0xF]);
        }
    }
}

/// Append the percent-decoding of `s` to `out`; a '%' that does not start a triplet is kept.
inline void append_decoded(std::string& out, std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (is_triplet(s, i)) {
            out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
}

/// True for a byte that starts a UTF-8 code point (anything but a continuation byte).
constexpr bool starts_code_point(unsigned char b) noexcept {
    return !utf8::is_continuation(b);
}

/// The first `n` code points of UTF-8 text `s` (RFC 6570 counts prefix lengths in characters).
constexpr std::string_view utf8_prefix(std::string_view s, std::size_t n) noexcept {
    std::size_t count = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (starts_code_point(static_cast<unsigned char>(s[i])) && count++ == n) return s.substr(0, i);
    }
    return s;
}

} // namespace mcp::uri_template_detail
