// conformance_server: the server under test of the official MCP conformance suite
// (@modelcontextprotocol/conformance): every tool, resource, prompt and completion its server
// scenarios call (scenarios.hpp), served over Streamable HTTP at http://127.0.0.1:PORT/mcp
// until SIGINT or SIGTERM, or over stdio (--stdio) until stdin ends: the same features behind
// another server, e.g. `mcpxx gateway` launching it as a child process.
//
//   conformance_server --port 3301
//   conformance_server --stdio
//   tests/conformance/run.sh --build build server 2025-11-25
//
// tests/conformance/run.sh starts it on a free port and runs the suite's server scenarios that
// each revision requires against it (CTest: `ctest -L conformance`).
// The HTTP server's defaults are what the scenarios need: stateful sessions (Mcp-Session-Id),
// SSE responses (logging, progress, sampling and elicitation travel on the POST's stream while
// a tool runs), Host/Origin validation (dns-rebinding-protection).
#include "scenarios.hpp"

#include <mcp/http/server.hpp>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string_view>

namespace {

int usage() {
    std::cerr << "usage: conformance_server --port N   (serves http://127.0.0.1:N/mcp)\n"
                 "       conformance_server --stdio    (serves stdin/stdout)\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::uint16_t port = 0;
    bool have_port = false;
    bool stdio = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--stdio") {
            stdio = true;
        } else if (arg == "--port" && i + 1 < argc) {
            const std::string_view v = argv[++i];
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), port);
            if (ec != std::errc() || end != v.data() + v.size()) return usage();
            have_port = true;
        } else {
            return usage();
        }
    }
    if (have_port == stdio) return usage();

    mcp::server server(conformance::server_options());
    conformance::add_conformance_features(server);
    if (stdio) return mcp::serve_stdio(server);
    std::cerr << "conformance server on http://127.0.0.1:" << port << "/mcp\n";
    return mcp::http::serve(server, {.address = "127.0.0.1", .port = port, .path = "/mcp"});
}
