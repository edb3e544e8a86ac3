// http/client/response_reader.hpp - incremental HTTP/1.1 response parser, Boost-free API.
//
// Wraps Beast's basic_parser (the only Beast translation unit of the client) so that the
// connection code sees bytes in, a status line, fields and body bytes out. The body (after
// de-chunking) is handed to a callback as it arrives, never collected here: an SSE stream may
// last for hours. Interim 1xx responses are skipped.
#pragma once

#include "http/core/request.hpp" // core::header_list

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::http::detail {

class response_reader {
public:
    enum class result {
        need_more, ///< all of `data` was used; offer more
        head,      ///< the head is complete (status(), headers()); call parse() again with the rest
        complete,  ///< the message is complete
        failed,    ///< malformed, over a limit, or the body sink said stop (error())
    };
    /// Receives body bytes; return false to stop (parse() then fails with error() "stopped").
    using body_sink = std::function<bool(std::string_view)>;

    /// `max_header_bytes` bounds the head, and each chunk header and the trailer of a chunked body.
    explicit response_reader(std::size_t max_header_bytes = 64 * 1024);
    ~response_reader();
    response_reader(const response_reader&) = delete;
    response_reader& operator=(const response_reader&) = delete;

    /// Get ready for the response to a new request (`head_request`: the response has no body).
    void reset(bool head_request);
    /// Parse from `data`; `consumed` is set to the bytes used.
    result parse(std::string_view data, std::size_t& consumed, const body_sink& sink);
    /// The server closed the connection: complete for a body delimited by the close, failed
    /// otherwise (a truncated message).
    result eof(const body_sink& sink);

    int status() const;
    const std::string& reason() const;
    core::header_list& headers();
    bool head_done() const;
    bool got_some() const; ///< bytes of this response were parsed
    bool keep_alive() const;
    const std::string& error() const { return error_; }

    struct impl;

private:
    result need_more(std::size_t unconsumed);

    std::unique_ptr<impl> impl_;
    std::string error_;
};

} // namespace mcp::http::detail
