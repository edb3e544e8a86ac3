// Every way an HTTP exchange of the client transport can fail, and what the session sees: the
// server's own JSON-RPC error (4xx with a body for the request, or without id), a synthesized
// error (-32010) for anything that is not JSON-RPC (HTML 500, 401 with WWW-Authenticate,
// refused connection, timeouts, bad JSON, a 202 where a response was due), oversize messages,
// and garbage that must not crash or hang the transport.
#include "support/eventually.hpp"
#include "support/http_test_server.hpp"
#include "support/transport_collector.hpp"

#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

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

std::string all_lines(mcp::test::collector& c) {
    std::lock_guard lock(c.mu);
    std::string s;
    for (const auto& l : c.lines) s += l + "\n";
    for (const auto& e : c.errors) s += e + "\n";
    return s;
}

/// A loopback TCP listener of the test's own (raw bytes, no HTTP library), closed with it.
struct raw_listener {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    unsigned short port = 0;
    explicit raw_listener(int backlog = 4) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return;
        ::listen(fd, backlog);
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
    }
    ~raw_listener() { ::close(fd); }
    raw_listener(const raw_listener&) = delete;
    raw_listener& operator=(const raw_listener&) = delete;
    std::string url(std::string_view scheme = "http") const {
        return std::string(scheme) + "://127.0.0.1:" + std::to_string(port) + "/mcp";
    }
    /// Accept one connection, read the request, then do `answer` with the socket and close it.
    std::thread serve_once(std::function<void(int)> answer) const {
        return std::thread([fd = fd, answer = std::move(answer)] {
            int c = ::accept(fd, nullptr, nullptr);
            char buf[4096];
            (void)!::read(c, buf, sizeof buf);
            answer(c);
            ::close(c);
        });
    }
};

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

    // Send one request and return the one line it produced.
    json::value call(std::string request, std::size_t expect_lines = 1) {
        const auto before = [&] {
            std::lock_guard lock(c.mu);
            return c.lines.size();
        }();
        t->send(std::move(request));
        EXPECT_TRUE(c.wait_lines(before + expect_lines, wait));
        return line(c, before + expect_lines - 1);
    }
};

std::string message_of(const json::value& v) {
    return std::string(v.at("error").at("message").as_string());
}

TEST(http_client_errors, jsonrpc_error_in_a_400_is_delivered_as_the_servers_answer) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(400, http_test_server::json_headers(),
                   mcp::test::rpc_error(r.json().at("id"), -32602, "Invalid params: missing city"));
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"w"}})");
    EXPECT_EQ(v.at("id"), 11);
    EXPECT_EQ(v.at("error").at("code"), -32602);
    EXPECT_EQ(message_of(v), "Invalid params: missing city");
}

TEST(http_client_errors, jsonrpc_error_without_id_is_readdressed_to_the_request) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->respond(
            400, http_test_server::json_headers(),
            R"({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null})");
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":"abc","method":"tools/list"})");
    EXPECT_EQ(v.at("id"), "abc");
    EXPECT_EQ(v.at("error").at("code"), -32000);
    EXPECT_EQ(message_of(v), "Bad Request: No valid session ID provided");
}

TEST(http_client_errors, html_500_becomes_a_synthesized_error_with_status_and_body) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->respond(500, {{"Content-Type", "text/html"}},
                   "<html><body>Internal Server Error \xFF</body></html>");
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(v.at("id"), 1);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_EQ(message_of(v), "HTTP 500 Internal Server Error from " + s.url());
    EXPECT_EQ(v.at("error").at("data").at("httpStatus"), 500);
    EXPECT_EQ(v.at("error").at("data").at("body"),
              "<html><body>Internal Server Error \xEF\xBF\xBD</body></html>");
    EXPECT_EQ(v.at("error").at("data").at("url"), json::value(s.url()));
}

TEST(http_client_errors, unauthorized_carries_www_authenticate_and_never_a_header_value) {
    const std::string challenge =
        R"(Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="mcp")";
    http_test_server s([&](const recorded_request&, writer_ptr w) {
        w->respond(401, {{"WWW-Authenticate", challenge}}, "");
    });
    client cl({.url = s.url() + "?api_key=q-secret",
               .headers = {{"Authorization", "Bearer tok-secret"}},
               .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})");
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_EQ(message_of(v), "HTTP 401 Unauthorized from " + s.url());
    EXPECT_EQ(v.at("error").at("data").at("httpStatus"), 401);
    EXPECT_EQ(v.at("error").at("data").at("wwwAuthenticate"), json::value(challenge));
    const auto everything = all_lines(cl.c);
    EXPECT_EQ(everything.find("tok-secret"), std::string::npos);
    EXPECT_EQ(everything.find("q-secret"), std::string::npos);
    // The query is sent, but never shown.
    EXPECT_EQ(s.requests().at(0).target, "/mcp?api_key=q-secret");
}

