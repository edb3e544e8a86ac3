// mcp/http/fetch.hpp - a small HTTP/1.1 client: one request, one response (status, fields,
// body), over http:// or https:// with certificate verification, timeouts and a size limit.
// For the host's model provider (an OpenAI-compatible chat-completions endpoint), OAuth
// metadata and token requests, and anything else that needs one exchange. It shares its
// connection code with the MCP client transport (mcp/http/client_transport.hpp).
//
//   auto r = mcp::http::fetch({.method = "POST", .url = "https://api.example.com/v1/chat/completions",
//                              .headers = {{"Authorization", "Bearer ..."},
//                                          {"Content-Type", "application/json"}},
//                              .body = R"({"model": "m", "messages": []})"});
//   if (r.status == 200) use(r.body);
//
// Redirects are not followed (a 3xx is returned as it is); proxies are not used.
//
// A fetch can be called off: give it a cancellation token (`.cancel = source.token()`) and
// cancel the source from any thread. Wherever the exchange is - resolving, connecting, in the
// TLS handshake, sending, waiting for or reading the response - its connection is closed at
// once (the server sees it go) and fetch throws mcp::error(error_code::request_cancelled), as a
// cancelled request of an mcp::session does; no timeout has to run out. (A name lookup cannot
// be interrupted: the one-shot fetch() returns when it ends, http_client::fetch at once.)
#pragma once

#include <mcp/http/client_transport.hpp> // header_list
#include <mcp/jsonrpc/error.hpp>
#include <mcp/jsonrpc/cancellation.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::http {

struct fetch_request {
    std::string method = "GET";
    std::string url;
    /// Host, Content-Length and Connection are written by the client; anything else is sent
    /// as given (names must be tokens, values free of CR, LF and NUL).
    header_list headers;
    std::string body;
    /// Name resolution, TCP connection and TLS handshake; also the longest the server may go
    /// without taking a byte of the request.
    std::chrono::milliseconds connect_timeout{10000};
    /// The whole exchange, connection included.
    std::chrono::milliseconds timeout{60000};
    bool verify_peer = true;
    /// Extra trusted CA certificates (PEM file), in addition to the system store.
    std::string ca_file;
    /// Larger bodies fail the fetch (fetch_error) instead of growing memory.
    std::size_t max_response_bytes = std::size_t{16} << 20;
    /// When set, the body is handed over in pieces as it arrives instead of being collected
    /// (fetch_response::body stays empty); return false to stop reading (the fetch returns
    /// what it has). Runs on the thread doing the I/O; must not block for long.
    std::function<bool(std::string_view)> on_body;
    /// Calls the fetch off when cancelled: the connection is closed and fetch throws
    /// mcp::error(error_code::request_cancelled) naming the URL (and the reason given to
    /// cancellation_source::cancel, if any). Already cancelled: nothing is sent, no connection
    /// is opened. A response that was complete before the cancellation is returned. Never
    /// cancelled when default-made.
    cancellation_token cancel;
};

struct fetch_response {
    int status = 0;
    std::string reason;
    header_list headers;
    std::string body;
    /// The first field named `name` (case-insensitive).
    std::optional<std::string_view> header(std::string_view name) const;
};

/// No HTTP response was obtained: bad URL, name resolution, connection, TLS, timeout, a
/// malformed response, or a body over max_response_bytes. what() names the URL without its
/// query or user info, never a header value.
class fetch_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One exchange on a fresh connection, run on the calling thread. Throws fetch_error, or
/// mcp::error(error_code::request_cancelled) when request.cancel calls it off.
fetch_response fetch(const fetch_request& request);

/// Keeps connections alive between fetches (per scheme, host and port) and runs them on one
/// I/O thread of its own. Thread-safe: several threads may fetch at once.
class http_client {
public:
    http_client();
    ~http_client();
    http_client(const http_client&) = delete;
    http_client& operator=(const http_client&) = delete;

    /// Blocks the caller until the exchange is over. Throws fetch_error, or
    /// mcp::error(error_code::request_cancelled) when request.cancel calls it off (its
    /// connection is closed, never kept; the client stays usable).
    fetch_response fetch(const fetch_request& request);

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp::http
