// mcp/auth/resource_server.hpp - an mcp::http::server as an OAuth 2.1 resource server: access
// tokens from a real authorization server (Keycloak, Entra ID, Okta, Auth0, oidc-provider, ...)
// are checked on every request, and the verified subject becomes the request's principal.
//
//   mcp::auth::resource_server auth({.issuer = "https://login.example.com/realms/tools",
//                                    .resource = "https://tools.example.com/mcp",
//                                    .required_scopes = {"mcp:tools"}});
//   mcp::http::server_options http{.port = 8080};
//   auth.install(http);             // authenticate hook + Protected Resource Metadata routes
//   auth.start();                   // discover the issuer's keys (a bounded wait), refresh in the background
//   mcp::http::serve(server, http);
//
// What it does (MCP authorization, 2025-06-18 and later):
//   * serves Protected Resource Metadata (RFC 9728) at /.well-known/oauth-protected-resource
//     followed by the resource's path, and at the root one;
//   * a request without a token: 401 `WWW-Authenticate: Bearer resource_metadata="...",
//     scope="..."`; a token that does not verify: 401 with `error="invalid_token"` and a
//     description that says why (never the token); a token without a required scope: 403
//     `error="insufficient_scope", scope="..."`;
//   * JWT access tokens (RFC 9068) are verified against the issuer's JWKS, found through its
//     metadata (RFC 8414, then OpenID Connect discovery): algorithms RS256, PS256, ES256,
//     EdDSA only (never `none`, never HMAC); `iss` equal to the issuer, `aud` naming the
//     audience (default: the resource), `exp` and `nbf` with a bounded leeway;
//   * opaque tokens are introspected (RFC 7662) when an introspection endpoint is known, with a
//     small cache of active answers;
//   * DPoP-bound tokens (`cnf.jkt`, RFC 9449) need `Authorization: DPoP` and a valid proof
//     (typ dpop+jwt, its jwk's thumbprint equal to cnf.jkt, htm, htu, iat within a window, a jti
//     never seen before, ath the hash of the token);
//   * the principal is the token's `sub` (or, without one, its `client_id`).
//
// Threads: the authenticate hook runs on an HTTP I/O thread, so it never waits on the network
// for long. The issuer's keys are fetched by a thread of this object at start() and refreshed
// every `keys_refresh_interval`; a token with a `kid` not in the set asks that thread for a
// refresh (at most once per `min_refresh_interval`) and waits at most `unknown_key_wait` for
// it. While no key set could ever be fetched, tokens get 503 (with Retry-After) and `log` one
// line per change of state; other requests (the metadata routes, other servers) go on.
// Introspection is a network exchange on the I/O thread, bounded by `introspection_timeout`;
// its cache keeps repeated tokens off the network.
//
// Tokens never appear in a log line, an error message or an exception text.
#pragma once

#include <mcp/http/server.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

struct resource_server_options {
    /// The authorization server's issuer identifier (https://..., or http:// on loopback).
    /// Its metadata is read from /.well-known/oauth-authorization-server and, failing that,
    /// /.well-known/openid-configuration (both forms for an issuer with a path).
    std::string issuer;
    /// This MCP server's canonical URI (e.g. "https://tools.example.com/mcp"): the `resource`
    /// of the metadata, where the metadata is served, and the audience by default. May be left
    /// empty and given to set_resource() once the server is bound (a port chosen by the
    /// system); until then requests get 503.
    std::string resource;
    /// What `aud` must contain; empty: `resource`.
    std::string audience;
    /// Scopes every request needs (all of them).
    std::vector<std::string> required_scopes;
    /// Scopes a tools/call of the named tool needs in addition (all of them): a call without
    /// them gets 403 insufficient_scope naming them.
    std::map<std::string, std::vector<std::string>, std::less<>> tool_scopes;
    /// Advertised in the metadata; empty: required_scopes and every tool's scopes.
    std::vector<std::string> scopes_supported;
    /// Clock skew allowed on exp, nbf and iat; at most 5 minutes (more is taken as 5 minutes).
    std::chrono::seconds leeway{60};
    /// Longer Authorization values are refused without being parsed.
    std::size_t max_token_bytes = 8192;
    /// Also accept a token whose header `typ` is not at+jwt (RFC 9068 asks for it; some
    /// authorization servers write "JWT" or nothing). A `typ` of another kind of JWT
    /// (dpop+jwt, a logout token, ...) is refused either way.
    bool allow_untyped_tokens = true;

