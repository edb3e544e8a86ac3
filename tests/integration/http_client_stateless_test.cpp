// The HTTP client transport in the 2026-07-28 era (recognised per message by the protocol
// version in params._meta): MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers
// (from the x-mcp-header annotations the transport reads in its own tools/list results, whose
// invalid tools it removes), no session and no GET stream, cancellation by closing the stream,
// and era detection against servers of either era.
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
using mcp::test::sse_event;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;
using mode = mcp::http::transport_mode;
namespace json = mcp::json;

namespace {

constexpr auto wait = 20s;

json::value line(mcp::test::collector& c, std::size_t i) {
    std::lock_guard lock(c.mu);
    return json::parse(c.lines.at(i));
}

struct client {
    std::shared_ptr<mcp::http::client_transport> t;
    mcp::test::collector c;
    std::vector<std::string> logs;
    std::mutex log_mu;

    explicit client(mcp::http::client_transport_options o) {
        o.log = [this](std::string_view s) {
            std::lock_guard lock(log_mu);
            logs.emplace_back(s);
        };
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
    std::string all_logs() {
        std::lock_guard lock(log_mu);
        std::string s;
        for (const auto& l : logs) s += l + "\n";
        return s;
    }
};

// A 2026-07-28 request: params._meta carries the protocol version.
std::string request(int id, std::string method, json::object params = {}) {
    params["_meta"] = json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                   {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
    return mcp::to_json(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

const char* tools_listing = R"({"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[
  {"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}},
  {"name":"invalid_number_header","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}},
  {"name":"greet","inputSchema":{"type":"object","properties":{
      "greeting":{"type":"string","x-mcp-header":"Greeting"},
      "count":{"type":"integer","x-mcp-header":"Count"},
      "opts":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}}}}},
  {"name":"invalid_items_header","inputSchema":{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}}
]})";

TEST(http_client_stateless, request_metadata_headers_and_invalid_tools_dropped) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        if (r.method != "POST") {
            w->respond(405, {}, "");
            return;
        }
        const auto id = r.json().at("id");
        if (r.rpc_method() == "tools/list")
            w->respond(200, http_test_server::json_headers(), rpc_result(id, json::parse(tools_listing)));
        else
            w->respond(200, http_test_server::json_headers(),
                       rpc_result(id, json::object{{"resultType", "complete"}, {"content", json::array{}}}));
    });
    client cl({.url = s.url()});
    auto listed = cl.call(request(1, "tools/list"));
    const auto& tools = listed.at("result").at("tools").as_array();
    ASSERT_EQ(tools.size(), 2u) << listed;
    EXPECT_EQ(tools[0].at("name"), "valid_tool");
    EXPECT_EQ(tools[1].at("name"), "greet");
    EXPECT_EQ(listed.at("result").at("ttlMs"), 0); // the rest of the result is untouched
    const auto logs = cl.all_logs();
    EXPECT_NE(logs.find("invalid_number_header"), std::string::npos) << logs;
    EXPECT_NE(logs.find("invalid_items_header"), std::string::npos) << logs;

    cl.call(request(2, "tools/call",
                    {{"name", "valid_tool"}, {"arguments", json::object{{"region", "us-west1"}}}}));
    cl.call(request(3, "tools/call",
                    {{"name", "greet"},
                     {"arguments", json::object{{"greeting", "Hello, \xE4\xB8\x96\xE7\x95\x8C"},
                                                {"count", 3},
                                                {"opts", json::object{{"flag", true}}}}}}));
    cl.call(
        request(4, "tools/call", {{"name", "greet"}, {"arguments", json::object{{"greeting", nullptr}}}}));
    cl.call(request(5, "resources/read", {{"uri", "file:///projects/myapp/config.json"}}));
    cl.call(request(6, "prompts/get", {{"name", " padded "}}));
    cl.call(request(7, "tools/call", {{"name", "=?base64?literal?="}, {"arguments", json::object{}}}));

