// http/client/fetch.cpp - mcp::http::fetch and mcp::http::http_client on the client's
// connection code (io.hpp).
#include <mcp/http/fetch.hpp>

#include "http/core/response_format.hpp" // valid_field_name / valid_field_value
#include "io.hpp"
#include "url.hpp"

#include <future>
#include <map>
#include <mutex>

namespace mcp::http {

using namespace detail;

std::optional<std::string_view> fetch_response::header(std::string_view name) const {
    for (const auto& [n, v] : headers)
        if (core::iequals(n, name)) return std::string_view(v);
    return std::nullopt;
}

namespace {

call_request make_call(const fetch_request& r) {
    std::string why;
    auto u = parse_url(r.url, &why);
    if (!u) throw fetch_error("mcp::http::fetch: " + why);
    for (const auto& [n, v] : r.headers) {
        if (!core::detail::valid_field_name(n))
            throw fetch_error("mcp::http::fetch: header name \"" + n + "\" is not a token");
        if (!core::detail::valid_field_value(v))
            throw fetch_error("mcp::http::fetch: the value of header \"" + n + "\" contains CR, LF or NUL");
    }
    if (!core::detail::valid_field_name(r.method))
        throw fetch_error("mcp::http::fetch: the method is not a token");
    call_request c;
    c.url = std::move(*u);
    c.method = r.method;
    c.headers = r.headers;
    c.body = r.body;
    c.connect_timeout = r.connect_timeout;
    c.total_timeout = r.timeout.count() > 0 ? r.timeout : std::chrono::milliseconds(60000);
    return c;
}

// Collects one response; `done` is called once, on the loop. Every member is touched on the
// loop only (the caller reads the result after `done`).
struct collector : std::enable_shared_from_this<collector> {
    fetch_response response;
    std::optional<std::string> error;
    /// Set by cancel(): the reason given to the cancellation source (may be empty).
    std::optional<std::string> cancelled;
    std::size_t limit = 0;
    std::function<bool(std::string_view)> on_body;
    std::shared_ptr<http_call> call;
    std::string url_display;
    bool stopped = false;
    bool finished = false;
    std::function<void()> done;

