// json/text.cpp - see mcp/json/text.hpp.
#include <mcp/json/text.hpp>
#include <mcp/json/utf8.hpp>

#include <algorithm>
#include <cstdint>

namespace mcp {
namespace {

/// The escapes shared by printable and printable_lines; `keep_layout` leaves LF and TAB alone.
std::string escape_controls(std::string_view text, bool keep_layout) {
    const std::string valid = utf8_prefix(text, 3 * text.size()); // U+FFFD may triple a byte
    std::string out;
    out.reserve(valid.size());
    static constexpr char hex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < valid.size();) {
        const auto c = static_cast<unsigned char>(valid[i]);
        if (c < 0x20 || c == 0x7F) {
            if (keep_layout && (c == '\n' || c == '\t'))
                out += static_cast<char>(c);
            else if (c == '\r')
                out += "\\r";
            else if (c == '\n')
                out += "\\n";
            else if (c == '\t')
                out += "\\t";
            else {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 0xF];
            }
            ++i;
            continue;
        }
        if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        // Valid UTF-8 here: decode one character.
        const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        std::uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
        for (std::size_t k = 1; k < len; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(valid[i + k]) & 0x3F);
        const bool control = (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
                             (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
                             cp == 0x200E || cp == 0x200F || cp == 0x061C;
        if (control) {
            out += "\\u";
            for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
        } else {
            out.append(valid, i, len);
        }
        i += len;
    }
    return out;
}

} // namespace

std::string utf8_prefix(std::string_view s, std::size_t max) {
    std::string out;
    out.reserve(std::min(s.size(), max));
    for (std::size_t i = 0; i < s.size();) {
        const auto d = utf8::decode(s, i);
        const std::string_view piece = d.valid ? s.substr(i, d.length) : std::string_view("\xEF\xBF\xBD");
        if (out.size() + piece.size() > max) break;
        out.append(piece);
        i += d.length;
    }
    return out;
}

std::string printable(std::string_view text) {
    return escape_controls(text, false);
}

std::string printable_lines(std::string_view text) {
    return escape_controls(text, true);
}

} // namespace mcp
