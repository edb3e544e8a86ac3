// The JSON-RPC engine's state, shared by session.cpp (dispatch of incoming messages, the public
// API) and session_outgoing.cpp (our own requests: ids, timeouts, cancellation).
#pragma once

#include <mcp/session/session.hpp>

#include "session/run_request.hpp"
#include "session/serial_queue.hpp"
#include "session/stall_watchdog.hpp"
#include "session/timer_service.hpp"
#include "session/trace.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

namespace mcp {

using jsonrpc::request_id;
using clock_type = std::chrono::steady_clock;

namespace detail {

// The stall slot of the session whose handler runs inline on this (reading) thread, if any.
extern thread_local stall_slot* t_inline_slot;

// Before this thread blocks on a response: if it is a reading thread running a handler inline,
// let reading continue elsewhere (the response could not be read otherwise).
inline void hand_off_if_inline() {
    if (t_inline_slot) t_inline_slot->trigger();
}

// Collects the replies to the requests of one incoming batch and sends them as one array.
struct batch_collector {
    std::mutex mu;
    std::vector<std::string> replies;
    std::size_t outstanding = 0;
    bool sealed = false;                // every element has been dispatched
    std::optional<request_id> first_id; // the reply array is sent as the reply to this request
};

} // namespace detail

using detail::batch_collector;
using detail::t_inline_slot;

struct session::impl {
    std::weak_ptr<session> self;
    transport_ptr transport;
    session_options opts;
    std::shared_ptr<executor> exec;
    clock_type::time_point start_time = clock_type::now();
    bool tracing = false;

    // Handlers: read on every message, written rarely.
    std::shared_mutex handlers_mu;
    std::unordered_map<std::string, std::shared_ptr<const request_handler>> request_handlers;
    std::unordered_map<std::string, std::shared_ptr<const notification_handler>> notification_handlers;
    std::shared_ptr<const request_filter> filter;
    std::shared_ptr<const notification_interceptor> interceptor;
    std::unordered_set<std::string> ordered_methods; // see session::set_handled_in_order

    // Incoming requests being handled, by id.
    mutable std::mutex in_mu;
    std::unordered_map<request_id, cancellation_source> in_flight;
    std::atomic<std::size_t> answering{0}; // requests left in_flight whose reply is being sent
    std::atomic<bool> input_ended{false};  // the peer will send nothing more (on_input_end)
    std::condition_variable drained_cv;    // under in_mu: in_flight emptied after input_ended

    // Outgoing requests awaiting a response, by our integer id (also their progress token).
    struct pending_request {
        std::function<void(response_outcome)> done;
        std::function<void(const progress_update&)> on_progress;
        detail::timer_service::timer_id timer = 0;
        clock_type::time_point deadline;
        clock_type::time_point hard_deadline;
        std::chrono::milliseconds timeout{};
        bool reset_on_progress = true;
        cancellation_token cancel;             // the caller's token, if any
        std::uint64_t cancel_registration = 0; // removed when the request ends
    };
    mutable std::mutex out_mu;
    std::unordered_map<std::int64_t, pending_request> pending;
    std::atomic<std::int64_t> next_id{1};

    detail::serial_queue notifications; // incoming notifications, in order
    bool inline_dispatch = false;       // the transport can hand reading over
    std::atomic<bool> started{false};
    std::atomic<bool> closed{false};
    std::mutex close_mu;
    std::condition_variable close_cv;
    bool close_done = false;
    std::vector<std::function<void()>> close_callbacks;

    std::atomic<bool> batches_allowed{false};
    std::atomic<jsonrpc::unknown_id_style> id_style{jsonrpc::unknown_id_style::omit};
    std::atomic<int> revision_value{-1};

    explicit impl(std::shared_ptr<executor> e) : exec(std::move(e)), notifications(exec) {}

    // ---------------------------------------------------------------- output
    void trace(trace_event::direction dir, std::string_view text) {
        trace_event ev{dir, text,
                       std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - start_time)};
        if (opts.trace_sink)
            opts.trace_sink(ev);
        else
            detail::trace_to_stderr(opts.name, ev);
    }

