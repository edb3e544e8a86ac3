// Nobody is refused because others walked away (issue 17): at the wire, a full session table
// makes way for a new session by ending the least recently used idle one; busy sessions (a
// request in progress, a standalone stream open) stay, and only when all are busy is initialize
// refused (503); a client at its own cap (max_sessions_per_principal) loses its own oldest idle
// session, never another client's (429 when all of its sessions are busy); the HTTP+SSE
// endpoint has the same caps.
#include "support/http_server_fixture.hpp"

#include <mcp/http/bearer.hpp>

#include <thread>
#include <vector>

namespace {

using namespace mcp::test;
using namespace std::chrono_literals;

std::string bearer(const std::string& who) {
    return "Authorization: Bearer token-of-" + who + "\r\n";
}

struct eviction : http_fixture {
    mcp::http::bearer_tokens tokens;

    void with_principals(std::initializer_list<std::string> names) {
        for (const auto& n : names) tokens.add("token-of-" + n, n);
    }

    /// initialize as `who` (no notifications/initialized); the response.
    response initialize_as(raw_client& c, const std::string& who) {
        EXPECT_TRUE(c.send(http_post(initialize_body(), bearer(who))));
        auto r = c.read_response();
        EXPECT_TRUE(r.has_value());
        return r ? *r : response{};
    }
    std::string session_of(raw_client& c, const std::string& who) {
        auto r = initialize_as(c, who);
        EXPECT_EQ(r.status, 200) << r.body;
        auto sid = r.header("Mcp-Session-Id");
        EXPECT_TRUE(sid.has_value());
        return sid.value_or("");
    }
    /// notifications/initialized then tools/call echo on `sid` as `who`: the status of the first
    /// answer that is not a success (404 for a session that has gone), or 200.
    int use(const std::string& sid, const std::string& who) {
        raw_client c(port());
        if (!c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                              bearer(who) + session_headers(sid))))
            return -1;
        auto ack = c.read_response();
        if (!ack) return -1;
        if (ack->status != 202) return ack->status;
        if (!c.send(http_post(call_body(2, "echo", R"({"text":"still here"})"),
                              bearer(who) + session_headers(sid))))
            return -1;
        auto r = c.read_response();
        if (!r) return -1;
        if (r->status == 200) {
            EXPECT_NE(r->body.find("still here"), std::string::npos) << r->body;
        }
        return r->status;
    }
    /// A tools/call of `slow` on `sid` sent on `c` and left in progress.
    void start_slow(raw_client& c, const std::string& sid, const std::string& who) {
        ASSERT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                     bearer(who) + session_headers(sid))));
        auto ack = c.read_response();
        ASSERT_TRUE(ack && ack->status == 202);
        ASSERT_TRUE(c.send(http_post(call_body(3, "slow"), bearer(who) + session_headers(sid))));
    }
    void expect_refusal(const response& r, int status) {
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_TRUE(r.header("Retry-After").has_value());
        EXPECT_FALSE(r.header("Mcp-Session-Id").has_value());
        const auto body = body_json(r);
        EXPECT_EQ(body.at("id"), 1);
        EXPECT_TRUE(body.at("error").at("message").is_string());
    }
};

TEST_F(eviction, twenty_thousand_abandoned_sessions_do_not_lock_out_a_new_client) {
    // 40 clients with 500 abandoned sessions each: under their own cap (1000), so the whole table
    // (10,000, the default) fills and its least recently used sessions make way.
    constexpr int clients = 40, each = 500;
    for (int i = 0; i < clients; ++i) tokens.add("token-of-c" + std::to_string(i), "c" + std::to_string(i));
    with_principals({"newcomer"});
    start({.authenticate = tokens.authenticator()});
    std::string first, last;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = t; i < clients; i += 4) {
                raw_client c(port()); // one keep-alive connection per client
                const std::string who = "c" + std::to_string(i);
                for (int k = 0; k < each; ++k) {
                    if (!c.send(http_post(initialize_body(), bearer(who)))) {
                        ++failures;
                        return;
                    }
                    auto r = c.read_response();
                    if (!r || r->status != 200) {
                        ++failures;
                        return;
                    }
                    if (i == 0 && k == 0) first = r->header("Mcp-Session-Id").value_or("");
                }
            }
        });
    for (auto& th : threads) th.join();
    ASSERT_EQ(failures.load(), 0);
    EXPECT_EQ(http->sessions(), 10000u);
    EXPECT_TRUE(eventually([&] { return mcp_server.sessions().size() == 10000u; }));

    raw_client c(port());
    const auto sid = session_of(c, "newcomer");
    ASSERT_FALSE(sid.empty());
    EXPECT_EQ(use(sid, "newcomer"), 200);
    // The oldest of them went to make room: its client is told as for any ended session.
    EXPECT_EQ(use(first, "c0"), 404);
    EXPECT_LE(http->sessions(), 10000u);
}

