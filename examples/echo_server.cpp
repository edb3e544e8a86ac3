// echo_server: one tool, `echo`, that returns its `text` argument as one text block.
// Speaks MCP over stdio (the benchmark target of bench/stdio_throughput).
#include <mcp/server/server.hpp>

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--stdio") == 0) continue; // the default; accepted for symmetry
        std::cerr << "usage: echo_server [--stdio]\n";
        return 2;
    }
    mcp::server server({.info = {.name = "echo", .version = "1.0.0"}});

    mcp::tool echo{.name = "echo", .description = "Echo back the given text"};
    echo.input_schema = {{"type", "object"},
                         {"properties", {{"text", {{"type", "string"}, {"description", "Text to echo"}}}}},
                         {"required", {"text"}},
                         {"additionalProperties", false}};
    echo.annotations = mcp::tool_annotations{.read_only_hint = true, .open_world_hint = false};
    server.add_tool(std::move(echo), [](const mcp::json::object& args, mcp::context&) {
        const auto* text = args.if_contains("text");
        if (!text || !text->is_string()) return mcp::error_result("`text` must be a string");
        return mcp::call_tool_result{.content = {mcp::text(std::string(text->get_string()))}};
    });
    return mcp::serve_stdio(server);
}
