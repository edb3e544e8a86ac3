// The HTTP client transport in the initialize era (2025-03-26 .. 2025-11-25) against scripted
// servers on real sockets (mcp::http::core::server in this process): JSON and SSE replies,
// the session id and the protocol version header, the GET stream, resumption with
// Last-Event-ID honouring `retry`, 404 = session expired (requests refused until a new
// initialize), DELETE on close, batches.
#include "support/http_test_server.hpp"
#include "support/transport_collector.hpp"

#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>
#include <thread>

using namespace std::chrono_literals;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using mcp::test::rpc_result;
using mcp::test::sse_event;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;
namespace json = mcp::json;

namespace {

constexpr auto wait = 20s; // a test that waits this long has failed

const std::string init_request =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
const std::string initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

json::value init_result(std::string version = "2025-06-18") {
    return json::object{{"protocolVersion", version},
                        {"capabilities", json::object{}},
                        {"serverInfo", json::object{{"name", "scripted"}, {"version", "1"}}}};
}

json::value line(mcp::test::collector& c, std::size_t i) {
    std::lock_guard lock(c.mu);
    return json::parse(c.lines.at(i));
}

std::size_t line_count(mcp::test::collector& c) {
    std::lock_guard lock(c.mu);
    return c.lines.size();
}

// Answers initialize (with a session id), initialized (202), DELETE (200) and GET (405);
// anything else goes to `rest`.
http_test_server::handler with_session(std::function<void(const recorded_request&, writer_ptr)> rest,
                                       std::string session = "sess-1") {
    return [rest, session](const recorded_request& r, writer_ptr w) {
        const auto m = r.rpc_method();
        if (r.method == "POST" && m == "initialize") {
            w->respond(200, http_test_server::json_headers({{"Mcp-Session-Id", session}}),
                       rpc_result(r.json().at("id"), init_result()));
        } else if (r.method == "POST" && m == "notifications/initialized") {
            w->respond(202, {}, "");
        } else if (r.method == "DELETE") {
            w->respond(200, {}, "");
        } else if (r.method == "GET" && !rest) {
            w->respond(405, {}, "");
        } else if (rest) {
            rest(r, std::move(w));
        } else {
            w->respond(500, {}, "unexpected");
        }
    };
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

    void initialize() {
        const auto before = line_count(c);
        t->send(init_request);
        ASSERT_TRUE(c.wait_lines(before + 1, wait));
        t->send(initialized);
    }
};

TEST(http_client_streamable, initialize_session_id_protocol_header_get_stream_and_delete) {
    std::promise<void> got_get;
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        if (r.method == "GET") {
            w->respond(405, {}, "");
            return;
        }
        w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
    }));
    auto cl = std::make_unique<client>(mcp::http::client_transport_options{
        .url = s.url(), .headers = {{"Authorization", "Bearer s3cr3t"}, {"X-Extra", "1"}}});
    cl->initialize();
    EXPECT_EQ(line(cl->c, 0).at("result").at("protocolVersion"), "2025-06-18");
    EXPECT_EQ(cl->t->session_id(), "sess-1");
    EXPECT_EQ(cl->t->current_wire(), mcp::http::client_transport::wire::streamable);
    cl->t->send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    ASSERT_TRUE(cl->c.wait_lines(2, wait));
    EXPECT_EQ(line(cl->c, 1).at("id"), 2);
    ASSERT_TRUE(s.wait_requests(1, http_test_server::method_is("GET")));

    auto init = s.requests(http_test_server::rpc_is("initialize")).at(0);
    EXPECT_EQ(init.header("Content-Type"), "application/json");
    EXPECT_EQ(init.header("Accept"), "application/json, text/event-stream");
    EXPECT_EQ(init.header("Authorization"), "Bearer s3cr3t");
    EXPECT_EQ(init.header("X-Extra"), "1");
    EXPECT_FALSE(init.header("Mcp-Session-Id"));
    EXPECT_FALSE(init.header("MCP-Protocol-Version"));
    for (const auto& r : s.requests(http_test_server::method_is("POST"))) {
        if (r.rpc_method() == "initialize") continue;
        EXPECT_EQ(r.header("Mcp-Session-Id"), "sess-1") << r.rpc_method();
        EXPECT_EQ(r.header("MCP-Protocol-Version"), "2025-06-18") << r.rpc_method();
        EXPECT_EQ(r.header("Authorization"), "Bearer s3cr3t");
    }
    auto get = s.requests(http_test_server::method_is("GET")).at(0);
    EXPECT_EQ(get.header("Accept"), "text/event-stream");
    EXPECT_EQ(get.header("Mcp-Session-Id"), "sess-1");
    EXPECT_FALSE(get.header("Last-Event-ID"));
    // The GET came after initialized was accepted.
    EXPECT_GE(get.at, s.requests(http_test_server::rpc_is("notifications/initialized")).at(0).at);

    cl->t->close(); // synchronous: the DELETE has been answered
    auto del = s.requests(http_test_server::method_is("DELETE"));
    ASSERT_EQ(del.size(), 1u);
    EXPECT_EQ(del[0].header("Mcp-Session-Id"), "sess-1");
    EXPECT_EQ(cl->c.closes, 1);
    cl->t->close(); // idempotent
    EXPECT_EQ(cl->c.closes, 1);
    std::lock_guard lock(cl->log_mu);
    for (const auto& l : cl->logs) EXPECT_EQ(l.find("s3cr3t"), std::string::npos) << l;
}