    void send(jsonrpc::outgoing_message m) {
        if (closed.load(std::memory_order_acquire)) return;
        if (tracing) trace(trace_event::direction::out, m.text);
        transport->send(std::move(m));
    }

    // A reply (`k`: response, error or batch) to the request `id` (null for an error to a message
    // whose id could not be read). A handler's error reply goes out as kind::response.
    void send_reply(std::string text, const request_id* id, jsonrpc::kind k) {
        jsonrpc::outgoing_message m;
        m.text = std::move(text);
        m.kind = k;
        if (id) m.id = *id;
        send(std::move(m));
    }

    // `id`: the request answered (null for an error to an unreadable message).
    void reply(const std::shared_ptr<batch_collector>& batch, std::string text, const request_id* id,
               jsonrpc::kind k = jsonrpc::kind::response) {
        if (!batch) {
            send_reply(std::move(text), id, k);
            return;
        }
        std::string joined;
        std::optional<request_id> first;
        {
            std::lock_guard lock(batch->mu);
            batch->replies.push_back(std::move(text));
            if (--batch->outstanding != 0 || !batch->sealed) return;
            joined = join_batch(batch->replies);
            first = batch->first_id;
        }
        send_reply(std::move(joined), first ? &*first : nullptr, jsonrpc::kind::batch);
    }

    static std::string join_batch(const std::vector<std::string>& replies) {
        std::string out = "[";
        for (std::size_t i = 0; i < replies.size(); ++i) {
            if (i) out.push_back(',');
            out += replies[i];
        }
        out.push_back(']');
        return out;
    }

    void reply_error(const std::shared_ptr<batch_collector>& batch, const std::optional<request_id>& id,
                     const mcp::error& e) {
        std::string out;
        jsonrpc::serialize_error(out, id, e, id_style.load(std::memory_order_relaxed));
        reply(batch, std::move(out), id ? &*id : nullptr, jsonrpc::kind::error);
    }

    // ---------------------------------------------------------------- input
    void on_message(jsonrpc::incoming_message&& m) {
        if (tracing) {
            if (!m.text.empty())
                trace(trace_event::direction::in, m.text);
            else if (!m.value.is_null())
                trace(trace_event::direction::in, json::serialize(m.value));
        }
        if (m.unusable_response) {
            fail_unusable_response(*m.unusable_response, m.error->what());
            return;
        }
        if (m.kind == jsonrpc::kind::batch) {
            on_batch(std::move(m.value.get_array()), m.origin);
            return;
        }
        const bool may_inline = m.reader_idle;
        auto origin = std::move(m.origin);
        dispatch(jsonrpc::classify(std::move(m)), nullptr, may_inline, origin);
    }

    void on_batch(json::array&& elements, const std::shared_ptr<const message_origin>& origin) {
        if (!batches_allowed.load(std::memory_order_relaxed)) {
            reply_error(nullptr, std::nullopt,
                        mcp::error(error_code::invalid_request,
                                   "Invalid Request: JSON-RPC batches are not accepted (only protocol "
                                   "revision 2025-03-26 allows them)"));
            return;
        }
        if (elements.empty()) {
            reply_error(nullptr, std::nullopt,
                        mcp::error(error_code::invalid_request, "Invalid Request: empty batch"));
            return;
        }
        auto batch = std::make_shared<batch_collector>();
        // Classify every element first and count those that get a reply, so that an early reply
        // cannot complete the batch before the rest is dispatched.
        std::vector<jsonrpc::classify_result> items;
        items.reserve(elements.size());
        for (auto& e : elements) {
            items.push_back(jsonrpc::classify(std::move(e)));
            const auto& c = items.back();
            if (!c.msg || std::holds_alternative<jsonrpc::request>(*c.msg)) {
                ++batch->outstanding;
                if (!batch->first_id) {
                    if (c.msg)
                        batch->first_id = std::get<jsonrpc::request>(*c.msg).id;
                    else if (c.id)
                        batch->first_id = *c.id;
                }
            }
        }
        const bool expects_replies = batch->outstanding > 0;
        for (auto& c : items) dispatch(std::move(c), expects_replies ? batch : nullptr, false, origin);
        if (!expects_replies) return;
        std::string joined;
        {
            std::lock_guard lock(batch->mu);
            batch->sealed = true;
            if (batch->outstanding != 0) return;
            joined = join_batch(batch->replies);
        }
        send_reply(std::move(joined), batch->first_id ? &*batch->first_id : nullptr, jsonrpc::kind::batch);
    }

