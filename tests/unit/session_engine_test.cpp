// Wire tests of the JSON-RPC engine: raw bytes in, raw bytes out.
#include <mcp/session/session.hpp>

#include "support/scripted_transport.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using mcp::json::value;

namespace {

struct engine : ::testing::Test {
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::shared_ptr<mcp::session> s;
    std::mutex diagnostics_mu;
    std::vector<std::string> diagnostics; // what the session reported through its sink

    std::vector<std::string> reported() {
        std::lock_guard lock(diagnostics_mu);
        return diagnostics;
    }

    void SetUp() override {
        mcp::session_options o;
        o.name = "test";
        o.diagnostic_sink = [this](std::string_view line) {
            std::lock_guard lock(diagnostics_mu);
            diagnostics.emplace_back(line);
        };
        s = mcp::session::create(wire, o);
        s->set_request_handler("echo", [](mcp::request_context& ctx) -> value { return ctx.params(); });
        s->set_request_handler("fail", [](mcp::request_context&) -> value {
            throw mcp::error(-32602, "bad thing", {{"field", "x"}});
        });
        s->set_request_handler(
            "crash", [](mcp::request_context&) -> value { throw std::runtime_error("secret detail"); });
        s->start();
    }
    void TearDown() override { s->close(); }
};

TEST_F(engine, answers_a_request_with_its_result) {
    wire->inject(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[1,2.5,"x"]}})");
    EXPECT_EQ(*wire->next(), R"({"jsonrpc":"2.0","id":1,"result":{"a":[1,2.5,"x"]}})");
    wire->inject(R"({"jsonrpc":"2.0","id":"abc","method":"echo"})");
    EXPECT_EQ(*wire->next(), R"({"jsonrpc":"2.0","id":"abc","result":{}})");
}

TEST_F(engine, malformed_json_is_a_parse_error_without_id) {
    wire->inject(R"({"jsonrpc":"2.0","id":1,"method":)");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32700);
    EXPECT_FALSE(r.as_object().contains("id"));
    // And the session goes on.
    wire->inject(R"({"jsonrpc":"2.0","id":2,"method":"echo"})");
    EXPECT_EQ(wire->next_json().at("id"), 2);
}

TEST_F(engine, unreadable_id_is_null_for_older_revisions) {
    // JSON-RPC 2.0 and the 2024-11-05..2025-06-18 schemas require `id` on error responses: null.
    s->set_protocol_revision(mcp::revision::v2025_06_18);
    wire->inject("not json");
    auto r = wire->next_json();
    ASSERT_TRUE(r.as_object().contains("id"));
    EXPECT_TRUE(r.at("id").is_null());
    // 2025-11-25 and later make the id optional: it is left out.
    s->set_protocol_revision(mcp::revision::v2025_11_25);
    wire->inject("not json");
    EXPECT_FALSE(wire->next_json().as_object().contains("id"));
}

TEST_F(engine, invalid_utf8_is_a_parse_error) {
    wire->inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":{\"t\":\"\xff\xfe\"}}");
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32700);
}

TEST_F(engine, a_value_that_is_not_a_request_is_invalid) {
    for (const char* bad :
         {"42", R"("str")", "null", R"({"id":1,"method":"echo"})",
          R"({"jsonrpc":"1.0","id":1,"method":"echo"})", R"({"jsonrpc":"2.0","id":1,"method":7})",
          R"({"jsonrpc":"2.0","id":{"x":1},"method":"echo"})"}) {
        wire->inject(bad);
        auto r = wire->next_json();
        EXPECT_EQ(r.at("error").at("code"), -32600) << bad;
    }
}

TEST_F(engine, invalid_request_keeps_a_readable_id) {
    wire->inject(R"({"jsonrpc":"1.0","id":9,"method":"echo"})");
    EXPECT_EQ(wire->next_json().at("id"), 9);
}

