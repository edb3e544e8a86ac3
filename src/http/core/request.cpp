// http/core/request.cpp - header lookup for mcp::http::core::request.
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

std::size_t request::header_count(std::string_view name) const noexcept {
    std::size_t n = 0;
    for (const auto& field : headers)
        if (iequals(field.first, name)) ++n;
    return n;
}

std::optional<std::string> request::combined_header(std::string_view name) const {
    std::optional<std::string> out;
    for (const auto& [n, v] : headers) {
        if (!iequals(n, name)) continue;
        if (out)
            *out += ", ";
        else
            out.emplace();
        *out += v;
    }
    return out;
}

} // namespace mcp::http::core
