// bare_http_server - the ceiling for bench/http_throughput on this machine: Boost.Beast on one
// thread, HTTP/1.1 keep-alive, every request answered with one fixed JSON-RPC body, no MCP and
// no JSON parsing at all. Whatever an MCP server reaches, it cannot beat this one.
//
//     build/bench/bare_http_server --port N
//
// The body satisfies http_bench.py's probes (an initialize "result" and an echo tool result whose
// text is "hello world"), so the same driver measures it like the real servers.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

const std::string fixed_body =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},)"
    R"("serverInfo":{"name":"bare","version":"1"},"content":[{"type":"text","text":"hello world"}]}})";

class connection : public std::enable_shared_from_this<connection> {
public:
    explicit connection(tcp::socket s) : stream_(std::move(s)) {}
    void start() { read(); }

private:
    void read() {
        request_ = {};
        http::async_read(stream_, buffer_, request_,
                         [self = shared_from_this()](beast::error_code ec, std::size_t) {
                             if (!ec) self->respond();
                         });
    }
    void respond() {
        response_ = http::response<http::string_body>(http::status::ok, request_.version());
        response_.set(http::field::content_type, "application/json");
        response_.keep_alive(request_.keep_alive());
        response_.body() = fixed_body;
        response_.prepare_payload();
        http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (!ec && self->response_.keep_alive()) self->read();
        });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    http::request<http::string_body> request_;
    http::response<http::string_body> response_;
};

void accept(tcp::acceptor& acceptor) {
    acceptor.async_accept([&acceptor](beast::error_code ec, tcp::socket s) {
        if (!ec) {
            s.set_option(tcp::no_delay(true));
            std::make_shared<connection>(std::move(s))->start();
        }
        if (acceptor.is_open()) accept(acceptor);
    });
}

} // namespace

int main(int argc, char** argv) {
    unsigned short port = 0;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--port") == 0) port = static_cast<unsigned short>(std::atoi(argv[++i]));
    try {
        asio::io_context io(1);
        tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), port});
        std::fprintf(stderr, "bare_http_server listening on 127.0.0.1:%u\n",
                     acceptor.local_endpoint().port());
        asio::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](beast::error_code, int) { io.stop(); });
        accept(acceptor);
        io.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bare_http_server: %s\n", e.what());
        return 1;
    }
    return 0;
}
