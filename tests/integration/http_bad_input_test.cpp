// The Streamable HTTP server (mcp::http::server) against requests that are wrong in the ways a
// careless client, a confused proxy or an attacker makes them wrong, byte for byte on a real
// socket: media ranges in Content-Type and weights of zero in Accept, header lines sent twice,
// mirrored tool parameters that do not say what the body says, initialize requests that must
// not leave a session behind, protocol versions on GET and DELETE, batches where they do not
// belong or with elements that cannot run, the absolute-form request-target; and requests that
// middleware refuse, whose error code is the HTTP status they get.
#include <mcp/http/server.hpp>

#include "support/streamable_wire.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using mcp::json::object;
using namespace mcp::test; // the wire helpers (streamable_wire.hpp)

namespace {

std::string initialize_body(std::string_view id = "1", std::string_view version = "2025-11-25",
                            std::string_view params = "") {
    const std::string p = params.empty()
                              ? R"({"protocolVersion":")" + std::string(version) +
                                    R"(","capabilities":{},"clientInfo":{"name":"raw","version":"1"}})"
                              : std::string(params);
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"initialize","params":)" + p + "}";
}

const std::string stateless_meta =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

std::string stateless_call(int id, std::string_view tool, std::string_view arguments) {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" +
           std::string(tool) + R"(","arguments":)" + std::string(arguments) + R"(,"_meta":)" +
           stateless_meta + "}}";
}

std::string call_headers(std::string_view tool) {
    return "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + std::string(tool) +
           "\r\n";
}

/// A POST whose header block is exactly `headers` (plus Host and Content-Length).
std::string raw_post(std::string_view body, std::string_view headers, std::string_view target = "/mcp",
                     std::string_view host = "127.0.0.1") {
    return "POST " + std::string(target) + " HTTP/1.1\r\nHost: " + std::string(host) +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + std::string(headers) + "\r\n" +
           std::string(body);
}

std::string json_type_and_accept() {
    return "Content-Type: application/json\r\n" + accept_both;
}

std::string error_message(const response& r) {
    return std::string(body_json(r).at("error").at("message").as_string());
}

struct http_bad_input : ::testing::Test {
    mcp::server mcp_server{mcp::server_options{.info = {"bad-input-test", "1.0"}}};
    std::unique_ptr<mcp::http::server> http;

