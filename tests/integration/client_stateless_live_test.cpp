// Our client in the stateless era (2026-07-28) against our everything_server, a real child
// process, over stdio and over Streamable HTTP (a real socket): discover, lists, calls with
// structured output and progress, the tools that need the client (sampling, form elicitation,
// roots) through input_required rounds, log messages per request, cancellation (HTTP: the
// request's stream is closed), list_changed and resource updates on the listen stream. And the
// fall back: the same server over its legacy HTTP+SSE endpoint speaks only the initialize era,
// which the client reaches after its server/discover probe is refused.
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/transport/child_process.hpp>

#include "support/child_server.hpp"

#include "support/eventually.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

const std::string everything = std::string(MCPXX_BINARY_DIR) + "/everything_server";

// everything_server --http on a free loopback port (with `extra` arguments), stopped with SIGTERM.
mcp::test::child_server http_everything(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{everything, "--http", "127.0.0.1:{port}"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return mcp::test::child_server(std::move(argv));
}

std::string all_text(const mcp::call_tool_result& r) {
    std::string out;
    for (const auto& b : r.content)
        if (const auto* t = mcp::text_of(b)) out += *t;
    return out;
}

using mcp::test::eventually;

enum class over { stdio, http };

struct live : ::testing::TestWithParam<over> {
    mcp::client client{{.info = {.name = "mcpxx-live", .version = "1"}}};
    std::unique_ptr<mcp::test::child_server> http;
    std::atomic<int> samplings{0}, elicitations{0}, tools_changed{0}, updates{0}, logs{0};

    void SetUp() override {
        client.set_sampling_handler([this](const mcp::create_message_request& r, mcp::request_context& ctx) {
            ++samplings;
            EXPECT_FALSE(ctx.has_peer()); // an input request of the call, not a server request
            EXPECT_EQ(r.system_prompt, "You are a helpful assistant.");
            return mcp::create_message_result{.content = {mcp::text_content{.text = "42"}}, .model = "stub"};
        });
        client.set_elicitation_handler([this](const mcp::elicit_request& r, mcp::request_context&) {
            ++elicitations;
            EXPECT_EQ(r.message, "Please tell us about yourself");
            return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                      .content = object{{"name", "Ada"}, {"age", 36}}};
        });
        client.set_roots({{.uri = "file:///srv/data", .name = "data"}});
        client.on_tools_list_changed([this] { ++tools_changed; });
        client.on_resource_updated([this](const std::string& uri) {
            if (uri == "test://static/resource/1") ++updates;
        });
        client.on_log_message([this](const mcp::logging_message_notification&) { ++logs; });
        if (GetParam() == over::stdio) {
            client.connect(mcp::child_process_transport::spawn({.command = everything}));
        } else {
            http = std::make_unique<mcp::test::child_server>(
                std::vector<std::string>{everything, "--http", "127.0.0.1:{port}"});
            ASSERT_TRUE(http->ready()) << "everything_server --http did not start";
            client.connect(
                mcp::http::make_client_transport({.url = http->url("/mcp"), .log = [](std::string_view) {}}));
        }
    }
};

