// http/http_server.cpp - the Asio side of mcp::http::core::server: acceptor, connections, timers,
// graceful stop. The only Asio translation unit of the HTTP core (Beast is in request_reader.cpp).
//
// A connection is a state machine driven on its strand:
//
//   read -> parse (request_reader) -> dispatch: handler(request, exchange)
//        -> pump: take the exchange's pending bytes, write them, repeat until it is finished
//        -> next request (pipelined bytes already buffered are parsed now) or graceful close.
//
// While an exchange is in progress the connection keeps one read outstanding: further
// (pipelined) bytes are buffered, not parsed, and an end of stream or an error means the client
// is gone. Only one socket write is in progress at a time; everything an exchange queues while it
// is in progress goes out with the next one.
//
// Closing is either graceful (after a final response: shut down the sending side, then read and
// discard until the client closes, for at most a linger time, so that the client reads the
// response before any reset) or immediate (close_now: errors, timeouts, slow consumers, stop).
#include "http_server.hpp"

#include "connection_budget.hpp"
#include "exchange.hpp"
#include "input_buffer.hpp"
#include "request_reader.hpp"
#include "http/core/response_format.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace mcp::http::core {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

// The server whose I/O thread this is (stop() refuses to run there: it would join itself).
thread_local const void* tl_io_server = nullptr;

// Longest wait for a client to close its side after the final response (graceful close).
constexpr std::chrono::milliseconds max_linger{2000};
// Delay before accepting again after an accept error such as EMFILE (no busy loop).
constexpr std::chrono::milliseconds accept_retry_delay{50};
// Connections refused at once with the spare descriptor when accept() meets EMFILE.
constexpr int max_shed_per_retry = 64;

constexpr std::string_view continue_response = "HTTP/1.1 100 Continue\r\n\r\n";
// Longest request path quoted in a log line.
constexpr std::size_t max_logged_path = 200;

std::system_error listen_error(const error_code& ec, const std::string& where) {
    std::error_code sec = ec.category() == boost::system::system_category()
                              ? std::error_code(ec.value(), std::system_category())
                              : std::error_code(ec.value(), std::generic_category());
    return std::system_error(sec, "mcp::http::core::server: cannot listen on " + where);
}

class connection;

// Why a connection is answered 503 instead of served.
enum class refusal : std::uint8_t { none, total, per_address };

// The client's address, IPv4-mapped IPv6 addresses as IPv4 (one client, one key).
asio::ip::address client_address(const tcp::socket& s) {
    error_code ec;
    auto addr = s.remote_endpoint(ec).address();
    if (ec) return {};
    if (addr.is_v6() && addr.to_v6().is_v4_mapped())
        addr = asio::ip::make_address_v4(asio::ip::v4_mapped, addr.to_v6());
    return addr;
}

// The key of the per-address cap: an IPv6 client usually holds a whole /64, so it is capped by
// its /64 prefix (or it could open max_connections_per_address from each of 2^64 addresses).
asio::ip::address address_bucket(const asio::ip::address& a) {
    if (!a.is_v6()) return a;
    auto bytes = a.to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return asio::ip::address_v6(bytes);
}

} // namespace

struct server::impl {
    impl(server_options o, handler hd) : opts(std::move(o)), h(std::move(hd)) {
        if (opts.threads == 0) opts.threads = 1;
    }

    server_options opts;
    handler h;
    const std::shared_ptr<detail::server_shared> shared = std::make_shared<detail::server_shared>();

    std::mutex life_mu; // start() / stop()
    enum class life { idle, running, stopped } state = life::idle;

    std::unique_ptr<asio::io_context> ioc;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::unique_ptr<tcp::acceptor> acceptor;
    std::unique_ptr<asio::steady_timer> accept_retry;
    std::vector<std::thread> threads;
    std::atomic<unsigned short> port{0};

