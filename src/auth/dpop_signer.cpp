// DPoP proofs (see dpop_signer.hpp).
#include "auth/dpop_signer.hpp"

#include "auth/urls.hpp"
#include "crypto/crypto.hpp"

#include <mcp/json/json.hpp>

#include <chrono>

namespace mcp::auth::detail {

std::string dpop_signer::proof(std::string_view method, std::string_view url, std::string_view access_token) {
    const std::string htu = display_url(url); // scheme://host[:port]/path: no query, no fragment
    std::string nonce;
    {
        std::lock_guard lock(mu_);
        if (auto it = nonces_.find(origin_of(url)); it != nonces_.end()) nonce = it->second;
    }
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    json::object claims{{"jti", mcp::detail::random_hex_id()}, {"htm", method}, {"htu", htu}, {"iat", now}};
    if (!nonce.empty()) claims["nonce"] = nonce;
    if (!access_token.empty()) claims["ath"] = base64url_encode(mcp::detail::sha256(access_token));
    return sign_jws(key_, json::object{{"typ", "dpop+jwt"}, {"jwk", key_.public_jwk()}}, claims);
}

void dpop_signer::set_nonce(std::string_view url, std::string nonce) {
    std::lock_guard lock(mu_);
    nonces_[origin_of(url)] = std::move(nonce);
}

} // namespace mcp::auth::detail
