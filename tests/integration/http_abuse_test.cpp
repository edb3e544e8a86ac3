// The Streamable HTTP server against a client that means harm, on real sockets: many
// connections from one address, a process with few descriptors, floods of bad tokens, and
// Host / Origin values made to slip past a lenient parser. Each is refused clearly (a status
// and a reason, at once), costs a bounded amount of log, and leaves other clients served.
#include <mcp/http/bearer.hpp>
#include <mcp/http/server.hpp>

#include "support/child_server.hpp"
#include "support/streamable_wire.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using namespace mcp::test; // the wire helpers (streamable_wire.hpp)

namespace {

const std::string initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})";

struct http_abuse : ::testing::Test {
    mcp::server mcp_server{mcp::server_options{.info = {"abuse-test", "1.0"}}};
    std::unique_ptr<mcp::http::server> http;
    std::mutex log_mu;
    std::vector<std::string> log_lines;

    void TearDown() override {
        if (http) http->stop(0ms);
    }
    void start(mcp::http::server_options o = {}) {
        o.port = 0;
        o.log = [this](std::string_view line) {
            std::lock_guard lock(log_mu);
            log_lines.emplace_back(line);
        };
        http = std::make_unique<mcp::http::server>(mcp_server, std::move(o));
        http->start();
    }
    unsigned short port() const { return http->port(); }
    response exchange(const std::string& request, const char* from = nullptr) {
        raw_client c(port(), 0, from);
        EXPECT_TRUE(c.send(request));
        auto r = c.read_response();
        EXPECT_TRUE(r) << request;
        return r ? *r : response{};
    }
    std::size_t logged(std::string_view containing) {
        std::lock_guard lock(log_mu);
        std::size_t n = 0;
        for (const auto& l : log_lines) n += l.find(containing) != std::string::npos;
        return n;
    }
};

// ------------------------------------------------------------------ connections

TEST_F(http_abuse, one_address_cannot_take_every_connection) {
    start({.max_connections = 64, .max_connections_per_address = 4});
    std::vector<std::unique_ptr<raw_client>> idle; // connected, silent: a slowloris
    for (int i = 0; i < 4; ++i) idle.push_back(std::make_unique<raw_client>(port()));
    ASSERT_TRUE(eventually([&] { return http->open_connections() == 4; }));
    raw_client fifth(port());
    auto refused = fifth.read_response();
    ASSERT_TRUE(refused) << "a refused connection must be told, not left waiting";
    EXPECT_EQ(refused->status, 503);
    EXPECT_EQ(refused->header("Connection"), "close");
    EXPECT_TRUE(refused->header("Retry-After"));
    // Another address is served as if nothing happened.
    auto r = exchange(http_post(initialize), "127.0.0.2");
    EXPECT_EQ(r.status, 200) << r.body;
}