    // Every connection from its accept until it is closed (close_now), strongly: a connection
    // whose exchange is waiting for the application and that has no I/O in progress is kept
    // alive by nothing else. `live` counts them (answered 503 or not), `open` those counted
    // against max_connections, `by_address` the served ones per client address.
    std::mutex mu;
    std::condition_variable cv;
    std::list<std::shared_ptr<connection>> conns;
    std::size_t live = 0;
    std::size_t rejecting = 0;
    std::map<asio::ip::address, std::size_t> by_address;
    detail::connection_budget budget; // set by start()
    detail::refusal_tally refusals;   // since the last log line about them (under mu)

    // A descriptor held in reserve: when accept() fails with EMFILE it is closed for a moment so
    // that waiting clients can be accepted, told 503 and closed, instead of waiting unanswered.
    int spare_fd = -1;
    std::size_t shed = 0;    // clients refused that way since the last log line
    bool fd_starved = false; // in an EMFILE episode (logged when it begins and when it ends)
    bool stopping_locked = false;
    std::atomic<std::size_t> open{0};
    std::atomic<bool> stopping{false};

    asio::any_io_executor connection_executor() {
        if (opts.threads > 1) return asio::make_strand(*ioc);
        return ioc->get_executor();
    }

    void do_accept();
    void on_accept(const error_code& ec, tcp::socket socket);
    void on_accept_error(const error_code& ec);
    void shed_waiting_clients();
    void log(const std::string& line);
    void closed(std::list<std::shared_ptr<connection>>::iterator it, refusal why,
                const asio::ip::address& address);
    void run_thread();
};

namespace {

class connection final : public detail::exchange_sink, public std::enable_shared_from_this<connection> {
public:
    connection(server::impl& srv, tcp::socket socket, refusal why, asio::ip::address address)
        : srv_(srv), ex_(socket.get_executor()), sock_(std::move(socket)), timer_(ex_),
          reader_(srv.opts.max_header_bytes, srv.opts.max_body_bytes),
          input_(srv.opts.max_header_bytes + 8 * 1024), refused_(why), address_(address) {}

    std::list<std::shared_ptr<connection>>::iterator registry_it;

    const asio::any_io_executor& executor() const { return ex_; }

    // ---- on the strand ----
    void start() {
        error_code ec;
        sock_.set_option(tcp::no_delay(true), ec);
        auto ep = sock_.remote_endpoint(ec);
        if (ec) {
            close_now();
            return;
        }
        remote_address_ = address_.to_string();
        remote_port_ = ep.port();
        if (refused_ != refusal::none) {
            // Answered at once, without reading the request: the client learns why and when
            // to come back instead of waiting for a timeout.
            set_phase(phase::none);
            raw_out_ += detail::error_response(
                503,
                refused_ == refusal::per_address
                    ? "too many connections from your address (max_connections_per_address)"
                    : "too many connections (max_connections)",
                1);
            close_after_write_ = true;
            pump();
            return;
        }
        set_phase(phase::header);
        do_read();
    }

    // stop() began: close if idle, otherwise let the request in progress finish (no keep-alive).
    void begin_stop() {
        if (closed_ || draining_ || close_after_write_) return;
        if (in_exchange_) {
            if (auto ex = current_.lock()) ex->disable_keep_alive();
            return;
        }
        if (writing_ || reader_.started() || !input_.empty()) return;
        close_now();
    }

    // ---- exchange_sink: any thread ----
    void exchange_ready(std::shared_ptr<detail::exchange> ex) override {
        asio::post(ex_, [self = shared_from_this(), ex = std::move(ex)]() mutable {
            self->on_ready(std::move(ex));
        });
    }

    void exchange_dropped(std::uint64_t seq, bool unanswered, std::function<void()> on_close) override {
        asio::post(ex_, [self = shared_from_this(), seq, unanswered, fn = std::move(on_close)]() mutable {
            self->on_dropped(seq, unanswered, std::move(fn));
        });
    }

