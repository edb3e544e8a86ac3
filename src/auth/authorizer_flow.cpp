// mcp::auth::client_authorizer's flow: discovery (PRM, then authorization server metadata),
// the client's identity per issuer, scope selection, the authorization code flow with PKCE and
// the refresh of tokens.
#include "auth/authorizer_impl.hpp"

#include <mcp/auth/pkce.hpp>

#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

namespace mcp::auth {

using namespace detail;

client_authorizer::impl::discovered client_authorizer::impl::discover(const std::string& server,
                                                                      const challenge_info& ch,
                                                                      const cancellation_token& cancel) {
    discovered d;
    std::vector<std::string> prm_urls;
    if (!ch.resource_metadata.empty()) {
        if (!acceptable_endpoint(ch.resource_metadata))
            log("ignored a resource_metadata URL that is neither https nor loopback http");
        else
            prm_urls.push_back(ch.resource_metadata);
    }
    for (auto& u : protected_resource_metadata_urls(server)) prm_urls.push_back(std::move(u));
    std::string prm_from;
    for (const auto& u : prm_urls) {
        if (auto body = exchange.get_document(u, cancel)) {
            d.prm = parse_resource_metadata(*body, server, u);
            prm_from = u;
            break;
        }
    }
    // Without Protected Resource Metadata (a 2025-03-26 server), the MCP server's origin
    // is the authorization server.
    const std::string issuer = d.prm ? d.prm->authorization_servers.front() : origin_of(server);
    if (!acceptable_endpoint(issuer))
        throw authorization_error(auth_failure::discovery, "the authorization server " + display_url(issuer) +
                                                               " is neither https nor loopback http");
    bool found = false;
    for (const auto& u : authorization_metadata_urls(issuer)) {
        if (auto body = exchange.get_document(u, cancel)) {
            d.as = parse_authorization_metadata(*body, issuer, u);
            found = true;
            break;
        }
    }
    if (!found) {
        if (d.prm)
            throw authorization_error(auth_failure::discovery,
                                      "no metadata found for the authorization server " +
                                          display_url(issuer));
        d.as = default_metadata(issuer);
        log("no authorization server metadata at " + display_url(issuer) + "; using the default endpoints");
    }
    store->save_discovery(server, {.resource_metadata_url = prm_from,
                                   .resource = d.prm ? d.prm->resource : std::string(),
                                   .issuer = d.as.issuer,
                                   .authorization_metadata = to_json_text(d.as)});
    return d;
}

std::optional<std::pair<store_key, server_metadata>>
client_authorizer::impl::known(const std::string& server) {
    auto ds = store->load_discovery(server);
    if (!ds) return std::nullopt;
    try {
        return std::make_pair(store_key{server, ds->issuer},
                              server_metadata_from_json_text(ds->authorization_metadata));
    } catch (const authorization_error&) {
        return std::nullopt;
    }
}

client_registration client_authorizer::impl::identity(const store_key& key, const server_metadata& as,
                                                      const std::string& redirect_uri,
                                                      const cancellation_token& cancel) {
    if (!opts.client_id.empty()) {
        client_registration c;
        c.client_id = opts.client_id;
        c.client_secret = opts.client_secret;
        c.redirect_uris = {redirect_uri};
        c.token_endpoint_auth_method = opts.token_endpoint_auth_method;
        if (c.token_endpoint_auth_method.empty() && !opts.client_private_key_pem.empty())
            c.token_endpoint_auth_method = "private_key_jwt";
        if (c.token_endpoint_auth_method.empty()) {
            const auto& m = as.token_endpoint_auth_methods;
            auto has = [&](std::string_view s) { return std::find(m.begin(), m.end(), s) != m.end(); };
            if (c.client_secret.empty())
                c.token_endpoint_auth_method = "none";
            else if (m.empty() || has("client_secret_basic"))
                c.token_endpoint_auth_method = "client_secret_basic";
            else if (has("client_secret_post"))
                c.token_endpoint_auth_method = "client_secret_post";
            else
                c.token_endpoint_auth_method = "client_secret_basic";
        }
        return c;
    }
    if (auto c = store->load_client(key)) {
        const bool expired =
            c->secret_expires_at && *c->secret_expires_at <= std::chrono::system_clock::now();
        const bool same_redirect = std::find(c->redirect_uris.begin(), c->redirect_uris.end(),
                                             redirect_uri) != c->redirect_uris.end();
        if (!expired && same_redirect) return *c;
    }
    if (!opts.client_metadata_url.empty() && as.client_id_metadata_document_supported) {
        client_registration c;
        c.client_id = opts.client_metadata_url;
        c.token_endpoint_auth_method = "none";
        c.redirect_uris = {redirect_uri};
        return c;
    }
    if (as.registration_endpoint.empty())
        throw authorization_error(auth_failure::registration,
                                  "the authorization server " + display_url(as.issuer) +
                                      " offers no way to register a client (no pre-registered client_id, no "
                                      "Client ID Metadata Document support, no registration_endpoint)");
    log("registering a client at " + display_url(as.registration_endpoint));
    auto c = exchange.register_client(as, redirect_uri, cancel);
    store->save_client(key, c);
    return c;
}

std::string client_authorizer::impl::scope_for(const std::string& server, const challenge_info& ch,
                                               const discovered& d, bool step_up, bool wants_refresh) {
    std::vector<std::string> scopes;
    if (!opts.scopes.empty())
        scopes = opts.scopes;
    else if (!ch.scope.empty())
        scopes = space_list(ch.scope);
    else if (d.prm)
        scopes = d.prm->scopes_supported;
    std::lock_guard lock(counts_mu);
    auto& before = asked[server];
    if (step_up)
        for (auto it = before.rbegin(); it != before.rend(); ++it)
            if (std::find(scopes.begin(), scopes.end(), *it) == scopes.end())
                scopes.insert(scopes.begin(), *it);
    if (wants_refresh &&
        std::find(d.as.scopes_supported.begin(), d.as.scopes_supported.end(), "offline_access") !=
            d.as.scopes_supported.end() &&
        !scopes.empty())
        add_unique(scopes, "offline_access");
    before = scopes;
    return join(scopes);
}

std::string client_authorizer::impl::authorize(const std::string& server, const challenge_info& ch,
                                               bool step_up, const cancellation_token& cancel) {
    const discovered d = discover(server, ch, cancel);
    if (!opts.enterprise.token_endpoint.empty()) {
        const std::string jag = identity_assertion_grant(server, d, cancel);
        return machine_grant(
            server, ch, step_up, d,
            {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"}, {"assertion", jag}},
            "enterprise-managed authorization", cancel);
    }
    if (opts.jwt_bearer_assertion) {
        std::string assertion = opts.jwt_bearer_assertion();
        if (assertion.empty())
            throw authorization_error(auth_failure::token_request,
                                      "no workload identity assertion is available");
        return machine_grant(server, ch, step_up, d,
                             {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                              {"assertion", std::move(assertion)}},
                             "the JWT bearer grant", cancel);
    }
    if (use_client_credentials(d.as))
        return machine_grant(server, ch, step_up, d, {{"grant_type", "client_credentials"}},
                             "the client credentials grant", cancel);
    const store_key key{server, d.as.issuer};
    if (!opts.agent)
        throw authorization_error(auth_failure::no_user_agent,
                                  "logging in to " + display_url(server) +
                                      " needs the user, and no user agent is set");
    const std::string redirect_uri = opts.agent->redirect_uri();
    if (!acceptable_redirect_uri(redirect_uri))
        throw authorization_error(auth_failure::insecure_redirect,
                                  "the redirect URI " + display_url(redirect_uri) +
                                      " is neither a loopback http address nor https");
    const client_registration client = identity(key, d.as, redirect_uri, cancel);
    const std::string scope = scope_for(server, ch, d, step_up);
    // RFC 8707: the resource exactly as the PRM publishes it (it was checked to name this
    // server); without a PRM, the server's canonical URI.
    const std::string resource = d.prm ? d.prm->resource : server;

    const pkce_pair pkce = make_pkce_pair();
    pending_authorization pending{.state = base64url_encode(mcp::detail::random_bytes(32)),
                                  .code_verifier = pkce.verifier,
                                  .redirect_uri = redirect_uri,
                                  .scope = scope};
    store->save_pending(key, pending);

    param_list q{{"response_type", "code"},         {"client_id", client.client_id},
                 {"redirect_uri", redirect_uri},    {"code_challenge", pkce.challenge},
                 {"code_challenge_method", "S256"}, {"state", pending.state}};
    if (!scope.empty()) q.emplace_back("scope", scope);
    q.emplace_back("resource", resource);
    const std::string url = with_query(d.as.authorization_endpoint, q);
    log("sending the user to " + display_url(d.as.authorization_endpoint));
    if (cancel.is_cancelled())
        throw authorization_error(auth_failure::cancelled, "the authorization was cancelled");
    const std::string redirected = opts.agent->authorize(url, cancel);

    std::map<std::string, std::string> got;
    try {
        got = query_params(redirected);
    } catch (const std::invalid_argument&) {
        throw authorization_error(auth_failure::authorization_denied, "the redirect URL does not parse");
    }
    store->erase_pending(key);
    if (got["state"] != pending.state)
        throw authorization_error(auth_failure::state_mismatch,
                                  got.count("state") ? "the redirect carries another state than the one sent"
                                                     : "the redirect carries no state");
    // RFC 9207: a present iss must be the issuer, by simple string comparison; a server
    // that advertises iss must send it.
    if (auto it = got.find("iss"); it != got.end()) {
        if (it->second != d.as.issuer)
            throw authorization_error(auth_failure::iss_mismatch,
                                      "the redirect's iss is not the issuer " + display_url(d.as.issuer));
    } else if (d.as.iss_parameter_supported) {
        throw authorization_error(auth_failure::iss_mismatch,
                                  "the redirect has no iss although " + display_url(d.as.issuer) +
                                      " advertises authorization_response_iss_parameter_supported");
    }
    if (auto it = got.find("error"); it != got.end())
        throw authorization_error(auth_failure::authorization_denied,
                                  "the authorization server answered " + safe_code(it->second));
    auto code = got.find("code");
    if (code == got.end() || code->second.empty())
        throw authorization_error(auth_failure::authorization_denied, "the redirect carries no code");

    param_list grant{{"grant_type", "authorization_code"},
                     {"code", code->second},
                     {"redirect_uri", redirect_uri},
                     {"code_verifier", pkce.verifier}};
    grant.emplace_back("resource", resource);
    token_set t = exchange.request_tokens(d.as, client, std::move(grant), cancel, dpop_for(d.as));
    if (t.scope.empty()) t.scope = scope;
    saved_tokens(key, t);
    log("logged in to " + display_url(server));
    return bearer(t);
}

std::optional<token_set> client_authorizer::impl::refresh(const store_key& key, const server_metadata& as,
                                                          const token_set& old,
                                                          const cancellation_token& cancel) {
    if (old.refresh_token.empty()) return std::nullopt;
    client_registration client;
    if (!opts.client_id.empty()) {
        client = identity(key, as, opts.agent ? opts.agent->redirect_uri() : std::string(), cancel);
    } else if (auto c = store->load_client(key)) {
        client = *c;
    } else if (!opts.client_metadata_url.empty()) {
        client.client_id = opts.client_metadata_url;
    } else {
        return std::nullopt;
    }
    const auto ds = store->load_discovery(key.server);
    const std::string resource = ds && !ds->resource.empty() ? ds->resource : key.server;
    try {
        token_set t = exchange.request_tokens(
            as, client,
            {{"grant_type", "refresh_token"}, {"refresh_token", old.refresh_token}, {"resource", resource}},
            cancel, dpop_for(as));
        if (t.refresh_token.empty()) t.refresh_token = old.refresh_token;
        if (t.scope.empty()) t.scope = old.scope;
        saved_tokens(key, t);
        log("refreshed the access token for " + display_url(key.server));
        return t;
    } catch (const authorization_error& e) {
        if (e.reason() == auth_failure::cancelled) throw;
        log(std::string("the refresh failed: ") + e.what());
        store->erase_tokens(key);
        return std::nullopt;
    }
}

} // namespace mcp::auth
