#include <mcp/transport/stdio.hpp>

namespace mcp {

stdio_transport::stdio_transport(int in_fd, int out_fd)
    : fd_stream_transport(options{in_fd, out_fd, false, "stdio"}) {}

} // namespace mcp