    // Immediate close: the exchange in progress (if any) is over with the client gone.
    void close_now() {
        if (closed_) return;
        closed_ = true;
        const auto keep = shared_from_this(); // the registry may hold the last reference
        ++timer_gen_;
        timer_.cancel();
        error_code ec;
        sock_.close(ec);
        in_exchange_ = false;
        std::shared_ptr<detail::exchange> ex = current_.lock();
        current_.reset();
        writing_ex_.reset();
        hold_.reset();
        if (ex) ex->finish(true);
        ex.reset();
        srv_.closed(registry_it, refused_, address_);
    }

private:
    enum class phase : std::uint8_t { none, idle, header, body, linger };

    // ---- reading ----
    void do_read() {
        if (reading_ || closed_) return;
        std::span<char> space = input_.prepare();
        if (space.size() == 0) {
            if (draining_) {
                input_.clear();
                space = input_.prepare();
            } else if (in_exchange_ || close_after_write_) {
                return; // pipelined bytes pile up: resume once the exchange is over
            } else {
                // Only reachable with a chunk line or similar beyond the buffer: the head
                // itself is bounded by the parser's header limit.
                fail(reader_.header_done() ? 400 : 431);
                return;
            }
        }
        reading_ = true;
        sock_.async_read_some(
            asio::buffer(space.data(), space.size()),
            [self = shared_from_this()](const error_code& ec, std::size_t n) { self->on_read(ec, n); });
    }

    void on_read(const error_code& ec, std::size_t n) {
        reading_ = false;
        if (closed_) return;
        if (draining_) {
            if (ec) {
                close_now();
                return;
            }
            input_.clear();
            do_read();
            return;
        }
        if (ec) { // end of stream (also a half-close) or error: the client is gone
            close_now();
            return;
        }
        input_.commit(n);
        if (in_exchange_ || close_after_write_) {
            do_read();
            return;
        }
        process_input();
    }

    void process_input() {
        if (closed_ || draining_ || close_after_write_ || in_exchange_) return;
        std::size_t used = 0;
        const auto r = reader_.parse(input_.data(), used);
        input_.consume(used);
        switch (r) {
        case detail::request_reader::result::complete:
            dispatch();
            return;
        case detail::request_reader::result::failed:
            fail(reader_.failure_status());
            return;
        case detail::request_reader::result::need_more:
            break;
        }
        if (reader_.header_done()) {
            set_phase(phase::body);
            if (reader_.expects_continue() && !continue_sent_) {
                continue_sent_ = true;
                raw_out_ += continue_response;
                pump();
            }
        } else if (phase_ == phase::idle && (reader_.started() || !input_.empty())) {
            // The first byte of the next request: from now on its head must arrive in time.
            set_phase(phase::header);
        }
        do_read();
    }

    // ---- one request ----
    void dispatch() {
        set_phase(phase::none);
        request req = reader_.take();
        // For the log line of a client cut off later (the request itself goes to the handler).
        request_line_.assign(req.method)
            .append(" ")
            .append(std::string_view(req.target).substr(0, std::min(req.target.find('?'), max_logged_path)));
        req.remote_address = remote_address_;
        req.remote_port = remote_port_;
        detail::exchange::config cfg;
        cfg.seq = ++seq_;
        cfg.max_queue = srv_.opts.max_stream_queue_bytes;
        cfg.keep_alive = reader_.keep_alive() && !srv_.stopping.load(std::memory_order_relaxed);
        cfg.http10 = reader_.version() < 11;
        cfg.head = reader_.is_head();
        reader_.next();
        continue_sent_ = false;
        in_exchange_ = true;
        // The buffer of the previous write is lent to the exchange (not while it is being written).
        auto ex = std::make_shared<detail::exchange>(weak_from_this(), this, srv_.shared, cfg,
                                                     writing_ ? std::string() : std::move(head_));
        current_ = ex;
        {
            detail::inline_scope scope(this);
            try {
                srv_.h(std::move(req), ex);
            } catch (...) {
                // A throwing handler is a failed handler: 500 unless it answered already.
                try {
                    ex->respond(500, {{"Content-Type", "text/plain; charset=utf-8"}, {"Connection", "close"}},
                                "Internal Server Error\n");
                } catch (...) {
                }
            }
        }
        if (closed_) return;
        if (ex->overflowed()) {
            cut_off(*ex);
            return;
        }
        if (ex->take_inline_flush()) pump(ex);
        ex.reset(); // if the handler kept no reference, the exchange is dropped here (500)
        do_read();  // watch for the client going away (and buffer a pipelined request)
    }

