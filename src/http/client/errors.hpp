// http/client/errors.hpp - the JSON-RPC errors the HTTP client synthesizes when an exchange
// fails without a JSON-RPC answer, and the text helpers they need.
#pragma once

#include <mcp/json/text.hpp>
#include <mcp/jsonrpc/message.hpp>

#include <string>
#include <string_view>

namespace mcp::http::detail {

// utf8_prefix and printable (mcp/json/text.hpp) are found from here unqualified.

/// "HTTP 401 Unauthorized from https://example.com/mcp" (the server's reason phrase, or the
/// standard one when it sent none).
std::string status_message(int status, std::string_view reason, std::string_view url_display);

/// What went wrong with one exchange.
struct http_failure {
    std::string message; ///< complete, e.g. status_message(...) or a connection failure
    std::string url;     ///< the display form of the URL
    int status = 0;      ///< 0: no HTTP response
    std::string body;    ///< the response body (only its first 512 bytes are kept)
    std::string www_authenticate;
    /// HTTP 404 for the session id: data gets "sessionExpired": true, and "requestRefused":
    /// true when the request itself was refused (or never sent), so that it never ran.
    bool session_expired = false;
    bool request_refused = false;
};

/// Bytes of the body put in the error's data.
inline constexpr std::size_t error_body_bytes = 512;

/// The JSON text of an error response to `id`: code error_code::http_error, the failure's
/// message, data {"httpStatus", "body", "url", "wwwAuthenticate", "sessionExpired",
/// "requestRefused"} (the first two only with a status, wwwAuthenticate only for 401 and 403
/// when the server sent the field, the last two only for an expired session).
std::string synthesize_error(const jsonrpc::request_id& id, const http_failure& f);

/// The JSON text of an error response to `id` with the given code and message.
std::string local_error(const jsonrpc::request_id& id, int code, std::string message);

} // namespace mcp::http::detail
