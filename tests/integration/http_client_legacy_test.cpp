// The HTTP+SSE transport of 2024-11-05 in the client: reached by falling back when the first
// POST is refused (400/404/405 without a modern JSON-RPC error), or chosen outright. The GET
// stream's first event names the endpoint; messages are POSTed there and every answer comes on
// the stream.
#include "support/http_test_server.hpp"
#include "support/transport_collector.hpp"

#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <future>

using namespace std::chrono_literals;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using mcp::test::rpc_result;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;
using mode = mcp::http::transport_mode;
using wire = mcp::http::client_transport::wire;
namespace json = mcp::json;

namespace {

constexpr auto wait = 20s;

json::value line(mcp::test::collector& c, std::size_t i) {
    std::lock_guard lock(c.mu);
    return json::parse(c.lines.at(i));
}

// A legacy server: GET <sse_path> opens the stream and names <endpoint>; POSTs to the endpoint
// are accepted (202) and answered on the stream (requests get an empty result, initialize a
// real one). Anything else: 404 with an HTML page, as an Express app says.
class legacy_server {
public:
    explicit legacy_server(std::string sse_path = "/mcp", std::string endpoint = "/messages?sessionId=abc")
        : sse_path_(std::move(sse_path)), endpoint_(std::move(endpoint)),
          s_([this](const recorded_request& r, writer_ptr w) { handle(r, std::move(w)); }) {}

    http_test_server& http() { return s_; }
    std::string url() { return s_.url(sse_path_); }
    bool wait_stream_closed() { return closed_.get_future().wait_for(wait) == std::future_status::ready; }
    void end_stream() {
        std::lock_guard lock(mu_);
        if (stream_) stream_->end();
    }
    std::string endpoint_event_data;

private:
    void handle(const recorded_request& r, writer_ptr w) {
        if (r.method == "GET" && r.target == sse_path_) {
            w->start_stream(200, http_test_server::sse_headers());
            w->write("event: endpoint\ndata: " +
                     (endpoint_event_data.empty() ? endpoint_ : endpoint_event_data) + "\n\n");
            w->on_close([this] { closed_.set_value(); });
            std::lock_guard lock(mu_);
            stream_ = std::move(w);
            return;
        }
        if (r.method == "POST" && r.target == endpoint_) {
            w->respond(202, {{"Content-Type", "text/plain"}}, "Accepted");
            auto v = r.json();
            if (!v.as_object().contains("id") || !v.as_object().contains("method")) return;
            json::value result = json::object{};
            if (r.rpc_method() == "initialize")
                result = json::object{{"protocolVersion", "2024-11-05"},
                                      {"capabilities", json::object{}},
                                      {"serverInfo", json::object{{"name", "legacy"}, {"version", "1"}}}};
            std::lock_guard lock(mu_);
            if (stream_) stream_->write("event: message\ndata: " + rpc_result(v.at("id"), result) + "\n\n");
            return;
        }
        w->respond(404, {{"Content-Type", "text/html"}},
                   "<pre>Cannot " + r.method + " " + r.target + "</pre>");
    }

    std::string sse_path_, endpoint_;
    std::mutex mu_;
    writer_ptr stream_;
    std::promise<void> closed_;
    http_test_server s_;
};

struct client {
    std::shared_ptr<mcp::http::client_transport> t;
    mcp::test::collector c;
    explicit client(mcp::http::client_transport_options o) {
        o.log = [](std::string_view) {};
        t = mcp::http::make_client_transport(std::move(o));
        t->start(c.handler());
    }
    ~client() { t->close(); }
    json::value call(const std::string& request) {
        std::size_t before;
        {
            std::lock_guard lock(c.mu);
            before = c.lines.size();
        }
        t->send(request);
        EXPECT_TRUE(c.wait_lines(before + 1, wait));
        return line(c, before);
    }
};

const std::string init =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})";

