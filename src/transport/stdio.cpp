#include <mcp/transport/stdio.hpp>

namespace mcp {

stdio_transport::stdio_transport(int in_fd, int out_fd)
    : stdio_transport(stdio_options{.in_fd = in_fd, .out_fd = out_fd}) {}

stdio_transport::stdio_transport(stdio_options o)
    : fd_stream_transport(options{.read_fd = o.in_fd,
                                  .write_fd = o.out_fd,
                                  .owns_fds = false,
                                  .name = "stdio",
                                  .max_queued_bytes = o.max_queued_bytes}) {}

} // namespace mcp
