// mcp::http::fetch and mcp::http::http_client against scripted servers on 127.0.0.1: a request
// and its response, streaming the body, the time and size limits, connection errors, and an
// http_client shared by several threads.
#include "support/http_test_server.hpp"

#include <mcp/http/fetch.hpp>

#include <gtest/gtest.h>

#include <future>
#include <thread>

using namespace std::chrono_literals;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;

namespace {

TEST(http_fetch, post_with_headers_and_body) {
    http_test_server s([](const recorded_request& r, writer_ptr w) {
        w->respond(201, {{"Content-Type", "application/json"}, {"X-Echo", r.header("X-Token").value_or("")}},
                   "{\"got\":" + std::to_string(r.body.size()) + "}");
    });
    auto r = mcp::http::fetch({.method = "POST",
                               .url = s.url("/v1/chat/completions"),
                               .headers = {{"X-Token", "abc"}, {"Content-Type", "application/json"}},
                               .body = R"({"model":"m"})"});
    EXPECT_EQ(r.status, 201);
    EXPECT_EQ(r.reason, "Created");
    EXPECT_EQ(r.header("x-echo"), "abc");
    EXPECT_EQ(r.body, "{\"got\":13}");
    auto req = s.requests().at(0);
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.target, "/v1/chat/completions");
    EXPECT_EQ(req.body, R"({"model":"m"})");
    EXPECT_TRUE(req.header("User-Agent"));
}

TEST(http_fetch, error_statuses_are_responses_not_exceptions) {
    http_test_server s([](const recorded_request&, writer_ptr w) { w->respond(404, {}, "nope"); });
    auto r = mcp::http::fetch({.url = s.url("/missing")});
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.body, "nope");
}

TEST(http_fetch, streamed_body_arrives_in_pieces) {
    http_test_server s([](const recorded_request&, writer_ptr w) {
        w->start_stream(200, {{"Content-Type", "text/event-stream"}});
        std::thread([w] {
            for (int i = 0; i < 5; ++i) {
                w->write("data: " + std::to_string(i) + "\n\n");
                std::this_thread::sleep_for(5ms);
            }
            w->end();
        }).detach();
    });
    std::string all;
    int pieces = 0;
    auto r = mcp::http::fetch({.url = s.url(), .on_body = [&](std::string_view b) {
                                   all.append(b);
                                   ++pieces;
                                   return true;
                               }});
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(r.body.empty());
    EXPECT_EQ(all, "data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n");
    EXPECT_GE(pieces, 2);
}

TEST(http_fetch, on_body_may_stop_reading) {
    std::mutex mu;
    std::vector<writer_ptr> held; // never ends (a dropped writer would cut the stream)
    http_test_server s([&](const recorded_request&, writer_ptr w) {
        w->start_stream(200, {});
        w->write("first");
        std::lock_guard lock(mu);
        held.push_back(std::move(w));
    });
    std::string got;
    auto r = mcp::http::fetch({.url = s.url(), .on_body = [&](std::string_view b) {
                                   got.append(b);
                                   return false;
                               }});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(got, "first");
}

TEST(http_fetch, timeout_and_size_limit) {
    std::mutex mu;
    std::vector<writer_ptr> held; // answered never
    http_test_server s([&](const recorded_request& r, writer_ptr w) {
        if (r.target == "/slow") {
            std::lock_guard lock(mu);
            held.push_back(std::move(w));
            return;
        }
        w->respond(200, {}, std::string(10000, 'x'));
    });
    const auto t0 = std::chrono::steady_clock::now();
    try {
        mcp::http::fetch({.url = s.url("/slow"), .timeout = 300ms});
        ADD_FAILURE() << "no timeout";
    } catch (const mcp::http::fetch_error& e) {
        EXPECT_NE(std::string(e.what()).find("within 300 ms"), std::string::npos) << e.what();
    }
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 290ms);
    EXPECT_THROW(mcp::http::fetch({.url = s.url("/big"), .max_response_bytes = 1000}),
                 mcp::http::fetch_error);
    EXPECT_EQ(mcp::http::fetch({.url = s.url("/big")}).body.size(), 10000u);
}

TEST(http_fetch, bad_requests_and_unreachable_servers_throw) {
    EXPECT_THROW(mcp::http::fetch({.url = "mailto:x@y"}), mcp::http::fetch_error);
    EXPECT_THROW(mcp::http::fetch({.url = "http://127.0.0.1:1/", .headers = {{"X", "a\nb"}}}),
                 mcp::http::fetch_error);
    try {
        mcp::http::fetch({.url = "http://127.0.0.1:1/?secret=1"});
        ADD_FAILURE();
    } catch (const mcp::http::fetch_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot connect to http://127.0.0.1:1/"), std::string::npos)
            << e.what();
        EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos);
    }
}

TEST(http_fetch, http_client_is_shared_by_threads_and_keeps_connections) {
    http_test_server s([](const recorded_request& r, writer_ptr w) { w->respond(200, {}, r.target); });
    mcp::http::http_client client;
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i) {
                const std::string path = "/t" + std::to_string(t) + "/" + std::to_string(i);
                auto r = client.fetch({.url = s.url(path)});
                if (r.status == 200 && r.body == path) ++ok;
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok, 100);
    EXPECT_EQ(s.requests().size(), 100u);
}

} // namespace