TEST(http_client_errors, refused_connection_completes_the_request) {
    // A port with nothing listening: bind, learn the port, close.
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/mcp";
    client cl({.url = url});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{}})");
    EXPECT_EQ(v.at("id"), 3);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("cannot connect to " + url), std::string::npos) << v;
    EXPECT_FALSE(v.at("error").at("data").as_object().contains("httpStatus"));
    // Still undecided, still usable: the next message tries again.
    auto w = cl.call(R"({"jsonrpc":"2.0","id":4,"method":"initialize","params":{}})");
    EXPECT_EQ(w.at("id"), 4);
}

TEST(http_client_errors, connect_timeout_covers_a_tls_handshake_that_never_ends) {
    // A listener that never accepts: the kernel completes TCP, nobody speaks TLS. (Loopback
    // only: tests never reach the network.)
    raw_listener listener(8);
    ASSERT_NE(listener.port, 0);
    const std::string url = listener.url("https");
    {
        client cl({.url = url, .mode = mode::streamable, .connect_timeout = 300ms});
        const auto t0 = std::chrono::steady_clock::now();
        auto v = cl.call(R"({"jsonrpc":"2.0","id":3,"method":"ping"})");
        const auto took = std::chrono::steady_clock::now() - t0;
        EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
        EXPECT_NE(message_of(v).find("timed out after 300 ms"), std::string::npos) << v;
        EXPECT_GE(took, 290ms);
        EXPECT_LT(took, 15s);
    }
}

TEST(http_client_errors, a_server_that_stops_reading_fails_the_request) {
    // A listener that never accepts: the kernel completes TCP and takes what fits in a small
    // receive buffer, then nobody reads. A 32 MiB request cannot all be written.
    raw_listener listener(8);
    ASSERT_NE(listener.port, 0);
    const int small = 4096;
    ::setsockopt(listener.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    client cl({.url = listener.url(), .mode = mode::streamable, .connect_timeout = 300ms});
    const auto t0 = std::chrono::steady_clock::now();
    auto v = cl.call(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"pad":")" +
                     std::string(std::size_t{32} << 20, 'x') + R"("}})");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, mcp::test::scaled(15s)); // 32 MiB: slow under TSan
    EXPECT_EQ(v.at("id"), 3);
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("the server at " + listener.url() + " took none of the request for 300 ms"),
              std::string::npos)
        << v;
}

TEST(http_client_errors, accepted_without_a_response_and_wrong_content_types_fail_the_request) {
    std::atomic<int> n{0};
    http_test_server s([&](const recorded_request&, writer_ptr w) {
        if (++n == 1)
            w->respond(202, {}, "");
        else
            w->respond(200, {{"Content-Type", "text/plain"}}, "hello");
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto a = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(a.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(a).find("202"), std::string::npos);
    auto b = cl.call(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    EXPECT_EQ(b.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(b).find("text/plain"), std::string::npos) << b;
}

TEST(http_client_errors, malformed_json_reply_fails_the_request) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->respond(200, http_test_server::json_headers(), R"({"jsonrpc":"2.0","id":1,"result":)");
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("invalid JSON"), std::string::npos);
}

TEST(http_client_errors, oversize_json_reply_is_reported_and_fails_the_request) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(200, http_test_server::json_headers(),
                   rpc_result(r.json().at("id"), json::object{{"blob", std::string(5000, 'x')}}));
    });
    client cl({.url = s.url(), .mode = mode::streamable, .max_message_size = 1000});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("1000"), std::string::npos);
    ASSERT_TRUE(cl.c.wait_errors(1, wait));
    EXPECT_NE(cl.c.errors[0].find("exceeds"), std::string::npos);
}

TEST(http_client_errors, oversize_sse_event_is_skipped_and_the_stream_goes_on) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        w->write(sse_event(R"({"jsonrpc":"2.0","method":"notifications/message","params":{"data":")" +
                           std::string(5000, 'x') + "\"}}"));
        w->write(sse_event(rpc_result(r.json().at("id"), json::object{})));
        w->end();
    });
    client cl({.url = s.url(), .mode = mode::streamable, .max_message_size = 1000});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(v.at("id"), 1);
    EXPECT_TRUE(v.as_object().contains("result"));
    ASSERT_TRUE(cl.c.wait_errors(1, wait));
    EXPECT_NE(cl.c.errors[0].find("exceeds the limit of 1000 bytes"), std::string::npos) << cl.c.errors[0];
}

TEST(http_client_errors, garbage_in_the_sse_stream_neither_crashes_nor_hangs) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->start_stream(200, http_test_server::sse_headers());
        std::string junk;
        for (int i = 0; i < 2000; ++i) junk.push_back(static_cast<char>((i * 131) % 256));
        w->write(junk);
        w->write("\n\ndata: {not json\n\ndata: [1,2\n\n\r\r\n");
        w->write(sse_event(rpc_result(r.json().at("id"), json::object{})));
        w->end();
    });
    client cl({.url = s.url(), .mode = mode::streamable});
    cl.t->send(R"({"jsonrpc":"2.0","id":42,"method":"ping"})");
    // Whatever junk became events went to the session as it was (it answers parse errors);
    // the response is there in the end.
    for (;;) {
        ASSERT_TRUE(cl.c.wait_lines(1, wait));
        std::unique_lock lock(cl.c.mu);
        if (cl.c.lines.back().find("\"id\":42") != std::string::npos) break;
        cl.c.cv.wait_for(lock, 50ms);
    }
}

