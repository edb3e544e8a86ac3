// JOSE over OpenSSL 3 (EVP only): base64url, JSON Web Keys (RFC 7517: RSA, EC P-256, OKP
// Ed25519) as EVP_PKEY, JWK thumbprints (RFC 7638), and JWS compact serialization (RFC 7515)
// verified and signed with RS256, PS256, ES256 and EdDSA. Internal: not installed.
//
// The algorithm set is closed: `none` and the HMAC algorithms do not exist here, so a token
// cannot talk a verifier into skipping the signature or into using a public key as an HMAC
// secret. A key is only ever used with the algorithm family its type fits (an RSA key never
// verifies ES256). Errors (jose_error) describe what is wrong with the input, never echo a
// token, a signature or a key.
#pragma once

#include <mcp/json/json.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct evp_pkey_st; // OpenSSL's EVP_PKEY, kept out of this header

namespace mcp::auth::detail {

class jose_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// RFC 4648 section 5, unpadded (what JOSE uses).
std::string base64url_encode(std::string_view bytes);
/// Strict: the base64url alphabet only, no padding, no whitespace, no stray bits in the last
/// character. nullopt on anything else.
std::optional<std::string> base64url_decode(std::string_view text);

enum class jws_alg { rs256, ps256, es256, eddsa };
/// The algorithms we sign and verify with; nullopt for everything else ("none", "HS256", ...).
std::optional<jws_alg> parse_jws_alg(std::string_view name) noexcept;
std::string_view jws_alg_name(jws_alg alg) noexcept;

using pkey_ptr = std::shared_ptr<evp_pkey_st>;

/// A public key read from a JWK.
struct public_jwk {
    std::string kid;            ///< "" when the JWK has none
    std::string kty;            ///< RSA, EC or OKP
    std::optional<jws_alg> alg; ///< when the JWK names one it supports
    std::string use;            ///< "sig", "enc" or ""
    std::string thumbprint;     ///< RFC 7638, SHA-256, base64url
    pkey_ptr key;
    /// Whether this key may verify `a`: its type fits, and the JWK's own `alg` (when given) is `a`.
    bool fits(jws_alg a) const noexcept;
};

/// Read one JWK. Throws jose_error naming what is missing or wrong (kty, curve, a member that
/// is not base64url, an RSA modulus under 2048 bits, a private member `d` - a public key set
/// must not carry one).
public_jwk parse_public_jwk(const json::object& jwk);
/// The RFC 7638 thumbprint (SHA-256, base64url) of a public JWK: its required members only, in
/// lexicographic order. Throws jose_error for a key type it does not know.
std::string jwk_thumbprint(const json::object& jwk);

/// A private key for signing (tests, DPoP proofs, private_key_jwt).
struct signing_key {
    jws_alg alg;
    std::string kid;
    pkey_ptr key;
    /// The public half as a JWK (kty, kid, alg, use and the public members).
    json::object public_jwk() const;
};
/// A fresh key pair for `alg` (RSA 2048, P-256 or Ed25519) from OpenSSL's generator.
signing_key generate_signing_key(jws_alg alg, std::string kid = {});
/// A PEM private key (PKCS#8 or traditional) for `alg`: P-256 for ES256, RSA of 2048 bits or
/// more for RS256 and PS256, Ed25519 for EdDSA (the client's key of private_key_jwt). Throws
/// std::invalid_argument when it is not a PEM private key or not of the algorithm's type; the
/// message never quotes the key.
signing_key read_signing_key_pem(std::string_view pem, jws_alg alg);

/// A JWS compact serialization split and decoded, not yet verified.
struct jws_token {
    json::object header;
    json::object payload;
    std::string signing_input; ///< base64url(header) "." base64url(payload): what was signed
    std::string signature;     ///< raw bytes
    std::string_view alg_name() const noexcept;
};
/// Split and decode `compact`. Throws jose_error when it is longer than `max_bytes`, does not
/// have three parts, a part is not base64url, the header or payload is not a JSON object, or
/// the header has no "alg" string.
jws_token parse_jws(std::string_view compact, std::size_t max_bytes = 8192);

/// Whether `signature` over `signing_input` is valid under `key` with `alg` (false also when
/// the key does not fit the algorithm).
bool verify_signature(jws_alg alg, const public_jwk& key, std::string_view signing_input,
                      std::string_view signature);
/// Sign `payload` with `key`: the header gets "alg" (and "kid" when the key has one) added to
/// `header`. Returns the compact serialization.
std::string sign_jws(const signing_key& key, json::object header, const json::object& payload);
/// A JWT (header {"typ": "JWT", "alg"}) of `claims` signed with a PEM private key for the
/// algorithm named `alg` (read_signing_key_pem). Throws std::invalid_argument for an algorithm
/// outside the set ("none", "HS256": "unsupported") or a key that does not fit.
std::string sign_jwt(std::string_view private_key_pem, std::string_view alg, const json::object& claims);

} // namespace mcp::auth::detail
