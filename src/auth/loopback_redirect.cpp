// auth/loopback_redirect.cpp - the loopback redirect receiver (see mcp/auth/loopback_redirect.hpp):
// a small HTTP/1.1 responder on a plain Asio acceptor. Not the library's HTTP server: it answers
// one kind of GET, a few times, and a Beast parser would cost more to build than this reads.
#include <mcp/auth/loopback_redirect.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/url/parse.hpp>

#include <atomic>
#include <cctype>
#include <memory>
#include <optional>
#include <vector>

namespace mcp::auth {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

constexpr std::size_t max_request_bytes = 8192;

struct answer {
    int status;
    const char* reason;
    std::string body;
};

std::string page(std::string_view title, std::string_view text) {
    return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + std::string(title) +
           "</title></head>\n<body style=\"font-family: sans-serif; margin: 3em\"><h1>" + std::string(title) +
           "</h1>\n<p>" + std::string(text) + "</p></body></html>\n";
}

std::string serialize(const answer& a) {
    return "HTTP/1.1 " + std::to_string(a.status) + " " + a.reason +
           "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(a.body.size()) +
           "\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n" + a.body;
}

// An OAuth error code as RFC 6749 allows it (%x20-21 / %x23-5B / %x5D-7E), shown only when it
// is made of letters, digits and underscores, so that the page never carries markup.
std::string shown_error(std::string_view code) {
    for (char c : code)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return "an error";
    return code.empty() ? "an error" : "\"" + std::string(code) + "\"";
}

} // namespace

loopback_options loopback_options_for(std::string_view redirect_uri) {
    const auto u = boost::urls::parse_absolute_uri(redirect_uri);
    // Boost.URL 1.81 reads "http://127.0.0.1.evil.example:80/x" as host 127.0.0.1 and path
    // ".evil.example:80/x"; after an authority a path must start with "/", so that is refused.
    if (!u || !u->has_authority() || (!u->encoded_path().empty() && u->encoded_path().front() != '/'))
        throw redirect_error("the redirect URI is not a URL");
    if (u->scheme() != "http")
        throw redirect_error("the redirect URI must be http:// to this machine (127.0.0.1, [::1] or localhost)");
    std::string host(u->encoded_host());
    for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (host != "127.0.0.1" && host != "[::1]" && host != "localhost")
        throw redirect_error("the redirect URI must point to this machine (127.0.0.1, [::1] or localhost), "
                             "not to another host");
    if (!u->has_port() || u->port_number() == 0)
        throw redirect_error("the redirect URI needs a port");
    if (u->has_query() || u->has_fragment() || u->has_userinfo())
        throw redirect_error("the redirect URI must be a bare http://host:port/path");
    loopback_options o;
    o.port = u->port_number();
    o.host = std::string(host);
    o.path = u->encoded_path().empty() ? "/" : std::string(u->encoded_path());
    return o;
}

struct loopback_receiver::impl {
    loopback_options options;
    asio::io_context io{1};
    tcp::acceptor acceptor{io};
    std::string expected_state;
    std::optional<std::string> received;
    std::atomic<bool> cancelled{false};
    bool used = false;
    std::uint16_t port = 0;

    explicit impl(loopback_options o) : options(std::move(o)) {
        boost::system::error_code ec;
        const tcp::endpoint at(options.host == "[::1]" ? asio::ip::address(asio::ip::address_v6::loopback())
                                                       : asio::ip::address(asio::ip::address_v4::loopback()),
                               options.port);
        acceptor.open(at.protocol(), ec);
        if (!ec && options.port != 0) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
        if (!ec) acceptor.bind(at, ec);
        if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
        if (ec)
            throw redirect_error("cannot listen on " + at.address().to_string() + " port " + std::to_string(options.port) +
                                 " for the redirect: " + ec.message());
        port = acceptor.local_endpoint().port();
    }