TEST(http_client_streamable, requests_after_initialized_wait_until_the_get_stream_is_open) {
    // A server may send its own requests on the GET stream only (the TypeScript SDK drops
    // them while that stream is not open), so the GET must reach it before the next request.
    http_test_server s(with_session([](const recorded_request& r, writer_ptr w) {
        if (r.method == "GET") {
            w->start_stream(200, http_test_server::sse_headers());
            w->write(": open\n\n");
            std::thread([w] { // hold the stream a little while
                std::this_thread::sleep_for(200ms);
                w->end();
            })
                .detach();
            return;
        }
        w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
    }));
    client cl({.url = s.url(), .default_retry = std::chrono::milliseconds(60000)});
    cl.t->send(init_request);
    ASSERT_TRUE(cl.c.wait_lines(1, wait));
    cl.t->send(initialized);
    const auto sent = std::chrono::steady_clock::now();
    cl.t->send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    // Released by the GET's answer, not by the bounded wait (3 s) running out.
    EXPECT_LT(std::chrono::steady_clock::now() - sent, 1500ms);
    auto reqs = s.requests();
    std::vector<std::string> order;
    for (const auto& r : reqs) order.push_back(r.method == "GET" ? "GET" : r.rpc_method());
    EXPECT_EQ(order,
              (std::vector<std::string>{"initialize", "notifications/initialized", "GET", "tools/call"}));
}

TEST(http_client_streamable, protocol_header_is_not_sent_for_2025_03_26_and_no_session_means_no_delete) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        const auto m = r.rpc_method();
        if (m == "initialize")
            w->respond(200, http_test_server::json_headers(),
                       rpc_result(r.json().at("id"), init_result("2025-03-26")));
        else if (r.method == "GET")
            w->respond(405, {}, "");
        else if (r.json().as_object().contains("id"))
            w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
        else
            w->respond(202, {}, "");
    });
    {
        client cl({.url = s.url()});
        cl.initialize();
        cl.t->send(R"({"jsonrpc":"2.0","id":"x","method":"ping"})");
        ASSERT_TRUE(cl.c.wait_lines(2, wait));
    }
    for (const auto& r : s.requests()) {
        EXPECT_FALSE(r.header("MCP-Protocol-Version")) << r.method << " " << r.rpc_method();
        EXPECT_FALSE(r.header("Mcp-Session-Id"));
    }
    EXPECT_TRUE(s.requests(http_test_server::method_is("DELETE")).empty());
}

