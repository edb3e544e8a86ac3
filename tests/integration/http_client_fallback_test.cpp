// mcp::client over the HTTP client transport against servers that do not answer the
// server/discover probe: silence for client_options::discover_timeout marks a server of the
// initialize era, so initialize goes out right then (also when the probe's refusal started an
// HTTP+SSE attempt that never delivers its endpoint event), and a server that answers nothing at
// all fails connect() within discover_timeout + timeout with a message that says so (as does one
// that answers discover too late and refuses initialize).
#include "support/http_test_server.hpp"

#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

using namespace std::chrono_literals;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using mcp::test::rpc_result;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;
namespace json = mcp::json;
using clock_type = std::chrono::steady_clock;

namespace {

// Exchanges that are never answered, kept open until the test ends.
struct held {
    std::mutex mu;
    std::vector<writer_ptr> writers;
    void keep(writer_ptr w) {
        std::lock_guard lock(mu);
        writers.push_back(std::move(w));
    }
};

json::object init_result() {
    return json::object{{"protocolVersion", "2025-11-25"},
                        {"capabilities", json::object{{"tools", json::object{}}}},
                        {"serverInfo", json::object{{"name", "old"}, {"version", "1"}}}};
}

// An initialize-era server: initialize, notifications (202); `discover` decides what happens to
// server/discover, `get` to a GET.
struct old_server {
    held hold;
    http_test_server s;

