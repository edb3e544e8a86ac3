// mcp/auth/client_authorizer.hpp - the OAuth 2.1 client of MCP authorization (2025-03-26 ..
// 2026-07-28): it finds the authorization server of a protected MCP server, obtains a client
// identity, sends the user through the authorization code flow with PKCE and keeps the tokens.
//
//   struct browser : mcp::auth::user_agent {
//       std::string redirect_uri() override { return "http://127.0.0.1:8976/callback"; }
//       std::string authorize(const std::string& url, const mcp::cancellation_token&) override {
//           open_in_browser(url);
//           return wait_for_redirect();      // "http://127.0.0.1:8976/callback?code=...&state=..."
//       }
//   };
//   auto auth = std::make_shared<mcp::auth::client_authorizer>(
//       mcp::auth::client_authorizer_options{.agent = std::make_shared<browser>()});
//   auto t = mcp::http::make_client_transport({.url = "https://mcp.example.com/mcp",
//                                              .authorizer = auth});
//
// The transport asks authorization() for the Authorization header of each request, and calls
// handle_challenge() on 401 (and on 403 insufficient_scope), off its I/O thread, then repeats
// the request once with the new token.
//
// The flow, in the spec's order:
//   1. Protected Resource Metadata (RFC 9728): the challenge's resource_metadata, else
//      /.well-known/oauth-protected-resource/<path>, else /.well-known/oauth-protected-resource.
//      Its `resource` must name this server (else auth_failure::resource_mismatch). Without any
//      (a 2025-03-26 server), the server's own origin is the authorization server.
//   2. Authorization server metadata: RFC 8414 then OpenID Connect discovery, path-inserted
//      variants first; `issuer` must equal the issuer looked up (issuer_mismatch); S256 must be
//      in code_challenge_methods_supported (pkce_unsupported). A 2025-03-26 server without
//      metadata gets the default endpoints /authorize, /token, /register at its origin.
//   3. Client identity per issuer: pre-registered (options.client_id), else a Client ID Metadata
//      Document URL (options.client_metadata_url, when the server supports it), else Dynamic
//      Client Registration (RFC 7591) with application_type.
//   4. Authorization code + PKCE S256 + state + resource (RFC 8707); the redirect's `state` must
//      match and its `iss` (RFC 9207) must equal the issuer when present or advertised.
//   5. Token request with client_secret_basic, client_secret_post or none; refresh tokens are
//      used when the access token expires; offline_access is asked for only when advertised.
// Scope: the challenge's `scope`, else the PRM's scopes_supported, else none (options.scopes
// overrides). Tokens, secrets, codes and verifiers never appear in errors or log lines.
#pragma once

#include <mcp/auth/client_store.hpp>
#include <mcp/http/request_authorizer.hpp>
#include <mcp/jsonrpc/cancellation.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// The user's part: a browser (or a test) visits the authorization URL and the redirect comes
/// back to the application.
class user_agent {
public:
    virtual ~user_agent() = default;
    /// The redirect URI to register and to send: http://127.0.0.1:PORT/..., http://localhost
    /// or [::1] (RFC 8252), or an https:// URL. Any other is refused (insecure_redirect).
    virtual std::string redirect_uri() = 0;
    /// Sends the user to `authorization_url` and returns the full URL the authorization server
    /// redirected to (with code, state, iss, or error). May block for as long as the user
    /// takes; should return (throwing) when `cancel` fires. Throwing gives up the login.
    virtual std::string authorize(const std::string& authorization_url, const cancellation_token& cancel) = 0;
};

enum class auth_failure {
    discovery,            ///< no usable Protected Resource / authorization server metadata
    resource_mismatch,    ///< the PRM's `resource` does not name this server
    issuer_mismatch,      ///< metadata `issuer` differs from the issuer it was looked up for
    pkce_unsupported,     ///< the authorization server does not list S256
    registration,         ///< no client identity could be obtained
    insecure_redirect,    ///< the user agent's redirect URI is neither loopback nor https
    state_mismatch,       ///< the redirect's `state` is not the one sent
    iss_mismatch,         ///< RFC 9207: `iss` wrong, missing when advertised, or unexpected
    authorization_denied, ///< the redirect carried `error` (access_denied, ...)
    token_request,        ///< the token endpoint refused or answered garbage
    step_up_limit,        ///< 403 insufficient_scope again after max_step_up attempts
    no_user_agent,        ///< a login is needed and options.agent is null
    cancelled,            ///< the cancellation token fired
};

/// What the flow refused, with a readable message (never a token, secret, code or verifier).
class authorization_error : public std::runtime_error {
public:
    authorization_error(auth_failure reason, const std::string& message)
        : std::runtime_error(message), reason_(reason) {}
    auth_failure reason() const noexcept { return reason_; }

private:
    auth_failure reason_;
};

/// Enterprise-managed authorization (MCP extension
/// io.modelcontextprotocol/enterprise-managed-authorization): the user's identity provider
/// exchanges their ID token for an identity assertion grant (ID-JAG, RFC 8693 token exchange)
/// naming the MCP server's authorization server, which that server takes as a JWT bearer grant
/// (RFC 7523) from the pre-registered client. No browser.
struct enterprise_identity {
    std::string token_endpoint;            ///< the identity provider's token endpoint
    std::string client_id;                 ///< this client at the identity provider
    std::function<std::string()> id_token; ///< the user's current ID token there
};

