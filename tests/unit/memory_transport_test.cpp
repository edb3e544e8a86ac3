#include <mcp/transport/memory.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

TEST(memory_transport, delivers_in_order_both_ways_and_closes_both) {
    auto [a, b] = mcp::memory_transport::create_pair();
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> at_a, at_b;
    std::atomic<int> closes{0};
    auto handler = [&](std::vector<std::string>& sink) {
        mcp::transport_handler h;
        h.on_message = [&](std::string_view m) {
            std::lock_guard lock(mu);
            sink.emplace_back(m);
            cv.notify_all();
        };
        h.on_close = [&] {
            std::lock_guard lock(mu);
            ++closes;
            cv.notify_all();
        };
        return h;
    };
    a->start(handler(at_a));
    b->start(handler(at_b));
    for (int i = 0; i < 1000; ++i) {
        a->send("a" + std::to_string(i));
        b->send("b" + std::to_string(i));
    }
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return at_a.size() == 1000 && at_b.size() == 1000; }));
    }
    for (int i = 0; i < 1000; ++i) {
        EXPECT_EQ(at_b[static_cast<std::size_t>(i)], "a" + std::to_string(i));
        EXPECT_EQ(at_a[static_cast<std::size_t>(i)], "b" + std::to_string(i));
    }
    a->close();
    {
        std::unique_lock lock(mu);
        EXPECT_TRUE(cv.wait_for(lock, 5s, [&] { return closes == 2; }));
    }
    b->close(); // both delivery threads are done before the locals they use go away
}
