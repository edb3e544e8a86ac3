// http/client/errors.hpp - the JSON-RPC errors the HTTP client synthesizes when an exchange
// fails without a JSON-RPC answer, and the text helpers they need.
#pragma once

#include <mcp/jsonrpc/message.hpp>

#include <string>
#include <string_view>

namespace mcp::http::detail {

/// At most `max` bytes of `bytes` as valid UTF-8: cut at a character boundary, invalid
/// sequences replaced by U+FFFD (a body may be anything; a JSON string must be UTF-8).
std::string utf8_prefix(std::string_view bytes, std::size_t max);

/// `text` made safe for one line of a log: valid UTF-8 (see utf8_prefix) with every control
/// character - C0 (CR, LF, ESC...), DEL, C1, the line and paragraph separators U+2028/U+2029 and
/// the bidirectional overrides and isolates - written as an escape ("\\r", "\\n", "\\t",
/// "\\x1b", "\\u2028"). Idempotent. For anything a server wrote (a header name in a schema,
/// a tool name, a reason phrase) on its way into a log line.
std::string printable(std::string_view text);

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
