// mcp/transport/stdio.hpp - the server side of the stdio transport: messages in on stdin, out
// on stdout, one per line. Nothing else may be written to stdout; logs go to stderr.
//
//   server.serve(std::make_shared<mcp::stdio_transport>());
//
// The descriptors are never closed by the transport. close() stops reading at once (a reader
// blocked on a silent stdin is woken) and stops writing; on_close follows on the reader thread.
#pragma once

#include <mcp/transport/fd_stream.hpp>

namespace mcp {

class stdio_transport : public fd_stream_transport {
public:
    /// Read `in_fd` (default: stdin), write `out_fd` (default: stdout); neither is closed.
    explicit stdio_transport(int in_fd = 0, int out_fd = 1);
};

} // namespace mcp
