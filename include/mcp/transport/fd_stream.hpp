// mcp/transport/fd_stream.hpp - a transport over a readable and a writable file descriptor
// (pipes, sockets, a terminal), newline-delimited. The building block of the stdio, child
// process and Unix-socket transports, and of custom ones.
//
// Reading: one thread does blocking read() into a 64 KiB buffer and frames lines (see
// line_framer). Writing: send() appends to a pending buffer; if no write is in progress the
// calling thread writes it (and whatever else was queued meanwhile), otherwise the active writer
// will. Under load many messages leave in one write(); with one message in flight there is no
// thread hand-off at all.
#pragma once

#include <mcp/transport/transport.hpp>

#include <memory>

namespace mcp {

class fd_stream_transport : public transport, public std::enable_shared_from_this<fd_stream_transport> {
public:
    struct options {
        int read_fd = -1;
        int write_fd = -1;
        /// Close the descriptors when the transport closes (false for stdin/stdout).
        bool owns_fds = true;
        /// Name used in error messages ("stdio", "child 1234", ...).
        std::string name = "stream";
    };
    explicit fd_stream_transport(options o);
    ~fd_stream_transport() override;

    void start(transport_handler handler) override;
    void send(std::string message) override;
    void close() override;
    void set_max_message_size(std::size_t bytes) override;
    bool hand_off_reading() override;

    /// Stop writing and reading without closing the descriptors' peers (used by subclasses
    /// that must close stdin first, e.g. to let a child exit).
    void close_write_side();

    struct impl;

protected:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp
