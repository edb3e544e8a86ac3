// The session store and event store as replicas use them: the JSON of a session record
// (encode/decode_session_data), memory_session_store's versions, parse_event_id.
#include <mcp/http/event_store.hpp>
#include <mcp/http/session_store.hpp>

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using mcp::json::object;

namespace {

mcp::session_snapshot sample_snapshot() {
    mcp::session_snapshot s;
    s.protocol_version = mcp::revision::v2025_06_18;
    s.client_info = {.name = "c", .version = "2", .title = "C", .website_url = "https://c.example"};
    s.client_capabilities = object{{"elicitation", object{}}, {"experimental", object{{"x", 1}}}};
    s.declared.tools = mcp::tools_capability{true};
    s.declared.resources = mcp::resources_capability{true, true};
    s.declared.logging = true;
    s.declared.completions = true;
    s.declared.experimental = object{{"y", true}};
    s.declared.extensions = object{{"io.example/ext", object{}}};
    s.initialized = true;
    s.log_level = mcp::logging_level::notice;
    s.subscriptions = {"file:///b", "file:///a"};
    return s;
}

TEST(session_data, round_trips_and_is_what_the_header_says) {
    const auto s = sample_snapshot();
    const auto data = mcp::http::encode_session_data(s);
    EXPECT_EQ(data.at("v"), 1);
    EXPECT_EQ(data.at("protocolVersion"), "2025-06-18");
    EXPECT_EQ(data.at("clientInfo").at("websiteUrl"), "https://c.example");
    EXPECT_EQ(data.at("clientCapabilities"), s.client_capabilities);
    EXPECT_TRUE(data.at("serverCapabilities").as_object().contains("completions"));
    EXPECT_EQ(data.at("logLevel"), "notice");
    EXPECT_EQ(data.at("subscriptions"), (mcp::json::array{"file:///a", "file:///b"}));
    EXPECT_EQ(mcp::http::decode_session_data(data), s);
    // Through text, as a remote store keeps it.
    EXPECT_EQ(mcp::http::decode_session_data(mcp::json::parse(mcp::to_json(data)).as_object()), s);
    mcp::session_snapshot bare;
    bare.client_info = {.name = "n", .version = "v"};
    EXPECT_EQ(mcp::http::decode_session_data(mcp::http::encode_session_data(bare)), bare);
}

TEST(session_data, what_it_cannot_read_is_not_restored) {
    auto data = mcp::http::encode_session_data(sample_snapshot());
    EXPECT_FALSE(mcp::http::decode_session_data(object{}));
    auto changed = [&](auto edit) {
        auto d = data;
        edit(d);
        return mcp::http::decode_session_data(d);
    };
    EXPECT_FALSE(changed([](object& d) { d["v"] = 2; }));
    EXPECT_FALSE(changed([](object& d) { d.erase("v"); }));
    EXPECT_FALSE(changed([](object& d) { d["protocolVersion"] = "1999-01-01"; }));
    EXPECT_FALSE(changed([](object& d) { d.erase("clientInfo"); }));
    EXPECT_FALSE(changed([](object& d) { d["clientCapabilities"] = 3; }));
    EXPECT_FALSE(changed([](object& d) { d["logLevel"] = "loud"; }));
    EXPECT_FALSE(changed([](object& d) { d["subscriptions"] = mcp::json::array{1}; }));
    // Members it does not know are ignored (a newer writer may add some).
    EXPECT_TRUE(changed([](object& d) { d["futureField"] = true; }));
}

TEST(memory_session_store, versions_count_puts_and_touch_says_whether_the_record_exists) {
    mcp::http::memory_session_store store;
    const auto t0 = std::chrono::system_clock::now();
    EXPECT_EQ(store.put({"a", {}, t0, 99}), 1u); // the caller's version is ignored
    EXPECT_EQ(store.put({"a", object{{"v", 1}}, t0}), 2u);
    EXPECT_EQ(store.put({"b", {}, t0}), 1u);
    EXPECT_EQ(store.touch("a", t0 + 10s), 2u);
    EXPECT_FALSE(store.touch("nobody", t0));
    EXPECT_EQ(store.size(), 2u); // touch creates nothing
    EXPECT_EQ(store.get("a")->version, 2u);
    EXPECT_EQ(store.get("a")->data, (object{{"v", 1}}));
    EXPECT_EQ(store.idle_since(t0 + 5s), std::vector<std::string>{"b"});
    store.remove("b");
    EXPECT_TRUE(store.idle_since(t0 + 5s).empty());
    EXPECT_FALSE(store.get("b"));
    EXPECT_EQ(store.put({"b", {}, t0}), 1u); // a new record starts again
}

TEST(memory_session_store, update_changes_only_a_record_that_exists) {
    mcp::http::memory_session_store store;
    const auto t0 = std::chrono::system_clock::now();
    EXPECT_FALSE(store.update({"a", object{{"v", 1}}, t0})); // nothing to update: nothing created
    EXPECT_EQ(store.size(), 0u);
    EXPECT_EQ(store.put({"a", {}, t0}), 1u);
    EXPECT_EQ(store.update({"a", object{{"v", 1}}, t0}), 2u);
    EXPECT_EQ(store.get("a")->data, (object{{"v", 1}}));
    store.remove("a");
    EXPECT_FALSE(store.update({"a", object{{"v", 2}}, t0})); // an ended session stays ended
    EXPECT_FALSE(store.get("a"));
}

TEST(session_store, the_default_update_is_get_then_put) {
    // A store that implements only the required operations (as a third-party one may).
    struct minimal_store : mcp::http::session_store {
        mcp::http::memory_session_store inner;
        std::uint64_t put(const mcp::http::session_record& r) override { return inner.put(r); }
        std::optional<mcp::http::session_record> get(std::string_view id) override { return inner.get(id); }
        std::optional<std::uint64_t> touch(std::string_view id,
                                           std::chrono::system_clock::time_point t) override {
            return inner.touch(id, t);
        }
        void remove(std::string_view id) override { inner.remove(id); }
        std::vector<std::string> idle_since(std::chrono::system_clock::time_point t) override {
            return inner.idle_since(t);
        }
    } store;
    const auto t0 = std::chrono::system_clock::now();
    EXPECT_FALSE(store.update({"a", {}, t0}));
    EXPECT_FALSE(store.get("a"));
    store.put({"a", {}, t0});
    EXPECT_EQ(store.update({"a", object{{"v", 1}}, t0}), 2u);
}

TEST(event_ids, name_their_stream_and_place) {
    auto parts = mcp::http::parse_event_id("0123456789abcdef.3-12");
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->stream, "0123456789abcdef.3");
    EXPECT_EQ(parts->sequence, 12u);
    parts = mcp::http::parse_event_id("a-b-0");
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->stream, "a-b");
    for (const char* bad : {"", "x", "-1", "a-", "a-1x", "a-+1", "a-99999999999999999999999"})
        EXPECT_FALSE(mcp::http::parse_event_id(bad)) << bad;
}

} // namespace
