// Parsing and checking of Protected Resource Metadata and authorization server metadata.
#include "auth/metadata.hpp"

#include "auth/urls.hpp"

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>

namespace mcp::auth::detail {

namespace {

json::object parse_object(std::string_view body, std::string_view what, std::string_view from) {
    boost::system::error_code ec;
    auto v = parse_json(body, ec);
    if (!v || !v->is_object())
        throw authorization_error(auth_failure::discovery,
                                  std::string(what) + " from " + display_url(from) + " is not a JSON object");
    return std::move(v->get_object());
}

std::vector<std::string> strings(const json::object& o, std::string_view key) {
    std::vector<std::string> out;
    if (const json::array* a = find_array(o, key))
        for (const auto& e : *a)
            if (e.is_string()) out.emplace_back(e.get_string());
    return out;
}

std::string endpoint(const json::object& o, std::string_view key, std::string_view from, bool required) {
    auto v = find_string(o, key);
    if (!v || v->empty()) {
        if (!required) return {};
        throw authorization_error(auth_failure::discovery, "the authorization server metadata from " +
                                                               display_url(from) + " has no " + std::string(key));
    }
    if (!acceptable_endpoint(*v))
        throw authorization_error(auth_failure::discovery, "the authorization server metadata from " +
                                                               display_url(from) + " gives a " + std::string(key) +
                                                               " that is neither https nor loopback http");
    return std::string(*v);
}

} // namespace

resource_metadata parse_resource_metadata(std::string_view body, std::string_view server_url,
                                          std::string_view from) {
    const json::object o = parse_object(body, "the protected resource metadata", from);
    resource_metadata m;
    auto resource = find_string(o, "resource");
    if (!resource || !resource_matches(*resource, server_url))
        throw authorization_error(auth_failure::resource_mismatch,
                                  "the protected resource metadata from " + display_url(from) +
                                      (resource ? " names another resource (" + display_url(*resource) + ")"
                                                : std::string(" has no resource")) +
                                      ", not " + display_url(server_url));
    m.resource = std::string(*resource);
    m.authorization_servers = strings(o, "authorization_servers");
    if (m.authorization_servers.empty())
        throw authorization_error(auth_failure::discovery, "the protected resource metadata from " +
                                                               display_url(from) + " names no authorization server");
    m.scopes_supported = strings(o, "scopes_supported");
    return m;
}

server_metadata parse_authorization_metadata(std::string_view body, std::string_view expected_issuer,
                                             std::string_view from) {
    const json::object o = parse_object(body, "the authorization server metadata", from);
    server_metadata m;
    auto issuer = find_string(o, "issuer");
    if (!issuer || *issuer != expected_issuer)
        throw authorization_error(auth_failure::issuer_mismatch,
                                  "the authorization server metadata from " + display_url(from) +
                                      (issuer ? " names the issuer " + display_url(*issuer)
                                              : std::string(" names no issuer")) +
                                      ", not " + display_url(expected_issuer) + " for which it was looked up");
    m.issuer = std::string(*issuer);
    const auto pkce = strings(o, "code_challenge_methods_supported");
    if (std::find(pkce.begin(), pkce.end(), "S256") == pkce.end())
        throw authorization_error(auth_failure::pkce_unsupported,
                                  "the authorization server " + display_url(m.issuer) +
                                      (find_member(o, "code_challenge_methods_supported")
                                           ? " does not support PKCE with S256"
                                           : " does not advertise code_challenge_methods_supported, so PKCE "
                                             "S256 cannot be relied on"));
    m.authorization_endpoint = endpoint(o, "authorization_endpoint", from, true);
    m.token_endpoint = endpoint(o, "token_endpoint", from, true);
    m.registration_endpoint = endpoint(o, "registration_endpoint", from, false);
    m.scopes_supported = strings(o, "scopes_supported");
    m.token_endpoint_auth_methods = strings(o, "token_endpoint_auth_methods_supported");
    m.grant_types = strings(o, "grant_types_supported");
    m.client_id_metadata_document_supported =
        find_bool(o, "client_id_metadata_document_supported").value_or(false);
    m.iss_parameter_supported = find_bool(o, "authorization_response_iss_parameter_supported").value_or(false);
    const auto dpop = strings(o, "dpop_signing_alg_values_supported");
    m.dpop_es256 = std::find(dpop.begin(), dpop.end(), "ES256") != dpop.end();
    return m;
}

server_metadata default_metadata(std::string_view origin) {
    server_metadata m;
    m.issuer = std::string(origin);
    m.authorization_endpoint = m.issuer + "/authorize";
    m.token_endpoint = m.issuer + "/token";
    m.registration_endpoint = m.issuer + "/register";
    m.defaults = true;
    return m;
}

std::string to_json_text(const server_metadata& m) {
    json::object o;
    o["issuer"] = m.issuer;
    o["authorization_endpoint"] = m.authorization_endpoint;
    o["token_endpoint"] = m.token_endpoint;
    if (!m.registration_endpoint.empty()) o["registration_endpoint"] = m.registration_endpoint;
    auto arr = [](const std::vector<std::string>& v) {
        json::array a;
        for (const auto& s : v) a.emplace_back(s);
        return a;
    };
    o["scopes_supported"] = arr(m.scopes_supported);
    o["token_endpoint_auth_methods_supported"] = arr(m.token_endpoint_auth_methods);
    o["grant_types_supported"] = arr(m.grant_types);
    o["client_id_metadata_document_supported"] = m.client_id_metadata_document_supported;
    o["authorization_response_iss_parameter_supported"] = m.iss_parameter_supported;
    o["code_challenge_methods_supported"] = json::array{"S256"};
    if (m.dpop_es256) o["dpop_signing_alg_values_supported"] = json::array{"ES256"};
    if (m.defaults) o["mcpxx_defaults"] = true;
    return to_json(o);
}

server_metadata server_metadata_from_json_text(std::string_view text) {
    boost::system::error_code ec;
    auto v = parse_json(text, ec);
    if (!v || !v->is_object()) throw authorization_error(auth_failure::discovery, "stored metadata is unreadable");
    const auto issuer = find_string(v->get_object(), "issuer").value_or("");
    auto m = parse_authorization_metadata(text, issuer, "stored metadata");
    m.defaults = find_bool(v->get_object(), "mcpxx_defaults").value_or(false);
    return m;
}

} // namespace mcp::auth::detail
