// http/connection.hpp - one connection of mcp::http::core::server, on its strand. Included only
// by http_server.cpp (the one Asio translation unit of the HTTP server core; Beast is in
// request_reader.cpp).
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
#pragma once

#include "http/core/response_format.hpp"
#include "http_server_impl.hpp"
#include "input_buffer.hpp"
#include "request_reader.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>

namespace mcp::http::core::detail {

// Longest wait for a client to close its side after the final response (graceful close).
constexpr std::chrono::milliseconds max_linger{2000};
constexpr std::string_view continue_response = "HTTP/1.1 100 Continue\r\n\r\n";
// Longest request path quoted in a log line.
constexpr std::size_t max_logged_path = 200;

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

} // namespace mcp::http::core::detail
