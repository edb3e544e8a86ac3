// MRTR requestState (2026-07-28): what a multi-round request carries from one round to the next,
// sealed with HMAC-SHA256 so that a client can neither read-and-alter nor replay it elsewhere.
//
// Token: base64url(payload JSON) "." base64url(HMAC-SHA256(key, payload JSON)). The payload binds
// the state to the request it was issued for (method and a digest of its salient parameters:
// the tool/prompt name or resource URI and the arguments, canonicalised), to the caller's
// principal, and to an expiry time, as the spec's MRTR security section asks. It carries the
// answers the handler has already consumed and the handler's own state.
#pragma once

#include "crypto/crypto.hpp" // random_bytes, random_hex_id (users of this header rely on them)

#include <mcp/json/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

struct request_state_payload {
    std::string binding;         ///< request_binding() of the request it belongs to
    std::string principal;       ///< "" when there is no authentication
    std::int64_t expires_ms = 0; ///< Unix time in milliseconds
    int round = 1;               ///< the round that issued it
    json::object answers;        ///< input responses consumed so far, by key
    json::value app_state;       ///< context::set_request_state()
};

/// Seal `p` with `key`.
std::string seal_request_state(const request_state_payload& p, std::string_view key);

/// Open and check a token. nullopt (with `why` set to a short reason) when it is malformed, its
/// MAC does not verify, it has expired, or it was issued for another request or principal.
std::optional<request_state_payload> open_request_state(std::string_view token, std::string_view key,
                                                        std::string_view binding, std::string_view principal,
                                                        std::string& why);

/// A digest (hex SHA-256) of what identifies a request across its rounds: the method and, in
/// params, "name" / "uri" and "arguments", serialized canonically (object keys sorted).
std::string request_binding(std::string_view method, const json::object& params);

/// JSON with object members sorted by key, recursively: equal values, equal text.
std::string canonical_json(const json::value& v);

} // namespace mcp::detail
