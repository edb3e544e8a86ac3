// https:// in the HTTP client: certificate chain and host name verification on by default,
// the extra CA file, SNI, and verify_peer = false; for the MCP transport and for fetch(). The
// certificates are made at test time by the openssl command-line tool (skipped without it),
// and the server is a small blocking OpenSSL server in this process.
#include "support/transport_collector.hpp"

#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
namespace fs = std::filesystem;
namespace json = mcp::json;

namespace {

// The test's TLS server writes with SSL_write, i.e. write(2) on a socket the client may have
// closed already: that must be an error it sees, not a SIGPIPE that ends the test program.
[[maybe_unused]] const bool sigpipe_ignored = [] {
    std::signal(SIGPIPE, SIG_IGN);
    return true;
}();

constexpr auto wait = 20s;

struct reply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
};
using responder = std::function<reply(const std::string& method, const std::string& target,
                                      const std::string& body, const std::string& sni)>;

// One thread accepts; one thread per connection does the TLS handshake and serves requests
// (Content-Length bodies only) until the client closes.
class tls_server {
public:
    tls_server(const fs::path& cert, const fs::path& key, responder r) : respond_(std::move(r)) {
        ctx_ = SSL_CTX_new(TLS_server_method());
        if (SSL_CTX_use_certificate_chain_file(ctx_, cert.c_str()) != 1 ||
            SSL_CTX_use_PrivateKey_file(ctx_, key.c_str(), SSL_FILETYPE_PEM) != 1)
            throw std::runtime_error("cannot load the test certificate");
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 16) != 0)
            throw std::runtime_error("cannot listen");
        socklen_t len = sizeof a;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        acceptor_ = std::thread([this] { accept_loop(); });
    }
    ~tls_server() {
        stopping_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        acceptor_.join();
        {
            std::lock_guard lock(mu_);
            for (int c : open_) ::shutdown(c, SHUT_RDWR);
        }
        for (auto& t : workers_) t.join();
        ::close(fd_);
        SSL_CTX_free(ctx_);
    }
    unsigned short port() const { return port_; }
    int handshakes_ok() const { return ok_; }
    int handshakes_failed() const { return failed_; }
    std::string last_sni() {
        std::lock_guard lock(mu_);
        return sni_;
    }

private:
    void accept_loop() {
        for (;;) {
            int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) {
                if (stopping_) return;
                continue;
            }
            std::lock_guard lock(mu_);
            open_.push_back(c);
            workers_.emplace_back([this, c] { serve(c); });
        }
    }

    void serve(int c) {
        SSL* ssl = SSL_new(ctx_);
        SSL_set_fd(ssl, c);
        if (SSL_accept(ssl) != 1) {
            ++failed_;
        } else {
            ++ok_;
            const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
            {
                std::lock_guard lock(mu_);
                sni_ = name ? name : "";
            }
            std::string in;
            char buf[4096];
            for (;;) {
                auto end = in.find("\r\n\r\n");
                while (end == std::string::npos) {
                    int n = SSL_read(ssl, buf, sizeof buf);
                    if (n <= 0) goto done;
                    in.append(buf, static_cast<std::size_t>(n));
                    end = in.find("\r\n\r\n");
                }
                std::string head = in.substr(0, end);
                in.erase(0, end + 4);
                std::size_t length = 0;
                std::string lower = head;
                for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                if (auto p = lower.find("\r\ncontent-length:"); p != std::string::npos)
                    length = std::stoul(head.substr(p + 17));
                while (in.size() < length) {
                    int n = SSL_read(ssl, buf, sizeof buf);
                    if (n <= 0) goto done;
                    in.append(buf, static_cast<std::size_t>(n));
                }
                std::string body = in.substr(0, length);
                in.erase(0, length);
                const auto sp1 = head.find(' ');
                const auto sp2 = head.find(' ', sp1 + 1);
                reply r =
                    respond_(head.substr(0, sp1), head.substr(sp1 + 1, sp2 - sp1 - 1), body, last_sni());
                std::string out =
                    "HTTP/1.1 " + std::to_string(r.status) + " X\r\nContent-Type: " + r.content_type +
                    "\r\nContent-Length: " + std::to_string(r.body.size()) + "\r\n\r\n" + r.body;
                if (SSL_write(ssl, out.data(), static_cast<int>(out.size())) <= 0) break;
            }
        }
    done:
        SSL_free(ssl);
        std::lock_guard lock(mu_);
        std::erase(open_, c);
        ::close(c);
    }

    responder respond_;
    SSL_CTX* ctx_ = nullptr;
    int fd_ = -1;
    unsigned short port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> ok_{0}, failed_{0};
    std::thread acceptor_;
    std::mutex mu_;
    std::vector<std::thread> workers_;
    std::vector<int> open_;
    std::string sni_;
};

// An MCP endpoint good enough for initialize.
reply mcp_reply(const std::string& method, const std::string&, const std::string& body, const std::string&) {
    if (method != "POST") return {405, "text/plain", ""};
    auto v = json::parse(body);
    if (!v.as_object().contains("id")) return {202, "text/plain", ""};
    json::object result{{"protocolVersion", "2025-11-25"},
                        {"capabilities", json::object{}},
                        {"serverInfo", json::object{{"name", "tls"}, {"version", "1"}}}};
    return {200, "application/json",
            mcp::to_json(json::object{{"jsonrpc", "2.0"}, {"id", v.at("id")}, {"result", result}})};
}

struct http_client_tls : ::testing::Test {
    static inline fs::path dir;
    static inline bool made = false;