struct client_authorizer_options {
    /// Where tokens and registrations live; null: a memory_store of this authorizer.
    std::shared_ptr<credential_store> store;
    /// The user step; null: only stored/refreshable tokens can be used.
    std::shared_ptr<user_agent> agent;
    /// A pre-registered client, used with every authorization server (empty: none).
    std::string client_id;
    std::string client_secret;
    /// For the pre-registered client: "client_secret_basic", "client_secret_post", "none" or
    /// "private_key_jwt" (see client_private_key_pem);
    /// empty: chosen from token_endpoint_auth_methods_supported (basic preferred; none
    /// without a secret).
    std::string token_endpoint_auth_method;
    /// A Client ID Metadata Document: the https:// URL (with a path) where this client's
    /// metadata is published; used as client_id when the server says
    /// client_id_metadata_document_supported. Empty: never.
    std::string client_metadata_url;
    /// Dynamic Client Registration metadata.
    std::string client_name = "mcpxx";
    std::string application_type = "native";
    /// When not empty, the scopes to request instead of the server's choice.
    std::vector<std::string> scopes;
    /// Step-up authorizations (403 insufficient_scope) per server before giving up.
    std::size_t max_step_up = 2;
    /// A token this close to its expiry is refreshed before use.
    std::chrono::seconds expiry_leeway{30};
    /// Each HTTP exchange of the flow (metadata, registration, token).
    std::chrono::milliseconds timeout{30000};
    bool verify_peer = true;
    std::string ca_file;
    /// Progress lines of the flow (never a secret). Default: none.
    std::function<void(std::string_view)> log;
    /// The client credentials grant (RFC 6749 section 4.4; MCP extension
    /// io.modelcontextprotocol/oauth-client-credentials) with the pre-registered client: no
    /// user, no redirect, for programs that act for themselves. Also chosen without this flag
    /// when a pre-registered client has a secret and the authorization server's
    /// grant_types_supported lists client_credentials but not authorization_code.
    bool client_credentials = false;
    /// private_key_jwt client authentication (RFC 7523) for the pre-registered client: its
    /// private key (PEM) and the algorithm, "ES256" (P-256) or "RS256". When the key is set,
    /// the token endpoint gets a signed client assertion instead of a secret.
    std::string client_private_key_pem;
    std::string client_signing_algorithm = "ES256";
    /// Workload identity (RFC 7523 JWT bearer grant; MCP extension io.modelcontextprotocol/auth/wif):
    /// returns the JWT the platform issued this workload (read it afresh each time: platforms
    /// rotate them). When set, tokens come from that grant with the pre-registered client_id;
    /// no user, no redirect, and a refused assertion is reported, never retried.
    std::function<std::string()> jwt_bearer_assertion;
    /// When set (token_endpoint not empty), tokens come from enterprise-managed authorization.
    enterprise_identity enterprise;
    /// DPoP (RFC 9449; MCP extension io.modelcontextprotocol/auth/dpop): when the authorization
    /// server lists ES256 in dpop_signing_alg_values_supported, tokens are bound to a P-256 key
    /// made for this authorizer (kept in memory only: after a restart, a new login) and every
    /// request presents them with a fresh proof.
    bool dpop = false;
};

class client_authorizer : public http::request_authorizer {
public:
    explicit client_authorizer(client_authorizer_options options = {});
    ~client_authorizer() override;
    client_authorizer(const client_authorizer&) = delete;
    client_authorizer& operator=(const client_authorizer&) = delete;

    /// The Authorization field value ("Bearer <token>") for a request to `server_url`,
    /// refreshing an expired token first (a network exchange); nullopt when there is no token.
    std::optional<std::string> authorization(std::string_view server_url,
                                             const cancellation_token& cancel = {}) override;

    /// The server answered `status` (401, or 403) with `www_authenticate` (may be empty).
    /// Runs what is needed (discovery, registration, the user step, the token request) and
    /// returns the Authorization field value to repeat the request with. Blocks; never call
    /// it on an I/O thread. Throws authorization_error.
    std::string handle_challenge(std::string_view server_url, int status, std::string_view www_authenticate,
                                 const cancellation_token& cancel = {}) override;

    /// A request with the current token succeeded: the step-up count starts again.
    void note_success(std::string_view server_url) override;

    /// For an Authorization value of the DPoP scheme ("DPoP <token>"): a fresh DPoP proof for
    /// a `method` request to `url`; "" for any other value. Signs, never touches the network:
    /// the transport calls it for every request.
    std::string dpop_proof(std::string_view method, std::string_view url,
                           std::string_view authorization) override;
    /// A DPoP-Nonce the server at `url` sent (RFC 9449 section 9): later proofs carry it.
    void note_dpop_nonce(std::string_view url, std::string_view nonce) override;

    /// Logs in without waiting for a challenge (discovery from the well-known URIs).
    /// Throws authorization_error.
    void login(std::string_view server_url, const cancellation_token& cancel = {});

    /// Forgets the tokens for `server_url` (every issuer); with forget_client, the client
    /// registrations and discovery results too.
    void logout(std::string_view server_url, bool forget_client = false);

    const std::shared_ptr<credential_store>& store() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

/// The canonical URI of an MCP server (RFC 8707 resource): scheme and host lowercased, default
/// port dropped, no fragment, query kept, no trailing slash after a non-empty path. Throws
/// std::invalid_argument for a URL that is not http(s) with a host.
std::string canonical_resource_uri(std::string_view url);

} // namespace mcp::auth
