// auth/credential_json.cpp - see credential_json.hpp.
#include "auth/credential_json.hpp"

#include <mcp/json/json.hpp>

#include <stdexcept>

namespace mcp::auth::detail {
namespace {

using clock = std::chrono::system_clock;

std::int64_t to_seconds(clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::string text(const boost::json::object& o, std::string_view key, bool required = true) {
    if (const auto s = find_string(o, key)) return std::string(*s);
    if (required || o.contains(key)) throw std::invalid_argument("\"" + std::string(key) + "\" must be a string");
    return {};
}

std::optional<clock::time_point> time_of(const boost::json::object& o, std::string_view key) {
    if (!o.contains(key)) return std::nullopt;
    const auto s = find_int(o, key);
    if (!s) throw std::invalid_argument("\"" + std::string(key) + "\" must be a whole number of seconds");
    return clock::time_point(std::chrono::seconds(*s));
}

} // namespace

boost::json::object to_json_object(const token_set& t) {
    boost::json::object o{{"access_token", t.access_token}, {"token_type", t.token_type}};
    if (!t.refresh_token.empty()) o["refresh_token"] = t.refresh_token;
    if (!t.scope.empty()) o["scope"] = t.scope;
    if (t.expires_at) o["expires_at"] = to_seconds(*t.expires_at);
    return o;
}

boost::json::object to_json_object(const client_registration& c) {
    boost::json::object o{{"client_id", c.client_id},
                          {"token_endpoint_auth_method", c.token_endpoint_auth_method}};
    if (!c.client_secret.empty()) o["client_secret"] = c.client_secret;
    boost::json::array uris;
    for (const auto& u : c.redirect_uris) uris.emplace_back(u);
    o["redirect_uris"] = std::move(uris);
    if (c.secret_expires_at) o["client_secret_expires_at"] = to_seconds(*c.secret_expires_at);
    return o;
}

boost::json::object to_json_object(const pending_authorization& p) {
    return {{"state", p.state}, {"code_verifier", p.code_verifier}, {"redirect_uri", p.redirect_uri}, {"scope", p.scope}};
}

boost::json::object to_json_object(const discovery_state& d) {
    return {{"resource_metadata_url", d.resource_metadata_url},
            {"resource", d.resource},
            {"issuer", d.issuer},
            {"authorization_metadata", d.authorization_metadata}};
}

token_set tokens_from_json(const boost::json::object& o) {
    token_set t;
    t.access_token = text(o, "access_token");
    t.token_type = text(o, "token_type");
    t.refresh_token = text(o, "refresh_token", false);
    t.scope = text(o, "scope", false);
    t.expires_at = time_of(o, "expires_at");
    return t;
}

client_registration client_from_json(const boost::json::object& o) {
    client_registration c;
    c.client_id = text(o, "client_id");
    c.client_secret = text(o, "client_secret", false);
    c.token_endpoint_auth_method = text(o, "token_endpoint_auth_method");
    if (const auto* uris = find_member(o, "redirect_uris")) {
        if (!uris->is_array()) throw std::invalid_argument("\"redirect_uris\" must be an array of strings");
        for (const auto& u : uris->get_array()) {
            if (!u.is_string()) throw std::invalid_argument("\"redirect_uris\" must be an array of strings");
            c.redirect_uris.emplace_back(u.get_string());
        }
    }
    c.secret_expires_at = time_of(o, "client_secret_expires_at");
    return c;
}

pending_authorization pending_from_json(const boost::json::object& o) {
    return {text(o, "state"), text(o, "code_verifier"), text(o, "redirect_uri"), text(o, "scope", false)};
}

discovery_state discovery_from_json(const boost::json::object& o) {
    return {text(o, "resource_metadata_url", false), text(o, "resource", false), text(o, "issuer"),
            text(o, "authorization_metadata", false)};
}

} // namespace mcp::auth::detail
