// mcp/auth/www_authenticate.hpp - the WWW-Authenticate response field (RFC 9110 section 11.6.1):
// one or more challenges, each a scheme followed by a token68 or a list of auth-params whose
// values are tokens or quoted strings.
//
//   auto challenges = mcp::auth::parse_www_authenticate(
//       R"(Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read")");
//   if (auto b = mcp::auth::find_challenge(challenges, "Bearer"))
//       use(b->param("resource_metadata"), b->param("scope"));
//
// Bounded: a field longer than max_www_authenticate_bytes, or with more than 32 challenges or
// 64 parameters, is refused (std::invalid_argument), as is a field that does not follow the
// grammar. The message names what was wrong and where, never the field's text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::auth {

inline constexpr std::size_t max_www_authenticate_bytes = 8192;

struct challenge {
    /// The auth-scheme as written ("Bearer", "DPoP"); compare case-insensitively.
    std::string scheme;
    /// The token68 form (`Basic dXNlcg==`); empty when the challenge has parameters.
    std::string token68;
    /// Parameters in order, names lowercased, quoted strings unescaped.
    std::vector<std::pair<std::string, std::string>> params;

    /// The first parameter named `name` (case-insensitive), if any.
    std::optional<std::string_view> param(std::string_view name) const;
};

/// All challenges of one WWW-Authenticate field value (several fields may be joined by ", ").
/// Throws std::invalid_argument for malformed or oversized input.
std::vector<challenge> parse_www_authenticate(std::string_view field);

/// The first challenge whose scheme is `scheme` (case-insensitive).
const challenge* find_challenge(const std::vector<challenge>& challenges, std::string_view scheme);

} // namespace mcp::auth