    /// The key set's URL; empty: `jwks_uri` from the issuer's metadata.
    std::string jwks_uri;
    std::chrono::seconds keys_refresh_interval{std::chrono::hours(1)};
    /// An unknown `kid` triggers a refresh at most this often.
    std::chrono::seconds min_refresh_interval{30};
    /// How long a request with an unknown `kid` waits for that refresh (on an I/O thread).
    std::chrono::milliseconds unknown_key_wait{300};
    /// How long start() waits for the first key set (it goes on trying in the background).
    std::chrono::milliseconds start_wait{std::chrono::seconds(5)};

    /// Opaque tokens: the introspection endpoint (RFC 7662); empty: the issuer's metadata
    /// `introspection_endpoint` when introspection_client_id is set, else none (opaque tokens
    /// are refused). The client authenticates with client_secret_basic.
    std::string introspection_endpoint;
    std::string introspection_client_id;
    std::string introspection_client_secret;
    std::chrono::milliseconds introspection_timeout{2000};
    /// How long an active introspection answer is reused (never past the token's exp).
    std::chrono::seconds introspection_cache_ttl{60};

    /// DPoP proofs: how far `iat` may be from now, and how many proof ids are remembered (the
    /// oldest are forgotten first; a proof older than the window is refused anyway).
    std::chrono::seconds dpop_proof_window{60};
    std::size_t dpop_replay_capacity = 100000;

    /// Metadata and key fetches: extra CA certificates (PEM) and certificate verification.
    std::string ca_file;
    bool verify_peer = true;
    /// One line per problem (key set unreachable or unusable, and recovered). Default: stderr,
    /// prefixed "mcpxx auth: ".
    std::function<void(std::string_view)> log;
};

/// What a verified token says.
struct verified_token {
    std::string subject;   ///< `sub` ("" when absent)
    std::string client_id; ///< `client_id` (or `azp`), "" when absent
    std::vector<std::string> scopes;
    std::chrono::system_clock::time_point expires;
    std::string jkt; ///< `cnf.jkt` of a DPoP-bound token, else ""
    /// `sub`, or `client_id` when there is no subject.
    std::string principal() const { return subject.empty() ? client_id : subject; }
};

class resource_server {
public:
    /// Throws std::invalid_argument when the issuer is missing, or the issuer or the resource
    /// is not an http(s) URL (http only for loopback hosts) or has a fragment.
    explicit resource_server(resource_server_options options);
    ~resource_server(); ///< stops the refresh thread
    resource_server(const resource_server&) = delete;
    resource_server& operator=(const resource_server&) = delete;

    /// Start the key thread and wait up to start_wait for the first key set. Returns whether
    /// keys are loaded (false: requests get 503 until they are; the thread keeps trying).
    bool start();

    /// Name the resource (when options.resource was left empty, e.g. http::server::url() after
    /// start()). Throws std::invalid_argument as the constructor does.
    void set_resource(std::string resource);

    /// Set server_options::authenticate to this resource server's check, and make extra_routes
    /// serve the metadata first (any routes already set are kept, after it). The server must
    /// not outlive this object.
    void install(http::server_options& options);
    /// The pieces of install: the check as an authenticate hook (it keeps this resource
    /// server's state alive), and the metadata routes put before options.extra_routes.
    std::function<http::auth_decision(const http::request_info&)> authenticator() const;
    void add_metadata_routes(http::server_options& options);
    /// The check, called directly.
    http::auth_decision authenticate(const http::request_info& request);
    /// The Protected Resource Metadata document (RFC 9728); "" until the resource is known.
    std::string metadata() const;
    /// The URL of that document for `resource` (path-suffixed form); "" until then.
    std::string metadata_url() const;

    /// Keys currently held (for health checks and tests).
    std::size_t keys() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp::auth