    old_server(std::function<void(const recorded_request&, writer_ptr, held&)> discover,
               std::function<void(const recorded_request&, writer_ptr, held&)> get = {})
        : s([this, discover, get](const recorded_request& r, writer_ptr w) {
              if (r.method == "GET") {
                  if (get)
                      get(r, std::move(w), hold);
                  else
                      w->respond(405, {}, "");
                  return;
              }
              if (r.method != "POST") {
                  w->respond(405, {}, "");
                  return;
              }
              const auto m = r.rpc_method();
              if (m == "server/discover") {
                  discover(r, std::move(w), hold);
              } else if (m == "initialize") {
                  w->respond(200, http_test_server::json_headers(),
                             rpc_result(r.json().at("id"), init_result()));
              } else if (r.json().as_object().contains("id")) {
                  w->respond(200, http_test_server::json_headers(),
                             rpc_result(r.json().at("id"), json::object{{"tools", json::array{}}}));
              } else {
                  w->respond(202, {}, "");
              }
          }) {}
};

mcp::client make_client(std::chrono::milliseconds discover_timeout, std::chrono::milliseconds timeout) {
    mcp::client_options o;
    o.info = {.name = "fallback-test", .version = "1"};
    o.discover_timeout = discover_timeout;
    o.timeout = timeout;
    return mcp::client(o);
}

std::shared_ptr<mcp::http::client_transport> transport(const std::string& url,
                                                       std::chrono::milliseconds connect_timeout = 10s) {
    return mcp::http::make_client_transport(
        {.url = url, .connect_timeout = connect_timeout, .log = [](std::string_view) {}});
}

TEST(http_client_fallback, an_unanswered_discover_falls_back_to_initialize_after_discover_timeout) {
    old_server srv([](const recorded_request&, writer_ptr w, held& h) { h.keep(std::move(w)); });
    auto c = make_client(300ms, 8s);
    const auto t0 = clock_type::now();
    const auto& init = c.connect(transport(srv.s.url()));
    const auto took = clock_type::now() - t0;
    EXPECT_EQ(init.protocol_version, "2025-11-25");
    EXPECT_FALSE(c.stateless());
    EXPECT_GE(took, 290ms);
    EXPECT_LT(took, 4s) << "initialize should follow the discover timeout at once";
    EXPECT_EQ(srv.s.requests(http_test_server::rpc_is("initialize")).size(), 1u);
    EXPECT_NO_THROW(c.list_tools());
    c.close();
}

TEST(http_client_fallback, a_refused_discover_whose_sse_attempt_stays_silent_falls_back_in_time) {
    // The probe is refused with a plain 400, so the transport tries HTTP+SSE: the GET opens an
    // SSE stream that never sends its endpoint event (comments only). The client's
    // discover_timeout ends the wait, and the abandoned SSE attempt must not hold initialize.
    old_server srv(
        [](const recorded_request&, writer_ptr w, held&) {
            w->respond(400, {{"Content-Type", "text/plain"}}, "bad");
        },
        [](const recorded_request&, writer_ptr w, held& h) {
            w->start_stream(200, http_test_server::sse_headers());
            w->write(": hello\n\n");
            h.keep(std::move(w));
        });
    auto c = make_client(300ms, 8s);
    const auto t0 = clock_type::now();
    const auto& init = c.connect(transport(srv.s.url(), 5s));
    const auto took = clock_type::now() - t0;
    EXPECT_EQ(init.protocol_version, "2025-11-25");
    EXPECT_LT(took, 4s) << "initialize should follow the discover timeout at once";
    c.close();
}

TEST(http_client_fallback, an_sse_attempt_without_endpoint_event_ends_within_the_connect_timeout) {
    // discover_timeout is long here: the transport's own deadline for the endpoint event (the
    // connect timeout) answers the probe with "method not found", and initialize follows.
    old_server srv(
        [](const recorded_request&, writer_ptr w, held&) {
            w->respond(404, {{"Content-Type", "text/plain"}}, "no");
        },
        [](const recorded_request&, writer_ptr w, held& h) {
            w->start_stream(200, http_test_server::sse_headers());
            w->write(": hello\n\n");
            h.keep(std::move(w));
        });
    auto c = make_client(20s, 8s);
    const auto t0 = clock_type::now();
    const auto& init = c.connect(transport(srv.s.url(), 1s));
    const auto took = clock_type::now() - t0;
    EXPECT_EQ(init.protocol_version, "2025-11-25");
    EXPECT_GE(took, 950ms);
    EXPECT_LT(took, 1900ms) << "the endpoint deadline is the connect timeout, not twice it";
    c.close();
}

TEST(http_client_fallback, a_server_that_answers_nothing_fails_connect_in_bounded_time_saying_so) {
    held hold;
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.method == "POST" && r.json().as_object().contains("id"))
            hold.keep(std::move(w)); // neither server/discover nor initialize is answered
        else
            w->respond(405, {}, "");
    });
    auto c = make_client(300ms, 700ms);
    const auto t0 = clock_type::now();
    try {
        c.connect(transport(s.url()));
        FAIL() << "connect() succeeded";
    } catch (const mcp::error& e) {
        const auto took = clock_type::now() - t0;
        EXPECT_EQ(e.code(), mcp::error_code::request_timeout);
        const std::string what = e.what();
        EXPECT_NE(what.find("server/discover"), std::string::npos) << what;
        EXPECT_NE(what.find("300 ms"), std::string::npos) << what;
        EXPECT_NE(what.find("initialize"), std::string::npos) << what;
        EXPECT_NE(what.find("700 ms"), std::string::npos) << what;
        EXPECT_GE(took, 950ms);
        EXPECT_LT(took, 5s);
    }
    // initialize did go out (after the probe's timeout), to a server that kept silent.
    EXPECT_EQ(s.requests(http_test_server::rpc_is("initialize")).size(), 1u);
}

TEST(http_client_fallback, a_slow_stateless_only_server_is_reported_with_both_steps) {
    // server/discover answers too late; initialize is unknown to a 2026-07-28-only server.
    held hold;
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.rpc_method() == "server/discover") {
            hold.keep(std::move(w));
            return;
        }
        w->respond(404, http_test_server::json_headers(),
                   mcp::test::rpc_error(r.json().at("id"), -32601, "Method not found"));
    });
    auto c = make_client(300ms, 5s);
    try {
        c.connect(transport(s.url()));
        FAIL() << "connect() succeeded";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::method_not_found);
        const std::string what = e.what();
        EXPECT_NE(what.find("server/discover got no answer within 300 ms"), std::string::npos) << what;
        EXPECT_NE(what.find("initialize failed: Method not found"), std::string::npos) << what;
    }
}

} // namespace
