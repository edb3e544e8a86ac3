// mcp/transport/transport.hpp - the seam between the JSON-RPC engine and the bytes.
//
// A transport is a duplex stream of JSON-RPC messages. It owns the framing (a newline for stdio,
// an HTTP body or SSE event for HTTP) and hands the engine parsed messages: it parses what it
// reads once (jsonrpc::incoming_message::parse), and is given, with each message it sends, what
// the engine knew when writing it (jsonrpc::outgoing_message), so it never parses that back.
//
// Writing a custom transport means implementing three functions:
//   start(handler)  begin reading; deliver every incoming message to handler.on_message, in
//                   order, from one thread at a time; report problems that are no message to
//                   on_error; call on_close exactly once when the stream ends (EOF, error or
//                   close()).
//   send(message)   write message.text; thread-safe. It may block while the peer is not reading
//                   (a full pipe or socket buffer), but a sender may be a handler or the reading
//                   thread: the built-in transports never block, queue what the peer has not
//                   taken yet up to a limit, and close (on_error, severity::failure) when a
//                   peer that stopped reading reaches it.
//   close()         stop; idempotent; on_close follows (if start was called). The built-in
//                   transports return from close() only after on_close has run, unless close()
//                   is called from inside one of their callbacks.
// See examples/unix_socket_transport.hpp for a complete one in under 100 lines.
//
// Transports with several channels per peer (Streamable HTTP: one stream per POST plus a
// standalone GET stream) route by what an outgoing message says: a response goes to the channel
// of the request it answers (`id`), a message sent while handling a request to that request's
// channel (`related`). A transport that knows where a message came from (HTTP headers, the
// authenticated principal) sets its `origin`. A one-channel transport ignores both.
#pragma once

#include <mcp/jsonrpc/wire_message.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace mcp {

/// Callbacks a transport delivers to its user (normally an mcp::session).
struct transport_handler {
    enum class severity { error, failure };
    /// One incoming message, parsed. Also what could not be used: a message over the size limit
    /// or a broken frame arrives as jsonrpc::incoming_message::refused (kind::invalid).
    std::function<void(jsonrpc::incoming_message&& message)> on_message;
    /// A problem that is not a message. severity::error: something the peer may be told (an I/O
    /// error, input that ended inside a message); the transport decides whether it also closes.
    /// severity::failure: the transport is closing because the peer misbehaved in a way no
    /// message can tell it (it stopped reading, and what was sent to it reached the limit): one
    /// line for a log. If the transport closes, on_close follows.
    std::function<void(std::string_view what, severity level)> on_error;
    /// The stream has ended. Called exactly once, after the last on_message.
    std::function<void()> on_close;
    /// Optional. The peer has finished sending (end of input) while the way back is still open:
    /// a stdio server's stdin reached its end, its stdout did not. A transport that can tell
    /// calls this instead of ending: what is sent still goes out, and the receiver calls close()
    /// when it has answered what it was given (on_close follows). Unset: the transport ends.
    std::function<void()> on_input_end;
};

class transport {
public:
    virtual ~transport() = default;
    virtual void start(transport_handler handler) = 0;
    virtual void send(jsonrpc::outgoing_message message) = 0;
    virtual void close() = 0;
    /// Close the connection that carries the response stream of incoming request `id`, without
    /// ending the request: the client reconnects and resumes the stream (Streamable HTTP polling,
    /// 2025-11-25). Returns false when the transport cannot (the default).
    virtual bool close_request_stream(const jsonrpc::request_id& id) {
        (void)id;
        return false;
    }
    /// Largest incoming message accepted; a larger one is delivered as refused and skipped.
    virtual void set_max_message_size(std::size_t bytes) { (void)bytes; }
};

/// Optional, for a transport that reads on a thread of its own: the receiver of a message marked
/// reader_idle (nothing else is buffered) may handle it on the reading thread itself, saving a
/// thread hand-off, and calls hand_off_reading() before it blocks for long.
class inline_reader {
public:
    /// The receiver handles some messages on the reading thread: from now on, mark a message
    /// after which nothing else is buffered reader_idle. Called before start().
    virtual void read_inline() = 0;
    /// Called from inside on_message (on the reading thread): continue reading on another thread,
    /// because this one is about to block. Returns false if the transport cannot.
    virtual bool hand_off_reading() = 0;

protected:
    ~inline_reader() = default;
};

using transport_ptr = std::shared_ptr<transport>;

} // namespace mcp
