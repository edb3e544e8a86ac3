// mcp/json/utf8.hpp - the one UTF-8 decoder of mcpxx, and the code-point arithmetic built on it
// (lengths, boundaries). Every layer that reads UTF-8 by code point uses these.
#pragma once

#include <cstddef>
#include <string_view>

namespace mcp::utf8 {

/// A byte that continues a code point (10xxxxxx); every other byte starts one.
constexpr bool is_continuation(unsigned char byte) noexcept {
    return (byte & 0xC0) == 0x80;
}

struct decoded {
    char32_t code_point; ///< U+FFFD when !valid
    std::size_t length;  ///< bytes consumed: 1 when !valid
    bool valid;
};

/// The code point at s[i] (i < s.size()), strictly: overlong forms, surrogates, values past
/// U+10FFFF and truncated sequences are invalid and consume one byte.
constexpr decoded decode(std::string_view s, std::size_t i) noexcept {
    constexpr decoded invalid{0xFFFD, 1, false};
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) return {b0, 1, true};
    const std::size_t len = (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : (b0 & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return invalid;
    char32_t cp = b0 & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (!is_continuation(b)) return invalid;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000}; // shorter forms are overlong
    if (cp < least[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return invalid;
    return {cp, len, true};
}

/// The code point boundary at or before `pos` (pos <= s.size()): where to cut so that no
/// code point is split.
constexpr std::size_t boundary_before(std::string_view s, std::size_t pos) noexcept {
    while (pos > 0 && pos < s.size() && is_continuation(static_cast<unsigned char>(s[pos]))) --pos;
    return pos;
}

/// Number of code points (bytes that start one; a stray continuation byte counts as none).
constexpr std::size_t length(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += !is_continuation(static_cast<unsigned char>(c));
    return n;
}

} // namespace mcp::utf8
