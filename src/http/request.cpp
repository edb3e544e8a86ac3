// http/request.cpp - header lookup for mcp::http::request.
#include "request.hpp"

namespace mcp::http::core {

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        unsigned char x = static_cast<unsigned char>(a[i]);
        unsigned char y = static_cast<unsigned char>(b[i]);
        if (x == y) continue;
        // Folding only A-Z: header names are ASCII tokens, and locale-dependent tolower()
        // would be both slower and wrong for them.
        if ((x | 0x20) != (y | 0x20) || (x | 0x20) < 'a' || (x | 0x20) > 'z') return false;
    }
    return true;
}

std::optional<std::string_view> request::header(std::string_view name) const {
    for (const auto& [n, v] : headers)
        if (iequals(n, name)) return std::string_view(v);
    return std::nullopt;
}

} // namespace mcp::http::core