    void on_ready(std::shared_ptr<detail::exchange> ex) {
        if (closed_ || !in_exchange_ || current_.lock() != ex) return; // stale
        if (ex->overflowed()) {
            cut_off(*ex); // slow consumer
            return;
        }
        pump(std::move(ex));
    }

    void on_dropped(std::uint64_t seq, bool unanswered, std::function<void()> fn) {
        if (!closed_ && in_exchange_ && seq == seq_) {
            if (unanswered) {
                in_exchange_ = false;
                current_.reset();
                hold_.reset();
                fail(500);
            } else {
                close_now(); // a cut stream: closing makes the truncation visible
            }
        }
        if (fn) {
            try {
                fn();
            } catch (...) {
            }
        }
    }

    void complete_exchange(std::shared_ptr<detail::exchange> ex) {
        in_exchange_ = false;
        current_.reset();
        hold_.reset();
        const bool keep = ex->keep_alive() && !srv_.stopping.load(std::memory_order_relaxed);
        ex->finish(false);
        ex.reset();
        if (closed_) return;
        if (!keep) {
            close_after_write_ = true;
            pump();
            return;
        }
        set_phase(phase::idle);
        process_input();
    }

    // ---- writing ----
    void pump(std::shared_ptr<detail::exchange> ex = {}) {
        if (closed_) return;
        if (writing_) {
            // Keep the exchange alive until the write in progress completes and pumps again.
            if (ex) hold_ = std::move(ex);
            return;
        }
        if (!raw_out_.empty()) {
            head_.clear();
            head_.swap(raw_out_);
            body_.clear();
            start_write(nullptr);
            return;
        }
        if (in_exchange_) {
            if (!ex) ex = current_.lock();
            if (!ex) return; // dropped: on_dropped is on its way
            switch (ex->take_output(head_, body_)) {
            case detail::exchange::output::none:
                return;
            case detail::exchange::output::write:
                start_write(std::move(ex));
                return;
            case detail::exchange::output::finished:
                complete_exchange(std::move(ex));
                return;
            case detail::exchange::output::close:
                cut_off(*ex);
                return;
            }
            return;
        }
        if (close_after_write_ && !draining_) begin_drain();
    }

    void start_write(std::shared_ptr<detail::exchange> ex) {
        writing_ = true;
        writing_ex_ = std::move(ex);
        // A client that stops reading must not hold the connection forever.
        write_deadline_ = clock::now() + srv_.opts.idle_timeout;
        update_timer();
        std::array<asio::const_buffer, 2> bufs{asio::buffer(head_), asio::buffer(body_)};
        asio::async_write(sock_, bufs, [self = shared_from_this()](const error_code& ec, std::size_t) {
            self->on_write(ec);
        });
    }

    void on_write(const error_code& ec) {
        writing_ = false;
        write_deadline_ = never;
        std::shared_ptr<detail::exchange> ex = std::move(writing_ex_);
        std::shared_ptr<detail::exchange> held = std::move(hold_);
        if (closed_) return;
        if (ec) {
            close_now();
            return;
        }
        if (ex)
            ex->output_written();
        else
            ex = std::move(held);
        // Buffers are reused from write to write; one that grew for a burst is given back.
        body_.clear();
        if (body_.capacity() > 64 * 1024) body_.shrink_to_fit();
        if (head_.capacity() > 64 * 1024) {
            head_.clear();
            head_.shrink_to_fit();
        }
        pump(std::move(ex));
    }