TEST(http_client_legacy, falls_back_when_the_post_is_refused_and_resends_over_the_endpoint) {
    legacy_server s;
    client cl({.url = s.url()});
    auto v = cl.call(init);
    EXPECT_EQ(v.at("id"), 1);
    EXPECT_EQ(v.at("result").at("protocolVersion"), "2024-11-05");
    EXPECT_EQ(cl.t->current_wire(), wire::legacy_sse);
    cl.t->send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    auto p = cl.call(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    EXPECT_EQ(p.at("id"), 2);

    auto reqs = s.http().requests();
    ASSERT_GE(reqs.size(), 5u);
    EXPECT_EQ(reqs[0].method, "POST"); // the Streamable HTTP attempt
    EXPECT_EQ(reqs[0].target, "/mcp");
    EXPECT_EQ(reqs[1].method, "GET"); // the fallback
    EXPECT_EQ(reqs[1].header("Accept"), "text/event-stream");
    EXPECT_EQ(reqs[2].target, "/messages?sessionId=abc"); // the same initialize, again
    EXPECT_EQ(reqs[2].rpc_method(), "initialize");
    for (std::size_t i = 2; i < reqs.size(); ++i) {
        EXPECT_FALSE(reqs[i].header("Mcp-Session-Id"));
        EXPECT_FALSE(reqs[i].header("MCP-Protocol-Version"));
    }
    cl.t->close();
    EXPECT_TRUE(s.wait_stream_closed());
    EXPECT_TRUE(s.http().requests(http_test_server::method_is("DELETE")).empty());
}

TEST(http_client_legacy, forced_legacy_mode_opens_the_stream_at_start) {
    legacy_server s("/sse", "/message?sessionId=1");
    client cl({.url = s.url(), .mode = mode::legacy_sse});
    auto v = cl.call(init);
    EXPECT_EQ(v.at("result").at("protocolVersion"), "2024-11-05");
    auto reqs = s.http().requests();
    ASSERT_EQ(reqs.size(), 2u);
    EXPECT_EQ(reqs[0].method, "GET");
    EXPECT_EQ(reqs[1].target, "/message?sessionId=1");
}

TEST(http_client_legacy, a_2026_request_to_a_legacy_server_gets_method_not_found_then_initialize_works) {
    legacy_server s;
    client cl({.url = s.url()});
    auto v = cl.call(
        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})");
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::method_not_found);
    EXPECT_EQ(cl.t->current_wire(), wire::legacy_sse);
    auto i = cl.call(
        R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
    EXPECT_EQ(i.at("id"), 2);
    // discover was never sent to the endpoint.
    for (const auto& r : s.http().requests())
        if (r.target != "/mcp") {
            EXPECT_NE(r.rpc_method(), "server/discover");
        }
}

TEST(http_client_legacy, streamable_mode_never_falls_back) {
    legacy_server s;
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(init);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_EQ(v.at("error").at("data").at("httpStatus"), 404);
    EXPECT_TRUE(s.http().requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_legacy, an_endpoint_on_another_origin_is_refused) {
    legacy_server s;
    s.endpoint_event_data = "http://evil.example/steal";
    // Sent before start(), so that it is queued before the stream can fail (a message sent
    // after the transport closed itself is the session's to fail).
    auto t = mcp::http::make_client_transport(
        {.url = s.url(), .mode = mode::legacy_sse, .log = [](std::string_view) {}});
    t->send(init);
    mcp::test::collector c;
    t->start(c.handler());
    ASSERT_TRUE(c.wait_closed(wait));
    ASSERT_TRUE(c.wait_lines(1, wait));
    auto v = line(c, 0);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(std::string(v.at("error").at("message").as_string()).find("origin"), std::string::npos) << v;
    for (const auto& r : s.http().requests()) EXPECT_NE(r.method, "POST");
}

TEST(http_client_legacy, the_end_of_the_stream_ends_the_transport) {
    legacy_server s;
    client cl({.url = s.url()});
    cl.call(init);
    s.end_stream();
    ASSERT_TRUE(cl.c.wait_closed(wait));
    ASSERT_TRUE(cl.c.wait_errors(1, wait));
    EXPECT_NE(cl.c.errors[0].find("ended"), std::string::npos);
}

TEST(http_client_legacy, not_a_legacy_server_either_gives_the_original_refusal) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->respond(405, {{"Allow", "GET"}}, "");
    });
    client cl({.url = s.url()});
    auto v = cl.call(init);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_EQ(v.at("error").at("data").at("httpStatus"), 405);
    EXPECT_EQ(cl.t->current_wire(), wire::undecided);
}

} // namespace
