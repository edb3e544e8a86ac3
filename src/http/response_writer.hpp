// http/response_writer.hpp - how the layer above answers one HTTP request.
//
// The server creates one writer per request and hands it to the handler as a shared_ptr. The
// handler may answer at once, or keep the writer and answer later from any thread: every member
// is thread-safe and none blocks (bytes are queued and written by the I/O thread).
//
// Two ways to answer:
//   respond(status, headers, body)      a whole response, framed with Content-Length;
//   start_stream(status, headers)       a streamed response (chunked transfer coding, e.g. for
//   write(bytes)... end()               Server-Sent Events); each write() is sent as one chunk.
//
// Lifetime: on_close() runs exactly once when the exchange is over - the response or the stream
// was completely written, or the client went away (disconnect, slow consumer, server stop). The
// layer above frees its per-stream state there; that is how streams are not leaked.
//
// Dropping the last reference without answering is treated as a handler failure: the client
// gets 500 (or, mid-stream, the connection is closed so the truncated body is detectable), and
// on_close still runs, on an I/O thread (on the dropping thread if the server has stopped).
//
// The class is abstract so that the layer above can be unit-tested with a fake writer.
#pragma once

#include "http/core/request.hpp"

#include <functional>
#include <string>

namespace mcp::http::core {

class response_writer {
public:
    virtual ~response_writer() = default;

    /// Send a complete response. `status` must be 200..999; Content-Length, Transfer-Encoding
    /// and Connection fields are the server's business (a "Connection: close" field is honoured:
    /// the connection closes after this response). Throws std::invalid_argument for a bad status
    /// or a header name/value that is not a token / contains CR, LF or NUL (response splitting).
    /// Ignored if a response was already started or the client is gone.
    virtual void respond(int status, header_list headers, std::string body) = 0;

    /// Start a streamed response (chunked; no Content-Length). The head is sent at once.
    /// Returns false if a response was already started or the client is gone. Same header rules
    /// as respond(). For an HTTP/1.0 client the body is sent unframed and the connection closes.
    virtual bool start_stream(int status, header_list headers) = 0;

    /// Queue `bytes` as one chunk of a started stream. Never blocks. Returns false once the
    /// client is gone, the stream ended, or the bytes queued but not yet taken by the client
    /// would exceed server_options::max_stream_queue_bytes: a client that does not read is
    /// disconnected (on_close runs) rather than allowed to grow memory without bound.
    /// An empty `bytes` is a no-op (an empty chunk would end the body).
    virtual bool write(std::string bytes) = 0;

    /// End a started stream (the terminating chunk is sent). Idempotent.
    virtual void end() = 0;

    /// True once nothing more can be sent: the response is complete (respond or end was
    /// called) or the client is gone.
    virtual bool closed() const = 0;

    /// Register the callback run once when the exchange is over (see above). If it is already
    /// over, `fn` runs at once on the calling thread; otherwise it runs on an I/O thread and
    /// must not block. Registering again replaces a callback that has not run yet.
    virtual void on_close(std::function<void()> fn) = 0;
};

} // namespace mcp::http::core
