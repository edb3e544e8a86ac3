// mcp/http/client_transport.hpp - the client side of MCP over HTTP: one mcp::transport that
// speaks Streamable HTTP in every revision (2025-03-26 .. 2025-11-25 with sessions, the GET
// stream and resumption; 2026-07-28 stateless, with the Mcp-Method / Mcp-Name / Mcp-Param-*
// headers) and falls back to the legacy HTTP+SSE transport of 2024-11-05.
//
//   auto t = mcp::http::make_client_transport({.url = "https://example.com/mcp",
//                                              .headers = {{"Authorization", "Bearer ..."}}});
//   mcp::client c;
//   c.connect(t);
//
// How it behaves (details in docs/design.md, "HTTP client transport"):
//   * Threads: each transport runs one I/O thread. send() only queues (it never waits for the
//     network); messages are delivered to on_message on that thread, in order per HTTP stream.
//     close() is synchronous and idempotent like the other transports: it ends the session
//     (DELETE when the server gave a session id), aborts every exchange and returns after
//     on_close has run (unless called from inside a callback).
//   * The era of each outgoing message is read from the message itself: a request whose
//     params._meta carries "io.modelcontextprotocol/protocolVersion" is a 2026-07-28 request;
//     anything else belongs to the initialize era, whose negotiated revision and session id
//     the transport learns from the initialize exchange that passes through it.
//   * Every HTTP failure that is not a JSON-RPC answer completes the request it belongs to
//     with a synthesized JSON-RPC error: code mcp::error_code::http_error (-32010), a message
//     such as "HTTP 401 Unauthorized from https://example.com/mcp" (never a header value or a
//     URL's query or user info), and data {"httpStatus", "body" (first 512 bytes), "url",
//     "wwwAuthenticate" (401/403)}; without an HTTP status (connection refused, TLS failure,
//     timeout) data has only "url". A pending request therefore always completes.
//   * Initialize era: a 404 to a request that carried the session id means the server forgot
//     the session. The transport stays open; that request's error has data "sessionExpired":
//     true and "requestRefused" (true: it never ran; false: a resumed stream met the 404, so it
//     may have); later requests are answered the same way without being sent until an
//     initialize starts a new session (requests sent while it runs wait for
//     notifications/initialized). mcp::client does that by itself (client::on_session_renewed).
//   * In the 2026-07-28 era the transport reads the results of its own tools/list requests:
//     tools whose x-mcp-header annotations are invalid are removed from the result (the spec
//     requires it of Streamable HTTP clients; a warning naming the tool goes to `log`), and
//     the valid annotations become Mcp-Param-* headers of later tools/call requests. A call
//     whose annotated argument is an integer outside -(2^53-1) .. 2^53-1 (which no header may
//     carry) is not sent: it is answered -32602 naming the argument.
#pragma once

#include <mcp/http/request_authorizer.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::http {

/// Header fields, in order; names are compared case-insensitively.
using header_list = std::vector<std::pair<std::string, std::string>>;

/// Which HTTP transport to speak (see client_transport_options::mode).
enum class transport_mode {
    automatic,  ///< Streamable HTTP, falling back to HTTP+SSE when the first POST is refused
    streamable, ///< Streamable HTTP only
    legacy_sse, ///< the HTTP+SSE transport of 2024-11-05 only
};

