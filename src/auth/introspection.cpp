// Token introspection (see introspection.hpp).
#include "auth/introspection.hpp"

#include "crypto/crypto.hpp"

#include <mcp/http/fetch.hpp>
#include <mcp/json/base64.hpp>

#include <cmath>

namespace mcp::auth::detail {

std::string form_encode(std::string_view value) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(value.size());
    for (unsigned char c : value) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

introspector::introspector(introspection_options options,
                           std::function<std::optional<std::string>()> endpoint)
    : opts_(std::move(options)), endpoint_(std::move(endpoint)) {}

token_result introspector::introspect(std::string_view token, std::string_view audience,
                                      std::chrono::system_clock::time_point now) {
    const auto digest = mcp::detail::sha256(token);
    {
        std::lock_guard lock(mu_);
        if (auto it = cache_.find(digest); it != cache_.end()) {
            if (it->second.until > now) return it->second.token;
            cache_.erase(it);
        }
    }
    const auto endpoint = endpoint_();
    if (!endpoint)
        return token_failure{401, "invalid_token",
                             "the token is not a JWT and this server cannot introspect tokens"};
    http::fetch_request req{.method = "POST", .url = *endpoint};
    req.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                   {"Accept", "application/json"},
                   {"Authorization", "Basic " + base64::encode(form_encode(opts_.client_id) + ":" +
                                                               form_encode(opts_.client_secret))}};
    req.body = "token=" + form_encode(token) + "&token_type_hint=access_token";
    req.connect_timeout = opts_.timeout;
    req.timeout = opts_.timeout;
    req.max_response_bytes = 64 * 1024;
    req.ca_file = opts_.ca_file;
    req.verify_peer = opts_.verify_peer;
    const token_failure unavailable{
        503, "", "Service Unavailable: the authorization server cannot check the token now"};
    json::object answer;
    try {
        auto r = http::fetch(req);
        if (r.status != 200) return unavailable;
        boost::system::error_code ec;
        auto v = parse_json(r.body, ec);
        if (!v || !v->is_object()) return unavailable;
        answer = std::move(v->as_object());
    } catch (const std::exception&) {
        return unavailable;
    }
    if (find_bool(answer, "active") != true)
        return token_failure{401, "invalid_token", "the token is not active"};
    if (auto iss = find_string(answer, "iss"); iss && *iss != opts_.issuer)
        return token_failure{401, "invalid_token", "the token is from another issuer"};
    if (const auto* aud = find_member(answer, "aud")) {
        bool match = aud->is_string() && aud->get_string() == audience;
        if (aud->is_array())
            for (const auto& a : aud->get_array())
                match = match || (a.is_string() && a.get_string() == audience);
        if (!match) return token_failure{401, "invalid_token", "the token is for another audience"};
    }
    verified_token v;
    if (auto sub = find_string(answer, "sub")) v.subject = std::string(*sub);
    if (auto cid = find_string(answer, "client_id")) v.client_id = std::string(*cid);
    if (v.principal().empty())
        return token_failure{401, "invalid_token", "the token names neither a subject nor a client"};
    v.scopes = token_scopes(answer);
    if (const auto* cnf = find_object(answer, "cnf"))
        if (auto jkt = find_string(*cnf, "jkt")) v.jkt = std::string(*jkt);
    auto until = now + opts_.cache_ttl;
    if (auto exp = find_number(answer, "exp"); exp && std::isfinite(*exp)) {
        v.expires = std::chrono::system_clock::time_point(
            std::chrono::seconds(static_cast<std::int64_t>(std::clamp(*exp, -1e12, 1e12))));
        if (v.expires <= now) return token_failure{401, "invalid_token", "the token has expired"};
        until = std::min(until, v.expires);
    } else {
        v.expires = until;
    }
    std::lock_guard lock(mu_);
    if (cache_.size() >= opts_.cache_capacity) cache_.clear(); // crude, bounded, rarely reached
    cache_[digest] = cached{v, until};
    return v;
}

} // namespace mcp::auth::detail
