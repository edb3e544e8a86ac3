// mcp/jsonrpc/error.hpp - JSON-RPC error codes (standard and MCP-specific) and the exception a
// handler throws to answer a request with a JSON-RPC error.
#pragma once

#include <mcp/json/json.hpp>

#include <stdexcept>
#include <string>

namespace mcp {

/// Error codes. The standard JSON-RPC 2.0 ones, then those MCP defines per revision.
namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
/// Sent by mcpxx when one of our own outgoing requests times out (SDK convention, not sent on the wire).
inline constexpr int request_timeout = -32001;
/// Resource not found (2024-11-05 .. 2025-11-25). 2026-07-28 uses invalid_params instead.
inline constexpr int resource_not_found = -32002;
/// URL-mode elicitation required (2025-11-25 only).
inline constexpr int url_elicitation_required = -32042;
/// 2026-07-28: an HTTP header disagrees with the body.
inline constexpr int header_mismatch = -32020;
/// 2026-07-28: the request needs a client capability that was not declared.
inline constexpr int missing_required_client_capability = -32021;
/// 2026-07-28: the protocol version is not supported.
inline constexpr int unsupported_protocol_version = -32022;
/// The request was cancelled (local only; cancelled requests get no response on the wire).
inline constexpr int request_cancelled = -32800;
/// The connection closed before the response arrived (local only).
inline constexpr int connection_closed = -32000;
/// An HTTP exchange failed without a JSON-RPC answer (connection refused, TLS failure, a 401 or
/// an HTML 500 page...): synthesized by the HTTP client transport for the request it carried,
/// with data {"httpStatus", "body", "url", "wwwAuthenticate"} (local only).
inline constexpr int http_error = -32010;
} // namespace error_code

/// A JSON-RPC error object. Thrown by handlers (or returned by requests) to carry code, message
/// and optional data. Any other exception escaping a handler becomes -32603 with a generic message.
class error : public std::runtime_error {
public:
    error(int code, std::string message, json::value data = nullptr)
        : std::runtime_error(message), code_(code), data_(std::move(data)) {}

    int code() const noexcept { return code_; }
    const json::value& data() const noexcept { return data_; }

    /// {"code":..., "message":..., "data":...} (data omitted when null).
    json::object to_json() const;
    /// Read an error object; malformed input gives an internal_error describing the problem.
    static error from_json(const json::value& v);

private:
    int code_;
    json::value data_;
};

} // namespace mcp
