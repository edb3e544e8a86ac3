// auth/authorizer_impl.hpp - the state and steps of mcp::auth::client_authorizer, shared by
// client_authorizer.cpp (the public calls), authorizer_flow.cpp (discovery, client identity,
// the authorization code flow, refresh) and authorizer_grants.cpp (grants without a user).
#pragma once

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/auth/www_authenticate.hpp>

#include "auth/dpop_signer.hpp"
#include "auth/metadata.hpp"
#include "auth/oauth_exchange.hpp"
#include "auth/urls.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::auth {

namespace detail {

inline std::vector<std::string> space_list(std::string_view s) {
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

inline std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) {
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

inline void add_unique(std::vector<std::string>& v, const std::string& s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// An OAuth error code from a redirect, repeated only when it is a short plain token.
inline std::string safe_code(std::string_view s) {
    if (s.empty() || s.size() > 64) return "an error";
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
            return "an error";
    return std::string(s);
}

struct challenge_info {
    std::string resource_metadata;
    std::string scope;
    std::string error;
};

/// The Bearer (else DPoP) challenge's parameters; a malformed field is logged and ignored.
challenge_info read_challenge(std::string_view field, const std::function<void(std::string_view)>& log);

// The Authorization value that presents `t`: its own scheme for a DPoP-bound token.
inline std::string bearer(const token_set& t) {
    std::string type = t.token_type;
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return (type == "dpop" ? "DPoP " : "Bearer ") + t.access_token;
}

} // namespace detail

struct client_authorizer::impl {
    using challenge_info = detail::challenge_info;
    using dpop_signer = detail::dpop_signer;
    using oauth_exchange = detail::oauth_exchange;
    using param_list = detail::param_list;
    using resource_metadata = detail::resource_metadata;
    using server_metadata = detail::server_metadata;

    explicit impl(client_authorizer_options o)
        : opts(std::move(o)), store(opts.store ? opts.store : std::make_shared<memory_store>()),
          exchange(opts) {}

    client_authorizer_options opts;
    std::shared_ptr<credential_store> store;
    oauth_exchange exchange;
    std::mutex flow; // one flow at a time: concurrent challenges share its outcome

    std::mutex counts_mu;
    std::map<std::string, std::size_t> step_ups;           // per server, since the last success
    std::map<std::string, std::vector<std::string>> asked; // scopes requested per server (union on step-up)
    std::map<std::string, std::uint64_t> generation;       // per server: tokens saved so far
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

    discovered discover(const std::string& server, const challenge_info& ch,
                        const cancellation_token& cancel);

    std::optional<std::pair<store_key, server_metadata>> known(const std::string& server);

    client_registration identity(const store_key& key, const server_metadata& as,
                                 const std::string& redirect_uri, const cancellation_token& cancel);

    std::string scope_for(const std::string& server, const challenge_info& ch, const discovered& d,
                          bool step_up, bool wants_refresh = true);

    bool use_client_credentials(const server_metadata& as) const;

    // A grant without a user (client credentials, JWT bearer): one token request.
    std::string machine_grant(const std::string& server, const challenge_info& ch, bool step_up,
                              const discovered& d, param_list grant, const std::string& what,
                              const cancellation_token& cancel);

    // RFC 8693 token exchange at the identity provider: the user's ID token for an ID-JAG
    // addressed to the MCP server's authorization server and naming the resource.
    std::string identity_assertion_grant(const std::string& server, const discovered& d,
                                         const cancellation_token& cancel);

    std::string authorize(const std::string& server, const challenge_info& ch, bool step_up,
                          const cancellation_token& cancel);

    std::optional<token_set> refresh(const store_key& key, const server_metadata& as, const token_set& old,
                                     const cancellation_token& cancel);

    bool expiring(const token_set& t) const {
        return t.expires_at && *t.expires_at - opts.expiry_leeway <= std::chrono::system_clock::now();
    }
};

} // namespace mcp::auth