TEST(http_client_streamable, sse_reply_delivers_notifications_then_the_response_and_skips_priming) {
    http_test_server s(with_session([](const recorded_request& r, writer_ptr w) {
        const auto id = r.json().at("id");
        w->start_stream(200, http_test_server::sse_headers());
        w->write("id: p0\nretry: 3000\ndata: \n\n"); // priming
        w->write(": keep-alive comment\n\n");
        w->write(sse_event(
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}})",
            "p1"));
        w->write("event: message\r\nid: p2\r\ndata: "
                 "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\r\ndata: "
                 "\"params\":{\"level\":\"info\",\"data\":\"x\"}}\r\n\r\n");
        w->write(sse_event(rpc_result(id, json::object{{"content", json::array{}}}), "p3"));
        w->end();
    }));
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{}}})");
    ASSERT_TRUE(cl.c.wait_lines(4, wait));
    EXPECT_EQ(line(cl.c, 1).at("method"), "notifications/progress");
    EXPECT_EQ(line(cl.c, 2).at("method"), "notifications/message"); // two data lines joined by \n
    EXPECT_EQ(line(cl.c, 3).at("id"), 7);
    EXPECT_TRUE(cl.c.errors.empty());
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty()); // open_get_stream = false
}

TEST(http_client_streamable, server_request_on_the_post_stream_is_answered_by_a_post) {
    std::mutex mu;
    writer_ptr held;
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        auto v = r.json();
        if (v.as_object().contains("method")) { // the tools/call: ask the client first
            w->start_stream(200, http_test_server::sse_headers());
            w->write(sse_event(
                R"({"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}})",
                "e1"));
            std::lock_guard lock(mu);
            held = w;
            return;
        }
        // The client's answer to srv-1: accepted, and now the tool's result on the held stream.
        EXPECT_EQ(v.at("id"), "srv-1");
        w->respond(202, {}, "");
        std::lock_guard lock(mu);
        held->write(sse_event(rpc_result(9, json::object{{"content", json::array{}}}), "e2"));
        held->end();
    }));
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x"}})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    EXPECT_EQ(line(cl.c, 1).at("method"), "sampling/createMessage");
    cl.t->send(
        R"({"jsonrpc":"2.0","id":"srv-1","result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}})");
    ASSERT_TRUE(cl.c.wait_lines(3, wait));
    EXPECT_EQ(line(cl.c, 2).at("id"), 9);
    auto answer = s.requests([](const recorded_request& r) {
        return r.method == "POST" && r.body.find("srv-1") != std::string::npos;
    });
    ASSERT_EQ(answer.size(), 1u);
    EXPECT_EQ(answer[0].header("Mcp-Session-Id"), "sess-1");
}

TEST(http_client_streamable, get_stream_delivers_and_reconnects_with_last_event_id_after_retry) {
    std::atomic<int> gets{0};
    std::mutex mu;
    std::vector<writer_ptr> held; // a dropped writer would cut its stream
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        {
            std::lock_guard lock(mu);
            held.push_back(w);
        }
        ASSERT_EQ(r.method, "GET");
        const int n = ++gets;
        w->start_stream(200, http_test_server::sse_headers());
        if (n == 1) {
            w->write("retry: 300\n\n");
            w->write(sse_event(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", "g1"));
            w->end(); // the server closes; the client must come back after 300 ms
        } else {
            w->write(sse_event(R"({"jsonrpc":"2.0","method":"notifications/resources/list_changed"})", "g2"));
            // kept open
        }
    }));
    client cl({.url = s.url()});
    cl.initialize();
    ASSERT_TRUE(cl.c.wait_lines(3, wait));
    EXPECT_EQ(line(cl.c, 1).at("method"), "notifications/tools/list_changed");
    EXPECT_EQ(line(cl.c, 2).at("method"), "notifications/resources/list_changed");
    auto g = s.requests(http_test_server::method_is("GET"));
    ASSERT_EQ(g.size(), 2u);
    EXPECT_FALSE(g[0].header("Last-Event-ID"));
    EXPECT_EQ(g[1].header("Last-Event-ID"), "g1");
    EXPECT_GE(g[1].at - g[0].at, 290ms);
}