TEST_F(eviction, busy_sessions_stay_and_initialize_is_refused_only_when_all_are_busy) {
    with_principals({"a"});
    start({.max_sessions = 3, .keep_alive_interval = 50ms, .authenticate = tokens.authenticator()});
    raw_client c(port());
    // Oldest first: one listening on its standalone stream, one with a call in progress, one idle.
    const auto listening = session_of(c, "a");
    const auto calling = session_of(c, "a");
    const auto idle = session_of(c, "a");
    raw_client stream(port());
    ASSERT_TRUE(stream.send(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                      bearer("a") + session_headers(listening))));
    ASSERT_TRUE(stream.read_response());
    ASSERT_TRUE(stream.send(http_request(
        "GET", "/mcp", "Accept: text/event-stream\r\n" + bearer("a") + session_headers(listening))));
    auto head = stream.read_head();
    ASSERT_TRUE(head && head->status == 200);
    raw_client slow(port());
    start_slow(slow, calling, "a");
    ASSERT_TRUE(eventually([&] { return slow_started.load() == 1; }));

    // The idle one goes, though it is the newest of the three.
    const auto fourth = session_of(c, "a");
    EXPECT_EQ(use(idle, "a"), 404);
    EXPECT_EQ(http->sessions(), 3u);

    // Now the newest is idle (answered, nothing in progress): it makes way for the next one.
    const auto fifth = session_of(c, "a");
    EXPECT_EQ(use(fourth, "a"), 404);

    // All three busy: refused, with Retry-After and a JSON-RPC error.
    raw_client slow2(port());
    start_slow(slow2, fifth, "a");
    ASSERT_TRUE(eventually([&] { return slow_started.load() == 2; }));
    expect_refusal(initialize_as(c, "a"), 503);

    // The listener goes away: its session is idle from then on, and the next initialize takes
    // its place.
    stream.close();
    std::string sixth;
    ASSERT_TRUE(eventually([&] {
        raw_client d(port());
        auto r = initialize_as(d, "a");
        if (r.status != 200) return false;
        sixth = r.header("Mcp-Session-Id").value_or("");
        return true;
    }));
    EXPECT_EQ(use(listening, "a"), 404);
    release_slow.set_value();
    EXPECT_TRUE(slow.read_response());
    EXPECT_EQ(use(calling, "a"), 200);
    EXPECT_EQ(use(sixth, "a"), 200);
}

TEST_F(eviction, a_client_at_its_cap_loses_its_own_oldest_session_not_another_clients) {
    with_principals({"alice", "bob"});
    start({.max_sessions = 100, .max_sessions_per_principal = 3, .authenticate = tokens.authenticator()});
    raw_client c(port());
    const auto bobs = session_of(c, "bob"); // the oldest of all
    std::vector<std::string> alices;
    for (int i = 0; i < 4; ++i) alices.push_back(session_of(c, "alice"));
    EXPECT_EQ(use(alices[0], "alice"), 404); // her own oldest made way
    EXPECT_EQ(use(bobs, "bob"), 200);
    for (int i = 1; i < 4; ++i) EXPECT_EQ(use(alices[i], "alice"), 200);
    EXPECT_EQ(http->sessions(), 4u);

    // All of hers busy (listening): 429 for her; bob is not affected.
    std::vector<std::unique_ptr<raw_client>> streams;
    for (int i = 1; i < 4; ++i) {
        streams.push_back(std::make_unique<raw_client>(port()));
        ASSERT_TRUE(streams.back()->send(http_request(
            "GET", "/mcp", "Accept: text/event-stream\r\n" + bearer("alice") + session_headers(alices[i]))));
        auto head = streams.back()->read_head();
        ASSERT_TRUE(head && head->status == 200);
    }
    expect_refusal(initialize_as(c, "alice"), 429);
    EXPECT_FALSE(session_of(c, "bob").empty());
    EXPECT_EQ(use(bobs, "bob"), 200);
}