TEST_F(engine, null_id_is_rejected) {
    wire->inject(R"({"jsonrpc":"2.0","id":null,"method":"echo"})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32600);
    EXPECT_NE(std::string(r.at("error").at("message").as_string()).find("null"), std::string::npos);
}

TEST_F(engine, array_params_are_invalid_params) {
    wire->inject(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":[1,2]})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("id"), 3);
    EXPECT_EQ(r.at("error").at("code"), -32602);
}

TEST_F(engine, unknown_method_is_method_not_found) {
    wire->inject(R"({"jsonrpc":"2.0","id":4,"method":"nope/nope"})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32601);
    EXPECT_EQ(r.at("error").at("message"), "Method not found: nope/nope");
}

TEST_F(engine, handler_errors_keep_code_message_and_data) {
    wire->inject(R"({"jsonrpc":"2.0","id":5,"method":"fail"})");
    EXPECT_EQ(
        *wire->next(),
        R"({"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"bad thing","data":{"field":"x"}}})");
}

TEST_F(engine, other_exceptions_become_internal_error_without_leaking) {
    wire->inject(R"({"jsonrpc":"2.0","id":6,"method":"crash"})");
    auto text = *wire->next();
    EXPECT_NE(text.find("-32603"), std::string::npos);
    EXPECT_EQ(text.find("secret"), std::string::npos);
    // The detail goes to the operator instead, through the diagnostic sink (not stderr).
    EXPECT_EQ(reported(), std::vector<std::string>{"handler for crash threw: secret detail"});
}

TEST_F(engine, ping_is_answered_with_an_empty_result) {
    wire->inject(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    EXPECT_EQ(*wire->next(), R"({"jsonrpc":"2.0","id":"p","result":{}})");
}

TEST_F(engine, unknown_notifications_and_responses_are_ignored) {
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/whatever"})");
    wire->inject(R"({"jsonrpc":"2.0","id":999,"result":{}})");
    EXPECT_FALSE(wire->next(200ms));
}

TEST_F(engine, batches_are_refused_unless_2025_03_26) {
    wire->inject(R"([{"jsonrpc":"2.0","id":1,"method":"echo"}])");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32600);
}

TEST_F(engine, batch_under_2025_03_26_gets_one_array_reply) {
    s->set_protocol_revision(mcp::revision::v2025_03_26);
    wire->inject(R"([{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}},
                     {"jsonrpc":"2.0","method":"notifications/x"},
                     {"jsonrpc":"2.0","id":2,"method":"missing"},
                     7])");
    auto r = wire->next_json();
    ASSERT_TRUE(r.is_array());
    ASSERT_EQ(r.as_array().size(), 3u);
    int results = 0, errors = 0;
    for (auto& e : r.as_array()) (e.as_object().contains("result") ? results : errors)++;
    EXPECT_EQ(results, 1);
    EXPECT_EQ(errors, 2);
    // Only notifications: nothing is sent back.
    wire->inject(R"([{"jsonrpc":"2.0","method":"notifications/x"}])");
    EXPECT_FALSE(wire->next(200ms));
    wire->inject("[]");
    EXPECT_EQ(wire->next_json().at("error").at("code"), -32600);
}

TEST_F(engine, oversize_message_gets_an_error_and_the_session_goes_on) {
    mcp::session_options o;
    auto w = std::make_shared<mcp::test::scripted_transport>();
    o.max_message_size = 1024;
    auto s2 = mcp::session::create(w, o);
    s2->start();
    EXPECT_EQ(w->max_size(), 1024u);
    w->inject(std::string(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":")") +
              std::string(2000, 'a') + "\"}}");
    auto r = w->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32600);
    w->inject(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    EXPECT_EQ(w->next_json().at("id"), 2);
}

