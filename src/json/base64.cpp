// RFC 4648 base64, standard alphabet with padding.
#include <mcp/json/base64.hpp>

#include <array>
#include <cstdint>

namespace mcp::base64 {
namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_reverse() {
    std::array<std::int8_t, 256> r{};
    for (auto& x : r) x = -1;
    for (int i = 0; i < 64; ++i) r[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    return r;
}
constexpr auto reverse = make_reverse();

// Validates and, if `out` is non-null, decodes. Returns false on malformed input.
bool run(std::string_view in, std::string* out) {
    if (in.size() % 4 != 0) return false;
    if (out) out->reserve(in.size() / 4 * 3);
    for (std::size_t i = 0; i < in.size(); i += 4) {
        const bool last = i + 4 == in.size();
        int pad = 0;
        std::uint32_t n = 0;
        for (std::size_t j = 0; j < 4; ++j) {
            const auto c = static_cast<unsigned char>(in[i + j]);
            if (c == '=') {
                // Padding only in the last quantum, only in its last two places, and only at the end.
                if (!last || j < 2) return false;
                ++pad;
                n <<= 6;
                continue;
            }
            if (pad) return false;
            const auto d = reverse[c];
            if (d < 0) return false;
            n = (n << 6) | static_cast<std::uint32_t>(d);
        }
        // Non-canonical encodings (bits set in the padding) are rejected.
        if (pad == 1 && (n & 0xFF) != 0) return false;
        if (pad == 2 && (n & 0xFFFF) != 0) return false;
        if (out) {
            out->push_back(static_cast<char>((n >> 16) & 0xFF));
            if (pad < 2) out->push_back(static_cast<char>((n >> 8) & 0xFF));
            if (pad < 1) out->push_back(static_cast<char>(n & 0xFF));
        }
    }
    return true;
}

} // namespace

std::string encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) |
                                (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                                static_cast<unsigned char>(bytes[i + 2]);
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(alphabet[(n >> 6) & 63]);
        out.push_back(alphabet[n & 63]);
    }
    const std::size_t rest = bytes.size() - i;
    if (rest) {
        std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
        if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out.push_back(alphabet[(n >> 18) & 63]);
        out.push_back(alphabet[(n >> 12) & 63]);
        out.push_back(rest == 2 ? alphabet[(n >> 6) & 63] : '=');
        out.push_back('=');
    }
    return out;
}

std::optional<std::string> decode(std::string_view text) {
    std::string out;
    if (!run(text, &out)) return std::nullopt;
    return out;
}

bool is_valid(std::string_view text) noexcept {
    return run(text, nullptr);
}

} // namespace mcp::base64
