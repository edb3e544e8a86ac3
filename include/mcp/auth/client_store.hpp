// mcp/auth/client_store.hpp - what an OAuth client keeps between runs, and where: tokens, the
// client registration, the pending authorization (PKCE verifier + state) and the discovery
// results, behind one small interface the application may implement (a file, a keychain, a
// database). mcp::auth::memory_store keeps them in memory for one process.
//
// Keys: `server` is the MCP server's canonical URI (the RFC 8707 resource: scheme and host
// lowercased, no fragment, no trailing slash after a path), `issuer` the authorization
// server's issuer identifier exactly as its metadata gives it. Credentials are kept per
// (server, issuer): when a server moves to another authorization server, nothing obtained from
// the old one is sent to the new one. Discovery results are kept per server.
//
// Every method may be called from any thread (the authorizer runs its flow off the transport's
// I/O thread), one call at a time per authorizer. A store must not log what it holds.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::auth {

struct store_key {
    std::string server; ///< canonical URI of the MCP server
    std::string issuer; ///< issuer identifier of the authorization server
    friend auto operator<=>(const store_key&, const store_key&) = default;
};

struct token_set {
    std::string access_token;
    std::string token_type = "Bearer";
    std::string refresh_token; ///< empty when none was issued
    std::string scope;         ///< granted scope (space-separated), or the requested one
    /// When the access token expires (from expires_in); nullopt when not said.
    std::optional<std::chrono::system_clock::time_point> expires_at;
};

struct client_registration {
    std::string client_id;
    std::string client_secret; ///< empty for a public client
    /// "none", "client_secret_basic", "client_secret_post" or "private_key_jwt".
    std::string token_endpoint_auth_method = "none";
    std::vector<std::string> redirect_uris;
    /// client_secret_expires_at from the registration response (nullopt: never).
    std::optional<std::chrono::system_clock::time_point> secret_expires_at;
};

/// Between sending the user to the authorization endpoint and receiving the redirect.
struct pending_authorization {
    std::string state;
    std::string code_verifier;
    std::string redirect_uri;
    std::string scope;
};

/// What discovery found for one server, so that a later run need not repeat it.
struct discovery_state {
    std::string resource_metadata_url;  ///< where the Protected Resource Metadata came from
    std::string resource;               ///< its `resource`
    std::string issuer;                 ///< the authorization server chosen
    std::string authorization_metadata; ///< that server's metadata document (JSON text)
};

class credential_store {
public:
    virtual ~credential_store() = default;

    virtual std::optional<token_set> load_tokens(const store_key& key) = 0;
    virtual void save_tokens(const store_key& key, const token_set& tokens) = 0;
    virtual void erase_tokens(const store_key& key) = 0;

    virtual std::optional<client_registration> load_client(const store_key& key) = 0;
    virtual void save_client(const store_key& key, const client_registration& client) = 0;
    virtual void erase_client(const store_key& key) = 0;

    virtual std::optional<pending_authorization> load_pending(const store_key& key) = 0;
    virtual void save_pending(const store_key& key, const pending_authorization& pending) = 0;
    virtual void erase_pending(const store_key& key) = 0;

    virtual std::optional<discovery_state> load_discovery(const std::string& server) = 0;
    virtual void save_discovery(const std::string& server, const discovery_state& state) = 0;
    virtual void erase_discovery(const std::string& server) = 0;
};

/// Everything in memory, guarded by a mutex; gone when the process ends.
class memory_store final : public credential_store {
public:
    std::optional<token_set> load_tokens(const store_key& key) override;
    void save_tokens(const store_key& key, const token_set& tokens) override;
    void erase_tokens(const store_key& key) override;
    std::optional<client_registration> load_client(const store_key& key) override;
    void save_client(const store_key& key, const client_registration& client) override;
    void erase_client(const store_key& key) override;
    std::optional<pending_authorization> load_pending(const store_key& key) override;
    void save_pending(const store_key& key, const pending_authorization& pending) override;
    void erase_pending(const store_key& key) override;
    std::optional<discovery_state> load_discovery(const std::string& server) override;
    void save_discovery(const std::string& server, const discovery_state& state) override;
    void erase_discovery(const std::string& server) override;

private:
    std::mutex mutex_;
    std::map<store_key, token_set> tokens_;
    std::map<store_key, client_registration> clients_;
    std::map<store_key, pending_authorization> pending_;
    std::map<std::string, discovery_state> discovery_;
};

} // namespace mcp::auth