    void SetUp() override {
        mcp_server.add_tool(
            {.name = "echo",
             .input_schema = object{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}}},
            [](const object& a, mcp::context&) {
                return mcp::call_tool_result{.content = {mcp::text(std::string(a.at("text").as_string()))}};
            });
        // Arguments mirrored into Mcp-Param-Region and Mcp-Param-Limit (2026-07-28).
        mcp_server.add_tool(
            {.name = "lookup",
             .input_schema = object{{"type", "object"},
                                    {"properties",
                                     {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                      {"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}}}}}},
            [](const object&, mcp::context&) {
                return mcp::call_tool_result{.content = {mcp::text("found")}};
            });
    }
    void TearDown() override {
        if (http) http->stop(0ms);
    }
    void start(mcp::http::server_options o = {}) {
        o.port = 0;
        http = std::make_unique<mcp::http::server>(mcp_server, std::move(o));
        http->start();
    }
    unsigned short port() const { return http->port(); }

    /// One request on a connection of its own, and its response.
    response exchange(const std::string& request) {
        raw_client c(port());
        EXPECT_TRUE(c.send(request));
        auto r = c.read_response();
        EXPECT_TRUE(r) << request;
        return r ? *r : response{};
    }

    /// initialize (+ notifications/initialized) at `version`; the session id.
    std::string open_session(std::string_view version = "2025-11-25") {
        auto init = exchange(http_post(initialize_body("1", version)));
        EXPECT_EQ(init.status, 200) << init.body;
        const auto sid = init.header("Mcp-Session-Id").value_or("");
        EXPECT_FALSE(sid.empty());
        auto ack = exchange(http_post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                      "Mcp-Session-Id: " + sid +
                                          "\r\nMCP-Protocol-Version: " + std::string(version) + "\r\n"));
        EXPECT_EQ(ack.status, 202);
        return sid;
    }
};

// ------------------------------------------------------------------ refused by middleware

TEST_F(http_bad_input, middleware_refusals_carry_their_http_status_as_code_in_both_eras) {
    mcp_server.use([](mcp::incoming_call& call, const mcp::receive_next& next) -> mcp::json::value {
        if (call.method() == "tools/list") throw mcp::error(mcp::error_code::unauthorized, "who are you?");
        if (call.method() == "tools/call") throw mcp::error(mcp::error_code::forbidden, "not for you");
        if (call.method() == "prompts/list")
            throw mcp::error(mcp::error_code::rate_limited, "slow down", object{{"retryAfterMs", 1500}});
        // The codes used before are nothing special any more: an ordinary error, HTTP 200.
        if (call.method() == "resources/list") throw mcp::error(-32005, "an application's own error");
        return next(call);
    });
    // Something to list, so that the methods exist (else -32601 before any middleware).
    mcp_server.add_prompt({.name = "p"}, [](const std::map<std::string, std::string>&, mcp::context&) {
        return mcp::get_prompt_result{};
    });
    mcp_server.add_resource({.uri = "mem://r", .name = "r"},
                            [](const std::string&, mcp::context&) { return mcp::read_resource_result{}; });
    start();
    struct expectation {
        std::string method;
        int code;
        int status;
    };
    const std::vector<expectation> cases{{"tools/list", 401, 401},
                                         {"tools/call", 403, 403},
                                         {"prompts/list", 429, 429},
                                         {"resources/list", -32005, 200}};
    auto check = [&](const response& r, const expectation& e, const std::string& era) {
        EXPECT_EQ(r.status, e.status) << e.method << " " << era << ": " << r.body;
        EXPECT_EQ(body_json(r).at("error").at("code"), e.code) << e.method << " " << era;
        EXPECT_EQ(r.header("WWW-Authenticate").has_value(), e.code == 401) << e.method << " " << era;
        if (e.code == 429) {
            EXPECT_EQ(r.header("Retry-After").value_or(""), "2") << era;
        }
    };
    const auto sid = open_session();
    int id = 10;
    for (const auto& e : cases) {
        const std::string params =
            e.method == "tools/call" ? R"({"name":"echo","arguments":{"text":"x"}})" : "{}";
        check(exchange(http_post(R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":")" +
                                     e.method + R"(","params":)" + params + "}",
                                 session_headers(sid))),
              e, "initialize era");
        const std::string stateless_params =
            e.method == "tools/call"
                ? R"({"name":"echo","arguments":{"text":"x"},"_meta":)" + stateless_meta + "}"
                : R"({"_meta":)" + stateless_meta + "}";
        check(exchange(http_post(R"({"jsonrpc":"2.0","id":)" + std::to_string(++id) + R"(,"method":")" +
                                     e.method + R"(","params":)" + stateless_params + "}",
                                 "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " + e.method + "\r\n" +
                                     (e.method == "tools/call" ? "Mcp-Name: echo\r\n" : ""))),
              e, "2026-07-28");
    }
}

// ------------------------------------------------------------------ media types

TEST_F(http_bad_input, content_type_lines_that_disagree_are_415) {
    start();
    const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    auto r = exchange(
        raw_post(body, accept_both + "Content-Type: application/json\r\nContent-Type: text/plain\r\n"));
    EXPECT_EQ(r.status, 415);
    EXPECT_NE(error_message(r).find("disagree"), std::string::npos);
    EXPECT_EQ(exchange(raw_post(body, accept_both +
                                          "Content-Type: text/plain\r\nContent-Type: application/json\r\n"))
                  .status,
              415);
    // Saying the same twice is no disagreement.
    EXPECT_EQ(
        exchange(raw_post(initialize_body(), accept_both + "Content-Type: application/json\r\nContent-Type: "
                                                           "application/json; charset=utf-8\r\n"))
            .status,
        200);
}

