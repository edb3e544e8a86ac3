// mcp/transport/stdio.hpp - the server side of the stdio transport: messages in on stdin, out
// on stdout, one per line. Nothing else may be written to stdout; logs go to stderr.
//
//   server.serve(std::make_shared<mcp::stdio_transport>());
//
// The descriptors are never closed by the transport. close() stops reading at once (a reader
// blocked on a silent stdin is woken) and stops writing; on_close follows on the reader thread.
// Writing never blocks; a client that stops reading its server's stdout while messages keep
// coming is cut off at max_queued_bytes (see fd_stream.hpp): the session ends with one line
// on its diagnostic sink (stderr by default), and so does serve_stdio().
#pragma once

#include <mcp/transport/fd_stream.hpp>

#include <cstddef>

namespace mcp {

struct stdio_options {
    int in_fd = 0;  ///< read: stdin
    int out_fd = 1; ///< write: stdout
    /// Bytes written by the server and not yet read by the client, at most, before the client
    /// is treated as gone (64 MiB; 0: no limit). See fd_stream_transport::options.
    std::size_t max_queued_bytes = fd_stream_transport::default_max_queued_bytes;
};

class stdio_transport : public fd_stream_transport {
public:
    /// Read `in_fd` (default: stdin), write `out_fd` (default: stdout); neither is closed.
    explicit stdio_transport(int in_fd = 0, int out_fd = 1);
    explicit stdio_transport(stdio_options options);
};

} // namespace mcp