TEST_F(eviction, without_authentication_the_address_is_the_principal) {
    start({.max_sessions = 100, .max_sessions_per_principal = 2});
    raw_client c(port());
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(c.send(http_post(initialize_body())));
        auto r = c.read_response();
        ASSERT_TRUE(r && r->status == 200);
        ids.push_back(r->header("Mcp-Session-Id").value_or(""));
    }
    EXPECT_EQ(http->sessions(), 2u);
    ASSERT_TRUE(c.send(
        http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session_headers(ids[0]))));
    auto gone = c.read_response();
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 404);
}

TEST_F(eviction, the_http_sse_endpoint_has_the_same_caps) {
    with_principals({"alice", "bob", "carol"});
    start({.max_sessions = 3,
           .max_sessions_per_principal = 2,
           .legacy_sse = true,
           .authenticate = tokens.authenticator()});
    // An HTTP+SSE session is its open stream: always busy, so the caps refuse.
    raw_client a1(port()), a2(port()), a3(port()), b1(port()), c1(port());
    EXPECT_FALSE(open_legacy_stream(a1, bearer("alice")).empty());
    EXPECT_FALSE(open_legacy_stream(a2, bearer("alice")).empty());
    // Refused with Retry-After and a JSON-RPC error: 429 over one's own cap, 503 over the total.
    auto refused = [](raw_client& c, const std::string& who, int status) {
        ASSERT_TRUE(c.send(http_request("GET", "/sse", "Accept: text/event-stream\r\n" + bearer(who))));
        auto r = c.read_response();
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, status);
        EXPECT_TRUE(r->header("Retry-After").has_value());
        EXPECT_TRUE(body_json(*r).at("error").at("message").is_string());
    };
    refused(a3, "alice", 429);
    EXPECT_FALSE(open_legacy_stream(b1, bearer("bob")).empty());
    refused(c1, "carol", 503);
    // Closing a stream frees its place.
    a1.close();
    ASSERT_TRUE(eventually([&] { return http->sessions() == 2; }));
    raw_client again(port());
    EXPECT_FALSE(open_legacy_stream(again, bearer("alice")).empty());
}

TEST_F(eviction, a_session_keeps_at_most_1000_resource_subscriptions) {
    mcp_server.add_resource({.uri = "test://r", .name = "r"}, [](const std::string& u, mcp::context&) {
        return mcp::read_resource_result{.contents = {mcp::text_resource_contents{.uri = u, .text = "x"}}};
    });
    start();
    raw_client c(port());
    const auto sid = open_session(c);
    auto subscribe = [&](int id, const std::string& method, const std::string& uri) {
        EXPECT_TRUE(c.send(http_post(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" +
                                         method + R"(","params":{"uri":")" + uri + R"("}})",
                                     session_headers(sid))));
        auto r = c.read_response();
        EXPECT_TRUE(r && r->status == 200);
        return r ? body_json(*r) : mcp::json::object{};
    };
    for (int i = 0; i < 1000; ++i)
        ASSERT_TRUE(
            subscribe(10 + i, "resources/subscribe", "test://r/" + std::to_string(i)).contains("result"));
    const auto over = subscribe(2000, "resources/subscribe", "test://r/one-more");
    ASSERT_TRUE(over.contains("error")) << mcp::json::serialize(over);
    EXPECT_EQ(over.at("error").at("code"), -32602);
    EXPECT_NE(std::string(over.at("error").at("message").as_string()).find("1000 resource subscriptions"),
              std::string::npos);
    EXPECT_TRUE(subscribe(2001, "resources/subscribe", "test://r/7").contains("result")); // held already
    EXPECT_TRUE(subscribe(2002, "resources/unsubscribe", "test://r/7").contains("result"));
    EXPECT_TRUE(subscribe(2003, "resources/subscribe", "test://r/one-more").contains("result"));
}

} // namespace
