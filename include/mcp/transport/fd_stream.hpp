// mcp/transport/fd_stream.hpp - a transport over a readable and a writable file descriptor
// (pipes, sockets, a terminal), newline-delimited. The building block of the stdio, child
// process and Unix-socket transports, and of custom ones (see examples/unix_socket_transport.hpp).
//
// Reading: one thread polls the descriptor and reads 64 KiB at a time, framing lines with
// line_framer ("\r\n" accepted, empty lines skipped, a line over the size limit reported to
// on_message as refused and skipped without being buffered). EOF inside a line: on_error, then
// on_close.
// Writing: send() appends to a pending buffer; if no write is in progress the calling thread
// writes it (and whatever else was queued meanwhile), otherwise the active writer will. Under
// load many messages leave in one write(); with one message in flight there is no thread
// hand-off at all. send() never blocks: what the peer does not take at once waits for a flusher
// thread. A write error is reported to on_error once and closes the transport.
// A peer that stops reading: what waits for it is bounded by options::max_queued_bytes. The
// send() that would go past it drops the queue, reports one line to on_error (severity::failure)
// and closes the transport, as if the peer had gone; on_close follows.
//
// Lifetime: close() stops reading at once (even a reader blocked on a silent pipe is woken) and
// closes (or, for a socket, shuts down) the write side once queued data is written; on_close
// then follows exactly once, on the reader thread, after the last on_message. Callbacks may call
// send() and close(), and may drop the last reference to the transport. The destructor closes and
// joins the reader thread (never itself).
//
// SIGPIPE: writing to a pipe whose reader has gone raises SIGPIPE. Sockets use MSG_NOSIGNAL;
// for pipes the first fd_stream_transport sets SIGPIPE to SIG_IGN for the process if it was at
// its default (child processes get SIG_DFL back before exec).
#pragma once

#include <mcp/transport/transport.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace mcp {

class fd_stream_transport : public transport,
                            public inline_reader,
                            public std::enable_shared_from_this<fd_stream_transport> {
public:
    /// 64 MiB: far more than a peer that reads ever leaves waiting (the in-flight limit keeps
    /// replies few), small enough that one that never reads cannot exhaust memory.
    static constexpr std::size_t default_max_queued_bytes = std::size_t{64} << 20;

    struct options {
        int read_fd = -1;
        int write_fd = -1;
        /// Close the descriptors when the transport goes (false for stdin/stdout). May be the same
        /// descriptor (a socket). read_fd -1: write only.
        bool owns_fds = true;
        /// Name used in error messages ("stdio", "child 1234", ...).
        std::string name = "stream";
        /// Bytes sent but not yet taken by the peer, at most; 0: no limit. A peer that stops
        /// reading is treated as gone when the queue would grow past it (see above). One message
        /// larger than the limit still goes when nothing else waits.
        std::size_t max_queued_bytes = default_max_queued_bytes;
    };
    explicit fd_stream_transport(options o);
    ~fd_stream_transport() override;

    void start(transport_handler handler) override;
    void send(jsonrpc::outgoing_message message) override;
    void close() override;
    void set_max_message_size(std::size_t bytes) override;
    void read_inline() override;
    bool hand_off_reading() override;

    /// Stop writing only: queued data is still written, then the write descriptor is closed (a
    /// socket: shut down for writing), so the peer sees EOF; reading goes on. Used to let a child
    /// process exit on stdin EOF before it is signalled.
    void close_write_side();

    struct impl;

protected:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp
