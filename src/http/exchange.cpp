// http/exchange.cpp - response_writer state machine, formatting and queue bound.
#include "exchange.hpp"

#include "http/core/response_format.hpp"

#include <stdexcept>

namespace mcp::http::core::detail {

namespace {
// The connection (as an opaque pointer) whose handler is running on this thread, if any.
thread_local const void* tl_inline_owner = nullptr;

// A respond() body at least this large is written from its own buffer instead of being copied
// behind the head.
constexpr std::size_t separate_body_threshold = 16 * 1024;
// Chunk framing per write: up to 16 hex digits and two CRLFs.
constexpr std::size_t chunk_overhead = 20;
} // namespace

inline_scope::inline_scope(const void* owner) noexcept : previous_(tl_inline_owner) {
    tl_inline_owner = owner;
}
inline_scope::~inline_scope() {
    tl_inline_owner = previous_;
}

exchange::exchange(std::weak_ptr<exchange_sink> sink, const void* owner,
                   std::shared_ptr<server_shared> shared, config cfg, std::string buffer)
    : sink_(std::move(sink)), owner_(owner), shared_(std::move(shared)), cfg_(cfg),
      pending_(std::move(buffer)) {
    pending_.clear();
}

exchange::~exchange() {
    // Nobody else can reach this object any more (the connection's weak reference no longer
    // locks), so no lock is needed.
    if (over_) return;
    if (counted_) shared_->open_streams.fetch_sub(1, std::memory_order_relaxed);
    std::function<void()> fn = std::move(on_close_);
    {
        std::shared_lock guard(shared_->post_mu);
        if (shared_->accepting_posts) {
            if (auto s = sink_.lock()) {
                s->exchange_dropped(cfg_.seq, state_ == state::waiting, std::move(fn));
                return;
            }
        }
    }
    // The connection is gone, or the server has stopped: nobody else can run the callback.
    if (fn) {
        try {
            fn();
        } catch (...) {
        }
    }
}

bool exchange::request_flush_locked() {
    if (flush_scheduled_) return false;
    flush_scheduled_ = true;
    if (tl_inline_owner == owner_) {
        inline_flush_ = true;
        return false;
    }
    return true;
}

void exchange::post_ready() {
    std::shared_lock guard(shared_->post_mu);
    if (!shared_->accepting_posts) return;
    // The sink reference is released inside the guard: see the file comment of exchange.hpp.
    if (auto s = sink_.lock()) s->exchange_ready(shared_from_this());
}

void exchange::respond(int status, header_list headers, std::string body) {
    const head_check check = check_head(status, headers);
    bool post = false;
    {
        std::lock_guard lk(mu_);
        if (state_ != state::waiting) return;
        if (check.connection_close) cfg_.keep_alive = false;
        const connection_field conn = !cfg_.keep_alive ? connection_field::close
                                      : cfg_.http10    ? connection_field::keep_alive
                                                       : connection_field::none;
        const bool no_body = status_has_no_body(status);
        // 204 and 304 carry no Content-Length: for 304 it would describe a body we don't have.
        append_head(pending_, status, headers, check, no_body ? framing::none : framing::content_length,
                    body.size(), conn);
        if (!no_body && !cfg_.head) {
            if (body.size() >= separate_body_threshold)
                body_ = std::move(body);
            else
                pending_ += body;
        }
        state_ = state::finishing;
        post = request_flush_locked();
    }
    if (post) post_ready();
}

bool exchange::start_stream(int status, header_list headers) {
    const head_check check = check_head(status, headers);
    if (status_has_no_body(status))
        throw std::invalid_argument("mcp::http: a " + std::to_string(status) +
                                    " response cannot be streamed");
    bool post = false;
    {
        std::lock_guard lk(mu_);
        if (state_ != state::waiting) return false;
        // HTTP/1.0 has no chunked coding: the body ends when the connection closes.
        if (check.connection_close || cfg_.http10) cfg_.keep_alive = false;
        const std::size_t before = pending_.size();
        append_head(pending_, status, headers, check, cfg_.http10 ? framing::none : framing::chunked, 0,
                    cfg_.keep_alive ? connection_field::none : connection_field::close);
        head_bytes_ = pending_.size() - before;
        state_ = state::streaming;
        counted_ = true;
        shared_->open_streams.fetch_add(1, std::memory_order_relaxed);
        post = request_flush_locked();
    }
    if (post) post_ready();
    return true;
}

bool exchange::write(std::string bytes) {
    bool post = false;
    bool accepted = true;
    {
        std::lock_guard lk(mu_);
        if (state_ != state::streaming) return false;
        if (bytes.empty() || cfg_.head) return true;
        // The head is not the client's to read as a stream: until it is out, it does not count.
        const std::size_t queued = pending_.size() + in_flight_ - (head_out_ ? 0 : head_bytes_);
        const std::size_t add = bytes.size() + (cfg_.http10 ? 0 : chunk_overhead);
        // A single write larger than the bound is let through when nothing is queued (the
        // client may well be reading); what is bounded is accumulation behind a stalled one.
        if (queued > 0 && queued + add > cfg_.max_queue) {
            overflow_bytes_ = queued + add;
            state_ = state::overflow;
            pending_.clear();
            pending_.shrink_to_fit();
            accepted = false;
        } else if (cfg_.http10) {
            pending_ += bytes;
        } else {
            append_chunk(pending_, bytes);
        }
        post = request_flush_locked();
        // A flush request may already be pending behind a socket write the client does not
        // take: the overflow must reach the connection now, not when that write completes.
        if (!accepted && tl_inline_owner != owner_) post = true;
    }
    if (post) post_ready();
    return accepted;
}

void exchange::end() {
    bool post = false;
    {
        std::lock_guard lk(mu_);
        if (state_ != state::streaming) return;
        if (!cfg_.http10 && !cfg_.head) pending_ += last_chunk;
        state_ = state::finishing;
        post = request_flush_locked();
    }
    if (post) post_ready();
}

bool exchange::closed() const {
    std::lock_guard lk(mu_);
    return state_ != state::waiting && state_ != state::streaming;
}

void exchange::on_close(std::function<void()> fn) {
    {
        std::lock_guard lk(mu_);
        if (!over_) {
            on_close_ = std::move(fn);
            return;
        }
    }
    if (fn) fn();
}

exchange::output exchange::take_output(std::string& head, std::string& body) {
    head.clear();
    body.clear();
    std::lock_guard lk(mu_);
    flush_scheduled_ = false;
    if (state_ == state::overflow) return output::close;
    if (!pending_.empty() || !body_.empty()) {
        // Swapping keeps both buffers' capacity in use: no allocation per write.
        head.swap(pending_);
        body.swap(body_);
        in_flight_ = head.size() + body.size();
        return output::write;
    }
    if (state_ == state::finishing && in_flight_ == 0) return output::finished;
    return output::none;
}

void exchange::output_written() {
    std::lock_guard lk(mu_);
    in_flight_ = 0;
    head_out_ = true;
}

bool exchange::take_inline_flush() {
    std::lock_guard lk(mu_);
    bool r = inline_flush_;
    inline_flush_ = false;
    return r;
}

void exchange::finish(bool client_gone) {
    std::function<void()> fn;
    bool counted = false;
    {
        std::lock_guard lk(mu_);
        if (over_) return;
        over_ = true;
        state_ = client_gone ? state::gone : state::done;
        counted = counted_;
        counted_ = false;
        fn = std::move(on_close_);
        on_close_ = nullptr;
        pending_.clear();
        body_.clear();
    }
    if (counted) shared_->open_streams.fetch_sub(1, std::memory_order_relaxed);
    if (fn) {
        // A throwing callback must not take the I/O thread (and every other connection) down.
        try {
            fn();
        } catch (...) {
        }
    }
}

bool exchange::keep_alive() const {
    std::lock_guard lk(mu_);
    return cfg_.keep_alive;
}

void exchange::disable_keep_alive() {
    std::lock_guard lk(mu_);
    if (state_ == state::waiting) cfg_.keep_alive = false;
}

bool exchange::overflowed() const {
    std::lock_guard lk(mu_);
    return state_ == state::overflow;
}

std::size_t exchange::overflow_bytes() const {
    std::lock_guard lk(mu_);
    return overflow_bytes_;
}

bool exchange::unanswered() const {
    std::lock_guard lk(mu_);
    return state_ == state::waiting;
}

} // namespace mcp::http::core::detail