struct client_transport_options {
    /// The MCP endpoint, http:// or https://. For the legacy transport, the SSE endpoint.
    std::string url;
    /// Sent on every request (e.g. Authorization). Never logged, never put in error messages.
    /// Headers the transport writes itself may not be given here (the constructor refuses
    /// them, naming the header): MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name,
    /// Mcp-Param-*, Last-Event-ID, Accept, Content-Type, Content-Length, Transfer-Encoding,
    /// Host, Connection, Keep-Alive, Upgrade, TE, Trailer.
    header_list headers;
    /// automatic: Streamable HTTP, falling back to HTTP+SSE when the first POST is refused with
    /// 400/404/405 and no modern JSON-RPC error; streamable: never fall back; legacy_sse: the
    /// 2024-11-05 HTTP+SSE transport only.
    transport_mode mode = transport_mode::automatic;
    /// Name resolution, TCP connection and TLS handshake of one connection. Also the deadline
    /// of an HTTP+SSE attempt (automatic mode) for its GET to deliver the `endpoint` event, and
    /// the longest a request may wait for the server to take a byte of it: a server that stops
    /// reading fails that request (-32010) and frees its bytes, rather than hold them for ever.
    std::chrono::milliseconds connect_timeout{10000};
    /// TLS: verify the certificate chain and that it names the URL's host (on by default).
    bool verify_peer = true;
    /// Extra trusted CA certificates (PEM file), in addition to the system store.
    std::string ca_file;
    /// Largest incoming message; a larger one is reported to on_error and skipped (a request
    /// it answered gets a synthesized error).
    std::size_t max_message_size = 4u << 20;
    /// Initialize era: open the standalone GET stream once initialized (405 = the server has
    /// none, which is fine).
    bool open_get_stream = true;
    /// Initialize era: reconnection attempts per SSE stream (GET + Last-Event-ID); an attempt
    /// that receives an event starts the count again.
    std::size_t max_reconnect_attempts = 5;
    /// Wait before reconnecting when the server sent no `retry:` field.
    std::chrono::milliseconds default_retry{1000};
    /// Longest wait in close() for the DELETE that ends the session.
    std::chrono::milliseconds close_timeout{2000};
    /// Warnings that are not errors of the session (a dropped tool, a GET stream given up).
    /// Default: a line on stderr prefixed "mcpxx http: ". Never receives header values; every
    /// control character (CR, LF, ESC, C1, U+2028, bidi overrides...) in what a server wrote is
    /// escaped ("\r", "\x1b", "\u2028"), so one warning is always one line. (So is the text
    /// given to the transport handler's on_error.)
    std::function<void(std::string_view)> log;
    /// OAuth: when set, every request carries the authorizer's Authorization field, and a 401
    /// (or 403 insufficient_scope) runs its flow off the I/O thread and repeats the request
    /// once with the new token (mcp::auth::client_authorizer implements it). A failed flow completes the
    /// request with the synthesized -32010 error, the reason in its message. Do not also give
    /// an Authorization header in `headers`.
    std::shared_ptr<request_authorizer> authorizer;
};

/// Streamable HTTP / HTTP+SSE client transport. Created by make_client_transport.
class client_transport : public transport {
public:
    /// The URL must be http(s) with a host; header names must be tokens, none of the headers
    /// the transport writes itself (see client_transport_options::headers), and values free of
    /// CR, LF and NUL. Throws std::invalid_argument otherwise.
    explicit client_transport(client_transport_options options);
    ~client_transport() override;
    client_transport(const client_transport&) = delete;
    client_transport& operator=(const client_transport&) = delete;

    void start(transport_handler handler) override;
    void send(jsonrpc::outgoing_message message) override;
    void close() override;
    void set_max_message_size(std::size_t bytes) override;

    /// What the transport found out, for diagnostics and tests.
    enum class wire { undecided, streamable, legacy_sse };
    wire current_wire() const;
    /// The Mcp-Session-Id the server assigned (empty when none).
    std::string session_id() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

std::shared_ptr<client_transport> make_client_transport(client_transport_options options);

/// Shorthand for make_client_transport({.url = url}). (A template, so that a braced list of
/// options is never taken for a string.)
template <class Url>
requires std::convertible_to<const Url&, std::string_view> std::shared_ptr<client_transport>
make_client_transport(const Url& url) {
    client_transport_options o;
    o.url = std::string(std::string_view(url));
    return make_client_transport(std::move(o));
}

} // namespace mcp::http