TEST_F(http_bad_input, the_legacy_message_endpoint_takes_only_json) {
    start({.legacy_sse = true});
    raw_client stream(port());
    const auto endpoint = open_legacy_stream(stream);
    ASSERT_FALSE(endpoint.empty());
    auto r = exchange(raw_post(initialize_body("1", "2024-11-05"), "Content-Type: text/plain\r\n", endpoint));
    EXPECT_EQ(r.status, 415);
    EXPECT_NE(error_message(r).find("application/json"), std::string::npos);
    auto ok = exchange(
        raw_post(initialize_body("1", "2024-11-05"), "Content-Type: application/json\r\n", endpoint));
    EXPECT_EQ(ok.status, 202);
}

TEST_F(http_bad_input, accept_lines_are_one_list) {
    start();
    auto r = exchange(raw_post(initialize_body(),
                               "Content-Type: application/json\r\nAccept: application/json\r\nAccept: "
                               "text/event-stream\r\n"));
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.header("Mcp-Session-Id"));
    auto get_accept = [&](const std::string& sid, const std::string& accept_lines) {
        raw_client c(port());
        EXPECT_TRUE(c.send(http_request("GET", "/mcp", accept_lines + session_headers(sid))));
        auto head = c.read_head();
        return head ? head->status : -1;
    };
    EXPECT_EQ(
        get_accept(*r.header("Mcp-Session-Id"), "Accept: application/json\r\nAccept: text/event-stream\r\n"),
        200);
}

TEST_F(http_bad_input, media_ranges_are_no_content_type_and_q0_is_not_acceptable) {
    start();
    const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    for (const auto& type : std::vector<std::string>{"*/*", "application/*", "application/json-seq",
                                                     "text/json", "application/json, text/plain"})
        EXPECT_EQ(exchange(raw_post(body, accept_both + "Content-Type: " + type + "\r\n")).status, 415)
            << type;
    auto accept_status = [&](const std::string& accept) {
        return exchange(raw_post(initialize_body(),
                                 "Content-Type: application/json\r\nAccept: " + accept + "\r\n"))
            .status;
    };
    EXPECT_EQ(accept_status("application/json;q=0, text/event-stream;q=0"), 406);
    EXPECT_EQ(accept_status("application/json, text/event-stream;q=0"), 406);
    EXPECT_EQ(accept_status("application/json;q=0.000, text/event-stream"), 406);
    EXPECT_EQ(accept_status("*/*, application/json;q=0"), 406); // the most specific range decides
    EXPECT_EQ(accept_status("text/*;q=0, application/json, */*"), 406);
    EXPECT_EQ(accept_status("application/json;q=0.5, text/event-stream;q=0.001"), 200);
    EXPECT_EQ(accept_status("*/*"), 200);
    EXPECT_EQ(accept_status("application/*, text/*;q=1.0"), 200);
    EXPECT_EQ(accept_status("application/json;q=2, text/event-stream"), 406); // a malformed weight: skipped
}

// ------------------------------------------------------------------ repeated header lines

TEST_F(http_bad_input, a_mirrored_header_sent_twice_is_a_header_mismatch) {
    start();
    const std::string body = stateless_call(1, "lookup", R"({"region":"eu","limit":3})");
    const std::string good = call_headers("lookup") + "Mcp-Param-Region: eu\r\nMcp-Param-Limit: 3\r\n";
    EXPECT_EQ(exchange(http_post(body, good)).status, 200);
    // Whichever line an intermediary reads, the body says one thing: both lines are refused.
    for (const auto& second : std::vector<std::string>{
             "Mcp-Name: evil\r\n", "mcp-name: lookup\r\n", "Mcp-Method: tools/list\r\n",
             "Mcp-Param-Region: us\r\n", "MCP-PARAM-LIMIT: 3\r\n", "MCP-Protocol-Version: 2026-07-28\r\n"}) {
        auto r = exchange(http_post(body, good + second));
        EXPECT_EQ(r.status, 400) << second;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32020) << second;
        EXPECT_NE(error_message(r).find("repeated"), std::string::npos) << r.body;
        EXPECT_EQ(body_json(r).at("id"), 1);
    }
}

