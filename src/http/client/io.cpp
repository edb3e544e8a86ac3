// http/client/io.cpp - the Asio side of the HTTP client: loop, timers, connections (TCP and
// TLS), the keep-alive pool, and one state machine per exchange:
//
//   connect (resolve, TCP, TLS handshake; bounded by connect_timeout)  or reuse an idle one
//     -> write the request (each piece taken within connect_timeout: a server that stops
//        reading fails the call instead of holding its bytes and connection for ever)
//     -> read: response_reader -> on_head, on_body... -> on_end
//     -> the connection goes back to the pool when the response allows it.
//
// All of it runs on one io_context without strands: every handler runs on the loop thread.
#include "io.hpp"

#include "response_reader.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace mcp::http::detail {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// ------------------------------------------------------------------------------------ loop

struct io_loop::impl {
    asio::io_context ioc{1};
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::thread thread;
    std::atomic<std::thread::id> loop_thread{};
    std::mutex mu;
    std::condition_variable cv;
    bool idle = false; // the thread's run() has returned
};

io_loop::io_loop() : impl_(std::make_unique<impl>()) {}

io_loop::~io_loop() {
    if (impl_->thread.joinable()) {
        // The thread holds a reference until run() returns, so the last one is normally
        // dropped there: the thread cannot join itself.
        if (impl_->thread.get_id() == std::this_thread::get_id())
            impl_->thread.detach();
        else
            impl_->thread.join();
    }
}

std::shared_ptr<io_loop> io_loop::create() {
    return std::shared_ptr<io_loop>(new io_loop());
}

void io_loop::start_thread() {
    if (impl_->thread.joinable()) return;
    impl_->work.emplace(asio::make_work_guard(impl_->ioc));
    impl_->thread = std::thread([self = shared_from_this()] {
        auto& i = *self->impl_;
        i.loop_thread = std::this_thread::get_id();
        for (;;) {
            try {
                i.ioc.run();
                break;
            } catch (...) {
                // A handler threw (it should not): keep the loop alive for the others.
            }
        }
        {
            std::lock_guard lock(i.mu);
            i.idle = true;
        }
        i.cv.notify_all();
    });
}

void io_loop::release() {
    asio::post(impl_->ioc, [self = shared_from_this()] { self->impl_->work.reset(); });
}

bool io_loop::wait_idle(std::chrono::milliseconds timeout) {
    if (!impl_->thread.joinable()) return true;
    std::unique_lock lock(impl_->mu);
    return impl_->cv.wait_for(lock, timeout, [&] { return impl_->idle; });
}

void io_loop::force_stop() {
    impl_->ioc.stop();
}

void io_loop::join() {
    if (impl_->thread.joinable() && impl_->thread.get_id() != std::this_thread::get_id())
        impl_->thread.join();
}

void io_loop::run_here() {
    impl_->loop_thread = std::this_thread::get_id();
    impl_->ioc.restart();
    impl_->ioc.run();
    impl_->loop_thread = std::thread::id();
}

void io_loop::post(std::function<void()> fn) {
    asio::post(impl_->ioc, std::move(fn));
}

bool io_loop::on_loop_thread() const noexcept {
    return impl_->loop_thread.load() == std::this_thread::get_id();
}

namespace {

class timer_impl final : public timer_handle {
public:
    explicit timer_impl(asio::io_context& ioc) : timer(ioc) {}
    void cancel() override {
        cancelled = true;
        fn = nullptr;
        timer.cancel();
    }
    asio::steady_timer timer;
    std::function<void()> fn;
    bool cancelled = false;
};

} // namespace

std::shared_ptr<timer_handle> run_after(io_loop& loop, std::chrono::milliseconds delay,
                                        std::function<void()> fn) {
    auto t = std::make_shared<timer_impl>(loop.get().ioc);
    t->fn = std::move(fn);
    t->timer.expires_after(delay);
    t->timer.async_wait([t](const error_code& ec) {
        if (ec || t->cancelled) return;
        auto f = std::move(t->fn);
        if (f) f();
    });
    return t;
}

// ----------------------------------------------------------------------------- connections

