// Opaque access tokens through token introspection (RFC 7662), with a small cache of active
// answers keyed by the token's SHA-256 (never the token itself). Internal.
#pragma once

#include "auth/access_token.hpp"

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mcp::auth::detail {

struct introspection_options {
    std::string client_id;
    std::string client_secret;
    std::string issuer; ///< an `iss` in the answer must be this
    std::chrono::milliseconds timeout{2000};
    std::chrono::seconds cache_ttl{60};
    std::size_t cache_capacity = 10000;
    std::string ca_file;
    bool verify_peer = true;
};

class introspector {
public:
    introspector(introspection_options options, std::function<std::optional<std::string>()> endpoint);
    /// The endpoint's verdict on `token`, whose `aud` (when given) must name `audience`
    /// (cached while active, at most cache_ttl and never past exp). A failure to reach the
    /// endpoint is a 503, an inactive token a 401.
    token_result introspect(std::string_view token, std::string_view audience,
                            std::chrono::system_clock::time_point now);

private:
    introspection_options opts_;
    std::function<std::optional<std::string>()> endpoint_;
    std::mutex mu_;
    struct cached {
        verified_token token;
        std::chrono::system_clock::time_point until;
    };
    std::unordered_map<std::string, cached> cache_;
};

/// application/x-www-form-urlencoded form of one value.
std::string form_encode(std::string_view value);

} // namespace mcp::auth::detail