    auto posts = s.requests(http_test_server::method_is("POST"));
    ASSERT_EQ(posts.size(), 7u);
    for (const auto& p : posts) {
        EXPECT_EQ(p.header("MCP-Protocol-Version"), "2026-07-28");
        EXPECT_EQ(p.header("Mcp-Method"), p.rpc_method());
        EXPECT_FALSE(p.header("Mcp-Session-Id"));
        EXPECT_EQ(p.header("Accept"), "application/json, text/event-stream");
    }
    EXPECT_FALSE(posts[0].header("Mcp-Name"));
    EXPECT_EQ(posts[1].header("Mcp-Name"), "valid_tool");
    EXPECT_EQ(posts[1].header("Mcp-Param-Region"), "us-west1");
    EXPECT_EQ(posts[2].header("Mcp-Name"), "greet");
    EXPECT_EQ(posts[2].header("Mcp-Param-Greeting"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
    EXPECT_EQ(posts[2].header("Mcp-Param-Count"), "3");
    EXPECT_EQ(posts[2].header("Mcp-Param-Flag"), "true");
    EXPECT_FALSE(posts[3].header("Mcp-Param-Greeting")); // null: omitted
    EXPECT_FALSE(posts[3].header("Mcp-Param-Count"));    // absent: omitted
    EXPECT_EQ(posts[4].header("Mcp-Name"), "file:///projects/myapp/config.json");
    EXPECT_EQ(posts[5].header("Mcp-Name"), "=?base64?IHBhZGRlZCA=?=");
    EXPECT_EQ(posts[6].header("Mcp-Name"), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
    cl.t->close();
    EXPECT_TRUE(s.requests(http_test_server::method_is("DELETE")).empty());
}

TEST(http_client_stateless, cancellation_closes_the_request_stream_instead_of_posting) {
    std::promise<void> stream_closed;
    std::mutex mu;
    std::vector<writer_ptr> held; // a dropped writer would cut the stream: keep them
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.rpc_method() != "tools/call") {
            w->respond(500, {}, "unexpected " + r.method + " " + r.body);
            return;
        }
        if (r.json().at("params").at("name") != "slow") { // the call made afterwards
            w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
            return;
        }
        {
            std::lock_guard lock(mu);
            held.push_back(w);
        }
        w->on_close([&] { stream_closed.set_value(); });
        w->start_stream(200, http_test_server::sse_headers());
        w->write(sse_event(
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}})"));
        // ... and never answers.
    });
    client cl({.url = s.url()});
    cl.t->send(request(1, "tools/call", {{"name", "slow"}}));
    ASSERT_TRUE(cl.c.wait_lines(1, wait));
    EXPECT_EQ(line(cl.c, 0).at("method"), "notifications/progress");
    cl.t->send(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}})");
    ASSERT_EQ(stream_closed.get_future().wait_for(wait), std::future_status::ready);
    // Nothing more: no POST of the notification, no answer for the cancelled request.
    auto after = cl.call(request(2, "tools/call", {{"name", "slow-2"}}));
    (void)after;
    for (const auto& r : s.requests()) EXPECT_NE(r.rpc_method(), "notifications/cancelled");
    std::lock_guard lock(cl.c.mu);
    for (const auto& l : cl.c.lines) EXPECT_EQ(l.find("\"id\":1,"), std::string::npos) << l;
}