TEST(http_client_streamable, cut_post_stream_resumes_with_get_and_last_event_id) {
    std::promise<void> resumed_stream_closed;
    std::mutex mu;
    std::vector<writer_ptr> held; // a dropped writer would cut its stream
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        {
            std::lock_guard lock(mu);
            held.push_back(w);
        }
        w->start_stream(200, http_test_server::sse_headers());
        if (r.method == "POST") {
            w->write("id: p1\nretry: 200\ndata: \n\n");
            w->end(); // closed before the response: the client resumes
            return;
        }
        EXPECT_EQ(r.header("Last-Event-ID"), "p1");
        EXPECT_EQ(r.header("Mcp-Session-Id"), "sess-1");
        w->on_close([&] { resumed_stream_closed.set_value(); });
        w->write(sse_event(rpc_result(5, json::object{{"content", json::array{}}}), "p2"));
        // Left open: the client closes it once the response is in.
    }));
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow"}})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    EXPECT_EQ(line(cl.c, 1).at("id"), 5);
    EXPECT_TRUE(line(cl.c, 1).as_object().contains("result"));
    ASSERT_EQ(resumed_stream_closed.get_future().wait_for(wait), std::future_status::ready);
    auto post = s.requests(http_test_server::rpc_is("tools/call")).at(0);
    auto get = s.requests(http_test_server::method_is("GET")).at(0);
    EXPECT_GE(get.at - post.at, 190ms);
}

TEST(http_client_streamable, resumption_gives_up_after_max_attempts_with_an_error) {
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        if (r.method == "POST") w->write("id: p1\ndata: \n\n");
        w->end(); // every resumption ends at once, without an event
    }));
    client cl({.url = s.url(),
               .open_get_stream = false,
               .max_reconnect_attempts = 2,
               .default_retry = std::chrono::milliseconds(20)});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    auto err = line(cl.c, 1);
    EXPECT_EQ(err.at("id"), 5);
    EXPECT_EQ(err.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(std::string(err.at("error").at("message").as_string()).find("2 reconnection attempts"),
              std::string::npos)
        << err;
    EXPECT_EQ(s.requests(http_test_server::method_is("GET")).size(), 2u);
}