TEST(engine_concurrency, a_stuck_request_does_not_block_others) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    std::atomic<bool> release{false};
    s->set_request_handler("stuck", [&](mcp::request_context&) -> value {
        while (!release) std::this_thread::sleep_for(1ms);
        return mcp::json::object{{"done", true}};
    });
    s->set_request_handler("quick", [](mcp::request_context&) -> value {
        return mcp::json::object{{"q", 1}};
    });
    s->start();
    for (int i = 0; i < 8; ++i) // more stuck requests than the pool has threads
        wire->inject(R"({"jsonrpc":"2.0","id":"s)" + std::to_string(i) + R"(","method":"stuck"})");
    wire->inject(R"({"jsonrpc":"2.0","id":"q","method":"quick"})");
    auto r = wire->next_json(5000ms);
    EXPECT_EQ(r.at("id"), "q");
    release = true;
    for (int i = 0; i < 8; ++i) EXPECT_TRUE(wire->next(5000ms));
    s->close();
}

TEST(engine_concurrency, duplicate_in_flight_id_is_rejected) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    std::atomic<bool> release{false};
    s->set_request_handler("slow", [&](mcp::request_context&) -> value {
        while (!release) std::this_thread::sleep_for(1ms);
        return nullptr;
    });
    s->start();
    wire->inject(R"({"jsonrpc":"2.0","id":7,"method":"slow"})");
    wire->inject(R"({"jsonrpc":"2.0","id":7,"method":"slow"})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("error").at("code"), -32600);
    release = true;
    EXPECT_EQ(wire->next_json().at("result"), mcp::json::object());
    s->close();
}

TEST(engine_concurrency, in_flight_limit_gives_a_clear_error) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    mcp::session_options o;
    o.max_in_flight_requests = 2;
    auto s = mcp::session::create(wire, o);
    std::atomic<bool> release{false};
    s->set_request_handler("slow", [&](mcp::request_context&) -> value {
        while (!release) std::this_thread::sleep_for(1ms);
        return nullptr;
    });
    s->start();
    for (int i = 1; i <= 3; ++i)
        wire->inject(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"slow"})");
    auto r = wire->next_json();
    EXPECT_EQ(r.at("id"), 3);
    EXPECT_NE(std::string(r.at("error").at("message").as_string()).find("limit 2"), std::string::npos);
    release = true;
    EXPECT_TRUE(wire->next());
    EXPECT_TRUE(wire->next());
    s->close();
}

TEST(engine_cancellation, incoming_cancel_fires_the_token_and_suppresses_the_reply) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    std::atomic<bool> saw_cancel{false};
    std::string reason;
    s->set_request_handler("wait", [&](mcp::request_context& ctx) -> value {
        while (!ctx.cancelled()) std::this_thread::sleep_for(1ms);
        reason = ctx.cancellation().reason();
        saw_cancel = true;
        return nullptr;
    });
    s->start();
    wire->inject(R"({"jsonrpc":"2.0","id":"w","method":"wait"})");
    std::this_thread::sleep_for(20ms);
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w","reason":"user"}})");
    for (int i = 0; i < 500 && !saw_cancel; ++i) std::this_thread::sleep_for(2ms);
    EXPECT_TRUE(saw_cancel);
    EXPECT_EQ(reason, "user");
    EXPECT_FALSE(wire->next(200ms)); // no response to a cancelled request
    // A cancel for an unknown or finished request is ignored.
    wire->inject(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"zzz"}})");
    EXPECT_FALSE(wire->next(100ms));
    s->close();
}

TEST(engine_outgoing, response_is_matched_by_id) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    auto f1 = s->request("a/b", mcp::json::object{{"x", 1}});
    auto f2 = s->request("c/d");
    auto r1 = wire->next_json();
    auto r2 = wire->next_json();
    EXPECT_EQ(r1.at("method"), "a/b");
    EXPECT_EQ(r2.at("method"), "c/d");
    // Answer out of order.
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(r2.at("id")) + R"(,"result":{"two":2}})");
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(r1.at("id")) +
                 R"(,"error":{"code":-32602,"message":"nope"}})");
    EXPECT_EQ(f2.get().at("two"), 2);
    try {
        f1.get();
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), -32602);
        EXPECT_STREQ(e.what(), "nope");
    }
    s->close();
}

