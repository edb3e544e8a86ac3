// mcp::serve_stdio: a server on this process's stdin and stdout.
#include <mcp/server/server.hpp>
#include <mcp/transport/stdio.hpp>

namespace mcp {

int serve_stdio(server& s) {
    s.serve(std::make_shared<stdio_transport>());
    return 0;
}

} // namespace mcp
