// Calling off mcp::http::fetch and mcp::http::http_client::fetch with a cancellation token, at
// every stage of the exchange, against servers on 127.0.0.1 that observe the wire: a TCP
// connection stuck in SYN_SENT (a listener whose accept queue is full), a TLS handshake that
// gets no answer, a request that gets no response, a body that stops halfway. Each time the
// fetch ends at once with request_cancelled, well inside its 30 s timeouts, and the server sees
// the connection go; a token cancelled before the fetch opens no connection; one cancelled
// after it changes nothing.
#include "support/eventually.hpp"
#include "support/http_test_server.hpp"

#include <mcp/http/fetch.hpp>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

using namespace std::chrono_literals;
using mcp::test::eventually;
using mcp::test::http_test_server;
using mcp::test::recorded_request;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;

namespace {

/// Far beyond what a cancelled fetch may take: a fetch still running after this has waited for
/// a timeout instead of stopping.
constexpr auto prompt = 2s;
constexpr auto patient = std::chrono::milliseconds(30s);

using fetch_function = std::function<mcp::http::fetch_response(const mcp::http::fetch_request&)>;

/// The two ways to fetch: a fresh connection on the calling thread, and a shared client's
/// keep-alive pool on its own I/O thread.
struct fetcher {
    std::string name;
    std::function<fetch_function()> make;
};

void PrintTo(const fetcher& f, std::ostream* os) {
    *os << f.name;
}

std::vector<fetcher> fetchers() {
    return {{"fetch", [] { return fetch_function([](const auto& r) { return mcp::http::fetch(r); }); }},
            {"http_client", [] {
                 auto client = std::make_shared<mcp::http::http_client>();
                 return fetch_function([client](const auto& r) { return client->fetch(r); });
             }}};
}

/// Runs `f(request)` on a thread of its own.
std::future<mcp::http::fetch_response> start_fetch(const fetch_function& f,
                                                   mcp::http::fetch_request request) {
    return std::async(std::launch::async, [f, request = std::move(request)] { return f(request); });
}

/// The mcp::error a cancelled fetch throws (fails the test if it returns or throws another).
mcp::error cancellation_of(std::future<mcp::http::fetch_response>& pending) {
    try {
        pending.get();
        ADD_FAILURE() << "the fetch returned a response";
    } catch (const mcp::error& e) {
        return e;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "the fetch threw something else: " << e.what();
    }
    return mcp::error(0, "");
}

/// Cancels `source` and expects the fetch to end promptly with request_cancelled, naming
/// `url` and the reason.
void cancel_and_expect_prompt_end(mcp::cancellation_source& source,
                                  std::future<mcp::http::fetch_response>& pending, const std::string& url) {
    const auto t0 = std::chrono::steady_clock::now();
    source.cancel("the user pressed Ctrl-C");
    ASSERT_EQ(pending.wait_for(prompt), std::future_status::ready)
        << "the fetch ran on after its cancellation";
    EXPECT_LT(std::chrono::steady_clock::now() - t0, prompt);
    const auto e = cancellation_of(pending);
    EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
    EXPECT_EQ(std::string(e.what()), "the request to " + url + " was cancelled: the user pressed Ctrl-C");
}

/// A server that takes each request and answers none, and counts the clients that went away
/// from a request still unanswered.
struct unanswering_server {
    std::mutex mu;
    std::vector<writer_ptr> held;
    std::atomic<int> hung_up{0};
    http_test_server server{[this](const recorded_request& r, writer_ptr w) {
        if (r.target == "/answered") {
            w->respond(200, {}, "fine");
            return;
        }
        if (r.target == "/half") { // the head and a first piece of the body, then nothing
            w->start_stream(200, {{"Content-Type", "text/plain"}});
            w->write("first piece");
        }
        w->on_close([this] { ++hung_up; });
        std::lock_guard lock(mu);
        held.push_back(std::move(w));
    }};
};

/// A TCP listener on 127.0.0.1 driven by hand (no HTTP, no TLS): what a client does before
/// it has an HTTP exchange.
class raw_listener {
public:
    explicit raw_listener(int backlog = 8) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, backlog) != 0)
            throw std::runtime_error("raw_listener: cannot listen on 127.0.0.1");
        socklen_t len = sizeof a;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
    }
    ~raw_listener() {
        for (int c : connected_) ::close(c);
        ::close(fd_);
    }
    raw_listener(const raw_listener&) = delete;
    raw_listener& operator=(const raw_listener&) = delete;

    unsigned short port() const { return port_; }
    int fd() const { return fd_; }
    /// Whether a connection waits to be accepted now.
    bool connection_pending() const {
        pollfd p{fd_, POLLIN, 0};
        return ::poll(&p, 1, 0) == 1;
    }
    /// Connects a client of our own and leaves the connection unaccepted: with a backlog of 0
    /// that fills the accept queue, and Linux drops the SYN of every later connection, which
    /// then waits in SYN_SENT.
    void fill_accept_queue() {
        const int c = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port_);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("raw_listener: cannot fill the accept queue");
        connected_.push_back(c);
    }

private:
    int fd_ = -1;
    unsigned short port_ = 0;
    std::vector<int> connected_;
};

/// Whether an IPv4 TCP socket of this machine is in SYN_SENT towards 127.0.0.1:`port` (read
/// from /proc/net/tcp, where the state is 02 and addresses are hex).
bool connecting_to(unsigned short port) {
    std::ifstream in("/proc/net/tcp");
    std::string line;
    std::getline(in, line); // the header
    char remote[16];
    std::snprintf(remote, sizeof remote, "0100007F:%04X", port);
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string slot, local, rem, state;
        fields >> slot >> local >> rem >> state;
        if (rem == remote && state == "02") return true;
    }
    return false;
}

