// http/request_reader.hpp - incremental HTTP/1.x request parser with limits, Boost-free API.
//
// Wraps Beast's basic_parser (the only Beast translation unit of the library) so that the
// connection code and the fuzzer see plain bytes in, mcp::http::request out. One reader per
// connection; next() prepares it for the following request without allocating.
//
// On top of Beast's checks it enforces what a server must (RFC 9112): exactly one Host field
// in a HTTP/1.1 request (400), and no transfer coding other than "chunked" (501) - Beast would
// otherwise read a "Transfer-Encoding: gzip" request as bodiless, a request-smuggling hazard -
// and it tells a well-formed version other than 1.0 / 1.1 (505) from a malformed line (400).
#pragma once

#include "http/core/request.hpp"

#include <cstddef>
#include <memory>
#include <string_view>

namespace mcp::http::core::detail {

class request_reader {
public:
    enum class result { need_more, complete, failed };

    request_reader(std::size_t max_header_bytes, std::size_t max_body_bytes);
    ~request_reader();
    request_reader(const request_reader&) = delete;
    request_reader& operator=(const request_reader&) = delete;

    /// Parse from `data`; `consumed` is set to the bytes used (the rest - e.g. the start of a
    /// pipelined request - must be offered again after next()). After `complete`, take() the
    /// request; after `failed`, failure_status() says how to answer. Only one message is parsed:
    /// after complete or failed, call next() before parsing again.
    result parse(std::string_view data, std::size_t& consumed);

    /// Forget the current message and get ready for the next one.
    void next();

    /// The parsed request (valid after `complete`; moves it out).
    request take();

    int failure_status() const { return failure_status_; } ///< 400, 413, 431, 501 or 505
    bool started() const;                                  ///< some bytes of the current message were parsed
    bool header_done() const;                              ///< the head is complete (body may be pending)
    bool expects_continue() const; ///< HTTP/1.1 with "Expect: 100-continue", body pending
    bool keep_alive() const;       ///< HTTP/1.1 default / HTTP/1.0 keep-alive, no "close"
    bool is_head() const;          ///< method HEAD (the response carries no body)
    int version() const;           ///< 10 or 11

    struct impl;

private:
    std::unique_ptr<impl> impl_;
    int failure_status_ = 0;
};

} // namespace mcp::http::core::detail