namespace {

constexpr std::size_t max_idle_per_origin = 8;
constexpr std::size_t read_chunk = 16 * 1024;

std::string pool_key(const url_parts& u) {
    return (u.tls ? "s|" : "p|") + u.host + "|" + u.port;
}

// Every asynchronous operation on a connection holds it (shared_from_this in the handler), so
// that a call which fails or is aborted meanwhile (a connect timeout during the TLS handshake)
// may drop its connection at once: the socket is closed, and the operation completes with
// operation_aborted on a stream and buffer that still exist.
struct connection : std::enable_shared_from_this<connection> {
    explicit connection(asio::io_context& ioc) : sock(ioc) {}
    tcp::socket sock;
    std::unique_ptr<ssl::stream<tcp::socket&>> tls;
    std::string key;
    std::uint64_t idle_generation = 0; // bumped whenever the connection leaves the idle list
    std::array<char, read_chunk> buf{};

    void close() {
        error_code ignored;
        sock.shutdown(tcp::socket::shutdown_both, ignored);
        sock.close(ignored);
    }

    template <class Handler> void read_some(Handler&& h) {
        auto held = hold(std::forward<Handler>(h));
        if (tls)
            tls->async_read_some(asio::buffer(buf), std::move(held));
        else
            sock.async_read_some(asio::buffer(buf), std::move(held));
    }
    template <class Handler> void write_some(std::string_view bytes, Handler&& h) {
        auto held = hold(std::forward<Handler>(h));
        if (tls)
            tls->async_write_some(asio::buffer(bytes), std::move(held));
        else
            sock.async_write_some(asio::buffer(bytes), std::move(held));
    }
    template <class Handler> void handshake(Handler&& h) {
        tls->async_handshake(ssl::stream_base::client, hold(std::forward<Handler>(h)));
    }
    template <class Endpoints, class Handler> void connect(const Endpoints& eps, Handler&& h) {
        asio::async_connect(sock, eps, hold(std::forward<Handler>(h)));
    }

private:
    // `h`, keeping this connection alive until it has run.
    template <class Handler> auto hold(Handler&& h) {
        return [c = shared_from_this(), h = std::forward<Handler>(h)](auto&&... args) mutable {
            h(std::forward<decltype(args)>(args)...);
        };
    }
};

// The end of a stream, for TLS too: a peer that closes without close_notify is common and
// harmless for HTTP, where the message framing says whether the body is complete.
bool is_eof(const error_code& ec) {
    return ec == asio::error::eof || ec == ssl::error::stream_truncated ||
           ec == asio::error::connection_reset;
}

std::string describe(const error_code& ec) {
    std::string m = ec.message();
    if (ec.category() == asio::error::get_ssl_category()) {
        // OpenSSL's reason string; add the verification result when that is what failed.
        if (auto pos = m.find(" ("); pos != std::string::npos) m.erase(pos);
    }
    return m;
}

} // namespace

struct connection_pool::state : std::enable_shared_from_this<connection_pool::state> {
    state(std::shared_ptr<io_loop> l, tls_options t) : loop(std::move(l)), tls(std::move(t)) {}

    std::shared_ptr<io_loop> loop;
    tls_options tls;
    std::optional<ssl::context> ssl_ctx;
    std::string ssl_error; // set when the context could not be made (bad CA file)
    std::map<std::string, std::vector<std::shared_ptr<connection>>> idle;
    bool closed = false;

    asio::io_context& ioc() { return loop->get().ioc; }

    ssl::context* tls_context() {
        if (ssl_ctx || !ssl_error.empty()) return ssl_ctx ? &*ssl_ctx : nullptr;
        try {
            ssl::context ctx(ssl::context::tls_client);
            ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                            ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
            if (tls.verify_peer) {
                ctx.set_default_verify_paths();
                if (!tls.ca_file.empty()) ctx.load_verify_file(tls.ca_file);
                ctx.set_verify_mode(ssl::verify_peer);
            } else {
                ctx.set_verify_mode(ssl::verify_none);
            }
            ssl_ctx.emplace(std::move(ctx));
            return &*ssl_ctx;
        } catch (const boost::system::system_error& e) {
            ssl_error = "cannot load the CA file \"" + tls.ca_file + "\": " + describe(e.code());
            return nullptr;
        }
    }

    std::shared_ptr<connection> take_idle(const std::string& key) {
        auto it = idle.find(key);
        if (it == idle.end()) return nullptr;
        while (!it->second.empty()) {
            auto c = std::move(it->second.back());
            it->second.pop_back();
            ++c->idle_generation;
            error_code ec;
            c->sock.cancel(ec); // the liveness wait below
            if (!ec && c->sock.is_open()) return c;
            c->close();
        }
        return nullptr;
    }

