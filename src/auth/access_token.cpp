// JWT access token verification (see access_token.hpp).
#include "auth/access_token.hpp"

#include <algorithm>
#include <cmath>

namespace mcp::auth::detail {

namespace {

token_failure invalid(std::string description) {
    return token_failure{401, "invalid_token", std::move(description)};
}

std::optional<std::chrono::system_clock::time_point> numeric_date(const json::object& claims,
                                                                  std::string_view name) {
    auto v = find_number(claims, name);
    if (!v || !std::isfinite(*v)) return std::nullopt;
    return std::chrono::system_clock::time_point(
        std::chrono::seconds(static_cast<std::int64_t>(std::clamp(*v, -1e12, 1e12))));
}

bool audience_matches(const json::object& claims, std::string_view audience) {
    const auto* aud = find_member(claims, "aud");
    if (!aud) return false;
    if (aud->is_string()) return aud->get_string() == audience;
    if (aud->is_array())
        return std::any_of(aud->get_array().begin(), aud->get_array().end(),
                           [&](const json::value& a) { return a.is_string() && a.get_string() == audience; });
    return false;
}

} // namespace

bool looks_like_jwt(std::string_view token) noexcept {
    return std::count(token.begin(), token.end(), '.') == 2;
}

std::vector<std::string> token_scopes(const json::object& claims) {
    std::vector<std::string> out;
    auto split = [&](std::string_view s) {
        while (!s.empty()) {
            const auto sp = s.find(' ');
            if (sp != 0) out.emplace_back(s.substr(0, sp));
            if (sp == std::string_view::npos) break;
            s.remove_prefix(sp + 1);
        }
    };
    if (auto s = find_string(claims, "scope"))
        split(*s);
    else if (const auto* scp = find_member(claims, "scp")) {
        if (scp->is_string())
            split(scp->get_string());
        else if (scp->is_array())
            for (const auto& v : scp->get_array())
                if (v.is_string()) out.emplace_back(v.get_string());
    }
    return out;
}

token_result verify_access_token(std::string_view token, const access_token_rules& rules, issuer_keys& keys,
                                 std::chrono::system_clock::time_point now) {
    jws_token t;
    try {
        t = parse_jws(token, rules.max_bytes);
    } catch (const jose_error& e) {
        return invalid(std::string("the token is malformed: ") + e.what());
    }
    const auto alg = parse_jws_alg(t.alg_name());
    if (!alg) return invalid("the token's algorithm is not accepted (RS256, PS256, ES256 or EdDSA)");
    if (auto typ = find_string(t.header, "typ")) {
        const bool at_jwt = *typ == "at+jwt" || *typ == "application/at+jwt";
        if (!at_jwt && !(rules.allow_untyped && (*typ == "JWT" || *typ == "jwt")))
            return invalid("the token is not an access token (typ)");
    } else if (!rules.allow_untyped) {
        return invalid("the token is not an access token (no typ at+jwt)");
    }
    if (t.header.contains("crit"))
        return invalid("the token has critical header parameters this server does not know");
    std::string kid;
    if (const auto* k = find_member(t.header, "kid")) {
        if (!k->is_string()) return invalid("the token's kid is not a string");
        kid = std::string(k->get_string());
    }

    auto set = keys.snapshot();
    auto candidates = set ? set->candidates(kid, *alg) : std::vector<const public_jwk*>{};
    if (candidates.empty()) {
        set = keys.refresh_for_unknown_key(rules.unknown_key_wait);
        if (!set) {
            auto why = keys.last_error();
            return token_failure{503, "",
                                 "Service Unavailable: the authorization server's keys cannot be loaded" +
                                     std::string(why.empty() ? "" : " (see the server's log)")};
        }
        candidates = set->candidates(kid, *alg);
        if (candidates.empty()) return invalid("the token is signed with a key this server does not know");
    }
    const bool verified = std::any_of(candidates.begin(), candidates.end(), [&](const public_jwk* k) {
        return verify_signature(*alg, *k, t.signing_input, t.signature);
    });
    if (!verified) return invalid("the token's signature does not verify");

    const auto& c = t.payload;
    if (find_string(c, "iss") != std::string_view(rules.issuer))
        return invalid("the token is from another issuer");
    if (!audience_matches(c, rules.audience)) return invalid("the token is for another audience");
    const auto exp = numeric_date(c, "exp");
    if (!exp) return invalid("the token has no expiry (exp)");
    if (*exp + rules.leeway <= now) return invalid("the token has expired");
    if (auto nbf = numeric_date(c, "nbf"); nbf && *nbf - rules.leeway > now)
        return invalid("the token is not valid yet (nbf)");
    if (auto iat = numeric_date(c, "iat"); iat && *iat - rules.leeway > now)
        return invalid("the token is issued in the future (iat)");

    verified_token v;
    if (auto sub = find_string(c, "sub")) v.subject = std::string(*sub);
    if (auto cid = find_string(c, "client_id"))
        v.client_id = std::string(*cid);
    else if (auto azp = find_string(c, "azp"))
        v.client_id = std::string(*azp);
    if (v.principal().empty()) return invalid("the token names neither a subject nor a client");
    v.scopes = token_scopes(c);
    v.expires = *exp + rules.leeway;
    if (const auto* cnf = find_object(c, "cnf"))
        if (auto jkt = find_string(*cnf, "jkt")) v.jkt = std::string(*jkt);
    return v;
}

} // namespace mcp::auth::detail
