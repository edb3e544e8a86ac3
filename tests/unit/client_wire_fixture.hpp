// Wire-test fixture for mcp::client: the test plays the server over a scripted transport,
// reading the exact text the client writes and injecting the server's replies.
#pragma once

#include <mcp/client/client.hpp>

#include "support/scripted_transport.hpp"

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>

namespace mcp::test {

struct client_wire : ::testing::Test {
    std::shared_ptr<scripted_transport> wire = std::make_shared<scripted_transport>();
    /// The initialize era (these tests play an initialize-era server); the stateless era's
    /// wire tests set protocol_version themselves.
    client_options opts{.info = {"t", "1"}, .protocol_version = latest_initialize_revision};
    std::unique_ptr<mcp::client> c;

    /// Create the client from `opts` (tests adjust opts and handlers around this).
    mcp::client& make() {
        c = std::make_unique<mcp::client>(opts);
        return *c;
    }

    /// Connect, answering initialize with `version` (default: the version asked for) and
    /// `server_caps`; checks that notifications/initialized follows. Returns the initialize
    /// request exactly as written.
    std::string connect(std::string version = {}, std::string server_caps = "{}") {
        if (!c) make();
        auto done = std::async(std::launch::async, [this] { c->connect(wire); });
        auto init = wire->next();
        if (!init) {
            ADD_FAILURE() << "no initialize request";
            return {};
        }
        if (version.empty())
            version = json::parse(*init).at("params").at("protocolVersion").as_string().c_str();
        wire->inject(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":")" + version +
                     R"(","capabilities":)" + server_caps +
                     R"(,"serverInfo":{"name":"srv","version":"9"}}})");
        done.get();
        EXPECT_EQ(wire->next().value_or("<nothing>"),
                  R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
        return *init;
    }

    /// Run `f` (a client call) on another thread, check the request it writes against
    /// `expected_request` (exact text, unless empty) and answer it with `result` (JSON text).
    template <class F> auto exchange(F&& f, const std::string& expected_request, const std::string& result) {
        auto fut = std::async(std::launch::async, std::forward<F>(f));
        answer(expected_request, result);
        return fut.get();
    }

    /// Read the next request, compare it with `expected_request` (if not empty) and answer it.
    /// Returns the request text.
    std::string answer(const std::string& expected_request, const std::string& result) {
        auto sent = wire->next();
        if (!sent) {
            ADD_FAILURE() << "no request was written";
            return {};
        }
        if (!expected_request.empty()) {
            EXPECT_EQ(*sent, expected_request);
        }
        auto id = mcp::to_json(json::parse(*sent).at("id"));
        wire->inject(R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + result + "}");
        return *sent;
    }
};

} // namespace mcp::test