    // ---- errors, timeouts, closing ----

    // The exchange's client stopped reading and its queue passed the bound: close, and say so.
    void cut_off(const detail::exchange& ex) {
        log_cut("it stopped reading its response: " + std::to_string(ex.overflow_bytes()) +
                " bytes would be waiting, over max_stream_queue_bytes (" +
                std::to_string(srv_.opts.max_stream_queue_bytes) + ")");
        close_now();
    }

    void log_cut(const std::string& why) {
        if (!srv_.opts.log || closed_) return;
        std::string line = "closed the connection of " + remote_address_ + ":" + std::to_string(remote_port_);
        if (in_exchange_) {
            line += " (";
            for (const char c : request_line_) { // the path is the client's: printable ASCII only
                if (c >= 0x20 && c < 0x7f)
                    line.push_back(c);
                else
                    line.push_back('?');
            }
            line += ")";
        }
        line += ": " + why;
        try {
            srv_.opts.log(line);
        } catch (...) {
            // A throwing log must not take the I/O thread (and every other connection) down.
        }
    }

    // Answer with one of the server's own error responses, then close gracefully.
    void fail(int status) {
        set_phase(phase::none);
        raw_out_ += detail::error_response(status);
        close_after_write_ = true;
        pump();
    }

    void begin_drain() {
        draining_ = true;
        error_code ec;
        sock_.shutdown(tcp::socket::shutdown_send, ec);
        if (ec) {
            close_now();
            return;
        }
        set_phase(phase::linger);
        do_read();
    }

    void set_phase(phase p) {
        if (p == phase_) return;
        phase_ = p;
        std::chrono::milliseconds d{};
        switch (p) {
        case phase::none:
            read_deadline_ = never;
            return;
        case phase::idle:
            d = srv_.opts.idle_timeout;
            break;
        case phase::header:
            d = srv_.opts.header_timeout;
            break;
        case phase::body:
            d = srv_.opts.body_timeout;
            break;
        case phase::linger:
            d = std::min(srv_.opts.idle_timeout, max_linger);
            break;
        }
        read_deadline_ = clock::now() + d;
        update_timer();
    }

    // One timer serves both deadlines and is re-armed lazily: moving a deadline later (the
    // common case: every request and every write) costs no timer operation; the timer fires at
    // the old time, finds nothing due and waits again for the nearest deadline.
    void update_timer() {
        const auto next = std::min(read_deadline_, write_deadline_);
        if (next == never || (timer_armed_ && timer_expiry_ <= next)) return;
        timer_armed_ = true;
        timer_expiry_ = next;
        timer_.expires_at(next); // a wait in progress ends with operation_aborted: ignored by gen
        timer_.async_wait([self = shared_from_this(), gen = ++timer_gen_](const error_code&) {
            if (gen == self->timer_gen_) self->on_timer();
        });
    }

    void on_timer() {
        timer_armed_ = false;
        if (closed_) return;
        const auto now = clock::now();
        if (write_deadline_ <= now) {
            // A write did not complete within idle_timeout: the client stopped reading.
            log_cut("it took nothing written to it for " + std::to_string(srv_.opts.idle_timeout.count()) +
                    " ms");
            close_now();
            return;
        }
        if (read_deadline_ <= now) {
            read_deadline_ = never;
            on_timeout(phase_);
            return;
        }
        update_timer();
    }

    void on_timeout(phase p) {
        if (closed_) return;
        switch (p) {
        case phase::header:
            // A connection that never sent a byte is closed without a word (RFC 9110 allows
            // 408 there too, but clients that pre-connect would log it as a failure).
            if (reader_.started() || !input_.empty())
                fail(408);
            else
                close_now();
            return;
        case phase::body:
            fail(408);
            return;
        case phase::idle:
        case phase::linger:
        case phase::none:
            close_now();
            return;
        }
    }

