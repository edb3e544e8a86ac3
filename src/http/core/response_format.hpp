// http/core/response_format.hpp - the bytes of HTTP/1.1 response heads and chunks.
//
// Serialised by hand rather than with Beast's serializer: a response head is a few appends to a
// buffer the connection reuses, which is both faster and keeps Beast in one translation unit.
// The server owns message framing: the handler's Content-Length, Transfer-Encoding and
// Connection fields are never copied (the server writes its own), so a handler cannot produce
// a response whose framing disagrees with its body.
#pragma once

#include "request.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::http::core::detail {

/// The standard reason phrase ("Not Found"), or "Unknown" for an unregistered code.
std::string_view reason_phrase(int status) noexcept;

/// RFC 9110 token characters (field names).
bool valid_field_name(std::string_view name) noexcept;
/// No CR, LF or NUL (the characters that would split a response).
bool valid_field_value(std::string_view value) noexcept;

struct head_check {
    bool connection_close = false; ///< the handler asked for "Connection: close"
    bool has_date = false;         ///< the handler set Date itself
};
/// Validates the handler's status and fields; throws std::invalid_argument naming the problem.
head_check check_head(int status, const header_list& headers);

enum class framing {
    content_length, ///< Content-Length: length
    chunked,        ///< Transfer-Encoding: chunked
    none,           ///< neither (HTTP/1.0 stream delimited by close; 204 / 304)
};
enum class connection_field { none, close, keep_alive };

/// Append "HTTP/1.1 <status> <reason>", the handler's fields (without framing fields), Date
/// unless present, the framing fields and the Connection field, and the blank line.
void append_head(std::string& out, int status, const header_list& headers, const head_check& check, framing f,
                 std::size_t length, connection_field c);

/// Append one chunk of a chunked body (`data` must not be empty: an empty chunk ends the body).
void append_chunk(std::string& out, std::string_view data);

/// The terminating chunk (no trailers).
inline constexpr std::string_view last_chunk = "0\r\n\r\n";

/// A complete small text/plain response with "Connection: close" for the server's own errors
/// (400, 408, 413, 431, 500, 501, 503). The body is the reason phrase, then `detail` if any;
/// `retry_after_seconds` > 0 adds Retry-After.
std::string error_response(int status, std::string_view detail = {}, int retry_after_seconds = 0);

/// True for statuses whose response never has a body (RFC 9110 6.4.1): 1xx, 204, 304.
constexpr bool status_has_no_body(int status) noexcept {
    return status < 200 || status == 204 || status == 304;
}

} // namespace mcp::http::core::detail