    void dispatch(jsonrpc::classify_result&& c, const std::shared_ptr<batch_collector>& batch,
                  bool may_inline = false, const std::shared_ptr<const message_origin>& origin = nullptr) {
        if (!c.msg) {
            reply_error(batch, c.id, *c.err);
            return;
        }
        std::visit(
            [&](auto&& m) {
                using T = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<T, jsonrpc::request>)
                    on_request(std::move(m), batch, may_inline, origin);
                else if constexpr (std::is_same_v<T, jsonrpc::notification>)
                    on_notification(std::move(m), origin);
                else if constexpr (std::is_same_v<T, jsonrpc::response>)
                    on_response(m.id, std::move(m.result), std::nullopt);
                else
                    on_error_response(std::move(m));
            },
            std::move(*c.msg));
    }

    void on_request(jsonrpc::request&& req, const std::shared_ptr<batch_collector>& batch, bool may_inline,
                    const std::shared_ptr<const message_origin>& origin) {
        std::shared_ptr<const request_filter> f;
        std::shared_ptr<const request_handler> handler;
        bool in_order = false;
        {
            std::shared_lock lock(handlers_mu);
            f = filter;
            auto it = request_handlers.find(req.method);
            if (it != request_handlers.end()) handler = it->second;
            in_order = handler && !ordered_methods.empty() && ordered_methods.count(req.method) != 0;
        }
        if (f && *f) {
            if (auto rejected = (*f)(req.method)) {
                reply_error(batch, req.id, *rejected);
                return;
            }
        }
        if (!handler && req.method == "ping") { // answered here, never queued behind handlers
            std::string out;
            jsonrpc::serialize_result(out, req.id, json::object());
            reply(batch, std::move(out), &req.id);
            return;
        }
        if (!handler) {
            reply_error(batch, req.id,
                        mcp::error(error_code::method_not_found, "Method not found: " + req.method));
            return;
        }
        cancellation_source source;
        std::optional<mcp::error> refused; // replied to after the lock: never write under in_mu
        {
            std::lock_guard lock(in_mu);
            if (in_flight.size() >= opts.max_in_flight_requests)
                refused.emplace(error_code::internal_error, "Too many requests in progress (limit " +
                                                                std::to_string(opts.max_in_flight_requests) +
                                                                "); retry later");
            else if (!in_flight.emplace(req.id, source).second)
                refused.emplace(error_code::invalid_request, "Invalid Request: id " +
                                                                 jsonrpc::id_to_string(req.id) +
                                                                 " is already used by a request in progress");
        }
        if (refused) {
            reply_error(batch, req.id, *refused);
            return;
        }
        auto s = self.lock();
        if (!s) return;
        if (in_order) { // before anything after it is read (see session::set_handled_in_order)
            run_handler(std::move(s), std::move(req), batch, *handler, source, origin);
            return;
        }
        if (may_inline && !batch && inline_dispatch) {
            // Nothing else is buffered: handle it here, without a thread hand-off. The watchdog
            // moves reading to a new thread if the handler turns out to be slow.
            auto& watchdog = detail::stall_watchdog::instance();
            auto& slot = detail::thread_stall_slot();
            // The same (live) transport as last time on this thread: nothing to install.
            const bool same = !slot.owner.expired() && !slot.owner.owner_before(transport) &&
                              !transport.owner_before(slot.owner);
            if (!same) {
                std::lock_guard lock(slot.mu);
                std::weak_ptr<mcp::transport> weak_transport = transport;
                slot.hand_off = [weak_transport] {
                    if (auto t = weak_transport.lock())
                        if (auto* reader = dynamic_cast<inline_reader*>(t.get())) reader->hand_off_reading();
                };
                slot.owner = transport;
            }
            slot.threshold_ns.store(std::chrono::nanoseconds(opts.inline_stall_threshold).count());
            auto* outer = t_inline_slot;
            t_inline_slot = &slot;
            watchdog.begin(slot);
            run_handler(std::move(s), std::move(req), batch, *handler, source, origin);
            watchdog.end(slot);
            t_inline_slot = outer;
            return;
        }
        exec->post([this, s = std::move(s), req = std::move(req), batch, handler = std::move(handler),
                    source = std::move(source), origin]() mutable {
            run_handler(std::move(s), std::move(req), batch, *handler, source, origin);
        });
    }

    // Ends an incoming request: forgets it and sends its reply (unless it was cancelled).
    void finish_request(const request_id& id, const std::shared_ptr<batch_collector>& batch,
                        const cancellation_source& source, std::string out, jsonrpc::kind k) {
        answering.fetch_add(1, std::memory_order_acq_rel); // counted until its reply is out
        {
            std::lock_guard lock(in_mu);
            in_flight.erase(id);
        }
        // A cancelled request gets no response (the requester has stopped waiting) unless it is
        // part of a batch, whose array must stay complete.
        if (!source.is_cancelled() || batch) reply(batch, std::move(out), &id, k);
        if (answering.fetch_sub(1, std::memory_order_acq_rel) == 1 &&
            input_ended.load(std::memory_order_acquire)) {
            std::lock_guard lock(in_mu);
            drained_cv.notify_all();
        }
    }

    // The peer has ended its input (transport_handler::on_input_end): nothing more will come,
    // so outgoing requests fail now; the requests it sent get input_end_grace to be answered,
    // then the transport is closed (and what still runs is cancelled).
    void on_input_end() {
        input_ended.store(true, std::memory_order_release);
        std::vector<std::int64_t> ids;
        {
            std::lock_guard lock(out_mu);
            for (auto& [id, p] : pending) ids.push_back(id);
        }
        for (auto id : ids)
            abandon(id, error_code::connection_closed,
                    "Connection closed: the peer has ended its input and cannot answer");
        {
            std::unique_lock lock(in_mu);
            drained_cv.wait_for(lock, opts.input_end_grace, [&] {
                return closed.load(std::memory_order_acquire) ||
                       (in_flight.empty() && answering.load(std::memory_order_acquire) == 0);
            });
        }
        if (!closed.exchange(true)) transport->close();
        finish_close();
    }

    void run_handler(std::shared_ptr<session> s, jsonrpc::request&& req,
                     const std::shared_ptr<batch_collector>& batch, const request_handler& handler,
                     cancellation_source& source, const std::shared_ptr<const message_origin>& origin) {
        json::object params = req.params.is_object() ? std::move(req.params.get_object()) : json::object();
        std::optional<detail::request_reply> out;
        {
            request_context ctx(s, req.id, std::move(req.method), std::move(params), source.token(), origin);
            std::weak_ptr<session> weak = s;
            ctx.set_deferred_finisher(
                [weak, id = req.id, batch, source](std::string message, const mcp::error* e) {
                    if (auto live = weak.lock())
                        live->impl_->finish_request(id, batch, source, std::move(message),
                                                    e ? jsonrpc::kind::error : jsonrpc::kind::response);
                });
            out = detail::run_request(ctx, handler, [this](const std::string& what) { log_internal(what); });
            if (!out) return; // answered later through the deferred_reply
        }
        finish_request(req.id, batch, source, std::move(out->message),
                       out->error ? jsonrpc::kind::error : jsonrpc::kind::response);
    }

    void log_internal(const std::string& what) {
        if (opts.diagnostic_sink) {
            opts.diagnostic_sink(what);
            return;
        }
        std::string line = "mcpxx";
        if (!opts.name.empty()) line += "[" + opts.name + "]";
        line += ": " + what + "\n";
        std::fwrite(line.data(), 1, line.size(), stderr);
    }

    void on_notification(jsonrpc::notification&& n, const std::shared_ptr<const message_origin>& origin) {
        std::shared_ptr<const notification_interceptor> intercept;
        {
            std::shared_lock lock(handlers_mu);
            intercept = interceptor;
        }
        if (!intercept) {
            deliver_notification(std::move(n));
            return;
        }
        if (!n.params.is_object()) n.params = json::object{};
        bool delivered = false;
        try {
            // The interceptor keeps seeing `n` after it delivers, so delivery takes a copy.
            (*intercept)(n.method, n.params.get_object(), origin, [&] {
                if (delivered) return;
                delivered = true;
                deliver_notification(jsonrpc::notification{n.method, n.params});
            });
        } catch (const std::exception& e) {
            log_internal("notification interceptor failed on " + n.method + ": " + e.what());
        } catch (...) {
            log_internal("notification interceptor failed on " + n.method);
        }
    }

    void deliver_notification(jsonrpc::notification&& n) {
        const json::object empty;
        const json::object& params = n.params.is_object() ? n.params.get_object() : empty;
        if (n.method == "notifications/cancelled") {
            on_cancelled(params);
            return; // the engine's own business; never queued behind other notifications
        }
        if (n.method == "notifications/progress") {
            on_progress(params);
            return;
        }
        std::shared_ptr<const notification_handler> handler;
        {
            std::shared_lock lock(handlers_mu);
            auto it = notification_handlers.find(n.method);
            if (it != notification_handlers.end()) handler = it->second;
        }
        if (!handler) return; // unknown notifications are ignored, as JSON-RPC requires
        auto s = self.lock();
        notifications.post([s, handler, n = std::move(n)]() {
            static const json::object no_params;
            try {
                (*handler)(n.params.is_object() ? n.params.get_object() : no_params);
            } catch (...) {
                // A failing notification handler has no one to answer; keep going.
            }
        });
    }

    void on_cancelled(const json::object& params) {
        const auto* id_v = params.if_contains("requestId");
        if (!id_v) return;
        std::optional<request_id> id;
        if (id_v->is_string())
            id = request_id(std::string(id_v->get_string()));
        else if (auto i = find_int(params, "requestId"))
            id = request_id(*i);
        if (!id) return;
        std::string reason(find_string(params, "reason").value_or(""));
        std::optional<cancellation_source> source;
        {
            std::lock_guard lock(in_mu);
            auto it = in_flight.find(*id);
            if (it != in_flight.end()) source = it->second;
        }
        if (source) {
            source->cancel(reason.empty() ? "cancelled by the peer" : reason);
            return;
        }
        // Not one of the peer's requests. In 2026-07-28 a server sends no requests, and its
        // notifications/cancelled ends one of ours: a subscriptions/listen stream it tears down
        // (basic/patterns/subscriptions.mdx, stdio). Before that revision: finished already, or
        // unknown: ignore (race-safe).
        if (revision_value.load() != static_cast<int>(revision::v2026_07_28)) return;
        if (const auto* num = std::get_if<std::int64_t>(&*id))
            on_response(
                request_id(*num), nullptr,
                mcp::error(error_code::request_cancelled,
                           "the peer ended the request" + (reason.empty() ? std::string() : ": " + reason)));
    }

    void on_progress(const json::object& params) {
        auto token = find_int(params, "progressToken");
        auto progress = find_number(params, "progress");
        if (!token || !progress) return;
        progress_update u;
        u.progress = *progress;
        u.total = find_number(params, "total");
        if (auto m = find_string(params, "message")) u.message = std::string(*m);
        std::function<void(const progress_update&)> cb;
        {
            std::lock_guard lock(out_mu);
            auto it = pending.find(*token);
            if (it == pending.end()) return;
            auto& p = it->second;
            if (p.reset_on_progress) p.deadline = std::min(clock_type::now() + p.timeout, p.hard_deadline);
            cb = p.on_progress;
        }
        if (cb) {
            auto s = self.lock();
            notifications.post([s, cb = std::move(cb), u = std::move(u)] { cb(u); });
        }
    }

    void on_response(const request_id& id, json::value&& result, std::optional<mcp::error> err) {
        const auto* num = std::get_if<std::int64_t>(&id);
        if (!num) return; // we only ever send integer ids
        pending_request p;
        {
            std::lock_guard lock(out_mu);
            auto it = pending.find(*num);
            if (it == pending.end()) return; // late (timed out, cancelled) or unknown: ignore
            p = std::move(it->second);
            pending.erase(it);
        }
        if (p.timer) detail::timer_service::instance().cancel(p.timer);
        p.cancel.remove_callback(p.cancel_registration);
        response_outcome o;
        if (err)
            o.error = std::move(err);
        else
            o.result = std::move(result);
        if (p.on_progress || opts.ordered_responses) {
            // Progress callbacks run on the notification queue; the outcome follows them there,
            // so every update is delivered before the caller sees the result (at once, on this
            // thread, when nothing is queued).
            auto s = self.lock();
            notifications.run_or_post(
                [s, done = std::move(p.done), o = std::move(o)]() mutable { done(std::move(o)); });
            return;
        }
        p.done(std::move(o));
    }

    /// The peer answered request `id` with a message that cannot be used (`why`): the request
    /// fails now, with -32700 and the reason, instead of at its timeout. A response nobody waits
    /// for (late, or never asked) is a diagnostic. The peer is not answered: a response gets none.
    void fail_unusable_response(std::int64_t id, const std::string& why) {
        bool waiting = false;
        {
            std::lock_guard lock(out_mu);
            waiting = pending.count(id) != 0;
        }
        const std::string what = "the response to request " + std::to_string(id) + " cannot be used: " + why;
        if (!waiting) {
            log_internal(what + " (no request with that id is waiting; dropped)");
            return;
        }
        on_response(request_id{id}, nullptr,
                    mcp::error(error_code::parse_error, what, json::object{{"reason", why}}));
    }

    void on_error_response(jsonrpc::error_response&& e) {
        if (!e.id) {
            log_internal(std::string("peer reported an error without id: ") + e.err.what());
            return;
        }
        on_response(*e.id, nullptr, std::move(e.err));
    }

    // ---------------------------------------------------------------- outgoing requests
    // (defined in session_outgoing.cpp)
    /// Returns the id the request got (0 when the session was already closed).
    std::int64_t start_request(std::string method, json::value params, request_options options,
                               std::function<void(response_outcome)> done);
    void arm_timer(std::int64_t id, clock_type::time_point when);
    void on_timer(std::int64_t id);
    void abandon(std::int64_t id, int code, std::string reason);

    // ---------------------------------------------------------------- closing
    void on_transport_closed() {
        if (closed.exchange(true)) {
            finish_close();
            return;
        }
        finish_close();
    }

    void finish_close() {
        {
            std::lock_guard lock(close_mu);
            if (close_done) return;
            close_done = true;
        }
        std::vector<std::int64_t> ids;
        {
            std::lock_guard lock(out_mu);
            for (auto& [id, p] : pending) ids.push_back(id);
        }
        for (auto id : ids) abandon(id, error_code::connection_closed, "Connection closed");
        std::vector<cancellation_source> running;
        {
            std::lock_guard lock(in_mu);
            for (auto& [id, src] : in_flight) running.push_back(src);
        }
        for (auto& src : running) src.cancel("connection closed");
        {
            std::lock_guard lock(in_mu);
            drained_cv.notify_all(); // an on_input_end waiting for answers stops waiting
        }
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(close_mu);
            callbacks.swap(close_callbacks);
        }
        for (auto& cb : callbacks) {
            try {
                cb();
            } catch (...) {
            }
        }
        {
            std::lock_guard lock(close_mu);
            close_cv.notify_all();
        }
    }
};

} // namespace mcp
