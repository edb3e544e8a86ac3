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
//                   (a full pipe or socket buffer), but a sender may be a handler or the reading
//                   thread: the built-in transports never block, queue what the peer has not
//                   taken yet up to a limit, and close (on_failure) when a peer that stopped
//                   reading reaches it.
//   close()         stop; idempotent; on_close follows (if start was called). The built-in
//                   transports return from close() only after on_close has run, unless close()
//                   is called from inside one of their callbacks.
// See examples/unix_socket_transport.hpp for a complete one in under 100 lines.
//
// Transports with several channels per peer (Streamable HTTP: one stream per POST plus a
// standalone GET stream) also want to know which incoming request an outgoing message belongs
// to. The engine tells them through send_reply() (the response to a request) and send_related()
// (a notification or request sent while handling it); both default to send(), so a one-channel
// transport ignores them. Likewise a transport that knows where a message came from (HTTP
// headers, the authenticated principal) hands that over with on_message_from.
#pragma once

#include <mcp/jsonrpc/message.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

/// Where one incoming message came from, when the transport knows more than "the peer": for
/// HTTP the request's headers and address, and the principal an authentication layer accepted.
/// Handlers see it through request_context::origin() (and mcp::context on the server).
struct message_origin {
    std::vector<std::pair<std::string, std::string>> headers; ///< as received; names keep their case
    std::string remote_address;                               ///< e.g. "127.0.0.1"
    std::string principal; ///< authenticated user or client ("" when there is no authentication)
    /// Value of the first header named `name` (ASCII case-insensitive), or nullptr.
    const std::string* header(std::string_view name) const noexcept;
};

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
    /// Optional. The transport is closing because the peer misbehaved in a way no message can
    /// tell it (it stopped reading, and what was sent to it reached the transport's limit):
    /// one line saying why, for a log; on_close follows. Unset: such a line goes to on_error.
    std::function<void(std::string_view why)> on_failure;
    /// Optional. A message that arrived but cannot be delivered (over the size limit), which a
    /// shallow scan of its bytes (jsonrpc::envelope_scan) found to be the response to the
    /// receiver's request `response_id`: the receiver fails that request at once with `what`,
    /// instead of letting it wait for its timeout. Unset, or when the scan cannot tell (the
    /// message is not attributed to a request by guess): on_error(what).
    std::function<void(std::string_view what, std::int64_t response_id)> on_unusable_response;
    /// The stream has ended. Called exactly once, after the last on_message.
    std::function<void()> on_close;
    /// Optional. The peer has finished sending (end of input) while the way back is still open:
    /// a stdio server's stdin reached its end, its stdout did not. A transport that can tell
    /// calls this instead of ending: what is sent still goes out, and the receiver calls close()
    /// when it has answered what it was given (on_close follows). Unset: the transport ends.
    std::function<void()> on_input_end;
    /// Optional. A transport that knows the origin of a message (see message_origin) calls this
    /// instead of on_message when it is set.
    std::function<void(std::string_view message, std::shared_ptr<const message_origin> origin)>
        on_message_from;
};

class transport {
public:
    virtual ~transport() = default;
    virtual void start(transport_handler handler) = 0;
    virtual void send(std::string message) = 0;
    /// Send the response to incoming request `id` (for a batch: the reply array, with the id of
    /// the batch's first request). Default: send().
    virtual void send_reply(std::string message, const jsonrpc::request_id& id) {
        (void)id;
        send(std::move(message));
    }
    /// Send a notification or request that belongs to incoming request `related` (progress,
    /// a log message, sampling asked by its handler). Default: send().
    virtual void send_related(std::string message, const jsonrpc::request_id& related) {
        (void)related;
        send(std::move(message));
    }
    virtual void close() = 0;
    /// Close the connection that carries the response stream of incoming request `id`, without
    /// ending the request: the client reconnects and resumes the stream (Streamable HTTP polling,
    /// 2025-11-25). Returns false when the transport cannot (the default).
    virtual bool close_request_stream(const jsonrpc::request_id& id) {
        (void)id;
        return false;
    }
    /// Largest incoming message accepted; larger ones are reported to on_error and skipped.
    virtual void set_max_message_size(std::size_t bytes) { (void)bytes; }
    /// Called from inside on_last_message (on the reading thread): continue reading on another
    /// thread, because this one is about to block. Returns false if the transport cannot.
    virtual bool hand_off_reading() { return false; }
};

using transport_ptr = std::shared_ptr<transport>;

} // namespace mcp
