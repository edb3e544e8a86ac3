// What lets another process serve a session: server_session::snapshot() and its change callback,
// server::restore_session (no initialize on the wire), server_session::adopt.
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

void add_features(mcp::server& s) {
    s.add_tool({.name = "echo",
                .input_schema = object{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
               [](const object& a, mcp::context&) {
                   return mcp::call_tool_result{
                       .content = {mcp::text(std::string(a.at("text").as_string()))}};
               });
    s.add_resource({.uri = "test://r", .name = "r"}, [](const std::string& uri, mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = uri, .text = "x"}}};
    });
}

struct snapshot_fixture : ::testing::Test {
    mcp::server first{mcp::server_options{.info = {"first", "1"}}};
    mcp::server second{mcp::server_options{.info = {"second", "1"}}};
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::shared_ptr<mcp::server_session> peer;
    std::mutex mu;
    std::vector<mcp::session_snapshot> published;

    void SetUp() override {
        add_features(first);
        add_features(second);
        peer = first.connect(wire);
        peer->on_snapshot_changed([this](const mcp::session_snapshot& s) {
            std::lock_guard lock(mu);
            published.push_back(s);
        });
    }
    void TearDown() override { peer->close(); }
    std::vector<mcp::session_snapshot> seen() {
        std::lock_guard lock(mu);
        return published;
    }
};

TEST_F(snapshot_fixture, every_change_is_published_before_its_response) {
    mcp::test::wire_peer client(wire);
    EXPECT_FALSE(peer->snapshot().has_value()); // nothing to restore before initialize
    client.result("initialize", object{{"protocolVersion", "2025-06-18"},
                                       {"capabilities", object{{"roots", object{{"listChanged", true}}}}},
                                       {"clientInfo", {{"name", "c"}, {"version", "2"}, {"title", "C"}}}});
    ASSERT_EQ(seen().size(), 1u); // already when the response arrived
    EXPECT_FALSE(seen().back().initialized);
    client.notify("notifications/initialized");
    for (int i = 0; i < 2000 && seen().size() < 2; ++i) std::this_thread::sleep_for(1ms);
    ASSERT_EQ(seen().size(), 2u); // a notification has no response to wait for
    EXPECT_TRUE(seen().back().initialized);
    client.result("logging/setLevel", object{{"level", "error"}});
    ASSERT_EQ(seen().size(), 3u);
    EXPECT_EQ(seen().back().log_level, mcp::logging_level::error);
    client.result("resources/subscribe", object{{"uri", "test://r"}});
    ASSERT_EQ(seen().size(), 4u);
    EXPECT_EQ(seen().back().subscriptions, std::set<std::string>{"test://r"});
    client.result("resources/unsubscribe", object{{"uri", "test://r"}});
    ASSERT_EQ(seen().size(), 5u);
    EXPECT_TRUE(seen().back().subscriptions.empty());
    client.result("tools/list"); // reads change nothing
    EXPECT_EQ(seen().size(), 5u);

    const auto s = *peer->snapshot();
    EXPECT_EQ(s, seen().back());
    EXPECT_EQ(s.protocol_version, mcp::revision::v2025_06_18);
    EXPECT_EQ(s.client_info.name, "c");
    EXPECT_EQ(s.client_info.title, "C");
    EXPECT_EQ(s.client_capabilities, (object{{"roots", object{{"listChanged", true}}}}));
    EXPECT_TRUE(s.declared.tools && s.declared.resources && s.declared.logging);
    EXPECT_FALSE(s.declared.prompts);
    EXPECT_EQ(s.declared.resources->subscribe, true);
}

TEST_F(snapshot_fixture, a_restored_session_is_served_without_initialize) {
    mcp::test::wire_peer client(wire);
    client.initialize(mcp::revision::v2025_03_26, object{{"sampling", object{}}});
    client.result("logging/setLevel", object{{"level", "warning"}});
    client.result("resources/subscribe", object{{"uri", "test://r"}});
    const auto snapshot = *peer->snapshot();

    auto other_wire = std::make_shared<mcp::test::scripted_transport>();
    auto restored = second.restore_session(other_wire, snapshot);
    mcp::test::wire_peer same_client(other_wire);
    EXPECT_TRUE(restored->initialized());
    EXPECT_EQ(restored->protocol_version(), mcp::revision::v2025_03_26);
    EXPECT_EQ(restored->client_info().name, "wire-test");
    EXPECT_TRUE(restored->client_caps().sampling.has_value());
    EXPECT_EQ(restored->snapshot(), snapshot);
    EXPECT_FALSE(other_wire->next(50ms).has_value()); // nothing on the wire
    // Its requests to the client are numbered apart from the first process's (which start at 1),
    // so an answer meant for that process is never taken for one of these.
    restored->rpc().async_request("ping", nullptr, {}, [](mcp::response_outcome) {});
    const auto ping = other_wire->next_json();
    ASSERT_TRUE(ping.is_object());
    EXPECT_GE(ping.at("id").as_int64(), std::int64_t{1} << 32);
    EXPECT_LT(ping.at("id").as_int64(), std::int64_t{1} << 52);

    auto call = same_client.result("tools/call", object{{"name", "echo"}, {"arguments", {{"text", "hi"}}}});
    EXPECT_EQ(call.at("content").at(0).at("text"), "hi");
    // What the session declared still gates it (no prompts were declared).
    EXPECT_EQ(same_client.request("prompts/list").at("error").at("code"), -32601);
    // Its log level and subscriptions hold here.
    second.log(mcp::logging_level::info, "dropped");
    second.log(mcp::logging_level::error, "sent");
    second.notify_resource_updated("test://r");
    auto log = same_client.next_message("notifications/message");
    ASSERT_TRUE(log);
    EXPECT_EQ(log->at("params").at("data"), "sent");
    EXPECT_TRUE(same_client.next_message("notifications/resources/updated"));
    // Another process changed the level: adopt() takes it, identity stays.
    auto newer = snapshot;
    newer.log_level = mcp::logging_level::debug;
    newer.subscriptions.clear();
    newer.client_info.name = "ignored";
    restored->adopt(newer);
    EXPECT_EQ(restored->snapshot()->log_level, mcp::logging_level::debug);
    EXPECT_FALSE(restored->subscribed("test://r"));
    EXPECT_EQ(restored->client_info().name, "wire-test");
    restored->close();
}

TEST(restore_session, refuses_what_this_server_cannot_serve) {
    mcp::server only_new{mcp::server_options{.revisions = {mcp::revision::v2025_11_25}}};
    mcp::session_snapshot s;
    s.protocol_version = mcp::revision::v2024_11_05;
    EXPECT_THROW(only_new.restore_session(std::make_shared<mcp::test::scripted_transport>(), s),
                 std::invalid_argument);
    s.protocol_version = mcp::revision::v2026_07_28; // not a session revision
    EXPECT_THROW(only_new.restore_session(std::make_shared<mcp::test::scripted_transport>(), s),
                 std::invalid_argument);
    s.protocol_version = mcp::revision::v2025_11_25;
    s.client_capabilities = object{{"roots", "not an object"}};
    EXPECT_THROW(only_new.restore_session(std::make_shared<mcp::test::scripted_transport>(), s),
                 std::invalid_argument);
    EXPECT_TRUE(only_new.sessions().empty());
}

} // namespace
