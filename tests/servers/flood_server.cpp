// flood_server: a stdio MCP server whose tool sends more than any client reads, for the tests
// of what happens to a client that stops reading (tests/integration/stdio_slow_client_test.cpp).
// Test-only: not an example.
//
//   flood_server [--max-queued-bytes N]
//   tools    flood {count, size}: `count` progress notifications (the request must carry a
//            progressToken) whose message is `size` bytes, stopping early once cancelled;
//            answers how many it sent
//   stderr   the session's diagnostics, then, when the client is gone, one line
//            "flood_server: peak RSS <kB> kB" (VmHWM), so that a test can see memory stay bounded
#include <mcp/server/server.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

std::string peak_rss_kb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::to_string(std::strtoull(line.c_str() + 6, nullptr, 10));
    return "?";
}

} // namespace

int main(int argc, char** argv) {
    mcp::stdio_options io;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--max-queued-bytes")
            io.max_queued_bytes = std::strtoull(argv[++i], nullptr, 10);

    mcp::server server({.info = {.name = "flood", .version = "1.0"}});
    using mcp::json::object;
    server.add_tool({.name = "flood",
                     .description = "Sends `count` progress notifications of `size` bytes each",
                     .input_schema = object{{"type", "object"},
                                            {"properties", object{{"count", object{{"type", "integer"}}},
                                                                  {"size", object{{"type", "integer"}}}}},
                                            {"required", mcp::json::array{"count", "size"}}}},
                    [](const object& args, mcp::context& ctx) {
                        const auto count = args.at("count").to_number<std::int64_t>();
                        const std::string message(
                            static_cast<std::size_t>(args.at("size").to_number<std::int64_t>()), 'x');
                        std::int64_t sent = 0;
                        for (; sent < count && !ctx.cancelled(); ++sent)
                            ctx.progress(static_cast<double>(sent), static_cast<double>(count), message);
                        return mcp::call_tool_result{.content = {mcp::text("sent " + std::to_string(sent))}};
                    });
    const int status = mcp::serve_stdio(server, io);
    std::fprintf(stderr, "flood_server: peak RSS %s kB\n", peak_rss_kb().c_str());
    return status;
}
