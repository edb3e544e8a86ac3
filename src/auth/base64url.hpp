// The base64url alphabet without padding (RFC 4648 section 5), as OAuth writes it (PKCE,
// state values).
#pragma once

#include <mcp/json/base64.hpp>

#include <string>
#include <string_view>

namespace mcp::auth::detail {

inline std::string base64url(std::string_view bytes) {
    std::string s = mcp::base64::encode(bytes);
    while (!s.empty() && s.back() == '=') s.pop_back();
    for (auto& c : s) {
        if (c == '+') c = '-';
        else if (c == '/') c = '_';
    }
    return s;
}

} // namespace mcp::auth::detail