TEST(http_client_stateless, discover_to_an_initialize_era_server_is_answered_method_not_found) {
    // What a 2025 server typically does with a request outside a session: 400 with an
    // id-less error that is not one of the modern codes; GET without a session: 400 too.
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        if (r.method == "POST" && r.rpc_method() == "initialize") {
            w->respond(
                200, http_test_server::json_headers({{"Mcp-Session-Id", "s1"}}),
                rpc_result(r.json().at("id"),
                           json::object{{"protocolVersion", "2025-11-25"},
                                        {"capabilities", json::object{}},
                                        {"serverInfo", json::object{{"name", "old"}, {"version", "1"}}}}));
            return;
        }
        w->respond(
            400, http_test_server::json_headers(),
            R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null})");
    });
    client cl({.url = s.url()});
    auto v = cl.call(request(1, "server/discover"));
    EXPECT_EQ(v.at("id"), 1);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::method_not_found) << v;
    EXPECT_EQ(cl.t->current_wire(), mcp::http::client_transport::wire::undecided);
    EXPECT_EQ(s.requests(http_test_server::method_is("GET")).size(), 1u); // the legacy attempt
    // The client falls back to initialize, over Streamable HTTP.
    auto init = cl.call(
        R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
    EXPECT_EQ(init.at("result").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(cl.t->current_wire(), mcp::http::client_transport::wire::streamable);
    EXPECT_EQ(cl.t->session_id(), "s1");
}

TEST(http_client_stateless, a_modern_error_is_delivered_and_settles_the_wire) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(400, http_test_server::json_headers(),
                   mcp::to_json(json::object{
                       {"jsonrpc", "2.0"},
                       {"id", r.json().at("id")},
                       {"error", json::object{{"code", -32022},
                                              {"message", "Unsupported protocol version"},
                                              {"data", json::object{{"supported", json::array{"2026-09-01"}},
                                                                    {"requested", "2026-07-28"}}}}}}));
    });
    client cl({.url = s.url()});
    auto v = cl.call(request(1, "server/discover"));
    EXPECT_EQ(v.at("error").at("code"), -32022);
    EXPECT_EQ(v.at("error").at("data").at("supported").as_array().size(), 1u);
    EXPECT_EQ(cl.t->current_wire(), mcp::http::client_transport::wire::streamable);
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_stateless, unknown_method_404_with_jsonrpc_error_is_not_a_legacy_server) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(404, http_test_server::json_headers(),
                   mcp::test::rpc_error(r.json().at("id"), -32601, "Method not found"));
    });
    client cl({.url = s.url()});
    auto v = cl.call(request(1, "tools/frobnicate"));
    EXPECT_EQ(v.at("error").at("code"), -32601);
    EXPECT_EQ(v.at("error").at("message"), "Method not found");
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_stateless, a_cut_stream_is_not_resumed_in_the_stateless_era) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        w->write("id: 1\nretry: 10\ndata: \n\n");
        w->end();
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(request(1, "tools/call", {{"name", "x"}}));
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_stateless, no_client_responses_are_posted) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    cl.call(request(1, "tools/list"));
    cl.t->send(R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}})");
    cl.call(request(2, "tools/list"));
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST(http_client_stateless, a_cancelled_probe_lets_the_messages_behind_it_go) {
    // server/discover is never answered; the session gives up on it (notifications/cancelled,
    // which closes the probe's stream) and falls back to initialize, which must be POSTed.
    std::mutex mu;
    std::vector<writer_ptr> held;
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.rpc_method() == "server/discover") {
            std::lock_guard lock(mu);
            held.push_back(std::move(w));
            return;
        }
        w->respond(200, http_test_server::json_headers(),
                   rpc_result(r.json().at("id"),
                              json::object{{"protocolVersion", "2025-11-25"},
                                           {"capabilities", json::object{}},
                                           {"serverInfo", json::object{{"name", "old"}, {"version", "1"}}}}));
    });
    client cl({.url = s.url()});
    cl.t->send(request(1, "server/discover"));
    ASSERT_TRUE(s.wait_requests(1));
    cl.t->send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
    auto init = cl.call(
        R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
    EXPECT_EQ(init.at("id"), 2);
    EXPECT_EQ(init.at("result").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(cl.t->current_wire(), mcp::http::client_transport::wire::streamable);
}

TEST(http_client_stateless, a_cancelled_probe_ends_the_legacy_attempt_it_started) {
    // The probe's refusal (plain 400) started an HTTP+SSE attempt whose GET never sends the
    // endpoint event; cancelling the probe abandons that attempt at once.
    std::mutex mu;
    std::vector<writer_ptr> held;
    std::promise<void> get_closed;
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.method == "GET") {
            w->on_close([&] { get_closed.set_value(); });
            w->start_stream(200, http_test_server::sse_headers());
            w->write(": hello\n\n");
            std::lock_guard lock(mu);
            held.push_back(std::move(w));
            return;
        }
        if (r.rpc_method() == "server/discover") {
            w->respond(400, {{"Content-Type", "text/plain"}}, "bad");
            return;
        }
        w->respond(200, http_test_server::json_headers(),
                   rpc_result(r.json().at("id"),
                              json::object{{"protocolVersion", "2025-11-25"},
                                           {"capabilities", json::object{}},
                                           {"serverInfo", json::object{{"name", "old"}, {"version", "1"}}}}));
    });
    client cl({.url = s.url(), .connect_timeout = 30s});
    cl.t->send(request(1, "server/discover"));
    ASSERT_TRUE(s.wait_requests(1, http_test_server::method_is("GET")));
    cl.t->send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
    ASSERT_EQ(get_closed.get_future().wait_for(wait), std::future_status::ready);
    auto init = cl.call(
        R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})");
    EXPECT_EQ(init.at("result").at("protocolVersion"), "2025-11-25");
    std::lock_guard lock(cl.c.mu);
    for (const auto& l : cl.c.lines) EXPECT_EQ(l.find("\"id\":1,"), std::string::npos) << l;
}