TEST(engine_outgoing, async_request_returns_the_id_it_sent) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    std::promise<mcp::response_outcome> done;
    const auto id =
        s->async_request("a/b", nullptr, {}, [&](mcp::response_outcome o) { done.set_value(std::move(o)); });
    auto req = wire->next_json();
    EXPECT_EQ(mcp::jsonrpc::id_to_json(id), req.at("id"));
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req.at("id")) + R"(,"result":{}})");
    EXPECT_TRUE(done.get_future().get().ok());
    s->close();
}

// In 2026-07-28 a server sends no requests, so its notifications/cancelled names one of ours: a
// subscriptions/listen stream it ends (stdio). Before that revision such a notification is ignored.
TEST(engine_outgoing, a_peer_cancelling_our_request_ends_it_only_in_2026) {
    for (auto r : {mcp::revision::v2025_11_25, mcp::revision::v2026_07_28}) {
        auto wire = std::make_shared<mcp::test::scripted_transport>();
        auto s = mcp::session::create(wire);
        s->set_protocol_revision(r);
        s->start();
        mcp::request_options o;
        o.timeout = 300ms;
        auto f = s->request("subscriptions/listen", nullptr, o);
        auto req = wire->next_json();
        wire->inject(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" +
                     mcp::to_json(req.at("id")) + R"(,"reason":"shutting down"}})");
        try {
            f.get();
            FAIL();
        } catch (const mcp::error& e) {
            if (r == mcp::revision::v2026_07_28) {
                EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
                EXPECT_NE(std::string(e.what()).find("shutting down"), std::string::npos) << e.what();
            } else {
                EXPECT_EQ(e.code(), mcp::error_code::request_timeout); // the cancellation was ignored
            }
        }
        s->close();
    }
}

TEST(engine_outgoing, timeout_sends_cancelled_and_fails_the_call) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    mcp::request_options o;
    o.timeout = 100ms;
    auto f = s->request("slow/thing", nullptr, o);
    auto req = wire->next_json();
    auto cancel = wire->next_json(2000ms);
    EXPECT_EQ(cancel.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancel.at("params").at("requestId"), req.at("id"));
    try {
        f.get();
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_timeout);
    }
    // A late response is ignored.
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req.at("id")) + R"(,"result":{}})");
    EXPECT_EQ(s->pending_outgoing(), 0u);
    s->close();
}

TEST(engine_outgoing, progress_resets_the_timeout_up_to_the_hard_maximum) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    mcp::request_options o;
    o.timeout = 150ms;
    o.max_total_timeout = 2000ms;
    std::atomic<int> updates{0};
    o.on_progress = [&](const mcp::progress_update& u) {
        EXPECT_EQ(u.total, 10);
        ++updates;
    };
    auto f = s->request("long/thing", mcp::json::object{}, o);
    auto req = wire->next_json();
    auto token = req.at("params").at("_meta").at("progressToken");
    EXPECT_EQ(token, req.at("id"));
    // Keep it alive with progress for 450 ms (3x the timeout), then answer.
    for (int i = 1; i <= 9; ++i) {
        std::this_thread::sleep_for(50ms);
        wire->inject(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)" +
                     mcp::to_json(token) + R"(,"progress":)" + std::to_string(i) + R"(,"total":10}})");
    }
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req.at("id")) + R"(,"result":{"ok":true}})");
    EXPECT_EQ(f.get().at("ok"), true);
    EXPECT_GE(updates.load(), 8);

    // The hard maximum wins even while progress keeps coming.
    o.timeout = 100ms;
    o.max_total_timeout = 300ms;
    o.on_progress = [](const mcp::progress_update&) {};
    auto g = s->request("long/thing", mcp::json::object{}, o);
    auto req2 = wire->next_json();
    auto token2 = mcp::to_json(req2.at("params").at("_meta").at("progressToken"));
    auto start = std::chrono::steady_clock::now();
    for (int i = 1; i <= 20; ++i) {
        std::this_thread::sleep_for(40ms);
        wire->inject(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)" +
                     token2 + R"(,"progress":)" + std::to_string(i) + "}}");
        if (g.wait_for(0ms) == std::future_status::ready) break;
    }
    EXPECT_THROW(g.get(), mcp::error);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 700ms);
    s->close();
}

