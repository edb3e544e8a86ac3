// JWT access tokens (RFC 9068): the signature against the issuer's keys, then the claims (iss,
// aud, exp, nbf, iat, scope, cnf). Also how a refusal is described. Internal.
#pragma once

#include "auth/issuer_keys.hpp"

#include <mcp/auth/resource_server.hpp>

#include <chrono>
#include <string>
#include <variant>

namespace mcp::auth::detail {

/// Why a token is refused: the HTTP status, the RFC 6750 error code and a description (safe to
/// show: it never contains the token).
struct token_failure {
    int status = 401;
    std::string error = "invalid_token"; ///< "" for a 503 (nothing wrong with the token)
    std::string description;
};

using token_result = std::variant<verified_token, token_failure>;

struct access_token_rules {
    std::string issuer;
    std::string audience;
    std::chrono::seconds leeway{60};
    bool allow_untyped = true;
    std::size_t max_bytes = 8192;
    std::chrono::milliseconds unknown_key_wait{300};
};

/// Whether `token` has the shape of a JWS (three base64url parts): what decides between JWT
/// verification and introspection.
bool looks_like_jwt(std::string_view token) noexcept;

/// Verify `token` with `keys` and check its claims against `rules` at `now`.
token_result verify_access_token(std::string_view token, const access_token_rules& rules, issuer_keys& keys,
                                 std::chrono::system_clock::time_point now);

/// Read `scope` (space-separated) or `scp` (array or string) of a claim set.
std::vector<std::string> token_scopes(const json::object& claims);

} // namespace mcp::auth::detail