    void put_idle(std::shared_ptr<connection> c) {
        auto& list = idle[c->key];
        if (closed || list.size() >= max_idle_per_origin) {
            c->close();
            return;
        }
        const auto generation = ++c->idle_generation;
        list.push_back(c);
        // An idle connection should not become readable: if it does, the server closed it
        // (or sent garbage), and it must not be reused.
        std::weak_ptr<state> weak = shared_from_this();
        c->sock.async_wait(tcp::socket::wait_read, [weak, c, generation](const error_code&) {
            if (c->idle_generation != generation) return; // taken (or closed) meanwhile
            ++c->idle_generation;
            c->close();
            if (auto st = weak.lock()) {
                auto& l = st->idle[c->key];
                std::erase(l, c);
            }
        });
    }

    void close_idle() {
        closed = true;
        for (auto& [key, list] : idle)
            for (auto& c : list) {
                ++c->idle_generation;
                c->close();
            }
        idle.clear();
    }
};

namespace {

class call_impl final : public http_call, public std::enable_shared_from_this<call_impl> {
public:
    call_impl(std::shared_ptr<connection_pool::state> pool, call_request req, call_handlers h)
        : pool_(std::move(pool)), req_(std::move(req)), h_(std::move(h)), resolver_(pool_->ioc()),
          connect_timer_(pool_->ioc()), total_timer_(pool_->ioc()), write_timer_(pool_->ioc()) {}

    void start() {
        build_request();
        reader_.reset(req_.method == "HEAD");
        if (req_.total_timeout.count() > 0) {
            total_timer_.expires_after(req_.total_timeout);
            total_timer_.async_wait([self = shared_from_this()](const error_code& ec) {
                if (ec || self->done_) return;
                self->fail("no complete response from " + self->req_.url.display + " within " +
                               std::to_string(self->req_.total_timeout.count()) + " ms",
                           true);
            });
        }
        if (auto c = pool_->take_idle(pool_key(req_.url))) {
            conn_ = std::move(c);
            reused_ = true;
            write();
        } else {
            connect();
        }
    }

    void abort() override {
        if (done_) return;
        done_ = true;
        // From inside one of our handlers, the handler (and what it captured) must outlive
        // its own call: the handlers are dropped when it returns.
        if (in_handler_ == 0) h_ = {};
        cleanup(false);
    }

private:
    // Runs a handler; if it aborted this call, the handlers are dropped once it has returned.
    template <class F> void guarded(F&& f) {
        ++in_handler_;
        f();
        if (--in_handler_ == 0 && done_) h_ = {};
    }

    void build_request() {
        auto& r = request_bytes_;
        r.reserve(256 + req_.body.size());
        r.append(req_.method).append(" ").append(req_.url.target).append(" HTTP/1.1\r\n");
        r.append("Host: ").append(req_.url.host_header).append("\r\n");
        bool has_agent = false;
        for (const auto& [n, v] : req_.headers) {
            if (core::iequals(n, "Host") || core::iequals(n, "Content-Length") ||
                core::iequals(n, "Connection") || core::iequals(n, "Transfer-Encoding"))
                continue; // framing is ours
            if (core::iequals(n, "User-Agent")) has_agent = true;
            r.append(n).append(": ").append(v).append("\r\n");
        }
        if (!has_agent) r.append("User-Agent: mcpxx/0.1\r\n");
        if (!req_.body.empty() || req_.method == "POST" || req_.method == "PUT" || req_.method == "PATCH")
            r.append("Content-Length: ").append(std::to_string(req_.body.size())).append("\r\n");
        r.append("\r\n");
        r.append(req_.body);
    }

    void connect() {
        reused_ = false;
        conn_ = std::make_shared<connection>(pool_->ioc());
        conn_->key = pool_key(req_.url);
        connect_timer_.expires_after(req_.connect_timeout);
        connect_timer_.async_wait([self = shared_from_this()](const error_code& ec) {
            if (ec || self->done_ || self->connected_) return;
            self->fail("connecting to " + self->req_.url.display + " timed out after " +
                           std::to_string(self->req_.connect_timeout.count()) + " ms",
                       true);
        });

        const auto& host = req_.url.host;
        const auto port = static_cast<unsigned short>(std::stoul(req_.url.port));
        std::vector<tcp::endpoint> eps;
        error_code ec;
        if (auto addr = asio::ip::make_address(host, ec); !ec) {
            eps.emplace_back(addr, port);
        } else if (host == "localhost" || (host.size() > 10 && host.ends_with(".localhost"))) {
            // RFC 6761: loopback, without asking the resolver (which a static binary may not
            // be able to load).
            eps.emplace_back(asio::ip::address_v4::loopback(), port);
            eps.emplace_back(asio::ip::address_v6::loopback(), port);
        }
        if (!eps.empty()) {
            connect_to(std::move(eps));
            return;
        }
        resolver_.async_resolve(
            host, req_.url.port,
            [self = shared_from_this()](const error_code& e, tcp::resolver::results_type results) {
                if (self->done_) return;
                if (e) {
                    self->fail("cannot resolve the host of " + self->req_.url.display + ": " + describe(e));
                    return;
                }
                std::vector<tcp::endpoint> list;
                for (const auto& r : results) list.push_back(r.endpoint());
                self->connect_to(std::move(list));
            });
    }