    call_handlers handlers() {
        call_handlers h;
        auto self = shared_from_this();
        h.on_head = [self](int status, std::string reason, core::header_list headers) {
            self->response.status = status;
            self->response.reason = std::move(reason);
            self->response.headers = std::move(headers);
        };
        h.on_body = [self](std::string_view bytes) {
            if (self->stopped) return;
            if (self->on_body) {
                if (!self->on_body(bytes)) self->stop();
                return;
            }
            if (self->response.body.size() + bytes.size() > self->limit) {
                self->error = "the response from " + self->url_display + " exceeds " +
                              std::to_string(self->limit) + " bytes";
                self->stop();
                return;
            }
            self->response.body.append(bytes);
        };
        h.on_end = [self](const call_failure* f) {
            if (f) self->error = f->message;
            self->finish();
        };
        return h;
    }
    /// Starts the exchange unless it was cancelled before its turn on the loop came.
    void start(connection_pool& pool, call_request request) {
        if (finished) return;
        call = pool.start(std::move(request), handlers());
    }
    void stop() {
        stopped = true;
        if (call) call->abort(); // no on_end after abort: finish here
        finish();
    }
    /// The caller's cancellation, on the loop: the connection is closed whatever the exchange
    /// was doing. Too late once the exchange is over (its response is kept).
    void cancel(std::string reason) {
        if (finished) return;
        cancelled = std::move(reason);
        stop();
    }
    void finish() {
        if (finished) return;
        finished = true;
        auto d = std::move(done);
        done = nullptr;
        call.reset();
        if (d) d();
    }
};

[[noreturn]] void throw_cancelled(std::string_view url_display, const std::string& reason) {
    std::string m = "the request to " + std::string(url_display) + " was cancelled";
    if (!reason.empty()) m += ": " + reason;
    throw mcp::error(error_code::request_cancelled, std::move(m));
}

fetch_response take(collector& c) {
    if (c.cancelled) throw_cancelled(c.url_display, *c.cancelled);
    if (c.error) throw fetch_error(*c.error);
    return std::move(c.response);
}

/// Watches a fetch's cancellation token while the fetch runs. The token is cancelled on any
/// thread, while the exchange belongs to its loop: the callback only posts the abort there,
/// so the socket is closed on the thread that owns it. A cancellation that races with the end
/// of the fetch finds the collector finished (or gone, or the loop gone) and does nothing.
class cancellation_watch {
public:
    cancellation_watch(cancellation_token token, const std::shared_ptr<io_loop>& loop,
                       const std::shared_ptr<collector>& c)
        : token_(std::move(token)) {
        registration_ = token_.on_cancel([weak_loop = std::weak_ptr<io_loop>(loop),
                                          weak_c = std::weak_ptr<collector>(c)](const std::string& reason) {
            auto l = weak_loop.lock();
            auto target = weak_c.lock();
            if (l && target) l->post([target, reason] { target->cancel(reason); });
        });
    }
    ~cancellation_watch() { token_.remove_callback(registration_); }
    cancellation_watch(const cancellation_watch&) = delete;
    cancellation_watch& operator=(const cancellation_watch&) = delete;

private:
    cancellation_token token_;
    std::uint64_t registration_ = 0;
};

std::string tls_key(const fetch_request& r) {
    return (r.verify_peer ? "v|" : "n|") + r.ca_file;
}

} // namespace

fetch_response fetch(const fetch_request& request) {
    auto req = make_call(request);
    if (request.cancel.is_cancelled()) throw_cancelled(req.url.display, request.cancel.reason());
    auto loop = io_loop::create();
    connection_pool pool(loop, tls_options{request.verify_peer, request.ca_file});
    auto c = std::make_shared<collector>();
    c->limit = request.max_response_bytes;
    c->on_body = request.on_body;
    c->url_display = req.url.display;
    // No connection is kept: run_here() returns once nothing is left to do.
    c->done = [&pool] { pool.close_idle(); };
    loop->post([&] { c->start(pool, std::move(req)); });
    const cancellation_watch watch(request.cancel, loop, c);
    loop->run_here();
    return take(*c);
}

struct http_client::impl {
    std::shared_ptr<io_loop> loop = io_loop::create();
    std::map<std::string, std::unique_ptr<connection_pool>> pools; // loop thread only
    std::mutex mu;
    bool running = false;
};

http_client::http_client() : impl_(std::make_shared<impl>()) {}

http_client::~http_client() {
    {
        std::lock_guard lock(impl_->mu);
        if (!impl_->running) return;
    }
    impl_->loop->post([d = impl_] {
        for (auto& [k, p] : d->pools) p->close_idle();
    });
    impl_->loop->release();
    if (!impl_->loop->wait_idle(std::chrono::seconds(10))) impl_->loop->force_stop();
    impl_->loop->join();
}

fetch_response http_client::fetch(const fetch_request& request) {
    auto req = make_call(request);
    if (request.cancel.is_cancelled()) throw_cancelled(req.url.display, request.cancel.reason());
    {
        std::lock_guard lock(impl_->mu);
        if (!impl_->running) impl_->loop->start_thread();
        impl_->running = true;
    }
    if (impl_->loop->on_loop_thread())
        throw fetch_error("mcp::http::http_client::fetch: called from its own I/O thread");
    auto c = std::make_shared<collector>();
    c->limit = request.max_response_bytes;
    c->on_body = request.on_body;
    c->url_display = req.url.display;
    std::promise<void> finished;
    auto fut = finished.get_future();
    c->done = [&finished] { finished.set_value(); };
    const std::string key = tls_key(request);
    const tls_options tls{request.verify_peer, request.ca_file};
    impl_->loop->post([d = impl_, c, req = std::move(req), key, tls]() mutable {
        auto& pool = d->pools[key];
        if (!pool) pool = std::make_unique<connection_pool>(d->loop, tls);
        c->start(*pool, std::move(req));
    });
    const cancellation_watch watch(request.cancel, impl_->loop, c);
    fut.wait();
    return take(*c);
}

} // namespace mcp::http