    server::impl& srv_;
    const asio::any_io_executor ex_;
    tcp::socket sock_;
    asio::steady_timer timer_;
    detail::request_reader reader_;
    detail::input_buffer input_;
    const refusal refused_;
    const asio::ip::address address_;

    std::string remote_address_;
    unsigned short remote_port_ = 0;
    std::string request_line_; // "GET /mcp" of the current request, for log_cut

    std::uint64_t seq_ = 0;
    std::weak_ptr<detail::exchange> current_;      // the exchange of request seq_
    std::shared_ptr<detail::exchange> writing_ex_; // whose bytes are being written
    std::shared_ptr<detail::exchange> hold_;       // wants a flush after the write in progress
    std::string head_;                             // bytes being written (reused)
    std::string body_;                             // a large body being written
    std::string raw_out_;                          // 100 Continue / the server's own error answer

    using clock = asio::steady_timer::clock_type;
    static constexpr clock::time_point never = clock::time_point::max();
    clock::time_point read_deadline_ = never;  // of the current phase
    clock::time_point write_deadline_ = never; // of the write in progress
    clock::time_point timer_expiry_ = never;
    std::uint32_t timer_gen_ = 0;
    bool timer_armed_ = false;
    phase phase_ = phase::none;
    bool reading_ = false;
    bool writing_ = false;
    bool in_exchange_ = false; // a request was handed to the handler and is not over
    bool continue_sent_ = false;
    bool close_after_write_ = false; // the final bytes are (being) queued: then graceful close
    bool draining_ = false;          // sending side shut down, discarding input until the client closes
    bool closed_ = false;
};

} // namespace

// ---- server::impl ----

void server::impl::run_thread() {
    tl_io_server = this;
    for (;;) {
        try {
            ioc->run();
            return;
        } catch (...) {
            // Handler exceptions are caught where user code is called; anything else (such as
            // bad_alloc in a completion) must not end the thread while others still need it.
        }
    }
}

void server::impl::do_accept() {
    acceptor->async_accept(connection_executor(),
                           [this](const error_code& ec, tcp::socket s) { on_accept(ec, std::move(s)); });
}