TEST(engine_outgoing, caller_cancellation_sends_cancelled) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    mcp::cancellation_source src;
    mcp::request_options o;
    o.cancel = src.token();
    auto f = s->request("x/y", nullptr, o);
    auto req = wire->next_json();
    src.cancel("user pressed ctrl-c");
    auto n = wire->next_json();
    EXPECT_EQ(n.at("method"), "notifications/cancelled");
    EXPECT_EQ(n.at("params").at("reason"), "user pressed ctrl-c");
    EXPECT_THROW(f.get(), mcp::error);
    s->close();
}

TEST(engine_outgoing, close_fails_pending_requests) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->start();
    auto f = s->request("x/y");
    (void)wire->next();
    wire->close();
    try {
        f.get();
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed);
    }
    EXPECT_TRUE(s->is_closed());
    // Requests after close fail at once.
    EXPECT_THROW(s->call("x/y"), mcp::error);
}

TEST(engine_progress, handler_reports_progress_only_when_asked) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    s->set_request_handler("work", [](mcp::request_context& ctx) -> value {
        ctx.report_progress(1, 2, "half");
        ctx.report_progress(2, 2);
        return nullptr;
    });
    s->start();
    wire->inject(R"({"jsonrpc":"2.0","id":1,"method":"work","params":{"_meta":{"progressToken":"t"}}})");
    EXPECT_EQ(
        *wire->next(),
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1.0,"total":2.0,"message":"half"}})");
    EXPECT_EQ(wire->next_json().at("method"), "notifications/progress");
    EXPECT_EQ(wire->next_json().at("id"), 1);
    wire->inject(R"({"jsonrpc":"2.0","id":2,"method":"work"})");
    EXPECT_EQ(wire->next_json().at("id"), 2); // no progress without a token
    // 2024-11-05 has no `message` in progress notifications.
    s->set_protocol_revision(mcp::revision::v2024_11_05);
    wire->inject(R"({"jsonrpc":"2.0","id":3,"method":"work","params":{"_meta":{"progressToken":5}}})");
    EXPECT_EQ(
        *wire->next(),
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":5,"progress":1.0,"total":2.0}})");
    s->close();
}

TEST(engine_notifications, keep_their_order) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto s = mcp::session::create(wire);
    std::mutex mu;
    std::vector<int> seen;
    s->set_notification_handler("n", [&](const mcp::json::object& p) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        std::lock_guard lock(mu);
        seen.push_back(static_cast<int>(p.at("i").as_int64()));
    });
    s->start();
    for (int i = 0; i < 200; ++i)
        wire->inject(R"({"jsonrpc":"2.0","method":"n","params":{"i":)" + std::to_string(i) + "}}");
    for (int t = 0; t < 1000; ++t) {
        {
            std::lock_guard lock(mu);
            if (seen.size() == 200) break;
        }
        std::this_thread::sleep_for(5ms);
    }
    std::lock_guard lock(mu);
    ASSERT_EQ(seen.size(), 200u);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(seen[i], i);
}

TEST(engine_trace, logs_both_directions_to_a_sink) {
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    mcp::session_options o;
    std::mutex mu;
    std::vector<std::pair<mcp::trace_event::direction, std::string>> lines;
    o.trace = true;
    o.trace_sink = [&](const mcp::trace_event& e) {
        std::lock_guard lock(mu);
        lines.emplace_back(e.dir, std::string(e.message));
    };
    auto s = mcp::session::create(wire, o);
    s->start();
    wire->inject(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    (void)wire->next();
    std::lock_guard lock(mu);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].first, mcp::trace_event::direction::in);
    EXPECT_EQ(lines[1].first, mcp::trace_event::direction::out);
    EXPECT_EQ(lines[1].second, R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

} // namespace
