// Inline dispatch over a real pipe: a request after which nothing is buffered runs on the
// reading thread; when it blocks, reading moves to a new thread, so pings, cancellations and
// other requests are still served.
#include <mcp/session/session.hpp>
#include <mcp/transport/fd_stream.hpp>
#include <mcp/transport/line_framer.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <unistd.h>

using namespace std::chrono_literals;

namespace {

struct pipe_peer {
    int to_server[2];
    int from_server[2];
    std::string buffer;
    pipe_peer() {
        EXPECT_EQ(pipe2(to_server, O_CLOEXEC), 0);
        EXPECT_EQ(pipe2(from_server, O_CLOEXEC), 0);
    }
    ~pipe_peer() {
        ::close(to_server[1]);
        ::close(from_server[0]);
    }
    std::shared_ptr<mcp::fd_stream_transport> server_side() {
        return std::make_shared<mcp::fd_stream_transport>(
            mcp::fd_stream_transport::options{to_server[0], from_server[1], true, "test"});
    }
    void send(const std::string& line) {
        ASSERT_EQ(::write(to_server[1], (line + "\n").data(), line.size() + 1),
                  static_cast<ssize_t>(line.size() + 1));
    }
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 3000ms) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (auto nl = buffer.find('\n'); nl != std::string::npos) {
                auto l = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                return l;
            }
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
            pollfd p{from_server[0], POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
            char b[4096];
            auto n = ::read(from_server[0], b, sizeof b);
            if (n <= 0) return std::nullopt;
            buffer.append(b, static_cast<std::size_t>(n));
        }
    }
};

TEST(inline_dispatch, a_blocked_inline_handler_hands_reading_over) {
    pipe_peer peer;
    auto s = mcp::session::create(peer.server_side());
    std::atomic<bool> release{false};
    std::atomic<std::thread::id> handler_thread{};
    s->set_request_handler("block", [&](mcp::request_context&) -> mcp::json::value {
        handler_thread = std::this_thread::get_id();
        while (!release) std::this_thread::sleep_for(1ms);
        return mcp::json::object{{"released", true}};
    });
    s->set_request_handler("quick", [](mcp::request_context&) -> mcp::json::value {
        return mcp::json::object{{"q", 1}};
    });
    s->start();
    peer.send(R"({"jsonrpc":"2.0","id":1,"method":"block"})");
    std::this_thread::sleep_for(30ms); // past the stall threshold
    peer.send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    auto r = peer.read_line();
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, R"({"jsonrpc":"2.0","id":2,"result":{}})");
    peer.send(R"({"jsonrpc":"2.0","id":3,"method":"quick"})");
    r = peer.read_line();
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, R"({"jsonrpc":"2.0","id":3,"result":{"q":1}})");
    release = true;
    r = peer.read_line();
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, R"({"jsonrpc":"2.0","id":1,"result":{"released":true}})");
    s->close();
}

TEST(inline_dispatch, a_handler_waiting_on_its_own_request_gets_the_response) {
    // The handler asks the peer something and waits: the response can only be read if reading
    // moved off the handler's thread at once (no stall delay).
    pipe_peer peer;
    auto s = mcp::session::create(peer.server_side());
    s->set_request_handler("ask", [](mcp::request_context& ctx) -> mcp::json::value {
        auto answer = ctx.peer().call("client/question");
        return mcp::json::object{{"answer", answer.at("a")}};
    });
    s->start();
    const auto t0 = std::chrono::steady_clock::now();
    peer.send(R"({"jsonrpc":"2.0","id":1,"method":"ask"})");
    auto q = peer.read_line();
    ASSERT_TRUE(q);
    auto question = mcp::json::parse(*q);
    EXPECT_EQ(question.at("method"), "client/question");
    peer.send(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(question.at("id")) + R"(,"result":{"a":42}})");
    auto r = peer.read_line();
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, R"({"jsonrpc":"2.0","id":1,"result":{"answer":42}})");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1000ms);
    s->close();
}

TEST(inline_dispatch, many_sequential_requests_after_hand_offs) {
    pipe_peer peer;
    auto s = mcp::session::create(peer.server_side());
    s->set_request_handler("nap", [](mcp::request_context& ctx) -> mcp::json::value {
        std::this_thread::sleep_for(std::chrono::milliseconds(ctx.params().at("ms").as_int64()));
        return mcp::json::object{};
    });
    s->start();
    // Alternate slow (hand-off) and fast requests; every one answered, in order of sending.
    for (int i = 1; i <= 40; ++i) {
        peer.send(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"nap","params":{"ms":)" +
                  std::to_string(i % 2 ? 8 : 0) + "}}");
        auto r = peer.read_line();
        ASSERT_TRUE(r) << i;
        EXPECT_EQ(mcp::json::parse(*r).at("id"), i);
    }
    s->close();
}

TEST(line_framer, marks_the_last_line_and_keeps_the_tail) {
    mcp::line_framer f(16);
    std::vector<std::pair<std::string, bool>> lines;
    std::vector<std::size_t> oversize;
    auto on_line = [&](std::string_view l, bool last) { lines.emplace_back(l, last); };
    auto on_over = [&](std::size_t n) { oversize.push_back(n); };
    f.feed("a\r\nbb\n\nccc", on_line, on_over);
    EXPECT_TRUE(f.partial());
    f.feed("c\nxxxxxxxxxxxxxxxxxxxxxxxx", on_line, on_over);
    f.feed("yyy\nz\n", on_line, on_over);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0], std::make_pair(std::string("a"), false));
    EXPECT_EQ(lines[1], std::make_pair(std::string("bb"), true));
    EXPECT_EQ(lines[2], std::make_pair(std::string("cccc"), true));
    EXPECT_EQ(lines[3], std::make_pair(std::string("z"), true));
    EXPECT_EQ(oversize, std::vector<std::size_t>{27});
    EXPECT_FALSE(f.partial());
}

} // namespace
