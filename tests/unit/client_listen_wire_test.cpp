// mcp::client wire tests of the subscriptions/listen stream (2026-07-28
// basic/patterns/subscriptions.mdx) and of the caching hints (server/utilities/caching.mdx):
// what the stream asks for, notifications matched by subscription id, subscribe() and
// unsubscribe() as new streams, a stream the server ends or refuses, and list_all_* answered
// from a listing that is still fresh until a list_changed voids it.
#include "client_stateless_fixture.hpp"
#include "support/eventually.hpp"

#include <atomic>
#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;
namespace json = mcp::json;
using mcp::test::stateless_wire;

namespace {

constexpr const char* all_caps =
    R"({"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{"subscribe":true}})";

using mcp::test::eventually;

struct listen : stateless_wire {
    std::atomic<int> tools_changed{0}, prompts_changed{0};
    std::mutex mu;
    std::vector<std::string> updated;

    void callbacks() {
        c->on_tools_list_changed([this] { ++tools_changed; });
        c->on_prompts_list_changed([this] { ++prompts_changed; });
        c->on_resource_updated([this](const std::string& uri) {
            std::lock_guard l(mu);
            updated.push_back(uri);
        });
    }

    void ack(const json::value& listen_request, const std::string& granted) {
        wire->inject(
            R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":)"
            R"({"io.modelcontextprotocol/subscriptionId":)" +
            mcp::to_json(listen_request.at("id")) + R"(},"notifications":)" + granted + "}}");
    }
    void notify(const json::value& listen_request, const std::string& method,
                const std::string& params = "{}") {
        auto p = json::parse(params).as_object();
        p["_meta"] = object{{"io.modelcontextprotocol/subscriptionId", listen_request.at("id")}};
        wire->inject(R"({"jsonrpc":"2.0","method":")" + method + R"(","params":)" + mcp::to_json(p) + "}");
    }
    static std::string filter_of(const json::value& listen_request) {
        return mcp::to_json(listen_request.at("params").at("notifications"));
    }

    /// Connect to a server with `caps`; the listen request connect() sends is acknowledged
    /// with what it asked for. Returns that request.
    json::value connect_listening(const std::string& caps = all_caps) {
        if (!c) make();
        callbacks();
        auto done = start([this] { c->connect(wire); });
        reply(expect_request("server/discover"), mcp::test::discover_result_json(caps));
        auto l = expect_request("subscriptions/listen");
        ack(l, filter_of(l));
        done.get();
        return l;
    }

    /// The next messages until `n` arrived, in any order: what the client sends from two threads
    /// (a cancellation of the old stream, the new listen request) has no fixed order.
    std::vector<json::value> next_n(int n) {
        std::vector<json::value> out;
        for (int i = 0; i < n; ++i) {
            auto v = next();
            if (v.is_null()) break;
            out.push_back(std::move(v));
        }
        EXPECT_EQ(out.size(), static_cast<std::size_t>(n));
        return out;
    }
    static const json::value* find_method(const std::vector<json::value>& msgs, std::string_view method) {
        for (const auto& m : msgs)
            if (m.at("method").as_string() == method) return &m;
        return nullptr;
    }
};

TEST_F(listen, connect_opens_one_stream_for_what_the_server_declares) {
    auto l = connect_listening();
    // Only the lists whose listChanged the server declares; no resources until subscribe().
    EXPECT_EQ(filter_of(l), R"({"toolsListChanged":true,"promptsListChanged":true})");
    EXPECT_EQ(meta_of(l).at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    notify(l, "notifications/tools/list_changed");
    notify(l, "notifications/prompts/list_changed");
    EXPECT_TRUE(eventually([&] { return tools_changed == 1 && prompts_changed == 1; }));
}

TEST_F(listen, notifications_of_another_subscription_are_dropped) {
    auto l = connect_listening();
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":)"
                 R"({"io.modelcontextprotocol/subscriptionId":999}}})");
    notify(l, "notifications/prompts/list_changed"); // delivered after the stale one, in order
    EXPECT_TRUE(eventually([&] { return prompts_changed == 1; }));
    EXPECT_EQ(tools_changed.load(), 0);
}

TEST_F(listen, subscribe_opens_a_new_stream_and_cancels_the_old_one) {
    auto first = connect_listening();
    auto sub = start([this] { c->subscribe("file:///a"); });
    auto second = expect_request("subscriptions/listen");
    EXPECT_EQ(filter_of(second),
              R"({"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a"]})");
    ack(second, filter_of(second));
    sub.get();
    // The old stream ends once the new one is acknowledged: no gap, no duplicate.
    auto cancelled = next();
    ASSERT_TRUE(cancelled.is_object());
    EXPECT_EQ(cancelled.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancelled.at("params").at("requestId"), first.at("id"));
    notify(first, "notifications/resources/updated", R"({"uri":"file:///a"})"); // stale stream
    notify(second, "notifications/resources/updated", R"({"uri":"file:///a"})");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard l(mu);
        return !updated.empty();
    }));
    {
        std::lock_guard l(mu);
        EXPECT_EQ(updated, std::vector<std::string>{"file:///a"});
    }
    auto unsub = start([this] { c->unsubscribe("file:///a"); });
    auto third = expect_request("subscriptions/listen");
    EXPECT_EQ(filter_of(third), R"({"toolsListChanged":true,"promptsListChanged":true})");
    ack(third, filter_of(third));
    unsub.get();
    auto gone = next();
    ASSERT_TRUE(gone.is_object());
    EXPECT_EQ(gone.at("params").at("requestId"), second.at("id"));
}

