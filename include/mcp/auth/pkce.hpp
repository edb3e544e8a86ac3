// mcp/auth/pkce.hpp - Proof Key for Code Exchange (RFC 7636) with the S256 method, the only one
// MCP clients may use.
#pragma once

#include <string>
#include <string_view>

namespace mcp::auth {

struct pkce_pair {
    std::string verifier;  ///< 43 characters of base64url (32 bytes from the OS CSPRNG)
    std::string challenge; ///< BASE64URL(SHA256(verifier)), no padding
};

/// A fresh verifier and its S256 challenge.
pkce_pair make_pkce_pair();
/// BASE64URL(SHA256(verifier)) without padding (RFC 7636 section 4.2).
std::string pkce_s256_challenge(std::string_view verifier);

} // namespace mcp::auth
