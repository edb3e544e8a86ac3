// DPoP on the client's side (RFC 9449): proofs of possession of a key made for this client,
// sent with token requests (the token is bound to the key) and with every request that presents
// the token, and the nonces servers hand out (sections 8 and 9), remembered per origin. The
// server's side (checking proofs) is dpop.hpp. Internal.
#pragma once

#include "auth/jose.hpp"

#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace mcp::auth::detail {

class dpop_signer {
public:
    dpop_signer() : key_(generate_signing_key(jws_alg::es256)) {}

    /// A proof for a `method` request to `url` (its query and fragment left out): typ dpop+jwt,
    /// the public jwk, jti, iat, the origin's nonce if one was given, and ath (the SHA-256 of
    /// `access_token`) when presenting one.
    std::string proof(std::string_view method, std::string_view url, std::string_view access_token = {});

    /// A DPoP-Nonce the server at `url` sent; the next proofs for its origin carry it.
    void set_nonce(std::string_view url, std::string nonce);

private:
    signing_key key_;
    std::mutex mu_;
    std::map<std::string, std::string> nonces_; // per origin
};

} // namespace mcp::auth::detail
