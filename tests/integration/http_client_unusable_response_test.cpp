// A response the client cannot use - over the size limit, invalid UTF-8, nested too deep - on
// the SSE stream of a POST (which the server keeps open) fails its request at once with the
// reason, through the real HTTP client transport and session, instead of at its timeout.
#include "support/http_test_server.hpp"

#include <mcp/http/client_transport.hpp>
#include <mcp/session/session.hpp>

#include <gmock/gmock.h>

#include <chrono>
#include <mutex>

using namespace std::chrono_literals;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using testing::HasSubstr;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;

namespace {

/// Answers the POST with an SSE stream holding the one event `event_of(id)` and never ends it
/// (until the test does).
struct unusable_server {
    std::mutex mu;
    std::vector<writer_ptr> open;
    std::function<std::string(const std::string& id)> event_of;
    http_test_server s{[this](const recorded_request& r, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        w->write("data: " + event_of(mcp::to_json(r.json().at("id"))) + "\n\n");
        std::lock_guard lock(mu);
        open.push_back(std::move(w));
    }};
    ~unusable_server() {
        std::lock_guard lock(mu);
        for (auto& w : open) w->end();
    }
};

void expect_fails_at_once(std::function<std::string(const std::string&)> event_of, const std::string& reason) {
    unusable_server srv;
    srv.event_of = std::move(event_of);
    mcp::http::client_transport_options o{.url = srv.s.url(), .mode = mcp::http::transport_mode::streamable};
    o.log = [](std::string_view) {};
    auto t = mcp::http::make_client_transport(std::move(o));
    mcp::session_options so;
    so.diagnostic_sink = [](std::string_view) {};
    so.max_message_size = 1u << 20;
    auto s = mcp::session::create(t, so);
    s->start();
    const auto began = std::chrono::steady_clock::now();
    try {
        s->call("ping", nullptr, {.timeout = 30s});
        ADD_FAILURE() << "the call succeeded";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::parse_error) << e.what();
        EXPECT_THAT(e.what(), HasSubstr("cannot be used: " + reason));
    }
    EXPECT_LT(std::chrono::steady_clock::now() - began, 5s) << "the call waited for its timeout";
    s->close();
}

TEST(http_client_unusable_response, an_oversize_sse_response_fails_at_once) {
    expect_fails_at_once(
        [](const std::string& id) {
            return R"({"jsonrpc":"2.0","result":{"pad":")" + std::string(2u << 20, 'x') + R"("},"id":)" + id + "}";
        },
        "message of 2097");
}

TEST(http_client_unusable_response, invalid_utf8_fails_at_once) {
    expect_fails_at_once(
        [](const std::string& id) { return R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"t":"\xff\xfe"}})"; },
        "it is not valid JSON text");
}

TEST(http_client_unusable_response, a_response_nested_too_deep_fails_at_once) {
    expect_fails_at_once(
        [](const std::string& id) {
            return R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"d":)" + std::string(100, '[') +
                   std::string(100, ']') + "}}";
        },
        "it is not valid JSON text");
}

} // namespace