class http_fetch_cancel : public ::testing::TestWithParam<fetcher> {};

TEST_P(http_fetch_cancel, while_waiting_for_the_response) {
    unanswering_server api;
    mcp::cancellation_source source;
    const auto f = GetParam().make();
    const auto url = api.server.url("/v1/chat/completions");
    auto pending = start_fetch(f, {.method = "POST",
                                   .url = url,
                                   .body = R"({"model":"m"})",
                                   .connect_timeout = patient,
                                   .timeout = patient,
                                   .cancel = source.token()});
    ASSERT_TRUE(api.server.wait_requests(1)); // the whole request arrived: the model is "thinking"
    cancel_and_expect_prompt_end(source, pending, url);
    EXPECT_TRUE(eventually([&] { return api.hung_up == 1; }))
        << "the server did not see the connection close";

    // Nothing is left behind: the same fetch function answers the next request.
    EXPECT_EQ(f({.url = api.server.url("/answered")}).body, "fine");
}

TEST_P(http_fetch_cancel, while_reading_the_body) {
    unanswering_server api;
    mcp::cancellation_source source;
    std::promise<void> first_piece;
    std::atomic<bool> got_some{false};
    const auto url = api.server.url("/half");
    auto pending = start_fetch(GetParam().make(), {.url = url,
                                                   .connect_timeout = patient,
                                                   .timeout = patient,
                                                   .on_body =
                                                       [&](std::string_view) {
                                                           if (!got_some.exchange(true))
                                                               first_piece.set_value();
                                                           return true;
                                                       },
                                                   .cancel = source.token()});
    ASSERT_EQ(first_piece.get_future().wait_for(20s), std::future_status::ready);
    cancel_and_expect_prompt_end(source, pending, url);
    EXPECT_TRUE(eventually([&] { return api.hung_up == 1; }))
        << "the server did not see the connection close";
}

TEST_P(http_fetch_cancel, during_the_tls_handshake) {
    // A server that takes the connection and the ClientHello and answers nothing.
    raw_listener listener;
    std::promise<void> hello;
    std::atomic<bool> closed{false};
    std::thread server([&] {
        const int c = ::accept(listener.fd(), nullptr, nullptr);
        if (c < 0) return;
        timeval bound{20, 0}; // a failing test must not hang here
        ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound);
        char buf[4096];
        if (::read(c, buf, sizeof buf) > 0) hello.set_value();
        ssize_t n = 0;
        while ((n = ::read(c, buf, sizeof buf)) > 0) {
        }
        closed = n == 0 || errno == ECONNRESET;
        ::close(c);
    });
    mcp::cancellation_source source;
    const std::string url = "https://127.0.0.1:" + std::to_string(listener.port()) + "/v1/chat/completions";
    auto pending = start_fetch(GetParam().make(), {.method = "POST",
                                                   .url = url,
                                                   .connect_timeout = patient,
                                                   .timeout = patient,
                                                   .cancel = source.token()});
    const bool hello_arrived = hello.get_future().wait_for(20s) == std::future_status::ready;
    EXPECT_TRUE(hello_arrived) << "no ClientHello arrived";
    if (hello_arrived) cancel_and_expect_prompt_end(source, pending, url);
    server.join();
    EXPECT_TRUE(closed) << "the server did not see the connection close";
}

TEST_P(http_fetch_cancel, while_the_tcp_connection_is_being_made) {
    raw_listener listener(0);
    listener.fill_accept_queue();
    mcp::cancellation_source source;
    const std::string url = "http://127.0.0.1:" + std::to_string(listener.port()) + "/v1/chat/completions";
    auto pending =
        start_fetch(GetParam().make(),
                    {.url = url, .connect_timeout = patient, .timeout = patient, .cancel = source.token()});
    ASSERT_TRUE(eventually([&] { return connecting_to(listener.port()); }, 20s))
        << "the fetch's connection never waited in SYN_SENT";
    cancel_and_expect_prompt_end(source, pending, url);
    EXPECT_TRUE(eventually([&] { return !connecting_to(listener.port()); }))
        << "the connecting socket was kept";
}

TEST_P(http_fetch_cancel, a_token_cancelled_beforehand_opens_no_connection) {
    raw_listener listener;
    mcp::cancellation_source source;
    source.cancel("withdrawn");
    const std::string url = "http://127.0.0.1:" + std::to_string(listener.port()) + "/models";
    try {
        GetParam().make()({.url = url + "?key=secret", .cancel = source.token()});
        ADD_FAILURE() << "the fetch returned a response";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled);
        EXPECT_EQ(std::string(e.what()), "the request to " + url + " was cancelled: withdrawn");
    }
    EXPECT_FALSE(listener.connection_pending());
}

TEST_P(http_fetch_cancel, a_cancellation_after_the_response_changes_nothing) {
    unanswering_server api;
    const auto f = GetParam().make();
    mcp::cancellation_source source;
    const auto r = f({.url = api.server.url("/answered"), .cancel = source.token()});
    EXPECT_EQ(r.body, "fine");
    source.cancel(); // the fetch is over: its watch on the token is gone
    EXPECT_EQ(f({.url = api.server.url("/answered")}).body, "fine");
    EXPECT_EQ(api.hung_up, 0);
}

INSTANTIATE_TEST_SUITE_P(both, http_fetch_cancel, ::testing::ValuesIn(fetchers()),
                         [](const ::testing::TestParamInfo<fetcher>& i) { return i.param.name; });

} // namespace
