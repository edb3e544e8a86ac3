// Package consumer: uses only the installed headers and library of mcpxx.
#include <mcp/http/client_transport.hpp>
#include <mcp/json/json.hpp>

#include <cstdio>
#include <string>

int main() {
    mcp::json::object o;
    o["jsonrpc"] = "2.0";
    o["id"] = 1;
    o["result"] = mcp::json::object{{"x", 2.5}};
    const std::string got = mcp::to_json(o);
    const std::string want = R"({"jsonrpc":"2.0","id":1,"result":{"x":2.5}})";
    if (got != want) {
        std::fprintf(stderr, "to_json: got %s, want %s\n", got.c_str(), want.c_str());
        return 1;
    }
    std::printf("%s\n", got.c_str());
    // The HTTP client links OpenSSL's libssl through the package's dependencies.
    auto t = mcp::http::make_client_transport("https://127.0.0.1:1/mcp");
    t->close();
    return 0;
}
