// The in-memory transport pair: asynchronous, ordered delivery; never re-entrant; closing one
// side closes both; safe to drop from inside its own callbacks.
#include <mcp/transport/memory.hpp>

#include <gtest/gtest.h>

#include "support/transport_collector.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

namespace {

using mcp::test::collector;

TEST(transport_memory, ordered_delivery_from_many_senders_on_one_thread) {
    collector cb;
    auto [a, b] = mcp::memory_transport::create_pair();
    b->start(cb.handler());
    a->start({});
    constexpr int senders = 8, per = 2000;
    std::vector<std::thread> ts;
    for (int s = 0; s < senders; ++s)
        ts.emplace_back([&, s] {
            for (int i = 0; i < per; ++i) a->send(std::to_string(s) + ":" + std::to_string(i));
        });
    for (auto& t : ts) t.join();
    ASSERT_TRUE(cb.wait_lines(senders * per));
    std::vector<int> next(senders, 0);
    for (auto& m : cb.lines) {
        const int s = std::stoi(m.substr(0, m.find(':')));
        const int i = std::stoi(m.substr(m.find(':') + 1));
        ASSERT_EQ(i, next[static_cast<std::size_t>(s)]++);
    }
    for (auto& id : cb.threads) {
        EXPECT_EQ(id, cb.threads[0]); // one delivery thread
        EXPECT_NE(id, std::this_thread::get_id());
    }
    a->close();
    b->close();
}

TEST(transport_memory, send_never_delivers_on_the_sending_thread) {
    collector cb, ca;
    auto [a, b] = mcp::memory_transport::create_pair();
    b->start(cb.handler());
    a->start(ca.handler());
    for (int i = 0; i < 100; ++i) a->send("x");
    ASSERT_TRUE(cb.wait_lines(100));
    for (auto& id : cb.threads) EXPECT_NE(id, std::this_thread::get_id());
    a->close();
    b->close();
}

TEST(transport_memory, messages_sent_before_start_are_kept) {
    collector cb;
    auto [a, b] = mcp::memory_transport::create_pair();
    a->send("early1");
    a->send("early2");
    b->start(cb.handler());
    ASSERT_TRUE(cb.wait_lines(2));
    EXPECT_EQ(cb.lines, (std::vector<std::string>{"early1", "early2"}));
}

TEST(transport_memory, close_on_one_side_closes_both_exactly_once) {
    collector ca, cb;
    auto [a, b] = mcp::memory_transport::create_pair();
    a->start(ca.handler());
    b->start(cb.handler());
    a->send("last words");
    ASSERT_TRUE(cb.wait_lines(1));
    b->close();
    EXPECT_TRUE(ca.wait_closed());
    EXPECT_TRUE(cb.wait_closed());
    a->close();
    b->close();
    a->send("after close"); // dropped, no crash
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(ca.closes, 1);
    EXPECT_EQ(cb.closes, 1);
    EXPECT_EQ(cb.lines.size(), 1u);
}

TEST(transport_memory, close_from_inside_on_message) {
    collector ca;
    auto [a, b] = mcp::memory_transport::create_pair();
    std::atomic<int> b_closes{0};
    std::atomic<int> b_messages{0};
    mcp::transport_handler hb;
    std::weak_ptr<mcp::transport> weak_b = b;
    hb.on_message = [&, weak_b](mcp::jsonrpc::incoming_message&&) {
        ++b_messages;
        if (auto self = weak_b.lock()) {
            self->send("reply");
            self->close();
        }
    };
    hb.on_close = [&] { ++b_closes; };
    a->start(ca.handler());
    b->start(hb);
    a->send("1");
    EXPECT_TRUE(ca.wait_closed());
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (b_closes == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(b_closes, 1);
    EXPECT_EQ(ca.lines, std::vector<std::string>{"reply"}); // sent before close: delivered
}

TEST(transport_memory, dropping_the_last_reference_inside_callbacks) {
    for (int round = 0; round < 20; ++round) {
        auto pair = mcp::memory_transport::create_pair();
        auto holder = std::make_shared<mcp::transport_ptr>(pair.second);
        pair.second.reset();
        std::atomic<bool> done{false};
        mcp::transport_handler hb;
        hb.on_message = [holder](mcp::jsonrpc::incoming_message&&) {
            holder->reset();
        }; // b dies on its own thread
        hb.on_close = [&done] { done = true; };
        (*holder)->start(hb);
        pair.first->start({});
        pair.first->send("bye");
        const auto deadline = std::chrono::steady_clock::now() + 3s;
        while (!done && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
        EXPECT_TRUE(done) << "round " << round;
        pair.first.reset();
    }
}

TEST(transport_memory, max_message_size_is_enforced) {
    auto [a, b] = mcp::memory_transport::create_pair();
    std::mutex mu;
    std::vector<std::string> errors, messages;
    mcp::transport_handler hb;
    hb.on_message = [&](mcp::jsonrpc::incoming_message&& m) {
        std::lock_guard lock(mu);
        if (m.error && m.text.empty()) // refused: over the limit
            errors.emplace_back(m.error->what());
        else
            messages.emplace_back(m.text);
    };
    b->set_max_message_size(10);
    b->start(hb);
    a->send("short");
    a->send("this one is far too long");
    a->send("ok");
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    for (;;) {
        {
            std::lock_guard lock(mu);
            if (messages.size() + errors.size() >= 3 || std::chrono::steady_clock::now() > deadline) break;
        }
        std::this_thread::sleep_for(1ms);
    }
    std::lock_guard lock(mu);
    EXPECT_EQ(messages, (std::vector<std::string>{"short", "ok"}));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("exceeds the limit of 10 bytes"), std::string::npos) << errors[0];
}

} // namespace