    void connect_to(std::vector<tcp::endpoint> eps) {
        conn_->connect(eps, [self = shared_from_this()](const error_code& ec, const tcp::endpoint&) {
            if (self->done_) return;
            if (ec) {
                self->fail("cannot connect to " + self->req_.url.display + ": " + describe(ec));
                return;
            }
            error_code ignored;
            self->conn_->sock.set_option(tcp::no_delay(true), ignored);
            if (self->req_.url.tls)
                self->handshake();
            else
                self->connected();
        });
    }

    void handshake() {
        auto* ctx = pool_->tls_context();
        if (!ctx) {
            fail(pool_->ssl_error);
            return;
        }
        conn_->tls = std::make_unique<ssl::stream<tcp::socket&>>(conn_->sock, *ctx);
        auto& s = *conn_->tls;
        // SNI names a host, never an address (RFC 6066 section 3).
        if (!req_.url.host_is_ip) SSL_set_tlsext_host_name(s.native_handle(), req_.url.host.c_str());
        if (pool_->tls.verify_peer) {
            // OpenSSL's own host check (RFC 6125 names, IP addresses against IP SANs), so that
            // a mismatch is reported as one ("hostname mismatch", "IP address mismatch").
            X509_VERIFY_PARAM* param = SSL_get0_param(s.native_handle());
            if (req_.url.host_is_ip)
                X509_VERIFY_PARAM_set1_ip_asc(param, req_.url.host.c_str());
            else
                X509_VERIFY_PARAM_set1_host(param, req_.url.host.c_str(), req_.url.host.size());
            X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            s.set_verify_mode(ssl::verify_peer);
        }
        conn_->handshake([self = shared_from_this()](const error_code& ec) {
            if (self->done_) return;
            if (ec) {
                std::string why = describe(ec);
                const long v = SSL_get_verify_result(self->conn_->tls->native_handle());
                if (v != X509_V_OK) why += " (" + std::string(X509_verify_cert_error_string(v)) + ")";
                self->fail("TLS handshake with " + self->req_.url.display + " failed: " + why);
                return;
            }
            self->connected();
        });
    }

    void connected() {
        connected_ = true;
        connect_timer_.cancel();
        write();
    }

    void write() {
        written_ = 0;
        write_more();
    }

    // The request goes out piece by piece, and each piece must be taken within connect_timeout:
    // a server that accepts a connection but stops reading would otherwise hold the request's
    // bytes (and the connection) for as long as the transport lives.
    void write_more() {
        const auto generation = ++write_generation_;
        write_timer_.expires_after(req_.connect_timeout);
        write_timer_.async_wait([self = shared_from_this(), generation](const error_code& ec) {
            if (ec || self->done_ || self->write_generation_ != generation) return;
            self->fail("the server at " + self->req_.url.display + " took none of the request for " +
                           std::to_string(self->req_.connect_timeout.count()) + " ms: it is not reading",
                       true);
        });
        conn_->write_some(std::string_view(request_bytes_).substr(written_),
                          [self = shared_from_this()](const error_code& ec, std::size_t n) {
                              if (self->done_) return;
                              if (ec) {
                                  self->io_error(ec);
                                  return;
                              }
                              self->written_ += n;
                              if (self->written_ < self->request_bytes_.size()) {
                                  self->write_more();
                                  return;
                              }
                              ++self->write_generation_;
                              self->write_timer_.cancel();
                              self->read();
                          });
    }

    void read() {
        conn_->read_some([self = shared_from_this()](const error_code& ec, std::size_t n) {
            if (self->done_) return;
            if (ec) {
                if (is_eof(ec))
                    self->eof();
                else
                    self->io_error(ec);
                return;
            }
            self->got_bytes_ = true;
            self->feed(std::string_view(self->conn_->buf.data(), n));
        });
    }