TEST_F(http_bad_input, a_repeated_session_or_version_header_is_400) {
    start();
    const auto sid = open_session();
    const std::string ping = R"({"jsonrpc":"2.0","id":5,"method":"ping"})";
    for (const std::string& extra : {session_headers(sid) + "MCP-Protocol-Version: 2025-06-18\r\n",
                                     session_headers(sid) + "Mcp-Session-Id: " + sid + "\r\n"}) {
        auto r = exchange(http_post(ping, extra));
        EXPECT_EQ(r.status, 400) << extra;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32600);
        EXPECT_NE(error_message(r).find("header is repeated"), std::string::npos) << r.body;
    }
    auto get = exchange(http_request("GET", "/mcp",
                                     "Accept: text/event-stream\r\n" + session_headers(sid) +
                                         "MCP-Protocol-Version: 2025-11-25\r\n"));
    EXPECT_EQ(get.status, 400);
    EXPECT_NE(error_message(get).find("MCP-Protocol-Version header is repeated"), std::string::npos);
    auto del = exchange(http_request("DELETE", "/mcp", session_headers(sid) + "Mcp-Session-Id: other\r\n"));
    EXPECT_EQ(del.status, 400);
    EXPECT_EQ(http->sessions(), 1u); // nothing was ended
    EXPECT_EQ(exchange(http_post(ping, session_headers(sid))).status, 200);
}

TEST_F(http_bad_input, a_repeated_origin_is_403) {
    start();
    auto r = exchange(
        http_post(initialize_body(), "Origin: http://localhost:3000\r\nOrigin: http://evil.example.com\r\n"));
    EXPECT_EQ(r.status, 403);
    EXPECT_NE(error_message(r).find("Origin header is repeated"), std::string::npos);
    EXPECT_EQ(exchange(http_post(initialize_body(),
                                 "Origin: http://localhost:3000\r\nOrigin: http://localhost:3000\r\n"))
                  .status,
              403);
    EXPECT_EQ(http->sessions(), 0u);
}

// ------------------------------------------------------------------ mirrored tool parameters

TEST_F(http_bad_input, mirrored_integers_compare_exactly) {
    start();
    auto call = [&](std::string_view limit_in_body, std::string_view limit_header) {
        return exchange(
            http_post(stateless_call(1, "lookup", R"({"limit":)" + std::string(limit_in_body) + "}"),
                      call_headers("lookup") + "Mcp-Param-Limit: " + std::string(limit_header) + "\r\n"));
    };
    // Beyond 2^53 a double cannot tell these apart; the server must.
    auto big = call("9007199254740992", "9007199254740993");
    EXPECT_EQ(big.status, 400);
    EXPECT_EQ(body_json(big).at("error").at("code"), -32020);
    EXPECT_EQ(call("18446744073709551615", "18446744073709551614").status, 400);
    EXPECT_EQ(call("-9223372036854775808", "-9223372036854775807").status, 400);
    EXPECT_EQ(call("9007199254740993", "9007199254740993").status, 200);
    EXPECT_EQ(call("18446744073709551615", "18446744073709551615").status, 200);
    // Numerically equal forms agree (the spec's "42.0 and 42").
    EXPECT_EQ(call("42", "42.0").status, 200);
    EXPECT_EQ(call("42", "4.2e1").status, 200);
    EXPECT_EQ(call("42.0", "42").status, 200);
    EXPECT_EQ(call("0", "-0").status, 200);
    EXPECT_EQ(call("42", "42.5").status, 400);
    EXPECT_EQ(call("42", "0x2a").status, 400);
    EXPECT_EQ(call("42", "+42").status, 400);
    EXPECT_EQ(call("42", "1e999999").status, 400);
}

