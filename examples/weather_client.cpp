// weather_client: the README's quick-start client, kept compiling here. Starts weather_server (the
// path in argv[1], default ./weather_server) over stdio, lists its tools and calls forecast.
#include <mcp/client/client.hpp>
#include <mcp/transport/child_process.hpp>

#include <iostream>

int main(int argc, char** argv) {
    mcp::client client({.info = {.name = "my-host", .version = "1.0.0"}});
    client.connect(mcp::child_process_transport::spawn({.command = argc > 1 ? argv[1] : "./weather_server"}));
    for (const auto& tool : client.list_all_tools()) // every page
        std::cout << tool.name << ": " << tool.description.value_or("") << "\n";
    auto result = client.call_tool("forecast", {{"city", "Paris"}, {"days", 2}});
    if (result.structured_content) std::cout << mcp::to_json(*result.structured_content) << "\n";
}
