// DPoP proofs (RFC 9449 section 4.3) for DPoP-bound access tokens: the proof is a JWS signed by
// the client's key, carried in the DPoP header, bound to the request (htm, htu), to a moment
// (iat within a window), to the token (ath) and, through the token's cnf.jkt, to the key. Each
// proof is usable once: its jti is remembered for as long as its iat keeps it acceptable,
// within a bounded number of entries. Internal.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::auth::detail {

struct dpop_request {
    std::string_view method;       ///< the HTTP method (htm)
    std::string_view url;          ///< the request's URL without query and fragment (htu)
    std::string_view access_token; ///< ath is its SHA-256
    std::string_view jkt;          ///< the token's cnf.jkt: the proof's key thumbprint
};

class dpop_verifier {
public:
    dpop_verifier(std::chrono::seconds window, std::size_t replay_capacity);
    /// nullopt when `proof` is valid for `request` (and its jti is now spent), else why not (a
    /// sentence naming the check, never the proof or the token).
    std::optional<std::string> check(std::string_view proof, const dpop_request& request,
                                     std::chrono::system_clock::time_point now);

private:
    /// False when `jti` was seen; else remembers it until `until`.
    bool spend(const std::string& jti, std::chrono::system_clock::time_point until,
               std::chrono::system_clock::time_point now);

    std::chrono::seconds window_;
    std::size_t capacity_;
    std::mutex mu_;
    std::unordered_map<std::string, std::chrono::system_clock::time_point> seen_;
    std::deque<std::pair<std::chrono::system_clock::time_point, std::string>> order_;
};

/// Whether two htu values name the same URL (RFC 9449 4.3: scheme and host compared without
/// case, the default port implied, query and fragment ignored).
bool same_htu(std::string_view a, std::string_view b);

} // namespace mcp::auth::detail
