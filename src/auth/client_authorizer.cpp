// mcp::auth::client_authorizer: discovery, client identity, the authorization code flow with
// PKCE, tokens and their refresh (see client_authorizer.hpp for the order of things).
#include <mcp/auth/client_authorizer.hpp>
#include <mcp/auth/pkce.hpp>
#include <mcp/auth/www_authenticate.hpp>

#include "auth/base64url.hpp"
#include "auth/dpop.hpp"
#include "auth/metadata.hpp"
#include "auth/oauth_exchange.hpp"
#include "auth/urls.hpp"
#include "crypto/crypto.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace mcp::auth {

using namespace detail;

namespace {

std::vector<std::string> space_list(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ') ++i;
        if (i > start) out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) {
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

void add_unique(std::vector<std::string>& v, const std::string& s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// An OAuth error code from a redirect, repeated only when it is a short plain token.
std::string safe_code(std::string_view s) {
    if (s.empty() || s.size() > 64) return "an error";
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return "an error";
    return std::string(s);
}

struct challenge_info {
    std::string resource_metadata;
    std::string scope;
    std::string error;
};

challenge_info read_challenge(std::string_view field, const std::function<void(std::string_view)>& log) {
    challenge_info info;
    if (field.empty()) return info;
    try {
        const auto all = parse_www_authenticate(field);
        const challenge* c = find_challenge(all, "Bearer");
        if (!c) c = find_challenge(all, "DPoP");
        if (!c) return info;
        info.resource_metadata = std::string(c->param("resource_metadata").value_or(""));
        info.scope = std::string(c->param("scope").value_or(""));
        info.error = std::string(c->param("error").value_or(""));
    } catch (const std::invalid_argument& e) {
        if (log) log(std::string("ignored the WWW-Authenticate field: ") + e.what());
    }
    return info;
}

// The Authorization value that presents `t`: its own scheme for a DPoP-bound token.
std::string bearer(const token_set& t) {
    std::string type = t.token_type;
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return (type == "dpop" ? "DPoP " : "Bearer ") + t.access_token;
}

} // namespace

struct client_authorizer::impl {
    explicit impl(client_authorizer_options o)
        : opts(std::move(o)), store(opts.store ? opts.store : std::make_shared<memory_store>()), exchange(opts) {}

    client_authorizer_options opts;
    std::shared_ptr<credential_store> store;
    oauth_exchange exchange;
    std::mutex flow; // one flow at a time: concurrent challenges share its outcome

    std::mutex counts_mu;
    std::map<std::string, std::size_t> step_ups;          // per server, since the last success
    std::map<std::string, std::vector<std::string>> asked; // scopes requested per server (union on step-up)
    std::map<std::string, std::uint64_t> generation;        // per server: tokens saved so far
    std::mutex dpop_mu;
    std::shared_ptr<dpop_signer> dpop_key; // made when first used

    // The DPoP signer for token requests to `as`, when DPoP is on and the server takes ES256.
    dpop_signer* dpop_for(const server_metadata& as) {
        if (!opts.dpop || !as.dpop_es256) return nullptr;
        std::lock_guard lock(dpop_mu);
        if (!dpop_key) dpop_key = std::make_shared<dpop_signer>();
        return dpop_key.get();
    }
    std::shared_ptr<dpop_signer> current_dpop() {
        std::lock_guard lock(dpop_mu);
        return dpop_key;
    }

    void saved_tokens(const store_key& key, const token_set& t) {
        store->save_tokens(key, t);
        std::lock_guard lock(counts_mu);
        ++generation[key.server];
    }
    std::uint64_t generation_of(const std::string& server) {
        std::lock_guard lock(counts_mu);
        return generation[server];
    }

    void log(const std::string& line) const {
        if (opts.log) opts.log(line);
    }

    struct discovered {
        std::optional<resource_metadata> prm;
        server_metadata as;
    };

    discovered discover(const std::string& server, const challenge_info& ch, const cancellation_token& cancel) {
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
                                          "no metadata found for the authorization server " + display_url(issuer));
            d.as = default_metadata(issuer);
            log("no authorization server metadata at " + display_url(issuer) + "; using the default endpoints");
        }
        store->save_discovery(server, {.resource_metadata_url = prm_from,
                                       .resource = d.prm ? d.prm->resource : std::string(),
                                       .issuer = d.as.issuer,
                                       .authorization_metadata = to_json_text(d.as)});
        return d;
    }

