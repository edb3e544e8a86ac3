// How a resource server refuses (RFC 6750 section 3, RFC 9728 section 5.1, RFC 9449 section 7.1):
// the WWW-Authenticate challenge naming the Protected Resource Metadata, the error and a
// description, and the auth_decision around it. Internal.
#pragma once

#include "auth/access_token.hpp"

#include <mcp/http/server.hpp>

#include <string>
#include <vector>

namespace mcp::auth::detail {

class challenge {
public:
    challenge() = default;
    challenge(std::string metadata_url, std::vector<std::string> required_scopes);

    /// 401: no token (or another scheme); the challenge invites one.
    http::auth_decision no_token() const;
    /// 400: a malformed request (several Authorization headers).
    http::auth_decision bad_request(std::string description) const;
    /// 401 invalid_token / invalid_dpop_proof, or 503 (with Retry-After) when the token could
    /// not be checked now.
    http::auth_decision refuse(const token_failure& failure, bool dpop) const;
    /// 403 insufficient_scope naming the scopes the request needs.
    http::auth_decision insufficient_scope(const std::vector<std::string>& needed, bool dpop) const;

private:
    std::string header(std::string_view scheme, std::string_view error, std::string_view description,
                       const std::vector<std::string>& scopes) const;

    std::string metadata_url_;
    std::vector<std::string> required_scopes_;
};

} // namespace mcp::auth::detail
