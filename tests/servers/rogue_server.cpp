// rogue_server: a stdio MCP server (hand-written JSON-RPC, no mcpxx server code) that answers
// the way a hostile or broken server would, for the tests that a client stays bounded and
// fails at once (tests/integration/client_rogue_server_test.cpp, gateway_cli_test.cpp).
// Test-only: not an example.
//
//   rogue_server endless-pages [TOOLS_PER_PAGE]   tools/list: TOOLS_PER_PAGE tools (default
//                              20000) and a fresh nextCursor, on every page, forever
//   rogue_server oversize      ping: a response of 5 MiB (over the 4 MiB default limit), whose
//                              "id" comes last, as some SDKs write it
//   rogue_server bad-utf8      ping: a response whose result holds invalid UTF-8
//   rogue_server deep          ping: a response nested 100 levels deep
//   rogue_server silent        never answers initialize (a server that never finishes starting)
// server/discover gets "method not found" (the initialize era), initialize a result offering
// tools, anything else an empty result.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

/// The raw id of a request line (its text between "id": and the next , or }): enough for the
/// lines mcpxx writes.
std::string id_of(const std::string& line) {
    const auto at = line.find("\"id\":");
    if (at == std::string::npos) return {};
    const auto from = at + 5;
    const auto to = line.find_first_of(",}", from);
    return line.substr(from, to - from);
}

void send(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

std::string tools_page(std::size_t count, unsigned long page) {
    std::string out = "{\"tools\":[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i) out += ',';
        out += "{\"name\":\"t" + std::to_string(page) + "_" + std::to_string(i) +
               "\",\"description\":\"a tool of a server that never stops listing\","
               "\"inputSchema\":{\"type\":\"object\"}}";
    }
    return out + "],\"nextCursor\":\"page-" + std::to_string(page + 1) + "\"}";
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const std::size_t per_page = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20000;
    unsigned long page = 0;
    for (std::string line; std::getline(std::cin, line);) {
        const auto id = id_of(line);
        if (id.empty()) continue; // a notification
        auto is = [&](const char* method) {
            return line.find("\"method\":\"" + std::string(method) + "\"") != std::string::npos;
        };
        const std::string head = "{\"jsonrpc\":\"2.0\",\"id\":" + id;
        if (is("server/discover")) {
            send(head + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
        } else if (is("initialize")) {
            if (mode == "silent") continue;
            send(head + ",\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                        "\"serverInfo\":{\"name\":\"rogue\",\"version\":\"1\"}}}");
        } else if (is("tools/list") && mode == "endless-pages") {
            send(head + ",\"result\":" + tools_page(per_page, page++) + "}");
        } else if (is("ping") && mode == "oversize") {
            send("{\"jsonrpc\":\"2.0\",\"result\":{\"padding\":\"" + std::string(5u << 20, 'x') +
                 "\"},\"id\":" + id + "}");
        } else if (is("ping") && mode == "bad-utf8") {
            send(head + ",\"result\":{\"text\":\"\xff\xfe not UTF-8\"}}");
        } else if (is("ping") && mode == "deep") {
            send(head + ",\"result\":{\"deep\":" + std::string(100, '[') + std::string(100, ']') + "}}");
        } else {
            send(head + ",\"result\":{}}");
        }
    }
    return 0;
}