TEST_F(http_bad_input, a_mirrored_header_without_its_argument_is_a_mismatch) {
    start();
    for (const auto& arguments : std::vector<std::string>{R"({"limit":1})", R"({"limit":1,"region":null})"}) {
        auto r =
            exchange(http_post(stateless_call(4, "lookup", arguments),
                               call_headers("lookup") + "Mcp-Param-Limit: 1\r\nMcp-Param-Region: evil\r\n"));
        EXPECT_EQ(r.status, 400) << arguments;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32020);
        EXPECT_NE(error_message(r).find("Mcp-Param-Region"), std::string::npos) << r.body;
        EXPECT_EQ(body_json(r).at("id"), 4);
    }
    // Absent from both: fine.
    EXPECT_EQ(exchange(http_post(stateless_call(5, "lookup", R"({"limit":1})"),
                                 call_headers("lookup") + "Mcp-Param-Limit: 1\r\n"))
                  .status,
              200);
}

// ------------------------------------------------------------------ initialize that fails

TEST_F(http_bad_input, an_invalid_initialize_gets_400_and_no_session) {
    start({.max_sessions = 3});
    for (const std::string& bad :
         {initialize_body("null"), initialize_body("1.5"), initialize_body("18446744073709551615"),
          initialize_body("{}"), std::string(R"({"jsonrpc":"2.0","method":"initialize","params":{}})"),
          std::string(R"({"jsonrpc":"1.0","id":2,"method":"initialize","params":{}})"),
          std::string(R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":[]})")}) {
        auto r = exchange(http_post(bad));
        EXPECT_EQ(r.status, 400) << bad;
        EXPECT_FALSE(r.header("Mcp-Session-Id")) << bad;
        const auto code = body_json(r).at("error").at("code").as_int64();
        EXPECT_TRUE(code == -32600 || code == -32602) << r.body;
        EXPECT_EQ(http->sessions(), 0u) << bad;
    }
    EXPECT_EQ(error_message(exchange(http_post(R"({"jsonrpc":"2.0","method":"initialize","params":{}})"))),
              "Invalid Request: initialize is a request; it needs an id (a string or an integer)");
    EXPECT_EQ(body_json(exchange(http_post(initialize_body("1.5")))).at("error").at("message"),
              "Invalid Request: \"id\" must be a string or an integer");
}

TEST_F(http_bad_input, an_initialize_answered_with_an_error_leaves_no_session) {
    start({.max_sessions = 3});
    // More failures than the cap allows sessions: none of them holds a slot.
    for (int i = 0; i < 5; ++i) {
        auto r = exchange(http_post(initialize_body(std::to_string(i + 1), "", "{}")));
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32602) << r.body;
        EXPECT_EQ(body_json(r).at("id"), i + 1);
        EXPECT_FALSE(r.header("Mcp-Session-Id")) << r.body;
        EXPECT_EQ(http->sessions(), 0u);
        EXPECT_EQ(mcp_server.sessions().size(), 0u);
    }
    for (int i = 0; i < 3; ++i) open_session();
    EXPECT_EQ(http->sessions(), 3u);
}

TEST_F(http_bad_input, an_initialize_answered_with_an_error_leaves_no_session_in_sse_mode) {
    start({.responses = mcp::http::server_options::response_mode::sse, .resumable = true});
    auto r = exchange(http_post(initialize_body("7", "", "{}")));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    EXPECT_FALSE(r.header("Mcp-Session-Id"));
    EXPECT_EQ(body_json(r).at("error").at("code"), -32602);
    EXPECT_EQ(http->sessions(), 0u);
    // A good one still streams its answer, with the session id.
    raw_client c(port());
    ASSERT_TRUE(c.send(http_post(initialize_body())));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    EXPECT_EQ(head->header("Content-Type"), "text/event-stream");
    EXPECT_TRUE(head->header("Mcp-Session-Id"));
    sse_reader sse(c);
    auto result = sse.next_message();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->at("result").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(http->sessions(), 1u);
}

// ------------------------------------------------------------------ versions on GET and DELETE