TEST(http_client_errors, malformed_http_response_fails_the_request) {
    // A raw server that answers with something that is not HTTP.
    raw_listener listener;
    ASSERT_NE(listener.port, 0);
    auto srv = listener.serve_once([](int c) {
        const char junk[] = "SSH-2.0-OpenSSH_9.2\r\n\r\n";
        (void)!::write(c, junk, sizeof junk - 1);
    });
    client cl({.url = listener.url(), .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    srv.join();
}

TEST(http_client_errors, a_connection_closed_without_a_status_line_says_so) {
    // A raw server that reads the request and closes without writing a byte.
    raw_listener listener;
    ASSERT_NE(listener.port, 0);
    auto srv = listener.serve_once([](int c) { ::shutdown(c, SHUT_RDWR); });
    const std::string url = listener.url();
    client cl({.url = url, .mode = mode::streamable});
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    srv.join();
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_EQ(message_of(v), "the connection to " + url + " was closed before a response arrived");
    EXPECT_EQ(message_of(v).find("HTTP 0"), std::string::npos);
    EXPECT_FALSE(v.at("error").at("data").as_object().contains("httpStatus"));
}

TEST(http_client_errors, failed_notification_is_logged_not_delivered) {
    http_test_server s([](const recorded_request&, writer_ptr w) { w->respond(400, {}, "bad"); });
    client cl({.url = s.url(), .mode = mode::streamable});
    cl.t->send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    ASSERT_TRUE(s.wait_requests(1));
    auto v = cl.call(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"); // ordered after the notification's
                                                                     // failure? not necessarily
    EXPECT_EQ(v.at("id"), 1);
    for (int i = 0; i < 200; ++i) {
        {
            std::lock_guard lock(cl.log_mu);
            if (!cl.logs.empty()) break;
        }
        std::this_thread::sleep_for(10ms);
    }
    std::lock_guard lock(cl.log_mu);
    ASSERT_FALSE(cl.logs.empty());
    EXPECT_NE(cl.logs[0].find("HTTP 400"), std::string::npos);
    EXPECT_NE(cl.logs[0].find("notifications/initialized"), std::string::npos);
}

TEST(http_client_errors, invalid_options_are_rejected_up_front) {
    using mcp::http::make_client_transport;
    EXPECT_THROW(make_client_transport("ftp://x/"), std::invalid_argument);
    EXPECT_THROW(make_client_transport("not a url"), std::invalid_argument);
    EXPECT_THROW(make_client_transport({.url = "http://h/", .headers = {{"Bad Name", "v"}}}),
                 std::invalid_argument);
    EXPECT_THROW(make_client_transport({.url = "http://h/", .headers = {{"X", "a\r\nInjected: 1"}}}),
                 std::invalid_argument);
    EXPECT_THROW(make_client_transport({.url = "https://h/", .ca_file = "/nonexistent/ca.pem"}),
                 std::invalid_argument);
    // Headers the transport writes itself cannot come from the options (they would be sent
    // twice, e.g. "mcp-method: evil, server/discover"), whatever their case.
    for (std::string name : {"MCP-Protocol-Version", "mcp-session-id", "Mcp-Method", "MCP-NAME",
                             "Mcp-Param-Region", "mcp-param-x", "Accept", "content-type", "Content-Length",
                             "Host", "Last-Event-ID", "Transfer-Encoding", "Connection", "Upgrade"}) {
        try {
            make_client_transport({.url = "http://h/", .headers = {{"X-Api-Key", "k"}, {name, "evil"}}});
            ADD_FAILURE() << name << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("\"" + name + "\""), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find("evil"), std::string::npos) << e.what(); // no values
        }
    }
    // Others are fine, "Mcp-" names of no meaning to the protocol too.
    EXPECT_NO_THROW(make_client_transport(
        {.url = "http://h/",
         .headers = {
             {"Authorization", "Bearer x"}, {"User-Agent", "me"}, {"Mcp-Tenant", "t"}, {"Mcp-Param", "p"}}}));
    try {
        make_client_transport("http://user:pw@:80?token=abc");
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("token=abc"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("pw"), std::string::npos) << e.what();
    }
}

TEST(http_client_errors, close_before_start_and_destroy_without_close) {
    auto t = mcp::http::make_client_transport("http://127.0.0.1:1/mcp");
    t->send(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"); // queued, never sent
    t->close();
    t->close();
    auto u = mcp::http::make_client_transport("http://127.0.0.1:1/mcp");
    mcp::test::collector c;
    u->start(c.handler());
    u->send(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    u.reset(); // the destructor closes
    EXPECT_EQ(c.closes, 1);
}

} // namespace
