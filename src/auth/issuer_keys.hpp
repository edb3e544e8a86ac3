// The signing keys of one authorization server, kept fresh by a thread of their own: its
// metadata (RFC 8414, then OpenID Connect discovery) names the JWKS, which is fetched at start,
// every refresh interval, and when a token names a key the set does not have (rate-limited).
// Readers (HTTP I/O threads) take a snapshot without waiting; only a request for an unknown
// key waits, and only for a short bounded time. Internal.
#pragma once

#include "auth/jose.hpp"

#include <mcp/jsonrpc/cancellation.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mcp::auth::detail {

/// One fetched JWKS: its usable signing keys.
struct key_set {
    std::vector<public_jwk> keys;
    /// Keys that may verify a token with `kid` ("" when the token names none) and `alg`: the one
    /// with that kid, or without a kid every key that fits the algorithm.
    std::vector<const public_jwk*> candidates(std::string_view kid, jws_alg alg) const;
};

/// An issuer's metadata URLs, in the order RFC 8414 section 3 and OpenID Connect Discovery
/// give for an issuer with or without a path.
std::vector<std::string> metadata_urls(std::string_view issuer);

struct issuer_keys_options {
    std::string issuer;
    std::string jwks_uri; ///< empty: from the metadata
    std::chrono::seconds refresh_interval{3600};
    std::chrono::seconds min_refresh_interval{30};
    std::string ca_file;
    bool verify_peer = true;
    std::function<void(std::string_view)> log;
};

class issuer_keys {
public:
    explicit issuer_keys(issuer_keys_options options);
    ~issuer_keys(); ///< stops the thread, calling off a fetch in progress
    issuer_keys(const issuer_keys&) = delete;
    issuer_keys& operator=(const issuer_keys&) = delete;

    /// Start the thread (its first fetch begins at once).
    void start();
    /// Wait up to `timeout` for a first key set; whether one is held.
    bool wait_loaded(std::chrono::milliseconds timeout);

    /// The current keys (null before any fetch succeeded). Never waits on the network.
    std::shared_ptr<const key_set> snapshot() const;
    /// A token named a key we lack: ask for a refresh (unless one ran less than
    /// min_refresh_interval ago) and wait at most `wait` for a fetch to end. The keys then held.
    std::shared_ptr<const key_set> refresh_for_unknown_key(std::chrono::milliseconds wait);
    /// introspection_endpoint from the issuer's metadata, once read.
    std::optional<std::string> introspection_endpoint() const;
    /// Why the last fetch failed ("" while the keys are fresh).
    std::string last_error() const;

private:
    void run();
    /// One round: metadata (when needed) and keys. Returns "" or why it failed.
    std::string fetch_once();
    std::string fetch_text(const std::string& url);
    void log(std::string_view line) const;

    issuer_keys_options opts_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::shared_ptr<const key_set> keys_;
    std::string jwks_uri_;
    std::optional<std::string> introspection_endpoint_;
    std::string last_error_;
    std::uint64_t rounds_ = 0; ///< fetch rounds finished (success or not)
    bool refresh_requested_ = false;
    bool stopping_ = false;
    std::chrono::steady_clock::time_point last_round_start_{};
    cancellation_source cancel_;
    std::thread thread_;
};

} // namespace mcp::auth::detail
