// The README's quick start (examples/weather_server) run as a real child process over stdio:
// schemas from its structs, validation before the handler, structured result; and the README's
// client (examples/weather_client) printing what it got from that server.
#include "support/raw_process.hpp"

#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

namespace {

mcp::json::object reply(mcp::test::raw_process& p) {
    auto line = p.read_line();
    EXPECT_TRUE(line) << "no reply; stderr: " << p.stderr_text();
    return line ? mcp::json::parse(*line).as_object() : mcp::json::object{};
}

TEST(weather_example, typed_tool_over_stdio) {
    mcp::test::raw_process p{{std::string(MCPXX_BINARY_DIR) + "/weather_server"}};
    ASSERT_TRUE(
        p.write(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
                R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
                "\n"));
    EXPECT_EQ(reply(p).at("result").at("protocolVersion"), "2025-06-18");
    ASSERT_TRUE(p.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                        "\n"
                        R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
                        "\n"));
    const auto list = reply(p);
    const auto& tool = list.at("result").at("tools").at(0);
    EXPECT_EQ(tool.at("inputSchema").at("required"), mcp::json::parse(R"(["city"])"));
    EXPECT_EQ(tool.at("inputSchema").at("properties").at("unit").at("enum"),
              mcp::json::parse(R"(["celsius","fahrenheit"])"));
    EXPECT_EQ(tool.at("outputSchema").at("required"), mcp::json::parse(R"(["summary","temp_c"])"));

    ASSERT_TRUE(p.write(
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"}}})"
        "\n"));
    const auto ok = reply(p);
    EXPECT_EQ(ok.at("result").at("structuredContent"),
              mcp::json::parse(R"({"summary":"Sunny in Oslo","temp_c":21.5})"));

    ASSERT_TRUE(p.write(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo","days":0}}})"
        "\n"));
    const auto bad = reply(p);
    EXPECT_EQ(bad.at("result").at("isError"), true);
    EXPECT_NE(std::string(bad.at("result").at("content").at(0).at("text").as_string()).find("/days"),
              std::string::npos);

    p.close_stdin();
    EXPECT_EQ(p.wait(), 0);
}

TEST(weather_example, quick_start_client_lists_and_calls) {
    const std::string dir = MCPXX_BINARY_DIR;
    mcp::test::raw_process p{{dir + "/weather_client", dir + "/weather_server"}};
    p.close_stdin();
    EXPECT_EQ(p.read_line(), "forecast: Forecast for a city") << p.stderr_text();
    const auto result = p.read_line();
    ASSERT_TRUE(result) << p.stderr_text();
    EXPECT_EQ(mcp::json::parse(*result), mcp::json::parse(R"({"summary":"Sunny in Paris","temp_c":21.5})"));
    EXPECT_EQ(p.wait(), 0);
}

} // namespace
