// auth/jws.hpp - signing a JWT (RFC 7519) as a compact JWS (RFC 7515) with a private key, over
// OpenSSL's libcrypto: the client assertion of private_key_jwt (RFC 7523). ES256 (P-256) and
// RS256 only; the key must be of the algorithm's type.
#pragma once

#include <string>
#include <string_view>

namespace mcp::auth::detail {

/// header.payload.signature for `claims_json` (a JSON object's text), header {"alg", "typ":
/// "JWT"}. Throws std::invalid_argument for an unsupported algorithm or a key that is not a
/// PEM private key of its type (the message never quotes the key).
std::string sign_jwt(std::string_view private_key_pem, std::string_view alg, std::string_view claims_json);

} // namespace mcp::auth::detail