TEST(http_client_streamable, stream_without_event_id_ending_early_fails_the_request) {
    http_test_server s(with_session([&](const recorded_request&, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        w->write(sse_event(
            R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}})"));
        w->end();
    }));
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}})");
    ASSERT_TRUE(cl.c.wait_lines(3, wait));
    EXPECT_EQ(line(cl.c, 1).at("method"), "notifications/message");
    EXPECT_EQ(line(cl.c, 2).at("error").at("code"), mcp::error_code::http_error);
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_streamable, not_found_with_a_session_id_means_session_expired_until_initialize) {
    // Each initialize starts session "sess-N"; only the newest is known.
    std::atomic<int> sessions{0};
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        const auto current = "sess-" + std::to_string(sessions.load());
        if (r.method == "DELETE" || r.method == "GET") {
            w->respond(r.method == "GET" ? 405 : 200, {}, "");
        } else if (r.rpc_method() == "initialize") {
            w->respond(
                200,
                http_test_server::json_headers({{"Mcp-Session-Id", "sess-" + std::to_string(++sessions)}}),
                rpc_result(r.json().at("id"), init_result()));
        } else if (r.rpc_method() == "notifications/initialized") {
            // Accepted whatever the session: it is sent without waiting and may arrive after the
            // test made the server forget sess-1.
            w->respond(202, {}, "");
        } else if (r.header("Mcp-Session-Id") != current) {
            w->respond(
                404, http_test_server::json_headers(),
                R"({"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null})");
        } else {
            w->respond(200, http_test_server::json_headers(),
                       rpc_result(r.json().at("id"), json::object{{"tools", json::array{}}}));
        }
    });
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    ASSERT_EQ(cl.t->session_id(), "sess-1");
    sessions = 2; // the server forgets sess-1 (as if it restarted)

    cl.t->send(R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    auto err = line(cl.c, 1);
    EXPECT_EQ(err.at("id"), 4);
    EXPECT_EQ(err.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(std::string(err.at("error").at("message").as_string()).find("session has expired"),
              std::string::npos);
    EXPECT_EQ(err.at("error").at("data").at("httpStatus"), 404);
    EXPECT_EQ(err.at("error").at("data").at("sessionExpired"), true);
    EXPECT_EQ(err.at("error").at("data").at("requestRefused"), true); // it never ran
    EXPECT_TRUE(cl.t->session_id().empty());
    {
        std::lock_guard lock(cl.log_mu);
        ASSERT_FALSE(cl.logs.empty());
        EXPECT_NE(cl.logs.back().find("session expired"), std::string::npos) << cl.logs.back();
    }
    // The transport stays open, but nothing is sent for the lost session.
    const auto posts_before = s.requests(http_test_server::method_is("POST")).size();
    cl.t->send(R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})");
    ASSERT_TRUE(cl.c.wait_lines(3, wait));
    auto refused = line(cl.c, 2);
    EXPECT_EQ(refused.at("id"), 5);
    EXPECT_EQ(refused.at("error").at("data").at("sessionExpired"), true);
    EXPECT_EQ(refused.at("error").at("data").at("requestRefused"), true);
    EXPECT_EQ(s.requests(http_test_server::method_is("POST")).size(), posts_before);

    // A new initialize (without a session id) starts session sess-3; a request sent before
    // notifications/initialized waits for it.
    sessions = 2;
    cl.t->send(
        R"({"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    ASSERT_TRUE(cl.c.wait_lines(4, wait));
    EXPECT_EQ(line(cl.c, 3).at("id"), 6);
    EXPECT_EQ(cl.t->session_id(), "sess-3");
    EXPECT_FALSE(s.requests(http_test_server::rpc_is("initialize")).back().header("Mcp-Session-Id"));
    cl.t->send(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
    std::this_thread::sleep_for(200ms);
    EXPECT_EQ(line_count(cl.c), 4u);
    EXPECT_TRUE(s.requests(http_test_server::rpc_is("tools/list")).size() == 1u); // only id 4's
    cl.t->send(initialized);
    ASSERT_TRUE(cl.c.wait_lines(5, wait));
    auto ok = line(cl.c, 4);
    EXPECT_EQ(ok.at("id"), 7);
    EXPECT_TRUE(ok.as_object().contains("result")) << ok;
    EXPECT_EQ(s.requests(http_test_server::rpc_is("tools/list")).back().header("Mcp-Session-Id"), "sess-3");
    EXPECT_EQ(cl.c.closes, 0);
    cl.t->close();
    auto deletes = s.requests(http_test_server::method_is("DELETE"));
    ASSERT_EQ(deletes.size(), 1u);
    EXPECT_EQ(deletes[0].header("Mcp-Session-Id"), "sess-3");
}

TEST(http_client_streamable, a_404_when_resuming_says_the_request_may_have_run) {
    std::atomic<bool> forgotten{false};
    std::mutex mu;
    std::vector<writer_ptr> held;
    http_test_server s(with_session([&](const recorded_request& r, writer_ptr w) {
        if (r.method == "GET") { // the resumption: the session is gone by now
            forgotten = true;
            w->respond(404, {}, "");
            return;
        }
        w->start_stream(200, http_test_server::sse_headers());
        w->write("id: ev-1\nretry: 10\ndata: \n\n");
        w->end(); // cut before the answer
        std::lock_guard lock(mu);
        held.push_back(std::move(w));
    }));
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"}})");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    auto err = line(cl.c, 1);
    EXPECT_TRUE(forgotten.load());
    EXPECT_EQ(err.at("id"), 4);
    EXPECT_EQ(err.at("error").at("data").at("sessionExpired"), true);
    EXPECT_EQ(err.at("error").at("data").at("requestRefused"), false);
    EXPECT_EQ(s.requests(http_test_server::method_is("GET")).at(0).header("Last-Event-ID"), "ev-1");
}

TEST(http_client_streamable, a_stream_of_a_session_that_expired_meanwhile_is_not_resumed) {
    std::atomic<int> sessions{0};
    std::promise<void> cut; // the tools/call stream has been cut (with the session still known)
    auto cut_done = cut.get_future();
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        const auto current = "sess-" + std::to_string(sessions.load());
        if (r.method == "GET") {
            w->respond(500, {}, "no GET expected");
        } else if (r.rpc_method() == "initialize") {
            w->respond(
                200,
                http_test_server::json_headers({{"Mcp-Session-Id", "sess-" + std::to_string(++sessions)}}),
                rpc_result(r.json().at("id"), init_result()));
        } else if (r.header("Mcp-Session-Id") != current) {
            w->respond(404, {}, "");
        } else if (r.rpc_method() == "tools/call") {
            w->start_stream(200, http_test_server::sse_headers());
            // Cut before the answer; resumption is due after 500 ms, long after the 404 to the
            // next request has told the client that the session is gone.
            w->write("id: ev-1\nretry: 500\ndata: \n\n");
            w->end();
            cut.set_value();
        } else {
            w->respond(202, {}, "");
        }
    });
    client cl({.url = s.url(), .open_get_stream = false});
    cl.initialize();
    cl.t->send(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"}})");
    // Only then is the session forgotten (the request's arrival is not enough: its handler may
    // not have looked at the session yet).
    ASSERT_EQ(cut_done.wait_for(wait), std::future_status::ready);
    sessions = 2; // forgotten
    cl.t->send(R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})");
    ASSERT_TRUE(cl.c.wait_lines(3, wait));
    auto first = line(cl.c, 1), second = line(cl.c, 2);
    EXPECT_EQ(first.at("id"), 5);
    EXPECT_EQ(first.at("error").at("data").at("requestRefused"), true);
    EXPECT_EQ(second.at("id"), 4);
    EXPECT_EQ(second.at("error").at("data").at("sessionExpired"), true);
    EXPECT_EQ(second.at("error").at("data").at("requestRefused"), false);
    EXPECT_TRUE(s.requests(http_test_server::method_is("GET")).empty());
}

