// mcp/transport/transport.hpp - the seam between the JSON-RPC engine and the bytes.
//
// A transport is a duplex stream of JSON-RPC messages. Each message is one complete JSON text
// (an object, or an array for a 2025-03-26 batch) without framing; the transport adds and
// removes framing (a newline for stdio, an HTTP body or SSE event for HTTP).
//
// Writing a custom transport means implementing three functions:
//   start(handler)  begin reading; deliver every incoming message to handler.on_message, in
//                   order, from one thread at a time; report fatal problems to on_error; call
//                   on_close exactly once when the stream ends (EOF, error or close()).
//   send(message)   write one message; thread-safe. It may block while the peer is not reading
//                   (a full pipe or socket buffer): that is the transport's backpressure.
//   close()         stop; idempotent; on_close follows (if start was called). The built-in
//                   transports return from close() only after on_close has run, unless close()
//                   is called from inside one of their callbacks.
// See examples/unix_socket_transport.hpp for a complete one in under 100 lines.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp {

/// Callbacks a transport delivers to its user (normally an mcp::session).
struct transport_handler {
    /// One complete incoming message (the JSON text, without framing).
    std::function<void(std::string_view message)> on_message;
    /// Optional. A transport that can hand reading over to another thread (see
    /// transport::hand_off_reading) calls this instead of on_message for a message after which
    /// nothing else is buffered: the receiver may then handle it on the reading thread itself,
    /// saving a thread hand-off, and must call hand_off_reading() before it blocks for long.
    std::function<void(std::string_view message)> on_last_message;
    /// A problem that is not a message: framing error, oversize message, I/O error. The
    /// transport decides whether it also closes; if it does, on_close follows.
    std::function<void(std::string_view what)> on_error;
    /// The stream has ended. Called exactly once, after the last on_message.
    std::function<void()> on_close;
};

class transport {
public:
    virtual ~transport() = default;
    virtual void start(transport_handler handler) = 0;
    virtual void send(std::string message) = 0;
    virtual void close() = 0;
    /// Largest incoming message accepted; larger ones are reported to on_error and skipped.
    virtual void set_max_message_size(std::size_t bytes) { (void)bytes; }
    /// Called from inside on_last_message (on the reading thread): continue reading on another
    /// thread, because this one is about to block. Returns false if the transport cannot.
    virtual bool hand_off_reading() { return false; }
};

using transport_ptr = std::shared_ptr<transport>;

} // namespace mcp
