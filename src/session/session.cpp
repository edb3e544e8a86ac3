// The JSON-RPC engine: dispatch of incoming messages, and the public session API. Outgoing
// requests are in session_outgoing.cpp. See mcp/session/session.hpp for the contract.
#include "session/session_impl.hpp"

namespace mcp {

thread_local detail::stall_slot* detail::t_inline_slot = nullptr;
using detail::hand_off_if_inline;

// ==================================================================== request_context

request_context::request_context(std::shared_ptr<session> s, jsonrpc::request_id id, std::string method,
                                 json::object params, cancellation_token cancel,
                                 std::shared_ptr<const message_origin> origin)
    : session_(std::move(s)), id_(std::move(id)), method_(std::move(method)), params_(std::move(params)),
      cancel_(std::move(cancel)), origin_(std::move(origin)) {
    if (const auto* m = meta())
        if (const auto* t = m->if_contains("progressToken");
            t && (t->is_string() || t->is_int64() || t->is_uint64()))
            progress_token_ = *t;
}

request_context::request_context(std::shared_ptr<request_stream> stream, revision r, jsonrpc::request_id id,
                                 std::string method, json::object params, cancellation_token cancel,
                                 std::shared_ptr<const message_origin> origin)
    : request_context(std::shared_ptr<session>(), std::move(id), std::move(method), std::move(params),
                      std::move(cancel), std::move(origin)) {
    stream_ = std::move(stream);
    stream_revision_ = r;
    // Strong: a deferred request (subscriptions/listen) is what keeps its stream alive.
    finisher_ = [st = stream_](std::string message, const mcp::error* e) {
        st->respond(std::move(message), e);
    };
}

const json::object* request_context::meta() const noexcept {
    return find_object(params_, "_meta");
}

std::optional<revision> request_context::protocol_revision() const noexcept {
    if (session_) return session_->protocol_revision();
    return stream_revision_;
}

session& request_context::peer() const {
    if (!session_)
        throw std::logic_error(
            "mcp::request_context::peer: this request was served without a session "
            "(a stateless request has no channel back to the client but its own response)");
    return *session_;
}

void request_context::notify(std::string method, json::value params) const {
    if (session_) {
        session_->notify_related(id_, std::move(method), std::move(params));
        return;
    }
    if (!stream_) return;
    std::string out;
    jsonrpc::serialize_notification(out, method, params);
    stream_->notify(std::move(out));
}

std::function<void(std::string, json::value)> request_context::notifier() const {
    if (session_)
        return [weak = std::weak_ptr<session>(session_), id = id_](std::string method, json::value params) {
            if (auto s = weak.lock()) s->notify_related(id, std::move(method), std::move(params));
        };
    return [weak = std::weak_ptr<request_stream>(stream_)](std::string method, json::value params) {
        auto st = weak.lock();
        if (!st) return;
        std::string out;
        jsonrpc::serialize_notification(out, method, params);
        st->notify(std::move(out));
    };
}

void request_context::report_progress(double progress, std::optional<double> total,
                                      std::optional<std::string> message) const {
    if (progress_token_.is_null()) return;
    json::object p{{"progressToken", progress_token_}, {"progress", progress}};
    if (total) p["total"] = *total;
    // `message` arrived in 2025-03-26; older peers never see it.
    const auto rev = protocol_revision();
    if (message && (!rev || *rev >= revision::v2025_03_26)) p["message"] = *message;
    notify("notifications/progress", std::move(p));
}

bool request_context::close_stream() const {
    return session_ && session_->close_request_stream(id_);
}

std::shared_ptr<deferred_reply> request_context::defer() {
    if (!deferred_) {
        if (!finisher_)
            throw std::logic_error("mcp::request_context::defer: this request cannot be answered later");
        deferred_ = std::make_shared<deferred_reply>(id_, finisher_);
    }
    return deferred_;
}

// ==================================================================== deferred_reply

deferred_reply::~deferred_reply() {
    if (done()) return;
    try {
        reject(mcp::error(error_code::internal_error,
                          "Internal error: the request was dropped without an answer"));
    } catch (...) {
    }
}

bool deferred_reply::done() const noexcept {
    std::lock_guard lock(mu_);
    return !finish_;
}

void deferred_reply::resolve(const json::value& result) {
    std::string out;
    jsonrpc::serialize_result(out, id_, result.is_null() ? json::value(json::object()) : result);
    finish(std::move(out), nullptr);
}

void deferred_reply::reject(const mcp::error& e) {
    std::string out;
    jsonrpc::serialize_error(out, id_, e);
    finish(std::move(out), &e);
}

void deferred_reply::finish(std::string message, const mcp::error* error) {
    finisher f;
    {
        std::lock_guard lock(mu_);
        f.swap(finish_);
    }
    if (f) f(std::move(message), error);
}

// ==================================================================== session

session::session(std::unique_ptr<impl> p) : impl_(std::move(p)) {}

std::shared_ptr<session> session::create(transport_ptr transport, session_options options) {
    auto exec = options.handler_executor ? options.handler_executor : default_executor();
    auto p = std::make_unique<impl>(std::move(exec));
    p->transport = std::move(transport);
    p->tracing = options.trace || detail::trace_enabled_by_environment();
    p->opts = std::move(options);
    std::shared_ptr<session> s(new session(std::move(p)));
    s->impl_->self = s;
    return s;
}

session::~session() {
    impl_->closed.store(true);
    if (impl_->transport) impl_->transport->close();
    impl_->finish_close();
}

void session::set_request_handler(std::string method, request_handler handler) {
    std::unique_lock lock(impl_->handlers_mu);
    if (handler)
        impl_->request_handlers[std::move(method)] =
            std::make_shared<const request_handler>(std::move(handler));
    else
        impl_->request_handlers.erase(method);
}

void session::set_notification_handler(std::string method, notification_handler handler) {
    std::unique_lock lock(impl_->handlers_mu);
    if (handler)
        impl_->notification_handlers[std::move(method)] =
            std::make_shared<const notification_handler>(std::move(handler));
    else
        impl_->notification_handlers.erase(method);
}

void session::set_request_filter(request_filter filter) {
    std::unique_lock lock(impl_->handlers_mu);
    impl_->filter = filter ? std::make_shared<const request_filter>(std::move(filter)) : nullptr;
}

void session::set_handled_in_order(std::string method) {
    std::unique_lock lock(impl_->handlers_mu);
    impl_->ordered_methods.insert(std::move(method));
}

void session::set_notification_interceptor(notification_interceptor interceptor) {
    std::unique_lock lock(impl_->handlers_mu);
    impl_->interceptor =
        interceptor ? std::make_shared<const notification_interceptor>(std::move(interceptor)) : nullptr;
}

void session::on_close(std::function<void()> callback) {
    {
        std::lock_guard lock(impl_->close_mu);
        if (!impl_->close_done) {
            impl_->close_callbacks.push_back(std::move(callback));
            return;
        }
    }
    callback();
}

void session::start() {
    if (impl_->started.exchange(true)) return;
    std::weak_ptr<session> weak = shared_from_this();
    impl_->transport->set_max_message_size(impl_->opts.max_message_size);
    transport_handler h;
    // Inline handling needs a transport that can hand reading over (see mcp::inline_reader).
    if (impl_->opts.inline_stall_threshold.count() > 0)
        if (auto* reader = dynamic_cast<inline_reader*>(impl_->transport.get())) {
            impl_->inline_dispatch = true;
            reader->read_inline();
        }
    h.on_message = [weak](jsonrpc::incoming_message&& m) {
        if (auto s = weak.lock()) s->impl_->on_message(std::move(m));
    };
    h.on_error = [weak](std::string_view what, transport_handler::severity level) {
        auto s = weak.lock();
        if (!s) return;
        // A transport closing on its own (a peer that stopped reading): nobody on the wire can
        // be told, so it is a diagnostic.
        if (level == transport_handler::severity::failure) {
            s->impl_->log_internal(std::string(what));
            return;
        }
        // A problem with the stream (input that ended inside a message, an I/O error): the id
        // cannot be read, so the peer gets an id-less error and the session goes on.
        s->impl_->reply_error(nullptr, std::nullopt,
                              mcp::error(error_code::invalid_request, std::string(what)));
    };
    h.on_close = [weak] {
        if (auto s = weak.lock()) s->impl_->on_transport_closed();
    };
    if (impl_->opts.input_end_grace.count() > 0)
        h.on_input_end = [weak] {
            if (auto s = weak.lock()) s->impl_->on_input_end();
        };
    impl_->transport->start(std::move(h));
}

void session::close() {
    if (!impl_->closed.exchange(true)) impl_->transport->close();
    impl_->finish_close();
}

bool session::is_closed() const noexcept {
    return impl_->closed.load(std::memory_order_acquire);
}

void session::wait_closed() {
    std::unique_lock lock(impl_->close_mu);
    impl_->close_cv.wait(lock, [&] { return impl_->close_done; });
}

jsonrpc::request_id session::async_request(std::string method, json::value params, request_options options,
                                           std::function<void(response_outcome)> done) {
    return impl_->start_request(std::move(method), std::move(params), std::move(options), std::move(done));
}

std::future<json::value> session::request(std::string method, json::value params, request_options options) {
    hand_off_if_inline(); // the caller is likely to wait on the future
    auto promise = std::make_shared<std::promise<json::value>>();
    auto future = promise->get_future();
    impl_->start_request(std::move(method), std::move(params), std::move(options),
                         [promise](response_outcome o) {
                             if (o.ok())
                                 promise->set_value(std::move(o.result));
                             else
                                 promise->set_exception(std::make_exception_ptr(std::move(*o.error)));
                         });
    return future;
}

json::value session::call(std::string method, json::value params, request_options options) {
    hand_off_if_inline();
    return request(std::move(method), std::move(params), std::move(options)).get();
}

void session::notify(std::string method, json::value params) {
    impl_->send(jsonrpc::notification_message(std::move(method), std::move(params)));
}

void session::notify_related(const jsonrpc::request_id& related, std::string method, json::value params) {
    impl_->send(jsonrpc::notification_message(std::move(method), std::move(params), related));
}

bool session::close_request_stream(const jsonrpc::request_id& id) {
    return !impl_->closed.load(std::memory_order_acquire) && impl_->transport->close_request_stream(id);
}

void session::set_protocol_revision(revision r) noexcept {
    impl_->revision_value.store(static_cast<int>(r));
    impl_->batches_allowed.store(allows_batches(r));
    impl_->id_style.store(omits_unknown_error_id(r) ? jsonrpc::unknown_id_style::omit
                                                    : jsonrpc::unknown_id_style::null);
}

std::optional<revision> session::protocol_revision() const noexcept {
    const int v = impl_->revision_value.load();
    if (v < 0) return std::nullopt;
    return static_cast<revision>(v);
}

void session::set_batches_allowed(bool allowed) noexcept {
    impl_->batches_allowed.store(allowed);
}
void session::set_unknown_id_style(jsonrpc::unknown_id_style style) noexcept {
    impl_->id_style.store(style);
}
void session::set_next_request_id(std::int64_t first) noexcept {
    impl_->next_id.store(first, std::memory_order_relaxed);
}
const session_options& session::options() const noexcept {
    return impl_->opts;
}

std::size_t session::in_flight_incoming() const {
    std::lock_guard lock(impl_->in_mu);
    return impl_->in_flight.size();
}

std::size_t session::pending_outgoing() const {
    std::lock_guard lock(impl_->out_mu);
    return impl_->pending.size();
}

} // namespace mcp