TEST(http_client_streamable, batch_reply_delivers_each_message) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        if (r.method != "POST") {
            w->respond(405, {}, "");
            return;
        }
        w->respond(200, http_test_server::json_headers(),
                   "[" + rpc_result(1, json::object{}) + "," + rpc_result(2, json::object{{"x", 1}}) + "]");
    });
    client cl({.url = s.url(), .mode = mcp::http::transport_mode::streamable});
    cl.t->send(
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}])");
    ASSERT_TRUE(cl.c.wait_lines(2, wait));
    EXPECT_EQ(line(cl.c, 0).at("id"), 1);
    EXPECT_EQ(line(cl.c, 1).at("id"), 2);
}

TEST(http_client_streamable, keep_alive_connections_are_reused) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(200, http_test_server::json_headers(), rpc_result(r.json().at("id"), json::object{}));
    });
    client cl({.url = s.url(), .mode = mcp::http::transport_mode::streamable});
    for (int i = 1; i <= 20; ++i) {
        cl.t->send(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"ping"})");
        ASSERT_TRUE(cl.c.wait_lines(static_cast<std::size_t>(i), wait));
    }
    EXPECT_EQ(s.requests().size(), 20u);
}

TEST(http_client_streamable, many_concurrent_requests_all_complete) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        w->write(sse_event(rpc_result(r.json().at("id"), json::object{})));
        w->end();
    });
    client cl({.url = s.url(), .mode = mcp::http::transport_mode::streamable});
    for (int i = 1; i <= 50; ++i)
        cl.t->send(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"ping"})");
    ASSERT_TRUE(cl.c.wait_lines(50, wait));
    std::set<std::int64_t> ids;
    for (std::size_t i = 0; i < 50; ++i) ids.insert(line(cl.c, i).at("id").as_int64());
    EXPECT_EQ(ids.size(), 50u);
}

} // namespace