void server::impl::on_accept(const error_code& ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
    if (ec) {
        on_accept_error(ec);
        return;
    }
    if (fd_starved) {
        fd_starved = false;
        log("accepting again: descriptors are available (" + std::to_string(shed) +
            " clients were refused 503 meanwhile)");
        shed = 0;
        // Shedding gives the spare back and takes it again; if another thread took the freed
        // descriptor meanwhile the reserve is empty: refill it now that there are some.
        if (spare_fd < 0) spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    const auto address = client_address(socket);
    std::shared_ptr<connection> c;
    std::string refusal_line;
    {
        std::lock_guard lk(mu);
        if (stopping_locked) {
            error_code ignored;
            socket.close(ignored);
            return;
        }
        auto why = refusal::none;
        if (open.load(std::memory_order_relaxed) >= budget.max_connections)
            why = refusal::total;
        else if (auto it = by_address.find(address_bucket(address));
                 it != by_address.end() && it->second >= budget.per_address)
            why = refusal::per_address;
        if (why == refusal::none || rejecting < budget.max_rejecting) {
            c = std::make_shared<connection>(*this, std::move(socket), why, address);
            conns.push_front(c);
            c->registry_it = conns.begin();
            ++live;
            if (why == refusal::none) {
                open.fetch_add(1, std::memory_order_relaxed);
                ++by_address[address_bucket(address)];
            } else {
                ++rejecting;
            }
        }
        if (why != refusal::none)
            refusal_line = refusals.note(why == refusal::per_address, c != nullptr, budget);
    }
    if (!refusal_line.empty()) log(refusal_line);
    if (c) {
        auto ex = c->executor();
        asio::dispatch(ex, [c = std::move(c)] { c->start(); });
    } else {
        error_code ignored;
        socket.close(ignored);
    }
    do_accept();
}

void server::impl::closed(std::list<std::shared_ptr<connection>>::iterator it, refusal why,
                          const asio::ip::address& address) {
    std::lock_guard lk(mu);
    conns.erase(it);
    --live;
    if (why == refusal::none) {
        open.fetch_sub(1, std::memory_order_relaxed);
        if (auto a = by_address.find(address_bucket(address)); a != by_address.end() && --a->second == 0)
            by_address.erase(a);
    } else {
        --rejecting;
    }
    if (live == 0) cv.notify_all();
}

void server::impl::log(const std::string& line) {
    if (!opts.log) return;
    try {
        opts.log(line);
    } catch (...) {
        // A throwing log must not take the I/O thread down.
    }
}

void server::impl::on_accept_error(const error_code& ec) {
    if (ec == asio::error::no_descriptors || ec.value() == ENFILE || ec.value() == EMFILE) {
        if (!fd_starved) {
            fd_starved = true;
            log("accept failed: " + ec.message() + " (descriptor limit " + std::to_string(budget.fd_limit) +
                "): new clients are refused 503 until descriptors are free again");
        }
        shed_waiting_clients();
    }
    // Try again a little later rather than spin.
    accept_retry->expires_after(accept_retry_delay);
    accept_retry->async_wait([this](const error_code& e) {
        if (!e && acceptor->is_open()) do_accept();
    });
}

// Out of descriptors: give the spare one back for a moment, and with it accept each waiting
// client, tell it 503 and close it (a refusal it can act on, instead of a connection that hangs
// in the backlog until it times out).
void server::impl::shed_waiting_clients() {
    if (spare_fd < 0) return;
    ::close(spare_fd);
    spare_fd = -1;
    static const std::string refused =
        detail::error_response(503, "the server is out of file descriptors; try again later", 1);
    for (int i = 0; i < max_shed_per_retry; ++i) {
        pollfd waiting{acceptor->native_handle(), POLLIN, 0};
        if (::poll(&waiting, 1, 0) != 1) break; // nobody waits (and accept4 must not block)
        const int fd = ::accept4(acceptor->native_handle(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) break;
        // Small enough for any socket buffer: one non-blocking write, then close.
        [[maybe_unused]] const auto n = ::send(fd, refused.data(), refused.size(), MSG_NOSIGNAL);
        ::shutdown(fd, SHUT_WR);
        // Closing a socket with unread input sends RST, which may destroy the 503 before the
        // client reads it: read what its request has delivered so far (without waiting).
        char sink[4096];
        for (int reads = 0; reads < 16 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++reads) {
        }
        ::close(fd);
        ++shed;
    }
    spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

// ---- server ----

server::server(server_options options, handler h)
    : impl_(std::make_unique<impl>(std::move(options), std::move(h))) {}

server::~server() {
    stop(std::chrono::milliseconds(0));
}

void server::start() {
    auto& m = *impl_;
    std::lock_guard life_lock(m.life_mu);
    if (m.state != impl::life::idle) throw std::logic_error("mcp::http::core::server::start: called twice");

    error_code ec;
    const auto addr = asio::ip::make_address(m.opts.address, ec);
    const std::string where = (addr.is_v6() && !ec ? "[" + m.opts.address + "]" : m.opts.address) + ":" +
                              std::to_string(m.opts.port);
    if (ec) throw listen_error(ec, where);

    m.ioc = std::make_unique<asio::io_context>(static_cast<int>(m.opts.threads));
    const tcp::endpoint ep(addr, m.opts.port);
    asio::any_io_executor aex = m.opts.threads > 1 ? asio::any_io_executor(asio::make_strand(*m.ioc))
                                                   : asio::any_io_executor(m.ioc->get_executor());
    m.acceptor = std::make_unique<tcp::acceptor>(aex);
    m.acceptor->open(ep.protocol(), ec);
    if (!ec) m.acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) m.acceptor->bind(ep, ec);
    if (!ec) m.acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        m.acceptor.reset();
        m.ioc.reset();
        throw listen_error(ec, where);
    }
    m.port.store(m.acceptor->local_endpoint().port());
    m.budget = detail::plan_connections(m.opts.max_connections, m.opts.max_connections_per_address,
                                        m.opts.raise_descriptor_limit);
    if (!m.budget.note.empty()) m.log("mcp::http::core::server on " + where + ": " + m.budget.note);
    if (m.spare_fd < 0) m.spare_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    m.accept_retry = std::make_unique<asio::steady_timer>(aex);
    m.work.emplace(m.ioc->get_executor());
    m.do_accept(); // no I/O thread runs yet: safe from here
    m.threads.reserve(m.opts.threads);
    for (std::size_t i = 0; i < m.opts.threads; ++i) m.threads.emplace_back([&m] { m.run_thread(); });
    m.state = impl::life::running;
}

unsigned short server::port() const {
    return impl_->port.load();
}

std::size_t server::open_connections() const {
    return impl_->open.load(std::memory_order_relaxed);
}

std::size_t server::open_streams() const {
    return impl_->shared->open_streams.load(std::memory_order_relaxed);
}

void server::stop(std::chrono::milliseconds grace) {
    auto& m = *impl_;
    if (tl_io_server == &m)
        throw std::logic_error(
            "mcp::http::core::server::stop: called from one of the server's own I/O threads "
            "(a handler or an on_close callback); it would wait for itself");
    std::lock_guard life_lock(m.life_mu);
    if (m.state != impl::life::running) return;
    const auto deadline = std::chrono::steady_clock::now() + grace;

    // 1. No new connections; idle ones close, busy ones finish their request without keep-alive.
    std::vector<std::shared_ptr<connection>> snapshot;
    std::string refusal_line;
    {
        std::lock_guard lk(m.mu);
        refusal_line = m.refusals.take_line(m.budget); // the last second's, not logged yet
        m.stopping_locked = true;
        m.stopping.store(true);
        snapshot.assign(m.conns.begin(), m.conns.end());
    }
    if (!refusal_line.empty()) m.log(refusal_line);
    asio::post(m.acceptor->get_executor(), [&m] {
        error_code ignored;
        m.acceptor->close(ignored);
        m.accept_retry->cancel();
    });
    for (auto& c : snapshot) {
        auto ex = c->executor();
        asio::post(ex, [c = std::move(c)] { c->begin_stop(); });
    }
    snapshot.clear();

    // 2. Wait for them to finish, up to the grace period; then close the rest.
    {
        std::unique_lock lk(m.mu);
        if (!m.cv.wait_until(lk, deadline, [&] { return m.live == 0; })) {
            snapshot.assign(m.conns.begin(), m.conns.end());
        }
    }
    for (auto& c : snapshot) {
        auto ex = c->executor();
        asio::post(ex, [c = std::move(c)] { c->close_now(); });
    }
    snapshot.clear();
    {
        std::unique_lock lk(m.mu);
        m.cv.wait(lk, [&] { return m.live == 0; });
    }

    // 3. From here on no writer the application still holds can reach a connection or post to
    //    the io_context; then the threads end and everything Asio is destroyed.
    {
        std::unique_lock guard(m.shared->post_mu);
        m.shared->accepting_posts = false;
    }
    m.work.reset();
    m.ioc->stop();
    for (auto& t : m.threads) t.join();
    m.threads.clear();
    {
        std::lock_guard lk(m.mu);
        m.conns.clear(); // empty (every connection closed); Asio objects go before their io_context
    }
    m.accept_retry.reset();
    m.acceptor.reset();
    if (m.spare_fd >= 0) ::close(m.spare_fd);
    m.spare_fd = -1;
    m.ioc.reset(); // destroys handlers that never ran, and with them the last connections
    m.state = impl::life::stopped;
}

} // namespace mcp::http::core