TEST_F(http_bad_input, get_and_delete_check_the_protocol_version) {
    start();
    const auto sid = open_session();
    const std::string on_session = "Mcp-Session-Id: " + sid + "\r\n";
    for (const auto& version : std::vector<std::string>{"garbage", "2099-01-01", "2025-06-18"}) {
        const std::string h = on_session + "MCP-Protocol-Version: " + version + "\r\n";
        auto get = exchange(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + h));
        EXPECT_EQ(get.status, 400) << version;
        auto del = exchange(http_request("DELETE", "/mcp", h));
        EXPECT_EQ(del.status, 400) << version;
        EXPECT_NE(error_message(del).find(version), std::string::npos) << del.body;
    }
    auto unknown = exchange(
        http_request("GET", "/mcp", "Accept: text/event-stream\r\nMCP-Protocol-Version: garbage\r\n"));
    EXPECT_EQ(unknown.status, 400);
    EXPECT_EQ(body_json(unknown).at("error").at("code"), -32022);
    EXPECT_EQ(body_json(unknown).at("error").at("data").at("requested"), "garbage");
    EXPECT_EQ(http->sessions(), 1u); // no DELETE took effect
    EXPECT_EQ(exchange(http_request("DELETE", "/mcp", session_headers(sid))).status, 200);
    EXPECT_EQ(http->sessions(), 0u);
}

TEST_F(http_bad_input, get_without_a_session_is_400_where_sessions_exist) {
    start();
    auto get = exchange(
        http_request("GET", "/mcp", "Accept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"));
    EXPECT_EQ(get.status, 400);
    EXPECT_EQ(get.header("Content-Type"), "application/json");
    EXPECT_EQ(body_json(get).at("error").at("code"), -32600);
    EXPECT_NE(error_message(get).find("Mcp-Session-Id"), std::string::npos);
    auto del = exchange(http_request("DELETE", "/mcp"));
    EXPECT_EQ(del.status, 400);
    EXPECT_NE(error_message(del).find("Mcp-Session-Id"), std::string::npos);
    // The stateless revision has no GET at all.
    auto stateless = exchange(
        http_request("GET", "/mcp", "Accept: text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"));
    EXPECT_EQ(stateless.status, 405);
    EXPECT_EQ(stateless.header("Allow"), "POST");
}

TEST_F(http_bad_input, a_server_without_sessions_offers_no_get_or_delete) {
    start({.stateful = false});
    for (const auto& extra :
         std::vector<std::string>{"", "Mcp-Session-Id: 0123456789abcdef0123456789abcdef\r\n"}) {
        auto get = exchange(http_request("GET", "/mcp", "Accept: text/event-stream\r\n" + extra));
        EXPECT_EQ(get.status, 405);
        EXPECT_EQ(get.header("Allow"), "POST");
        auto del = exchange(http_request("DELETE", "/mcp", extra));
        EXPECT_EQ(del.status, 405);
    }
}

// ------------------------------------------------------------------ batches

TEST_F(http_bad_input, a_batch_of_the_stateless_revision_is_400) {
    for (bool stateful : {true, false}) {
        start({.stateful = stateful});
        auto r = exchange(http_post(R"([{"jsonrpc":"2.0","id":1,"method":"tools/list"}])",
                                    "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n"));
        EXPECT_EQ(r.status, 400) << stateful;
        EXPECT_EQ(body_json(r).at("error").at("code"), -32600);
        EXPECT_EQ(error_message(r), "Invalid Request: JSON-RPC batches are not part of protocol revision "
                                    "2026-07-28 (send one message per POST)");
        http->stop(0ms);
    }
}