    static void SetUpTestSuite() {
        if (std::system("openssl version >/dev/null 2>&1") != 0) return;
        dir = fs::temp_directory_path() / ("mcpxx-tls-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        auto make = [](const std::string& name, const std::string& cn, const std::string& san) {
            const std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
                                    "-nodes -days 2 -subj /CN=" +
                                    cn + " -addext subjectAltName=" + san + " -keyout " +
                                    (dir / (name + ".key")).string() + " -out " +
                                    (dir / (name + ".pem")).string() + " >/dev/null 2>&1";
            return std::system(cmd.c_str()) == 0;
        };
        made = make("local", "localhost", "DNS:localhost,IP:127.0.0.1") &&
               make("other", "other.example", "DNS:other.example");
    }
    static void TearDownTestSuite() {
        std::error_code ec;
        if (!dir.empty()) fs::remove_all(dir, ec);
    }
    void SetUp() override {
        if (!made) GTEST_SKIP() << "the openssl command-line tool is needed to make test certificates";
    }
    static fs::path pem(const char* name) { return dir / (std::string(name) + ".pem"); }
    static fs::path key(const char* name) { return dir / (std::string(name) + ".key"); }
};

const std::string init =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})";

json::value initialize_over(mcp::http::client_transport_options o) {
    o.mode = mcp::http::transport_mode::streamable;
    o.log = [](std::string_view) {};
    auto t = mcp::http::make_client_transport(std::move(o));
    mcp::test::collector c;
    t->start(c.handler());
    t->send(init);
    EXPECT_TRUE(c.wait_lines(1, wait));
    t->close();
    std::lock_guard lock(c.mu);
    return c.lines.empty() ? json::value() : json::parse(c.lines[0]);
}

std::string message_of(const json::value& v) {
    const auto* e = v.is_object() ? v.as_object().if_contains("error") : nullptr;
    return e ? std::string(e->at("message").as_string()) : std::string();
}

TEST_F(http_client_tls, an_unknown_certificate_is_refused_by_default) {
    tls_server s(pem("local"), key("local"), mcp_reply);
    auto v = initialize_over({.url = "https://127.0.0.1:" + std::to_string(s.port()) + "/mcp"});
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("TLS handshake with https://127.0.0.1:"), std::string::npos) << v;
    EXPECT_NE(message_of(v).find("self-signed certificate"), std::string::npos) << v;
    EXPECT_EQ(s.handshakes_ok(), 0);
}

TEST_F(http_client_tls, the_ca_file_makes_it_trusted_by_name_and_by_address) {
    tls_server s(pem("local"), key("local"), mcp_reply);
    const auto port = std::to_string(s.port());
    auto a = initialize_over({.url = "https://localhost:" + port + "/mcp", .ca_file = pem("local").string()});
    EXPECT_EQ(a.at("result").at("serverInfo").at("name"), "tls") << a;
    EXPECT_EQ(s.last_sni(), "localhost"); // SNI names the host
    auto b = initialize_over({.url = "https://127.0.0.1:" + port + "/mcp", .ca_file = pem("local").string()});
    EXPECT_EQ(b.at("result").at("serverInfo").at("name"), "tls") << b;
    EXPECT_EQ(s.last_sni(), ""); // ... and never an address
}

TEST_F(http_client_tls, a_certificate_for_another_host_is_refused) {
    tls_server s(pem("other"), key("other"), mcp_reply);
    auto v = initialize_over(
        {.url = "https://127.0.0.1:" + std::to_string(s.port()) + "/mcp", .ca_file = pem("other").string()});
    EXPECT_EQ(v.at("error").at("code"), mcp::error_code::http_error);
    EXPECT_NE(message_of(v).find("TLS handshake"), std::string::npos) << v;
    EXPECT_NE(message_of(v).find("IP address mismatch"), std::string::npos) << v;
}

TEST_F(http_client_tls, a_name_the_certificate_does_not_hold_is_refused) {
    tls_server s(pem("other"), key("other"), mcp_reply);
    auto v = initialize_over(
        {.url = "https://localhost:" + std::to_string(s.port()) + "/mcp", .ca_file = pem("other").string()});
    EXPECT_NE(message_of(v).find("hostname mismatch"), std::string::npos) << v;
}

TEST_F(http_client_tls, verify_peer_false_accepts_anything_when_asked) {
    tls_server s(pem("other"), key("other"), mcp_reply);
    auto v = initialize_over(
        {.url = "https://127.0.0.1:" + std::to_string(s.port()) + "/mcp", .verify_peer = false});
    EXPECT_EQ(v.at("result").at("protocolVersion"), "2025-11-25") << v;
}

TEST_F(http_client_tls, fetch_over_tls) {
    tls_server s(pem("local"), key("local"),
                 [](const std::string& method, const std::string& target, const std::string& body,
                    const std::string&) {
                     return reply{200, "application/json",
                                  "{\"method\":\"" + method + "\",\"target\":\"" + target + "\",\"body\":\"" +
                                      body + "\"}"};
                 });
    const std::string url = "https://localhost:" + std::to_string(s.port()) + "/v1/chat?x=1";
    EXPECT_THROW(mcp::http::fetch({.url = url}), mcp::http::fetch_error); // not trusted by default
    auto r = mcp::http::fetch({.method = "POST", .url = url, .body = "hi", .ca_file = pem("local").string()});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(json::parse(r.body), json::parse(R"({"method":"POST","target":"/v1/chat?x=1","body":"hi"})"));
    mcp::http::http_client client;
    for (int i = 0; i < 3; ++i) {
        auto again = client.fetch({.url = url, .ca_file = pem("local").string()});
        EXPECT_EQ(again.status, 200);
    }
    EXPECT_LE(s.handshakes_ok(), 2); // the client kept its connection
}

} // namespace