TEST(http_client_stateless, control_characters_of_a_server_never_reach_a_log_line_raw) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::parse(R"({
            "resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[
            {"name":"bad_crlf","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A\r\nX-Evil: 1"}}}},
            {"name":"evil\u001b[31m\nname","inputSchema":{"type":"object","properties":{"b":{"type":"number","x-mcp-header":"B"}}}},
            {"name":"\u2028bad\u0085","inputSchema":{"type":"object","properties":{"c\nd":{"type":"object","x-mcp-header":"C"}}}}]})")));
    });
    client cl({.url = s.url()});
    auto listed = cl.call(request(1, "tools/list"));
    EXPECT_TRUE(listed.at("result").at("tools").as_array().empty()) << listed;
    std::vector<std::string> logs;
    {
        std::lock_guard lock(cl.log_mu);
        logs = cl.logs;
    }
    ASSERT_EQ(logs.size(), 3u);
    for (const auto& l : logs) {
        for (char ch : l) EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) << l;
        EXPECT_EQ(l.find("\xE2\x80\xA8"), std::string::npos) << l; // U+2028
        EXPECT_EQ(l.find("\xC2\x85"), std::string::npos) << l;     // U+0085
    }
    EXPECT_NE(logs[0].find(R"("A\r\nX-Evil: 1")"), std::string::npos) << logs[0];
    EXPECT_NE(logs[1].find(R"(evil\x1b[31m\nname)"), std::string::npos) << logs[1];
    EXPECT_NE(logs[2].find(R"(\u2028bad\u0085)"), std::string::npos) << logs[2];
    EXPECT_NE(logs[2].find(R"(/c\nd)"), std::string::npos) << logs[2];
}

TEST(http_client_stateless, an_integer_no_header_can_carry_fails_the_call_before_sending) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        if (r.rpc_method() == "tools/list")
            w->respond(200, http_test_server::json_headers(),
                       rpc_result(r.json().at("id"), json::parse(tools_listing)));
        else
            w->respond(200, http_test_server::json_headers(),
                       rpc_result(r.json().at("id"),
                                  json::object{{"resultType", "complete"}, {"content", json::array{}}}));
    });
    client cl({.url = s.url()});
    cl.call(request(1, "tools/list"));
    // 2^53 - 1 is the largest integer a header may carry; 2^53 is not, nor -(2^53).
    cl.call(
        request(2, "tools/call",
                {{"name", "greet"}, {"arguments", json::object{{"count", std::int64_t{9007199254740991}}}}}));
    for (auto [id, n] : {std::pair{3, json::value(std::int64_t{9007199254740992})},
                         std::pair{4, json::value(std::int64_t{-9007199254740992})},
                         std::pair{5, json::value(std::uint64_t{18446744073709551615ull})},
                         std::pair{6, json::parse("1e300")}}) {
        auto v = cl.call(
            request(id, "tools/call", {{"name", "greet"}, {"arguments", json::object{{"count", n}}}}));
        EXPECT_EQ(v.at("id"), id);
        EXPECT_EQ(v.at("error").at("code"), mcp::error_code::invalid_params) << v;
        const std::string m(v.at("error").at("message").as_string());
        EXPECT_NE(m.find("/count"), std::string::npos) << m;
        EXPECT_NE(m.find("Mcp-Param-Count"), std::string::npos) << m;
    }
    auto calls = s.requests(http_test_server::rpc_is("tools/call"));
    ASSERT_EQ(calls.size(), 1u); // only the one that fits was sent
    EXPECT_EQ(calls[0].header("Mcp-Param-Count"), "9007199254740991");
    // The transport goes on.
    auto ok =
        cl.call(request(7, "tools/call", {{"name", "greet"}, {"arguments", json::object{{"count", 1}}}}));
    EXPECT_TRUE(ok.as_object().contains("result")) << ok;
}

} // namespace