    void accept() {
        acceptor.async_accept([this](boost::system::error_code ec, tcp::socket s) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
            if (!ec) serve(std::move(s));
            accept();
        });
    }

    struct connection {
        tcp::socket socket;
        asio::steady_timer deadline;
        std::string bytes;
        char chunk[1024];
        explicit connection(tcp::socket s) : socket(std::move(s)), deadline(socket.get_executor()) {}
    };
    std::vector<std::weak_ptr<connection>> connections; // closed when the wait ends

    void serve(tcp::socket s) {
        auto c = std::make_shared<connection>(std::move(s));
        std::erase_if(connections, [](const auto& w) { return w.expired(); });
        connections.push_back(c);
        c->deadline.expires_after(options.request_timeout);
        c->deadline.async_wait([c](boost::system::error_code ec) {
            if (!ec) {
                boost::system::error_code ignored;
                c->socket.close(ignored);
            }
        });
        read(c);
    }

    void read(const std::shared_ptr<connection>& c) {
        c->socket.async_read_some(asio::buffer(c->chunk), [this, c](boost::system::error_code ec, std::size_t n) {
            if (ec) return finish(c);
            c->bytes.append(c->chunk, n);
            const auto end = c->bytes.find("\r\n\r\n");
            if (end == std::string::npos && c->bytes.size() <= max_request_bytes) return read(c);
            if (end == std::string::npos || end + 4 > max_request_bytes)
                return respond(c, {431, "Request Header Fields Too Large", page("Request too large", "")}, false);
            bool done = false;
            auto a = decide(c->bytes.substr(0, c->bytes.find("\r\n")), done);
            respond(c, std::move(a), done);
        });
    }

    // What to answer the request line `line`; `done` when it is the redirect awaited.
    answer decide(std::string_view line, bool& done) {
        const auto sp1 = line.find(' ');
        const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
        if (sp2 == std::string_view::npos || line.substr(sp2 + 1).substr(0, 7) != "HTTP/1.")
            return {400, "Bad Request", page("Bad request", "")};
        const auto method = line.substr(0, sp1);
        const auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        const auto url = boost::urls::parse_origin_form(target);
        if (!url) return {400, "Bad Request", page("Bad request", "")};
        if (url->encoded_path() != options.path) return {404, "Not Found", page("Not found", "")};
        if (method != "GET") return {405, "Method Not Allowed", page("Method not allowed", "")};
        const auto params = url->params();
        const auto state = params.find("state");
        if (state == params.end() || !(*state).has_value || (*state).value != expected_state)
            return {400, "Bad Request",
                    page("This sign-in does not belong to the login in progress",
                         "The response does not carry the state of the login this program is waiting for "
                         "(an old browser tab?). Nothing was accepted; finish the login in the tab the "
                         "program opened last.")};
        if (received) // a second tab of the same login, answered before the wait ended
            return {200, "OK", page("Signed in", "You can close this tab and return to the program.")};
        done = true;
        received = std::string(target);
        if (const auto error = params.find("error"); error != params.end())
            return {200, "OK",
                    page("Sign-in refused",
                         "The authorization server answered with " + shown_error((*error).value) +
                             ". You can close this tab; the program says more.")};
        return {200, "OK", page("Signed in", "You can close this tab and return to the program.")};
    }

    void respond(const std::shared_ptr<connection>& c, answer a, bool done) {
        if (done) {
            boost::system::error_code ignored;
            acceptor.close(ignored); // nobody else is served now
        }
        auto text = std::make_shared<std::string>(serialize(a));
        asio::async_write(c->socket, asio::buffer(*text), [this, c, text, done](boost::system::error_code, std::size_t) {
            finish(c);
            if (done) io.stop();
        });
    }

    static void finish(const std::shared_ptr<connection>& c) {
        boost::system::error_code ignored;
        c->deadline.cancel();
        c->socket.shutdown(tcp::socket::shutdown_both, ignored);
        c->socket.close(ignored);
    }
};

loopback_receiver::loopback_receiver(loopback_options options) : impl_(std::make_unique<impl>(std::move(options))) {}

loopback_receiver::~loopback_receiver() = default;

std::uint16_t loopback_receiver::port() const noexcept {
    return impl_->port;
}

std::string loopback_receiver::redirect_uri() const {
    return "http://" + impl_->options.host + ":" + std::to_string(port()) + impl_->options.path;
}

std::string loopback_receiver::wait(std::string_view expected_state) {
    auto& d = *impl_;
    if (d.used) throw redirect_error("this redirect receiver has already been used");
    d.used = true;
    if (expected_state.empty()) throw redirect_error("a redirect is awaited with a state; none was given");
    const auto base = redirect_uri();
    d.expected_state = std::string(expected_state);
    d.accept();
    if (!d.cancelled) d.io.run_for(d.options.timeout);
    boost::system::error_code ignored;
    d.acceptor.close(ignored);
    for (const auto& w : d.connections)
        if (auto c = w.lock()) impl::finish(c);
    if (d.received) return base.substr(0, base.size() - d.options.path.size()) + *d.received;
    if (d.cancelled) throw redirect_error("the login was cancelled before the browser came back");
    const auto ms = d.options.timeout.count();
    throw redirect_error("the browser did not come back from the authorization server within " +
                         (ms % 1000 ? std::to_string(ms) + " ms" : std::to_string(ms / 1000) + " s"));
}

void loopback_receiver::cancel() {
    impl_->cancelled = true;
    impl_->io.stop();
}

} // namespace mcp::auth
