// The example custom transport (examples/unix_socket_transport.hpp): a Unix domain socket on
// top of the public fd_stream_transport, round-tripping messages both ways.
#include "../../examples/unix_socket_transport.hpp"

#include <gtest/gtest.h>

#include "support/transport_collector.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;

namespace {

using mcp::test::collector;

TEST(transport_unix_socket, round_trip_and_close) {
    const std::string path = "/tmp/mcpxx-transport-test-" + std::to_string(::getpid()) + ".sock";
    collector at_server, at_client;
    example::unix_listener listener(path);
    mcp::transport_ptr server;
    std::thread acceptor([&] { server = listener.accept_one(); });
    auto client = example::unix_connect(path);
    acceptor.join();
    ASSERT_TRUE(server);

    // The server echoes every message back with a prefix.
    mcp::transport_handler sh = at_server.handler();
    auto record = sh.on_message;
    sh.on_message = [&, record](mcp::jsonrpc::incoming_message&& message) {
        const std::string_view m = message.text;
        record(std::move(message));
        server->send("{\"echo\":" + std::string(m) + "}");
    };
    server->start(sh);
    client->start(at_client.handler());
    for (int i = 0; i < 500; ++i) client->send("{\"i\":" + std::to_string(i) + "}");
    ASSERT_TRUE(at_client.wait_lines(500));
    EXPECT_EQ(at_client.lines[0], "{\"echo\":{\"i\":0}}");
    EXPECT_EQ(at_client.lines[499], "{\"echo\":{\"i\":499}}");
    client->close();
    EXPECT_TRUE(at_client.wait_closed());
    EXPECT_TRUE(at_server.wait_closed()); // the server sees EOF
    EXPECT_EQ(at_server.lines.size(), 500u);
}

TEST(transport_unix_socket, accept_one_and_connect) {
    const std::string path = "/tmp/mcpxx-transport-test-b-" + std::to_string(::getpid()) + ".sock";
    ::unlink(path.c_str());
    collector at_server;
    mcp::transport_ptr server;
    std::thread acceptor([&] { server = example::unix_accept_one(path); });
    mcp::transport_ptr client;
    for (int i = 0; i < 500 && !client; ++i) { // until the listener is up
        try {
            client = example::unix_connect(path);
        } catch (const mcp::error&) {
            std::this_thread::sleep_for(2ms);
        }
    }
    acceptor.join();
    ASSERT_TRUE(client);
    ASSERT_TRUE(server);
    server->start(at_server.handler());
    client->start({});
    client->send("{\"hello\":\"unix\"}");
    ASSERT_TRUE(at_server.wait_lines(1));
    EXPECT_EQ(at_server.lines[0], "{\"hello\":\"unix\"}");
    server->close();
    client->close();
}

TEST(transport_unix_socket, connect_to_nothing_is_a_clear_error) {
    EXPECT_THROW((void)example::unix_connect("/tmp/mcpxx-no-such-socket-" + std::to_string(::getpid())),
                 mcp::error);
}

} // namespace