    // Parse what arrived (after what was left over last time); go on reading if needed.
    void feed(std::string_view fresh) {
        // `fresh` lies in the connection's buffer: keep it while a handler may abort the call.
        const auto keep = conn_;
        std::string_view data = fresh;
        if (!pending_.empty()) {
            pending_.append(fresh);
            data = pending_;
        }
        std::size_t used_total = 0;
        const response_reader::body_sink sink = [this](std::string_view b) {
            if (done_) return false;
            guarded([&] {
                if (h_.on_body) h_.on_body(b);
            });
            return !done_;
        };
        for (;;) {
            std::size_t used = 0;
            const auto r = reader_.parse(data.substr(used_total), used, sink);
            used_total += used;
            if (done_) return; // aborted from a handler
            switch (r) {
            case response_reader::result::head:
                guarded([&] {
                    if (h_.on_head)
                        h_.on_head(reader_.status(), reader_.reason(), std::move(reader_.headers()));
                });
                if (done_) return;
                continue;
            case response_reader::result::need_more: {
                std::string rest(data.substr(used_total));
                pending_ = std::move(rest);
                read();
                return;
            }
            case response_reader::result::complete:
                finish(used_total == data.size());
                return;
            case response_reader::result::failed:
                fail("malformed HTTP response from " + req_.url.display + ": " + reader_.error());
                return;
            }
        }
    }

    void eof() {
        const response_reader::body_sink sink = [this](std::string_view b) {
            if (done_) return false;
            guarded([&] {
                if (h_.on_body) h_.on_body(b);
            });
            return !done_;
        };
        if (reused_ && !got_bytes_ && !retried_) {
            retry();
            return;
        }
        const auto r = reader_.eof(sink);
        if (done_) return;
        if (r == response_reader::result::complete) {
            finish(false);
            return;
        }
        fail("the connection to " + req_.url.display +
             (reader_.got_some() ? " closed before the response was complete"
                                 : " was closed before a response arrived"));
    }

    void io_error(const error_code& ec) {
        if (reused_ && !got_bytes_ && !retried_) {
            retry();
            return;
        }
        fail("the connection to " + req_.url.display + " failed: " + describe(ec));
    }

    // A kept-alive connection the server had closed meanwhile: once more on a fresh one.
    void retry() {
        retried_ = true;
        conn_->close();
        conn_.reset();
        pending_.clear();
        reader_.reset(req_.method == "HEAD");
        connect();
    }

    void finish(bool nothing_left) {
        done_ = true;
        auto h = std::move(h_);
        h_ = {};
        const bool reuse = nothing_left && reader_.keep_alive() && conn_ && conn_->sock.is_open();
        cleanup(reuse);
        if (h.on_end) h.on_end(nullptr);
    }

    void fail(std::string message, bool timed_out = false) {
        if (done_) return;
        done_ = true;
        auto h = std::move(h_);
        h_ = {};
        cleanup(false);
        if (h.on_end) {
            call_failure f{std::move(message), timed_out};
            h.on_end(&f);
        }
    }

    void cleanup(bool reuse) {
        connect_timer_.cancel();
        total_timer_.cancel();
        write_timer_.cancel();
        resolver_.cancel();
        if (!conn_) return;
        if (reuse)
            pool_->put_idle(std::move(conn_));
        else
            conn_->close();
        conn_.reset();
    }

    std::shared_ptr<connection_pool::state> pool_;
    call_request req_;
    call_handlers h_;
    tcp::resolver resolver_;
    asio::steady_timer connect_timer_;
    asio::steady_timer total_timer_;
    asio::steady_timer write_timer_; // a request write that makes no progress (write_more)
    std::shared_ptr<connection> conn_;
    response_reader reader_;
    std::string request_bytes_;
    std::size_t written_ = 0;            // of request_bytes_
    std::uint64_t write_generation_ = 0; // which write_more the write timer belongs to
    std::string pending_;
    bool done_ = false;
    bool reused_ = false;
    bool retried_ = false;
    bool connected_ = false;
    bool got_bytes_ = false;
    int in_handler_ = 0;
};

} // namespace

connection_pool::connection_pool(std::shared_ptr<io_loop> loop, tls_options tls)
    : st_(std::make_shared<state>(std::move(loop), std::move(tls))) {}

connection_pool::~connection_pool() = default;

std::shared_ptr<http_call> connection_pool::start(call_request request, call_handlers handlers) {
    auto c = std::make_shared<call_impl>(st_, std::move(request), std::move(handlers));
    c->start();
    return c;
}

void connection_pool::close_idle() {
    st_->close_idle();
}

std::size_t connection_pool::idle_connections() const {
    std::size_t n = 0;
    for (const auto& [k, l] : st_->idle) n += l.size();
    return n;
}

} // namespace mcp::http::detail
