// DPoP proof checks and the replay cache (see dpop.hpp).
#include "auth/dpop.hpp"

#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

#include <boost/url/parse.hpp>

#include <cmath>

namespace mcp::auth::detail {

namespace {

constexpr std::size_t max_proof_bytes = 8192;
constexpr std::size_t max_jti_bytes = 256;

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// scheme://host:port/path, normalised for comparison; nullopt when not an absolute URL.
std::optional<std::string> htu_key(std::string_view url) {
    auto u = boost::urls::parse_uri(url);
    if (!u || !u->has_authority()) return std::nullopt;
    const auto scheme = lower(u->scheme());
    std::string port(u->port());
    if (port.empty()) port = scheme == "https" ? "443" : scheme == "http" ? "80" : "";
    std::string path(u->encoded_path());
    if (path.empty()) path = "/";
    return scheme + "://" + lower(u->encoded_host()) + ":" + port + path;
}

} // namespace

bool same_htu(std::string_view a, std::string_view b) {
    auto ka = htu_key(a);
    auto kb = htu_key(b);
    return ka && kb && *ka == *kb;
}

dpop_verifier::dpop_verifier(std::chrono::seconds window, std::size_t replay_capacity)
    : window_(window), capacity_(replay_capacity == 0 ? 1 : replay_capacity) {}

std::optional<std::string> dpop_verifier::check(std::string_view proof, const dpop_request& request,
                                                std::chrono::system_clock::time_point now) {
    jws_token t;
    try {
        t = parse_jws(proof, max_proof_bytes);
    } catch (const jose_error& e) {
        return std::string("the DPoP proof is malformed: ") + e.what();
    }
    if (find_string(t.header, "typ") != std::string_view("dpop+jwt"))
        return std::string("the DPoP proof's typ is not dpop+jwt");
    const auto alg = parse_jws_alg(t.alg_name());
    if (!alg) return std::string("the DPoP proof's algorithm is not accepted");
    const auto* jwk = find_object(t.header, "jwk");
    if (!jwk) return std::string("the DPoP proof has no jwk header");
    public_jwk key;
    try {
        key = parse_public_jwk(*jwk);
    } catch (const jose_error& e) {
        return std::string("the DPoP proof's jwk is not usable: ") + e.what();
    }
    if (!verify_signature(*alg, key, t.signing_input, t.signature))
        return std::string("the DPoP proof's signature does not verify with its jwk");
    if (!request.jkt.empty() && key.thumbprint != request.jkt)
        return std::string("the DPoP proof is signed by another key than the token is bound to");
    if (find_string(t.payload, "htm") != request.method)
        return std::string("the DPoP proof's htm is not this request's method");
    const auto htu = find_string(t.payload, "htu");
    if (!htu || !same_htu(*htu, request.url))
        return std::string("the DPoP proof's htu is not this request's URL");
    const auto ath = find_string(t.payload, "ath");
    if (!ath || *ath != base64url_encode(mcp::detail::sha256(request.access_token)))
        return std::string("the DPoP proof's ath does not match the access token");
    const auto iat = find_number(t.payload, "iat");
    if (!iat || !std::isfinite(*iat)) return std::string("the DPoP proof has no iat");
    const auto issued = std::chrono::system_clock::time_point(
        std::chrono::seconds(static_cast<std::int64_t>(std::clamp(*iat, -1e12, 1e12))));
    if (issued > now + window_ || issued < now - window_)
        return std::string("the DPoP proof's iat is outside the accepted window");
    const auto jti = find_string(t.payload, "jti");
    if (!jti || jti->empty() || jti->size() > max_jti_bytes)
        return std::string("the DPoP proof has no usable jti");
    if (!spend(std::string(*jti), issued + window_, now))
        return std::string("the DPoP proof was used before");
    return std::nullopt;
}

bool dpop_verifier::spend(const std::string& jti, std::chrono::system_clock::time_point until,
                          std::chrono::system_clock::time_point now) {
    std::lock_guard lock(mu_);
    // Forget what has expired (a proof that old fails the iat check anyway), then make room.
    while (!order_.empty() && (order_.front().first < now || order_.size() >= capacity_)) {
        auto it = seen_.find(order_.front().second);
        if (it != seen_.end() && it->second == order_.front().first) seen_.erase(it);
        order_.pop_front();
    }
    if (auto it = seen_.find(jti); it != seen_.end() && it->second >= now) return false;
    seen_[jti] = until;
    order_.emplace_back(until, jti);
    return true;
}

} // namespace mcp::auth::detail