    std::optional<std::pair<store_key, server_metadata>> known(const std::string& server) {
        auto ds = store->load_discovery(server);
        if (!ds) return std::nullopt;
        try {
            return std::make_pair(store_key{server, ds->issuer}, server_metadata_from_json_text(ds->authorization_metadata));
        } catch (const authorization_error&) {
            return std::nullopt;
        }
    }

    client_registration identity(const store_key& key, const server_metadata& as, const std::string& redirect_uri,
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
            const bool expired = c->secret_expires_at && *c->secret_expires_at <= std::chrono::system_clock::now();
            const bool same_redirect = std::find(c->redirect_uris.begin(), c->redirect_uris.end(), redirect_uri) !=
                                       c->redirect_uris.end();
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

    std::string scope_for(const std::string& server, const challenge_info& ch, const discovered& d, bool step_up,
                          bool wants_refresh = true) {
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
                if (std::find(scopes.begin(), scopes.end(), *it) == scopes.end()) scopes.insert(scopes.begin(), *it);
        if (wants_refresh &&
            std::find(d.as.scopes_supported.begin(), d.as.scopes_supported.end(), "offline_access") !=
                d.as.scopes_supported.end() &&
            !scopes.empty())
            add_unique(scopes, "offline_access");
        before = scopes;
        return join(scopes);
    }

    bool use_client_credentials(const server_metadata& as) const {
        if (opts.client_credentials) return true;
        const auto& g = as.grant_types;
        return !opts.client_id.empty() && (!opts.client_secret.empty() || !opts.client_private_key_pem.empty()) &&
               std::find(g.begin(), g.end(), "client_credentials") != g.end() &&
               std::find(g.begin(), g.end(), "authorization_code") == g.end();
    }

    // A grant without a user (client credentials, JWT bearer): one token request.
    std::string machine_grant(const std::string& server, const challenge_info& ch, bool step_up,
                              const discovered& d, param_list grant, const std::string& what,
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
    std::string identity_assertion_grant(const std::string& server, const discovered& d,
                                         const cancellation_token& cancel) {
        const auto& e = opts.enterprise;
        if (!acceptable_endpoint(e.token_endpoint))
            throw authorization_error(auth_failure::discovery, "the identity provider's token endpoint " +
                                                                   display_url(e.token_endpoint) +
                                                                   " is neither https nor loopback http");
        const std::string id_token = e.id_token ? e.id_token() : std::string();
        if (id_token.empty())
            throw authorization_error(auth_failure::token_request, "no ID token is available for the identity provider");
        server_metadata idp;
        idp.issuer = origin_of(e.token_endpoint);
        idp.token_endpoint = e.token_endpoint;
        client_registration at_idp{.client_id = e.client_id, .token_endpoint_auth_method = "none"};
        const token_set jag = exchange.request_tokens(
            idp, at_idp,
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

    std::string authorize(const std::string& server, const challenge_info& ch, bool step_up,
                          const cancellation_token& cancel) {
        const discovered d = discover(server, ch, cancel);
        if (!opts.enterprise.token_endpoint.empty()) {
            const std::string jag = identity_assertion_grant(server, d, cancel);
            return machine_grant(server, ch, step_up, d,
                                 {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"}, {"assertion", jag}},
                                 "enterprise-managed authorization", cancel);
        }
        if (opts.jwt_bearer_assertion) {
            std::string assertion = opts.jwt_bearer_assertion();
            if (assertion.empty())
                throw authorization_error(auth_failure::token_request, "no workload identity assertion is available");
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
                                      "logging in to " + display_url(server) + " needs the user, and no user agent is set");
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
        pending_authorization pending{.state = base64url(mcp::detail::random_bytes(32)),
                                      .code_verifier = pkce.verifier,
                                      .redirect_uri = redirect_uri,
                                      .scope = scope};
        store->save_pending(key, pending);

        param_list q{{"response_type", "code"},
                     {"client_id", client.client_id},
                     {"redirect_uri", redirect_uri},
                     {"code_challenge", pkce.challenge},
                     {"code_challenge_method", "S256"},
                     {"state", pending.state}};
        if (!scope.empty()) q.emplace_back("scope", scope);
        q.emplace_back("resource", resource);
        const std::string url = with_query(d.as.authorization_endpoint, q);
        log("sending the user to " + display_url(d.as.authorization_endpoint));
        if (cancel.is_cancelled()) throw authorization_error(auth_failure::cancelled, "the authorization was cancelled");
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

    std::optional<token_set> refresh(const store_key& key, const server_metadata& as, const token_set& old,
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
            token_set t = exchange.request_tokens(as, client,
                                                  {{"grant_type", "refresh_token"},
                                                   {"refresh_token", old.refresh_token},
                                                   {"resource", resource}},
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

    bool expiring(const token_set& t) const {
        return t.expires_at && *t.expires_at - opts.expiry_leeway <= std::chrono::system_clock::now();
    }
};

client_authorizer::client_authorizer(client_authorizer_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {}

client_authorizer::~client_authorizer() = default;

const std::shared_ptr<credential_store>& client_authorizer::store() const noexcept {
    return impl_->store;
}

std::optional<std::string> client_authorizer::authorization(std::string_view server_url,
                                                            const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    auto k = impl_->known(server);
    if (!k) return std::nullopt;
    auto t = impl_->store->load_tokens(k->first);
    if (!t) return std::nullopt;
    if (!impl_->expiring(*t)) return bearer(*t);
    std::lock_guard lock(impl_->flow);
    if (auto again = impl_->store->load_tokens(k->first); again && !impl_->expiring(*again)) return bearer(*again);
    if (auto fresh = impl_->refresh(k->first, k->second, *t, cancel)) return bearer(*fresh);
    return std::nullopt;
}

std::string client_authorizer::handle_challenge(std::string_view server_url, int status,
                                                std::string_view www_authenticate,
                                                const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    const challenge_info ch = read_challenge(www_authenticate, impl_->opts.log);
    bool step_up = false;
    if (status == 403) {
        if (ch.error != "insufficient_scope")
            throw authorization_error(auth_failure::authorization_denied,
                                      "the server refused the request (403) without asking for more scope");
        std::lock_guard lock(impl_->counts_mu);
        if (++impl_->step_ups[server] > impl_->opts.max_step_up)
            throw authorization_error(auth_failure::step_up_limit,
                                      "the server still asks for more scope after " +
                                          std::to_string(impl_->opts.max_step_up) + " step-up authorizations");
        step_up = true;
    }
    const std::uint64_t seen = impl_->generation_of(server);
    std::lock_guard lock(impl_->flow);
    if (!step_up) {
        auto k = impl_->known(server);
        if (k && impl_->generation_of(server) != seen) {
            // Another flow obtained tokens while this challenge waited for it: try those.
            if (auto t = impl_->store->load_tokens(k->first)) return bearer(*t);
        }
        // A token that expired or was revoked: a refresh may do without the user.
        if (k) {
            if (auto t = impl_->store->load_tokens(k->first)) {
                impl_->store->erase_tokens(k->first);
                if (auto fresh = impl_->refresh(k->first, k->second, *t, cancel)) return bearer(*fresh);
            }
        }
    }
    return impl_->authorize(server, ch, step_up, cancel);
}

void client_authorizer::note_success(std::string_view server_url) {
    std::string server;
    try {
        server = canonical_resource_uri(server_url);
    } catch (const std::invalid_argument&) {
        return;
    }
    std::lock_guard lock(impl_->counts_mu);
    impl_->step_ups.erase(server);
}

std::string client_authorizer::dpop_proof(std::string_view method, std::string_view url,
                                          std::string_view authorization) {
    if (authorization.substr(0, 5) != "DPoP ") return {};
    auto signer = impl_->current_dpop();
    if (!signer) return {};
    try {
        return signer->proof(method, url, authorization.substr(5));
    } catch (const std::exception& e) {
        impl_->log(std::string("no DPoP proof: ") + e.what());
        return {};
    }
}

void client_authorizer::note_dpop_nonce(std::string_view url, std::string_view nonce) {
    // A nonce is an opaque token of the server's; one that could not travel in a JWT claim
    // or that is unreasonably long is not kept.
    if (nonce.empty() || nonce.size() > 512) return;
    for (char c : nonce)
        if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e) return;
    if (auto signer = impl_->current_dpop()) {
        try {
            signer->set_nonce(url, std::string(nonce));
        } catch (const std::invalid_argument&) {
        }
    }
}

void client_authorizer::login(std::string_view server_url, const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    std::lock_guard lock(impl_->flow);
    impl_->authorize(server, {}, false, cancel);
}

void client_authorizer::logout(std::string_view server_url, bool forget_client) {
    const std::string server = canonical_resource_uri(server_url);
    auto ds = impl_->store->load_discovery(server);
    if (!ds) return;
    const store_key key{server, ds->issuer};
    impl_->store->erase_tokens(key);
    impl_->store->erase_pending(key);
    if (forget_client) {
        impl_->store->erase_client(key);
        impl_->store->erase_discovery(server);
    }
}

} // namespace mcp::auth
