// mcp::auth::client_authorizer's grants without a user: client credentials, the JWT bearer
// grant of workload identity, and enterprise-managed authorization (an ID-JAG obtained by token
// exchange at the identity provider, then the JWT bearer grant).
#include "auth/authorizer_impl.hpp"

namespace mcp::auth {

using namespace detail;

bool client_authorizer::impl::use_client_credentials(const server_metadata& as) const {
    if (opts.client_credentials) return true;
    const auto& g = as.grant_types;
    return !opts.client_id.empty() && (!opts.client_secret.empty() || !opts.client_private_key_pem.empty()) &&
           std::find(g.begin(), g.end(), "client_credentials") != g.end() &&
           std::find(g.begin(), g.end(), "authorization_code") == g.end();
}

// A grant without a user (client credentials, JWT bearer): one token request.
std::string client_authorizer::impl::machine_grant(const std::string& server, const challenge_info& ch,
                                                   bool step_up, const discovered& d, param_list grant,
                                                   const std::string& what,
                                                   const cancellation_token& cancel) {
    if (opts.client_id.empty())
        throw authorization_error(auth_failure::registration, what + " needs a pre-registered client_id");
    const store_key key{server, d.as.issuer};
    const client_registration client = identity(key, d.as, std::string(), cancel);
    const std::string scope = scope_for(server, ch, d, step_up, false);
    if (!scope.empty()) grant.emplace_back("scope", scope);
    grant.emplace_back("resource", d.prm ? d.prm->resource : server);
    token_set t = exchange.request_tokens(d.as, client, std::move(grant), cancel, dpop_for(d.as));
    if (t.scope.empty()) t.scope = scope;
    saved_tokens(key, t);
    log("obtained a token by " + what + " for " + display_url(server));
    return bearer(t);
}

// RFC 8693 token exchange at the identity provider: the user's ID token for an ID-JAG
// addressed to the MCP server's authorization server and naming the resource.
std::string client_authorizer::impl::identity_assertion_grant(const std::string& server, const discovered& d,
                                                              const cancellation_token& cancel) {
    const auto& e = opts.enterprise;
    if (!acceptable_endpoint(e.token_endpoint))
        throw authorization_error(auth_failure::discovery, "the identity provider's token endpoint " +
                                                               display_url(e.token_endpoint) +
                                                               " is neither https nor loopback http");
    const std::string id_token = e.id_token ? e.id_token() : std::string();
    if (id_token.empty())
        throw authorization_error(auth_failure::token_request,
                                  "no ID token is available for the identity provider");
    server_metadata idp;
    idp.issuer = origin_of(e.token_endpoint);
    idp.token_endpoint = e.token_endpoint;
    client_registration at_idp{.client_id = e.client_id, .token_endpoint_auth_method = "none"};
    const token_set jag =
        exchange.request_tokens(idp, at_idp,
                                {{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
                                 {"subject_token", id_token},
                                 {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"},
                                 {"requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"},
                                 {"audience", d.as.issuer},
                                 {"resource", d.prm ? d.prm->resource : server}},
                                cancel);
    log("obtained an identity assertion grant from " + display_url(e.token_endpoint));
    return jag.access_token;
}

} // namespace mcp::auth
