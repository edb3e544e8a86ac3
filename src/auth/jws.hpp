// auth/jws.hpp - signing JWTs (RFC 7519) as compact JWS (RFC 7515) over OpenSSL's libcrypto:
// the client assertion of private_key_jwt (RFC 7523) with the client's key, and DPoP proofs
// (RFC 9449) with a key made for the purpose. ES256 (P-256) and RS256 only; a key must be of
// its algorithm's type.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace mcp::auth::detail {

class signing_key {
public:
    /// A PEM private key for `alg`. Throws std::invalid_argument for an unsupported algorithm
    /// or a key that is not a PEM private key of its type (the message never quotes the key).
    static signing_key from_pem(std::string_view pem, std::string_view alg);
    /// A fresh P-256 key (ES256) from the OS CSPRNG.
    static signing_key generate_es256();

    const std::string& alg() const noexcept { return alg_; }
    /// The public key as a JWK object's text (EC keys: kty, crv, x, y).
    std::string public_jwk() const;
    /// header.payload.signature; `header_json` is the JOSE header's text (with this alg).
    std::string sign(std::string_view header_json, std::string_view claims_json) const;

private:
    struct key;
    std::shared_ptr<key> key_;
    std::string alg_;
};

/// A JWT with the header {"alg", "typ": "JWT"} signed with a PEM key (see signing_key::from_pem).
std::string sign_jwt(std::string_view private_key_pem, std::string_view alg, std::string_view claims_json);

} // namespace mcp::auth::detail