TEST_F(http_bad_input, a_batch_on_a_2025_03_26_session_answers_each_element) {
    start();
    const auto sid = open_session("2025-03-26");
    const std::string h = "Mcp-Session-Id: " + sid + "\r\n"; // 2025-03-26 clients send no version header
    auto post = [&](const std::string& body) { return exchange(http_post(body, h)); };
    // Keyed by id (null for an element whose id could not be read): "result" or the error code.
    auto answers = [](const response& r) {
        std::multimap<std::string, std::string> out;
        const auto replies = mcp::json::parse(r.body);
        for (const auto& m : replies.as_array()) {
            const auto& o = m.as_object();
            const std::string id = mcp::json::serialize(o.at("id"));
            out.emplace(id, o.contains("result") ? "result"
                                                 : std::to_string(o.at("error").at("code").as_int64()));
        }
        return out;
    };

    auto mixed = post(R"([{"jsonrpc":"2.0","id":6,"method":"ping"},{"foo":1}])");
    EXPECT_EQ(mixed.status, 200) << mixed.body;
    EXPECT_EQ(mixed.header("Mcp-Session-Id"), sid);
    EXPECT_EQ(answers(mixed), (std::multimap<std::string, std::string>{{"6", "result"}, {"null", "-32600"}}));

    auto init = post(R"([{"jsonrpc":"2.0","id":7,"method":"tools/list"},)" +
                     initialize_body("8", "2025-03-26") + "]");
    EXPECT_EQ(answers(init), (std::multimap<std::string, std::string>{{"7", "result"}, {"8", "-32600"}}));
    EXPECT_NE(init.body.find("initialize must not be part of a batch"), std::string::npos);

    auto twice =
        post(R"([{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"tools/list"},)"
             R"({"jsonrpc":"2.0","id":"9","method":"ping"}])");
    EXPECT_EQ(answers(twice), (std::multimap<std::string, std::string>{
                                  {"9", "result"}, {"9", "-32600"}, {"\"9\"", "result"}}));
    EXPECT_NE(twice.body.find("earlier request of this batch"), std::string::npos);

    // Nothing that runs: the errors alone; a notification next to them is taken.
    auto none = post(
        R"([{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":null,"method":"ping"}])");
    EXPECT_EQ(none.status, 200);
    EXPECT_EQ(answers(none), (std::multimap<std::string, std::string>{{"null", "-32600"}}));
    EXPECT_EQ(post(R"([{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}])").status, 202);

    EXPECT_EQ(http->open_streams(), 0u);
    // The session still serves.
    EXPECT_EQ(post(R"({"jsonrpc":"2.0","id":10,"method":"ping"})").status, 200);
}

TEST_F(http_bad_input, a_batch_without_a_session_runs_a_repeated_id_once) {
    start({.stateful = false});
    auto r = exchange(http_post(
        R"([{"jsonrpc":"2.0","id":1,"method":"tools/list"},)"
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}])",
        "MCP-Protocol-Version: 2025-03-26\r\n"));
    EXPECT_EQ(r.status, 200);
    const auto replies = mcp::json::parse(r.body);
    ASSERT_EQ(replies.as_array().size(), 2u) << r.body;
    int results = 0, refusals = 0;
    for (const auto& m : replies.as_array()) {
        EXPECT_EQ(m.at("id"), 1);
        if (m.as_object().contains("result")) {
            ++results;
            EXPECT_TRUE(m.at("result").as_object().contains("tools")); // the first one ran
        } else {
            ++refusals;
            EXPECT_EQ(m.at("error").at("code"), -32600);
        }
    }
    EXPECT_EQ(results, 1);
    EXPECT_EQ(refusals, 1);
}

// ------------------------------------------------------------------ request-target

TEST_F(http_bad_input, the_absolute_form_target_is_accepted) {
    start();
    const std::string abs = "http://127.0.0.1:" + std::to_string(port()) + "/mcp";
    auto r = exchange(raw_post(initialize_body(), json_type_and_accept(), abs));
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.header("Mcp-Session-Id"));
    // Its authority stands for Host (RFC 9112 3.2.2), in both directions.
    EXPECT_EQ(
        exchange(raw_post(initialize_body(), json_type_and_accept(), "http://evil.example.com/mcp")).status,
        403);
    EXPECT_EQ(exchange(raw_post(initialize_body(), json_type_and_accept(), "HTTP://localhost/mcp",
                                "evil.example.com"))
                  .status,
              200);
    EXPECT_EQ(
        exchange(raw_post(initialize_body(), json_type_and_accept(), "http://127.0.0.1/elsewhere")).status,
        404);
    for (const auto& bad : std::vector<std::string>{"ftp://127.0.0.1/mcp", "http://user@127.0.0.1/mcp",
                                                    "http:///mcp", "http:/mcp"}) {
        auto refused = exchange(raw_post(initialize_body(), json_type_and_accept(), bad));
        EXPECT_EQ(refused.status, 400) << bad;
        EXPECT_NE(error_message(refused).find("request-target"), std::string::npos) << refused.body;
    }
}

} // namespace
