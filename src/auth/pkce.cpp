// PKCE S256 (RFC 7636 section 4): a 256-bit verifier from the OS CSPRNG, base64url-encoded.
#include <mcp/auth/pkce.hpp>

#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

namespace mcp::auth {

std::string pkce_s256_challenge(std::string_view verifier) {
    return detail::base64url_encode(mcp::detail::sha256(verifier));
}

pkce_pair make_pkce_pair() {
    pkce_pair p;
    p.verifier = detail::base64url_encode(mcp::detail::random_bytes(32));
    p.challenge = pkce_s256_challenge(p.verifier);
    return p;
}

} // namespace mcp::auth
