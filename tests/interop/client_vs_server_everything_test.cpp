// Our client against the official reference server, @modelcontextprotocol/server-everything
// (npm, pinned in tests/interop/package.json), over stdio: list and call its tools, read its
// resources, get its prompts, and answer its sampling, elicitation and roots requests.
#include <mcp/client/client.hpp>
#include <mcp/transport/child_process.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

const fs::path interop = fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop";
const fs::path entry =
    interop / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js";

std::string all_text(const mcp::call_tool_result& r) {
    std::string out;
    for (const auto& b : r.content)
        if (const auto* t = mcp::text_of(b)) out += *t;
    return out;
}

struct everything : ::testing::Test {
    mcp::client client{{.info = {.name = "mcpxx-interop", .version = "1.0"}}};
    std::atomic<int> samplings{0}, elicitations{0}, roots_asked{0};

    void SetUp() override {
        if (!fs::exists(entry)) GTEST_SKIP() << "server-everything not installed (run scripts/install-deps)";
        client.set_sampling_handler([this](const mcp::create_message_request& req, mcp::request_context&) {
            ++samplings;
            EXPECT_FALSE(req.messages.empty());
            return mcp::create_message_result{.role = mcp::role::assistant,
                                              .content = {mcp::text_content{.text = "mcpxx says 42"}},
                                              .model = "mcpxx-stub"};
        });
        client.set_elicitation_handler([this](const mcp::elicit_request& req, mcp::request_context&) {
            ++elicitations;
            mcp::json::object content;
            if (const auto* props = mcp::find_object(req.requested_schema, "properties"))
                for (const auto& kv : *props) {
                    const auto& s = kv.value().as_object();
                    auto type = mcp::find_string(s, "type").value_or("string");
                    if (const auto* d = s.if_contains("default"))
                        content[kv.key()] = *d;
                    else if (const auto* e = mcp::find_array(s, "enum"); e && !e->empty())
                        content[kv.key()] = e->front();
                    else if (type == "boolean")
                        content[kv.key()] = true;
                    else if (type == "integer" || type == "number")
                        content[kv.key()] = 1;
                    else if (type == "string")
                        content[kv.key()] = "mcpxx";
                }
            return mcp::elicit_result{.action = mcp::elicit_action::accept, .content = content};
        });
        client.set_roots({{.uri = "file:///tmp/mcpxx-interop", .name = "interop"}});
        auto node = mcp::child_process_transport::spawn(
            {.command = "node",
             .args = {entry.string(), "stdio"},
             .stderr_handling = mcp::child_process_transport::stderr_mode::discard});
        client.connect(node);
    }
};

// server-everything speaks only the initialize era: the client's server/discover probe is
// refused (-32601) and it falls back to initialize, on the newest initialize-era revision.
TEST_F(everything, initializes_on_the_newest_revision) {
    EXPECT_FALSE(client.stateless());
    EXPECT_EQ(client.protocol_version(), mcp::revision::v2025_11_25);
    EXPECT_FALSE(client.server().server_info.name.empty());
    EXPECT_TRUE(client.server().capabilities.tools);
    client.ping();
}

TEST_F(everything, lists_and_calls_tools) {
    auto tools = client.list_all_tools();
    EXPECT_GE(tools.size(), 10u);
    auto echo = client.call_tool("echo", {{"message", "hi"}});
    EXPECT_EQ(all_text(echo), "Echo: hi");
    auto sum = client.call_tool("get-sum", {{"a", 2}, {"b", 3}});
    EXPECT_NE(all_text(sum).find('5'), std::string::npos);
    auto image = client.call_tool("get-tiny-image");
    bool has_image = false;
    for (const auto& b : image.content)
        has_image = has_image || std::holds_alternative<mcp::image_content>(b);
    EXPECT_TRUE(has_image);
    auto unknown = client.call_tool("no-such-tool");
    EXPECT_TRUE(unknown.is_error.value_or(false));
}

TEST_F(everything, structured_content_and_progress) {
    auto structured = client.call_tool("get-structured-content", {{"location", "New York"}});
    EXPECT_TRUE(structured.structured_content.has_value());
    std::atomic<int> updates{0};
    mcp::call_options o;
    o.on_progress = [&](const mcp::progress_update&) { ++updates; };
    auto lr = client.call_tool("trigger-long-running-operation", {{"duration", 1}, {"steps", 3}}, o);
    EXPECT_FALSE(lr.is_error.value_or(false));
    EXPECT_GE(updates.load(), 2);
}

TEST_F(everything, answers_sampling_elicitation_and_roots) {
    auto s = client.call_tool("trigger-sampling-request", {{"prompt", "hello"}, {"maxTokens", 10}});
    EXPECT_NE(all_text(s).find("mcpxx says 42"), std::string::npos) << all_text(s);
    EXPECT_EQ(samplings.load(), 1);
    auto e = client.call_tool("trigger-elicitation-request");
    EXPECT_FALSE(e.is_error.value_or(false)) << all_text(e);
    EXPECT_EQ(elicitations.load(), 1);
    auto r = client.call_tool("get-roots-list");
    EXPECT_NE(all_text(r).find("file:///tmp/mcpxx-interop"), std::string::npos) << all_text(r);
}

TEST_F(everything, reads_resources_and_gets_prompts) {
    auto resources = client.list_all_resources();
    ASSERT_FALSE(resources.empty());
    auto read = client.read_resource(resources.front().uri);
    EXPECT_FALSE(read.contents.empty());
    EXPECT_FALSE(client.list_all_resource_templates().empty());
    auto prompts = client.list_all_prompts();
    ASSERT_FALSE(prompts.empty());
    bool got = false;
    for (const auto& p : prompts) {
        bool required = false;
        for (const auto& a : p.arguments) required = required || a.required.value_or(false);
        if (required) continue;
        auto g = client.get_prompt(p.name);
        EXPECT_FALSE(g.messages.empty());
        got = true;
        break;
    }
    EXPECT_TRUE(got);
    client.set_logging_level(mcp::logging_level::debug);
}

} // namespace
