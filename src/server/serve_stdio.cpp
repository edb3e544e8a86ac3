// mcp::serve_stdio: a server on this process's stdin and stdout.
#include <mcp/server/server.hpp>

namespace mcp {

int serve_stdio(server& s, const stdio_options& options) {
    s.serve(std::make_shared<stdio_transport>(options));
    return 0;
}

} // namespace mcp