TEST_F(listen, subscribe_fails_when_the_acknowledgement_leaves_the_uri_out) {
    connect_listening();
    auto sub = start([this] { c->subscribe("file:///secret"); });
    auto second = expect_request("subscriptions/listen");
    ack(second, R"({"toolsListChanged":true,"promptsListChanged":true})");
    try {
        sub.get();
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_NE(std::string(e.what()).find("did not agree to send updates of file:///secret"),
                  std::string::npos)
            << e.what();
    }
    // The old stream is cancelled and a stream without the URI asked for.
    auto msgs = next_n(2);
    const auto* again = find_method(msgs, "subscriptions/listen");
    ASSERT_TRUE(again);
    EXPECT_EQ(filter_of(*again), R"({"toolsListChanged":true,"promptsListChanged":true})");
    EXPECT_TRUE(find_method(msgs, "notifications/cancelled"));
}

TEST_F(listen, subscribe_needs_the_servers_subscribe_capability_and_the_listen_option) {
    connect_listening(R"({"tools":{"listChanged":true},"resources":{}})");
    try {
        c->subscribe("file:///a");
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::method_not_found);
        EXPECT_NE(std::string(e.what()).find("resources.subscribe"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(next(50ms).is_null());

    c.reset();
    wire = std::make_shared<mcp::test::scripted_transport>();
    opts.listen = false;
    connect(all_caps); // no listen request at all
    EXPECT_TRUE(next(50ms).is_null());
    EXPECT_THROW(c->subscribe("file:///a"), mcp::error);
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(listen, a_stream_the_server_ends_is_opened_again_and_the_callbacks_run) {
    auto first = connect_listening();
    reply(first, R"({"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":)" +
                     mcp::to_json(first.at("id")) + "}}"); // graceful end (server shutdown)
    auto second = expect_request("subscriptions/listen");  // after a short back-off
    EXPECT_EQ(filter_of(second), filter_of(first));
    EXPECT_EQ(tools_changed.load(), 0);
    ack(second, filter_of(second));
    // What changed meanwhile is unknown: every list the new stream covers may have.
    EXPECT_TRUE(eventually([&] { return tools_changed == 1 && prompts_changed == 1; }));
}

TEST_F(listen, a_stream_the_server_cancels_is_opened_again) {
    auto first = connect_listening();
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" +
                 mcp::to_json(first.at("id")) + R"(,"reason":"shutting down"}})");
    auto second = expect_request("subscriptions/listen");
    EXPECT_NE(second.at("id"), first.at("id"));
}

TEST_F(listen, a_refused_stream_is_not_asked_for_again) {
    make();
    callbacks();
    auto done = start([this] { c->connect(wire); });
    reply(expect_request("server/discover"), mcp::test::discover_result_json(all_caps));
    reply_error(expect_request("subscriptions/listen"), R"({"code":-32601,"message":"Method not found"})");
    done.get(); // connect does not fail for it
    EXPECT_TRUE(c->stateless());
    EXPECT_TRUE(next(800ms).is_null()); // longer than the first back-off
}

TEST_F(listen, close_cancels_the_stream) {
    auto l = connect_listening();
    c->close();
    auto cancelled = next();
    ASSERT_TRUE(cancelled.is_object());
    EXPECT_EQ(cancelled.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancelled.at("params").at("requestId"), l.at("id"));
}

// ---- caching hints ------------------------------------------------------------------------------

TEST_F(listen, a_fresh_listing_is_reused_until_a_list_changed_voids_it) {
    auto l = connect_listening();
    const std::string tools_page =
        R"({"resultType":"complete","tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":60000,)"
        R"("cacheScope":"public"})";
    auto first = start([this] { return c->list_all_tools(); });
    reply(expect_request("tools/list"), tools_page);
    EXPECT_EQ(first.get().size(), 1u);
    EXPECT_EQ(c->list_all_tools().size(), 1u); // fresh: nothing sent
    EXPECT_TRUE(next(50ms).is_null());
    // A single page is always asked for.
    auto page = start([this] { return c->list_tools(); });
    auto req = expect_request("tools/list");
    reply(req, tools_page);
    EXPECT_EQ(page.get().ttl_ms, 60000);
    notify(l, "notifications/tools/list_changed");
    EXPECT_TRUE(eventually([&] { return tools_changed == 1; }));
    auto again = start([this] { return c->list_all_tools(); });
    reply(expect_request("tools/list"),
          R"({"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"})");
    EXPECT_TRUE(again.get().empty());
}

TEST_F(listen, a_listing_with_a_stale_page_is_not_kept) {
    connect();
    for (int round = 0; round < 2; ++round) {
        auto all = start([this] { return c->list_all_prompts(); });
        reply(expect_request("prompts/list"),
              R"({"resultType":"complete","prompts":[{"name":"p1"}],"nextCursor":"c2","ttlMs":60000,)"
              R"("cacheScope":"private"})");
        auto second = expect_request("prompts/list");
        EXPECT_EQ(second.at("params").at("cursor"), "c2");
        reply(second,
              R"({"resultType":"complete","prompts":[{"name":"p2"}],"ttlMs":0,"cacheScope":"private"})");
        EXPECT_EQ(all.get().size(), 2u);
    }
}

TEST_F(listen, use_cache_hints_off_always_asks) {
    opts.use_cache_hints = false;
    connect();
    for (int round = 0; round < 2; ++round) {
        auto all = start([this] { return c->list_all_resources(); });
        reply(expect_request("resources/list"),
              R"({"resultType":"complete","resources":[],"ttlMs":60000,"cacheScope":"public"})");
        all.get();
    }
}

} // namespace
