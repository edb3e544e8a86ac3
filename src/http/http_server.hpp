// http/http_server.hpp - mcp::http::core, the HTTP/1.1 server core that the Streamable HTTP transport sits
// on.
//
// What it does: accept TCP connections, parse requests (Beast's parser, behind a Boost-free
// wrapper), enforce limits and timeouts, call the handler once per complete request, and write
// whole or streamed (chunked) responses queued from any thread. No Asio or Beast type appears
// here: both live in src/http/*.cpp only (a Beast translation unit costs ~45 s to compile).
//
// Threads: `threads` I/O threads run one io_context; each connection is a strand (with one
// thread, the io_context itself), so one connection's events never run concurrently.
// The handler runs on an I/O thread and MUST NOT block: the layer above posts real work to an
// executor and answers later through the response_writer.
//
// HTTP/1.1 behaviour:
//   * keep-alive by default (HTTP/1.0: only with "Connection: keep-alive"); "Connection: close"
//     from the client or the handler closes the connection after the response;
//   * pipelining is supported: requests on one connection are handled one after another, in
//     order (the next one is parsed once the previous response is completely written), so
//     responses come back in request order;
//   * "Expect: 100-continue" gets an interim 100 before the body is read;
//   * errors answered without calling the handler, each followed by closing the connection:
//     400 malformed request (also a HTTP/1.1 request without exactly one Host field, and any
//     with both Content-Length and Transfer-Encoding), 413 body over max_body_bytes (at once
//     when Content-Length announces it, or while a chunked body grows past it), 431 header over
//     max_header_bytes, 501 a Transfer-Encoding other than "chunked", 505 a HTTP version other
//     than 1.0 and 1.1, 408 a request not received within header_timeout / body_timeout (a
//     connection that has not sent a single byte by then is closed without a response), 503
//     when max_connections are open, or max_connections_per_address from the client's address
//     (the new connection is answered at once, without reading, and closed; beyond a few
//     hundred such refusals at a time, closed without a word; refusals are logged at most once
//     a second, counted); when accept() fails with EMFILE/ENFILE, a descriptor kept in reserve
//     is used to accept, answer 503 and close the waiting clients, and accepting resumes after
//     a 50 ms back-off (one log line when it starts, one when it ends);
//   * a handler that throws, or drops its writer unanswered, gets 500 and the connection
//     closes; a stream whose writer is dropped before end() is cut (the connection closes, so
//     the missing terminating chunk is visible to the client);
//   * "closes" after a response means: the sending side is shut down, then input is read and
//     discarded until the client closes (at most min(idle_timeout, 2 s)), so that the client
//     reads the response before any TCP reset;
//   * a client that closes (or half-closes) its side is gone: its response is dropped and the
//     writer's on_close runs (that is how the layer above learns of a cancelled stream). While
//     a request is in progress the connection keeps reading (pipelined bytes are buffered, up
//     to max_header_bytes + 8 KiB) in order to notice this.
#pragma once

#include "http/core/request.hpp"
#include "response_writer.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::http::core {

struct server_options {
    /// An IP address literal ("127.0.0.1", "::1", "0.0.0.0"). Loopback by default: exposing
    /// the server to the network is an explicit choice.
    std::string address = "127.0.0.1";
    unsigned short port = 0; ///< 0 = an ephemeral port (see server::port())
    std::size_t threads = 1; ///< I/O threads (0 counts as 1)
    std::size_t max_body_bytes = std::size_t{4} << 20;
    std::size_t max_header_bytes = std::size_t{16} << 10; ///< request line + fields
    /// A new connection must deliver a complete request head within this time; so must a
    /// kept-alive connection once the first byte of its next request arrived.
    std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
    /// Once the head is in, the whole body must arrive within this time.
    std::chrono::milliseconds body_timeout{std::chrono::seconds(30)};
    /// A kept-alive connection with no request in progress is closed after this time. Also the
    /// longest a single socket write may stay without completing (a client that stopped
    /// reading a response is disconnected).
    std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
    /// Connections served at once, at most; more are answered 503 ("Connection: close",
    /// Retry-After: 1, a body naming the limit) at once, without reading their request, and
    /// closed. start() lowers it to what the descriptor limit (RLIMIT_NOFILE) allows, keeping
    /// a reserve for the rest of the process (32 + limit/8), and logs that it did.
    std::size_t max_connections = 10000;
    /// Connections served at once for one client address; 0 = max_connections / 8 (after the
    /// clamp above), at least 64 (or max_connections when lower). One client holding thousands of idle
    /// connections must not lock out the rest; behind a proxy every client has the proxy's address: raise it
    /// there.
    std::size_t max_connections_per_address = 0;
    /// start() raises the soft RLIMIT_NOFILE toward the hard limit, as far as max_connections
    /// needs (a process-wide change). false: keep the limit as it is (and clamp to it).
    bool raise_descriptor_limit = true;
    /// Per streamed response: bytes queued by write() and not yet taken by the client. A
    /// write() that would pass it closes the connection (a client that stopped reading).
    std::size_t max_stream_queue_bytes = std::size_t{8} << 20;
    /// Connections closed because their client stopped reading (the queue bound above, or a
    /// write that did not complete within idle_timeout): one line each, naming the client's
    /// address and the request (method and path, no query). Also connections refused (counted,
    /// one line a second at most), accept() out of descriptors, and a lowered max_connections.
    /// Called on an I/O thread: must not block. Unset: nothing is logged.
    std::function<void(std::string_view)> log;
};

/// Called once per complete request, on an I/O thread; must not block (see above).
using handler = std::function<void(request&&, std::shared_ptr<response_writer>)>;

class server {
public:
    server(server_options options, handler h);
    /// stop(0ms) if still running.
    ~server();
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    /// Bind, listen and start the I/O threads. Throws std::system_error with a message naming
    /// the address (e.g. "mcp::http::core::server: cannot listen on 127.0.0.1:8080: Address already in
    /// use"), std::logic_error if called twice.
    void start();

    /// The bound port (the ephemeral one when options.port was 0); 0 before start().
    unsigned short port() const;

    /// Stop accepting (new connections are refused), close idle connections, let requests in
    /// progress (including streams) finish for up to `grace`, then close everything (on_close
    /// runs for every open exchange) and join the I/O threads. Idempotent. Must not be called
    /// from an I/O thread (handler or on_close): throws std::logic_error there. The layer
    /// above should end() its standing streams (such as an SSE GET) before calling it.
    /// Responses completed during the grace period say "Connection: close". Writers still held
    /// afterwards are inert: closed() is true, respond() and end() do nothing, write() and
    /// start_stream() return false. A server is not restarted: start() after stop() throws.
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

    std::size_t open_connections() const;
    std::size_t open_streams() const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

} // namespace mcp::http::core
