// The JSON-RPC engine, outgoing side: ids, correlation, timeouts (reset by progress up to a
// hard maximum) and cancellation of the requests we send.
#include "session/session_impl.hpp"

namespace mcp {

std::int64_t session::impl::start_request(std::string method, json::value params, request_options options,
                                          std::function<void(response_outcome)> done) {
    if (closed.load(std::memory_order_acquire)) {
        done({nullptr, mcp::error(error_code::connection_closed, "Connection closed")});
        return 0;
    }
    if (input_ended.load(std::memory_order_acquire)) {
        done({nullptr, mcp::error(error_code::connection_closed,
                                  "Connection closed: the peer has ended its input and cannot answer")});
        return 0;
    }
    const std::int64_t id = next_id.fetch_add(1, std::memory_order_relaxed);
    if (options.on_progress) {
        if (!params.is_object()) params = json::object();
        auto& meta = params.get_object()["_meta"];
        if (!meta.is_object()) meta = json::object();
        meta.get_object()["progressToken"] = id;
    }
    const auto now = clock_type::now();
    pending_request p;
    p.done = std::move(done);
    p.on_progress = std::move(options.on_progress);
    p.timeout = options.timeout.value_or(opts.request_timeout);
    p.hard_deadline = now + options.max_total_timeout.value_or(std::max(opts.max_request_timeout, p.timeout));
    p.deadline = std::min(now + p.timeout, p.hard_deadline);
    p.reset_on_progress = options.reset_timeout_on_progress;
    const auto deadline = p.deadline;
    {
        std::lock_guard lock(out_mu);
        pending.emplace(id, std::move(p));
    }
    arm_timer(id, deadline);
    if (options.cancel.can_be_cancelled()) {
        std::weak_ptr<session> weak = self;
        const auto registration = options.cancel.on_cancel([weak, id](const std::string& reason) {
            if (auto s = weak.lock())
                s->impl_->abandon(id, error_code::request_cancelled,
                                  reason.empty() ? "Request cancelled" : reason);
        });
        std::unique_lock lock(out_mu);
        if (auto it = pending.find(id); it != pending.end()) {
            it->second.cancel = options.cancel;
            it->second.cancel_registration = registration;
        } else { // already answered (or cancelled): the callback is not needed
            lock.unlock();
            options.cancel.remove_callback(registration);
        }
    }
    jsonrpc::outgoing_message m;
    m.kind = jsonrpc::kind::request;
    m.id = request_id(id);
    jsonrpc::serialize_request(m.text, *m.id, method, params);
    m.method = std::move(method);
    m.params = std::move(params);
    m.related = std::move(options.related_request);
    send(std::move(m));
    // A close that raced with the insertion above must still fail the request.
    if (closed.load(std::memory_order_acquire))
        abandon(id, error_code::connection_closed, "Connection closed");
    return id;
}

void session::impl::arm_timer(std::int64_t id, clock_type::time_point when) {
    std::weak_ptr<session> weak = self;
    auto t = detail::timer_service::instance().schedule(when, [weak, id] {
        if (auto s = weak.lock()) s->impl_->on_timer(id);
    });
    std::lock_guard lock(out_mu);
    auto it = pending.find(id);
    if (it != pending.end())
        it->second.timer = t;
    else
        detail::timer_service::instance().cancel(t);
}

void session::impl::on_timer(std::int64_t id) {
    clock_type::time_point deadline;
    std::chrono::milliseconds timeout{};
    {
        std::lock_guard lock(out_mu);
        auto it = pending.find(id);
        if (it == pending.end()) return;
        it->second.timer = 0;
        deadline = it->second.deadline;
        timeout = it->second.timeout;
    }
    if (clock_type::now() < deadline) { // progress moved the deadline: wait longer
        arm_timer(id, deadline);
        return;
    }
    abandon(id, error_code::request_timeout,
            "Request timed out after " + std::to_string(timeout.count()) + " ms");
}

// Give up on an outgoing request: tell the peer, fail the caller.

void session::impl::abandon(std::int64_t id, int code, std::string reason) {
    pending_request p;
    {
        std::lock_guard lock(out_mu);
        auto it = pending.find(id);
        if (it == pending.end()) return;
        p = std::move(it->second);
        pending.erase(it);
    }
    if (p.timer) detail::timer_service::instance().cancel(p.timer);
    p.cancel.remove_callback(p.cancel_registration);
    if (code != error_code::connection_closed) {
        send(jsonrpc::notification_message("notifications/cancelled",
                                           json::object{{"requestId", id}, {"reason", reason}}));
    }
    p.done({nullptr, mcp::error(code, std::move(reason))});
}

} // namespace mcp
