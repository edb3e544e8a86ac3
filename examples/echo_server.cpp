// echo_server: one tool, `echo`, that returns its `text` argument as one text block.
// The benchmark target of bench/stdio_throughput (stdio) and bench/http_throughput (HTTP).
//
//   echo_server [--stdio]                               MCP over stdin/stdout (the default)
//   echo_server --http 127.0.0.1:8080 [--stateless]     Streamable HTTP at http://127.0.0.1:8080/mcp
//              [--stateful] [--threads N]               (sessions for initialize-era clients unless
//              [--max-sessions N]                        --stateless; 2026-07-28 is always stateless)
//              [--max-sessions-per-principal N]         (one client: its principal or address)
//              [--oauth-issuer URL [--oauth-audience URL] [--oauth-scope S]...]
//                                                       access tokens of that authorization server
#include <mcp/auth/oauth_flags.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

int usage() {
    // stdio rather than <iostream>: its static initialisation builds the C++ locale (about 256 KiB
    // of code touched at start, resident from then on; bench/stdio_throughput measures idle RSS).
    std::fputs("usage: echo_server [--stdio] | --http HOST:PORT [--stateless | --stateful] [--threads N] "
               "[--max-sessions N] [--max-sessions-per-principal N]\n"
               "       [--oauth-issuer URL [--oauth-audience URL] [--oauth-scope SCOPE]...]\n",
               stderr);
    return 2;
}

bool parse_port(std::string_view v, unsigned short& port) {
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), port);
    return ec == std::errc() && end == v.data() + v.size();
}

} // namespace

int main(int argc, char** argv) {
    std::optional<mcp::http::server_options> http;
    bool stateless = false;
    std::size_t threads = 1;
    std::size_t max_sessions = 10000;
    std::size_t max_per_principal = 1000;
    mcp::auth::oauth_flags oauth;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--stdio") continue; // the default; accepted for symmetry
        try {
            if (oauth.consume(argc, argv, i)) continue;
        } catch (const std::invalid_argument&) {
            return usage();
        }
        if (arg == "--http" && i + 1 < argc) {
            const std::string_view where = argv[++i];
            const auto colon = where.rfind(':');
            http.emplace();
            if (colon == std::string_view::npos || !parse_port(where.substr(colon + 1), http->port))
                return usage();
            http->address = std::string(where.substr(0, colon));
        } else if (arg == "--stateless") {
            stateless = true;
        } else if (arg == "--stateful") {
            stateless = false;
        } else if (arg == "--max-sessions" && i + 1 < argc) {
            const std::string_view v = argv[++i];
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), max_sessions);
            if (ec != std::errc() || end != v.data() + v.size() || max_sessions == 0) return usage();
        } else if (arg == "--max-sessions-per-principal" && i + 1 < argc) {
            const std::string_view v = argv[++i];
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), max_per_principal);
            if (ec != std::errc() || end != v.data() + v.size()) return usage();
        } else if (arg == "--threads" && i + 1 < argc) {
            const std::string_view v = argv[++i];
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), threads);
            if (ec != std::errc() || end != v.data() + v.size() || threads == 0) return usage();
        } else {
            return usage();
        }
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
    if (!http) return oauth.enabled() ? usage() : mcp::serve_stdio(server); // OAuth is for HTTP
    http->stateful = !stateless;
    http->threads = threads;
    http->max_sessions = max_sessions;
    http->max_sessions_per_principal = max_per_principal;
    return mcp::auth::serve(server, std::move(*http), oauth);
}