// A process with `ulimit -n 96` (soft and hard: it cannot raise it) and the default
// max_connections of 10000: it fits its cap under the limit, and every connection beyond it is
// answered 503 or closed at once. Before, accept() failed with EMFILE and the clients waited
// in the listen backlog until they timed out.
TEST(http_descriptor_limit, a_low_descriptor_limit_refuses_clearly_instead_of_hanging) {
    const std::string server = std::string(MCPXX_BINARY_DIR) + "/everything_server";
    child_server s({"/bin/sh", "-c", "ulimit -n 96 && exec " + server + " --http 127.0.0.1:{port}"});
    ASSERT_TRUE(s.ready());
    // Connections from 30 addresses (the per-address cap is not what is tested here).
    std::vector<std::unique_ptr<raw_client>> conns;
    for (int i = 0; i < 150; ++i) {
        const std::string from = "127.0.1." + std::to_string(10 + i % 30);
        conns.push_back(std::make_unique<raw_client>(s.port(), 0, from.c_str()));
    }
    // Every connection is served (silent, waiting for a request), answered 503, or closed: none
    // may be stuck in the backlog. Served ones are told apart by a request of their own.
    // The refusals are written at once: wait until at least the connections over the limit
    // (fewer than 96 fit under it) have been answered or closed.
    EXPECT_TRUE(eventually(
        [&] {
            std::size_t answered = 0;
            for (auto& c : conns) answered += !c->silent_for(0ms);
            return answered >= conns.size() - 96;
        },
        10s));
    int served = 0, refused = 0, closed = 0;
    for (auto& c : conns) {
        if (c->silent_for(0ms)) { // accepted and waiting for its request (or stuck): send one
            ASSERT_TRUE(c->send(http_post(initialize)));
            auto r = c->read_response();
            ASSERT_TRUE(r) << "a connection got no answer (stuck in the listen backlog?)";
            if (r->status == 200)
                ++served;
            else
                ++refused;
            continue;
        }
        auto r = c->read_response();
        if (r) {
            EXPECT_EQ(r->status, 503);
            ++refused;
        } else {
            ++closed;
        }
    }
    std::cout << "served " << served << ", answered 503 " << refused << ", closed " << closed << "\n";
    EXPECT_GT(served, 20);
    EXPECT_LT(served, 96);
    EXPECT_GT(refused, 0);
    conns.clear();
    // Free again: served.
    raw_client after(s.port());
    ASSERT_TRUE(after.send(http_post(initialize)));
    auto r = after.read_response();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

// ------------------------------------------------------------------ refused authentication

TEST_F(http_abuse, a_flood_of_bad_tokens_gets_429_and_a_bounded_log) {
    mcp::http::bearer_tokens tokens;
    tokens.add("good-token-123", "alice");
    tokens.add("other-token-456", "bob");
    std::atomic<int> refusals_seen{0};
    // A refill so slow (one refusal in ~17 minutes) that however loaded the machine, nothing
    // refills during the test: the counts below are exact.
    start(
        {.max_connections_per_address = 1000,
         .refused_auth_per_second = 0.001,
         .refused_auth_burst = 10,
         .authenticate = tokens.authenticator("test", [&](const mcp::http::request_info&, std::string_view) {
             ++refusals_seen; // what an application logs, one line per refusal
         })});
    // A client with a good token, on the same address (127.0.0.1, as all local clients are).
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer good-token-123\r\n")).status, 200);
    int unauthorized = 0, limited = 0;
    std::optional<std::string> retry_after;
    for (int i = 0; i < 300; ++i) {
        auto r = exchange(
            http_post(initialize, "Authorization: Bearer wrong-token-" + std::to_string(i) + "\r\n"));
        if (r.status == 401) ++unauthorized;
        if (r.status == 429) {
            ++limited;
            retry_after = r.header("Retry-After");
        }
    }
    EXPECT_EQ(unauthorized, 10); // the burst
    EXPECT_EQ(limited, 290);
    ASSERT_TRUE(retry_after);
    EXPECT_GE(std::stoi(*retry_after), 1);
    EXPECT_EQ(refusals_seen.load(), unauthorized); // the hook never even saw the rest
    // The library's own lines: one when the address went over, no line per 429 (a summary
    // line comes only after the 10 s interval).
    EXPECT_EQ(logged("too many refused authentications"), 1u);
    EXPECT_LE(log_lines.size(), 2u);
    // The good token that authenticated before is still served from that address...
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer good-token-123\r\n")).status, 200);
    // ...while the flood goes on being refused, and a credential not seen yet waits its turn.
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer wrong-token-x\r\n")).status, 429);
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer other-token-456\r\n")).status, 429);
    // Another address is heard at once.
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer other-token-456\r\n"), "127.0.0.2").status,
              200);
    // Now bob's token is known too: served from the crowded address as well.
    EXPECT_EQ(exchange(http_post(initialize, "Authorization: Bearer other-token-456\r\n")).status, 200);
}

// ------------------------------------------------------------------ Host and Origin

TEST_F(http_abuse, malformed_host_and_origin_values_are_refused) {
    start();
    const std::string host = "127.0.0.1:" + std::to_string(port());
    EXPECT_EQ(exchange(http_post(initialize, "", host)).status, 200);
    for (const std::string bad :
         {"localhost:abc", "localhost:@evil.example", "[::1]evil", "127.0.0.1:99999"}) {
        auto r = exchange(http_post(initialize, "", bad));
        EXPECT_EQ(r.status, 400) << bad;
        EXPECT_NE(r.body.find("malformed"), std::string::npos) << r.body;
    }
    for (const std::string bad : {"http://localhost:80@evil.example", "http://localhost/",
                                  "http://user@127.0.0.1", "http://[::1]evil"}) {
        auto r = exchange(http_post(initialize, "Origin: " + bad + "\r\n", host));
        EXPECT_EQ(r.status, 403) << bad;
        EXPECT_NE(r.body.find("malformed"), std::string::npos) << r.body;
    }
    EXPECT_EQ(exchange(http_post(initialize, "Origin: http://localhost:3000\r\n", host)).status, 200);
}

} // namespace
