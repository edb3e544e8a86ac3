// mcp::client in the initialize era over Streamable HTTP, against our own server, when the
// server forgets the session (here: it restarts on the same port, with no session store to
// remember it): the next call meets HTTP 404, and the client starts a new session by itself
// (2025-11-25 basic/transports.mdx, "Session Management": initialize again, without a session
// id), restores its subscriptions and logging level, sends the refused request again and tells
// the application (client::on_session_renewed). A server that refuses the new session closes
// the connection with an error naming both failures.
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include "support/eventually.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

using mcp::test::eventually;

mcp::server_options initialize_era_only() {
    mcp::server_options o{.info = {.name = "sessions", .version = "1"}};
    o.revisions = {mcp::revision::v2025_11_25, mcp::revision::v2025_06_18, mcp::revision::v2025_03_26};
    return o;
}

struct renewal : ::testing::Test {
    mcp::server server{initialize_era_only()};
    std::unique_ptr<mcp::http::server> http;
    unsigned short port = 0;
    std::atomic<int> initializes{0}, levels{0}, subscribes{0}, hellos{0}, renewed{0};
    mcp::client client{
        {.info = {.name = "c", .version = "1"}, .protocol_version = mcp::revision::v2025_11_25}};

    void SetUp() override {
        server.use([this](mcp::incoming_call& call, const mcp::receive_next& next) {
            if (call.method() == "initialize") ++initializes;
            if (call.method() == "logging/setLevel") ++levels;
            if (call.method() == "resources/subscribe") ++subscribes;
            return next(call);
        });
        server.add_tool({.name = "hello", .input_schema = object{{"type", "object"}}},
                        [this](const object&, mcp::context&) {
                            ++hellos;
                            return mcp::call_tool_result{.content = {mcp::text("hello")}};
                        });
        server.add_resource({.uri = "mem://a", .name = "a"}, [](const std::string& uri, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
        });
        start();
        client.on_session_renewed([this] { ++renewed; });
    }
    void start(bool refuse_new_sessions = false) {
        mcp::http::server_options o{.port = port};
        if (refuse_new_sessions) // what comes without a session id: initialize
            o.authenticate = [](const mcp::http::request_info& r) {
                if (r.header("Mcp-Session-Id")) return mcp::http::auth_decision{.principal = "anyone"};
                return mcp::http::auth_decision{.accepted = false, .status = 401, .message = "who are you?"};
            };
        http = std::make_unique<mcp::http::server>(server, o);
        http->start();
        port = http->port();
    }
    // A new server process, as far as sessions go: the old session id means nothing to it.
    void restart(bool refuse_new_sessions = false) {
        http->stop(0ms);
        http.reset();
        start(refuse_new_sessions);
    }
    void connect() {
        client.connect(
            mcp::http::make_client_transport({.url = http->url(), .log = [](std::string_view) {}}));
        ASSERT_FALSE(client.stateless());
    }
    std::string hello() { return *mcp::text_of(client.call_tool("hello").content.at(0)); }
};

TEST_F(renewal, a_forgotten_session_is_renewed_and_the_refused_call_sent_again) {
    std::atomic<int> updates{0};
    client.on_resource_updated([&](const std::string& uri) {
        if (uri == "mem://a") ++updates;
    });
    connect();
    client.subscribe("mem://a");
    client.set_logging_level(mcp::logging_level::info);
    EXPECT_EQ(hello(), "hello");
    ASSERT_EQ(initializes.load(), 1);

    restart();
    EXPECT_EQ(hello(), "hello"); // no error: a new session, and the call once more
    EXPECT_EQ(hellos.load(), 2);
    EXPECT_EQ(initializes.load(), 2);
    EXPECT_EQ(renewed.load(), 1);
    EXPECT_TRUE(client.connected());
    // What the old session held is set again in the new one...
    EXPECT_EQ(subscribes.load(), 2);
    EXPECT_EQ(levels.load(), 2);
    // ... so the subscription works there.
    server.notify_resource_updated("mem://a");
    EXPECT_TRUE(eventually([&] { return updates.load() == 1; })) << updates.load();
    EXPECT_EQ(hello(), "hello");
    EXPECT_EQ(initializes.load(), 2);
}

TEST_F(renewal, concurrent_calls_share_one_new_session) {
    connect();
    EXPECT_EQ(hello(), "hello");
    restart();
    std::vector<std::future<std::string>> calls;
    for (int i = 0; i < 8; ++i) calls.push_back(std::async(std::launch::async, [this] { return hello(); }));
    for (auto& c : calls) EXPECT_EQ(c.get(), "hello");
    EXPECT_EQ(initializes.load(), 2);
    EXPECT_EQ(renewed.load(), 1);
    EXPECT_EQ(hellos.load(), 9);
}

TEST_F(renewal, a_new_session_refused_closes_the_connection_naming_both_failures) {
    std::atomic<int> closes{0};
    client.on_close([&] { ++closes; });
    connect();
    EXPECT_EQ(hello(), "hello");
    // The server comes back and wants credentials for a new session that the client has not.
    restart(/*refuse_new_sessions=*/true);
    try {
        hello();
        FAIL() << "the call went through";
    } catch (const mcp::error& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.code(), mcp::error_code::http_error) << what;
        EXPECT_NE(what.find("session has expired"), std::string::npos) << what;
        EXPECT_NE(what.find("starting a new session failed: who are you?"), std::string::npos) << what;
    }
    EXPECT_FALSE(client.connected());
    EXPECT_TRUE(eventually([&] { return closes.load() == 1; }));
    EXPECT_EQ(renewed.load(), 0);
}

} // namespace