TEST_P(live, every_feature_in_the_stateless_era) {
    ASSERT_TRUE(client.stateless());
    EXPECT_EQ(client.protocol_version(), mcp::revision::v2026_07_28);
    EXPECT_EQ(client.server().server_info.name, "mcpxx-everything");
    ASSERT_TRUE(client.server().instructions);
    ASSERT_TRUE(client.discovery());
    client.ping();

    const auto tools = client.list_all_tools();
    EXPECT_GT(tools.size(), 15u);
    EXPECT_EQ(all_text(client.call_tool("echo", {{"text", "stateless"}})), "stateless");
    EXPECT_EQ(client.call_tool("add", {{"a", 2}, {"b", 3}}).structured_content->at("sum"), 5.0);
    EXPECT_TRUE(client.call_tool("fail").is_error.value_or(false));

    std::atomic<int> progress{0};
    mcp::call_options po;
    po.on_progress = [&](const mcp::progress_update&) { ++progress; };
    EXPECT_NE(
        all_text(client.call_tool("long_operation", {{"duration", 0.05}, {"steps", 3}}, po)).find("3 steps"),
        std::string::npos);
    EXPECT_EQ(progress.load(), 3);

    // The tools that need the client: each an input_required round answered by a handler.
    EXPECT_EQ(all_text(client.call_tool("sample_llm", {{"prompt", "6*7?"}})),
              "LLM sampling result (stub): 42");
    const auto asked = all_text(client.call_tool("ask_user"));
    EXPECT_NE(asked.find("User action: accept"), std::string::npos) << asked;
    EXPECT_NE(asked.find("\"Ada\""), std::string::npos) << asked;
    EXPECT_NE(all_text(client.call_tool("list_roots")).find("file:///srv/data (data)"), std::string::npos);
    EXPECT_EQ(samplings.load(), 1);
    EXPECT_EQ(elicitations.load(), 1);

    // Logs come only to a request that asked for a level.
    client.call_tool("log_messages", {}, po);
    EXPECT_EQ(logs.load(), 0);
    client.set_logging_level(mcp::logging_level::error);
    client.call_tool("log_messages", {}, po);
    EXPECT_TRUE(eventually([&] { return logs.load() == 4; })) << logs.load(); // error .. emergency

    EXPECT_GE(client.list_all_resources().size(), 10u);
    EXPECT_FALSE(client.read_resource("test://static/resource/1").contents.empty());
    EXPECT_FALSE(client.list_all_prompts().empty());

    // Notifications on the listen stream: a resource subscribed, then the tool list changed.
    client.subscribe("test://static/resource/1");
    client.call_tool("touch_resource", {{"uri", "test://static/resource/1"}});
    EXPECT_TRUE(eventually([&] { return updates.load() == 1; }));
    client.call_tool("toggle_extra_tool");
    EXPECT_TRUE(eventually([&] { return tools_changed.load() >= 1; }));
    EXPECT_EQ(client.list_all_tools().size(), tools.size() + 1);
    client.unsubscribe("test://static/resource/1");
    client.call_tool("touch_resource", {{"uri", "test://static/resource/1"}});
    client.ping(); // anything in flight arrives first
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(updates.load(), 1);
}

TEST_P(live, a_cancelled_call_ends_at_once_and_the_server_goes_on) {
    mcp::cancellation_source cancel;
    mcp::call_options o;
    o.cancel = cancel.token();
    std::thread canceller([&] {
        std::this_thread::sleep_for(100ms);
        cancel.cancel("enough");
    });
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_THROW(client.call_tool("slow", {{"seconds", 20}}, o), mcp::error);
    canceller.join();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
    // The server is free for the next call at once.
    EXPECT_EQ(all_text(client.call_tool("echo", {{"text", "after"}})), "after");
}

INSTANTIATE_TEST_SUITE_P(transports, live, ::testing::Values(over::stdio, over::http),
                         [](const ::testing::TestParamInfo<over>& i) {
                             return std::string(i.param == over::stdio ? "stdio" : "http");
                         });

// The legacy HTTP+SSE endpoint speaks only the initialize era: the probe fails, the transport
// falls back to HTTP+SSE and the client to initialize.
TEST(live_fallback, a_legacy_http_sse_endpoint_is_initialized) {
    auto server = http_everything({"--legacy-sse"});
    ASSERT_TRUE(server.ready());
    mcp::client c({.info = {.name = "mcpxx-live", .version = "1"}});
    auto t = mcp::http::make_client_transport({.url = server.url("/sse"), .log = [](std::string_view) {}});
    c.connect(t);
    EXPECT_FALSE(c.stateless());
    EXPECT_EQ(c.protocol_version(), mcp::revision::v2025_11_25);
    EXPECT_EQ(t->current_wire(), mcp::http::client_transport::wire::legacy_sse);
    EXPECT_EQ(all_text(c.call_tool("echo", {{"text", "legacy"}})), "legacy");
}

// A client that may speak only 2026-07-28 refuses that endpoint with a clear error.
TEST(live_fallback, a_stateless_only_client_refuses_a_legacy_endpoint) {
    auto server = http_everything({"--legacy-sse"});
    ASSERT_TRUE(server.ready());
    mcp::client c(
        {.info = {.name = "mcpxx-live", .version = "1"}, .revisions = {mcp::revision::v2026_07_28}});
    try {
        c.connect(
            mcp::http::make_client_transport({.url = server.url("/sse"), .log = [](std::string_view) {}}));
        ADD_FAILURE() << "connected";
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find("does not speak protocol revision 2026-07-28"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(c.connected());
}

} // namespace
