// mcp/transport/stdio.hpp - the server side of the stdio transport: messages in on stdin, out
// on stdout, one per line. Nothing else may be written to stdout; logs go to stderr.
#pragma once

#include <mcp/transport/fd_stream.hpp>

namespace mcp {

class stdio_transport : public fd_stream_transport {
public:
    stdio_transport();
};

} // namespace mcp
