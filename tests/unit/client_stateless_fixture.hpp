// Wire-test fixture for mcp::client in the stateless era (2026-07-28): the test plays the server
// over a scripted transport, reads every message the client writes (each checked against the
// official 2026-07-28 schema) and injects the server's answers.
#pragma once

#include <mcp/client/client.hpp>

#include "support/scripted_transport.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>

namespace mcp::test {

/// A DiscoverResult with these capabilities (JSON text), serverInfo in _meta.
inline std::string discover_result_json(const std::string& caps = "{}") {
    return R"({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":)" + caps +
           R"(,"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":)"
           R"({"name":"srv","version":"9"}}})";
}

struct stateless_wire : ::testing::Test {
    std::shared_ptr<scripted_transport> wire = std::make_shared<scripted_transport>();
    client_options opts{.info = {"t", "1"}, .protocol_version = revision::v2026_07_28};
    std::unique_ptr<mcp::client> c;
    wire_schema schema{revision::v2026_07_28};

    mcp::client& make() {
        c = std::make_unique<mcp::client>(opts);
        return *c;
    }

    /// The next message the client writes, parsed, after checking it against the schema (null
    /// when nothing came within `timeout`).
    json::value next(std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
        auto text = wire->next(timeout);
        if (!text) return nullptr;
        auto v = json::parse(*text);
        for (const auto& p : schema.check(v, std::nullopt)) ADD_FAILURE() << p << "\n  in " << *text;
        return v;
    }

    /// The next message, which must be a request for `method`.
    json::value expect_request(std::string_view method) {
        auto v = next();
        EXPECT_TRUE(v.is_object()) << "no " << method << " request";
        if (!v.is_object()) return json::object{{"id", -1}, {"params", json::object()}};
        EXPECT_EQ(std::string_view(v.at("method").as_string()), method) << to_json(v);
        return v;
    }

    /// Answer `request` with `result` (JSON text of the result object).
    void reply(const json::value& request, const std::string& result) {
        wire->inject(R"({"jsonrpc":"2.0","id":)" + to_json(request.at("id")) + R"(,"result":)" + result +
                     "}");
    }
    /// Answer `request` with a JSON-RPC error (JSON text of the error object).
    void reply_error(const json::value& request, const std::string& error) {
        wire->inject(R"({"jsonrpc":"2.0","id":)" + to_json(request.at("id")) + R"(,"error":)" + error + "}");
    }

    /// Connect, answering server/discover with `caps`; returns the discover request.
    json::value connect(const std::string& caps = "{}") {
        if (!c) make();
        auto done = std::async(std::launch::async, [this] { c->connect(wire); });
        auto probe = expect_request("server/discover");
        reply(probe, discover_result_json(caps));
        done.get();
        return probe;
    }

    /// Run `f` (a client call) on another thread; the future yields its result.
    template <class F> auto start(F&& f) { return std::async(std::launch::async, std::forward<F>(f)); }

    /// params._meta of a request.
    static const json::object& meta_of(const json::value& request) {
        return request.at("params").at("_meta").as_object();
    }
};

} // namespace mcp::test
