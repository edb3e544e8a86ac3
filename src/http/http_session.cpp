// One Streamable HTTP session of the initialize era (see http_session.hpp).
#include "http/http_session.hpp"

#include "http/sse.hpp"

#include "crypto/crypto.hpp"

#include <mcp/jsonrpc/message.hpp>

#include <algorithm>
#include <utility>

namespace mcp::http::detail {

namespace {
using writer_ptr = std::shared_ptr<core::response_writer>;
using graveyard_t = std::vector<writer_ptr>; // writers released after the lock (see the header)

std::string error_body(int code, const std::string& message) {
    std::string out;
    jsonrpc::serialize_error(out, std::nullopt, mcp::error(code, message));
    return out;
}

/// The JSON array `batch` (a batch's reply, or "[]") with the elements `more` appended.
std::string merged_batch(std::string batch, const std::vector<std::string>& more) {
    if (batch.size() < 2 || batch.front() != '[' || batch.back() != ']') batch = "[" + batch + "]";
    batch.pop_back();
    for (const auto& m : more) {
        if (batch.size() > 1) batch.push_back(',');
        batch += m;
    }
    batch.push_back(']');
    return batch;
}

// What the standalone stream keeps for the client's first GET at most.
constexpr std::size_t max_messages_before_first_get = 64;
constexpr std::size_t max_bytes_before_first_get = std::size_t{1} << 20;

// "<copy>.0" is the standalone stream of some copy of the session (mcp/http/event_store.hpp).
bool is_standalone_stream(std::string_view stream) {
    return stream.size() > 2 && stream.substr(stream.size() - 2) == ".0";
}
} // namespace

http_session::http_session(std::string id, std::shared_ptr<host_state> host)
    : id_(std::move(id)), stream_prefix_(mcp::detail::to_hex(mcp::detail::random_bytes(8)) + "."),
      host_(std::move(host)), last_used_(std::chrono::steady_clock::now()) {
    standalone_ = std::make_shared<stream>();
    standalone_->id = stream_prefix_ + "0";
    standalone_->standalone = true;
}

http_session::~http_session() {
    close();
}

void http_session::start(transport_handler handler) {
    handler_ = std::move(handler);
}

void http_session::touch() {
    std::lock_guard lock(mu_);
    last_used_ = std::chrono::steady_clock::now();
}

std::chrono::steady_clock::time_point http_session::last_used() const {
    std::lock_guard lock(mu_);
    return last_used_;
}

bool http_session::is_closed() const {
    std::lock_guard lock(mu_);
    return closed_;
}

std::size_t http_session::stream_count() const {
    std::lock_guard lock(mu_);
    return streams_.size();
}

bool http_session::in_use() const {
    std::lock_guard lock(mu_);
    return !streams_.empty() || (standalone_->writer && !standalone_->writer->closed());
}

void http_session::set_protocol_revision(revision r) noexcept {
    revision_.store(static_cast<int>(r), std::memory_order_release);
}

bool http_session::polls() const noexcept {
    const int r = revision_.load(std::memory_order_acquire);
    return host_->events && r >= 0 && has_sse_polling(static_cast<revision>(r));
}

core::header_list http_session::json_headers() const {
    return {{"Content-Type", "application/json"}, {"Mcp-Session-Id", id_}};
}

core::header_list http_session::sse_headers() const {
    return {{"Content-Type", "text/event-stream"},
            {"Cache-Control", "no-cache"},
            {"X-Accel-Buffering", "no"},
            {"Mcp-Session-Id", id_}};
}

void http_session::deliver(jsonrpc::incoming_message&& message) {
    std::lock_guard lock(deliver_mu_);
    if (handler_.on_message) handler_.on_message(std::move(message));
}

void http_session::watch(const std::shared_ptr<stream>& s, const writer_ptr& w) {
    std::weak_ptr<http_session> weak_self = shared_from_this();
    std::weak_ptr<stream> weak_stream = s;
    const core::response_writer* raw = w.get();
    w->on_close([weak_self, weak_stream, raw] {
        auto self = weak_self.lock();
        auto st = weak_stream.lock();
        if (!self || !st) return;
        writer_ptr released;
        std::lock_guard lock(self->mu_);
        if (st->writer.get() != raw) return;
        // The connection went away. The stream (and its request) go on: the client may resume.
        released = std::move(st->writer);
        st->sse = false;
        // Held until now, the stream was use of the session (in_use): its idle time starts here.
        self->last_used_ = std::chrono::steady_clock::now();
        // `released` is destroyed after the lock: declared before it.
    });
}

std::shared_ptr<http_session::stream> http_session::stream_of_locked(const jsonrpc::request_id& id) {
    auto it = by_request_.find(id);
    return it == by_request_.end() ? nullptr : it->second;
}

bool http_session::ensure_sse_locked(stream& s) {
    if (s.sse) return true;
    if (!s.writer || !s.writer->start_stream(200, sse_headers())) return false;
    s.sse = true;
    s.ever_sse = true;
    if (polls()) {
        // The priming event: an id to resume from before any message, and the delay to wait.
        // It takes a number of its own, so that every event id of the session is unique and a
        // client resuming from it gets the message that follows.
        const std::string prime = s.id + "-" + std::to_string(++s.seq);
        host_->events->append(id_, s.id, stored_event{prime, {}});
        s.writer->write(sse_priming(prime, host_->opts.sse_retry));
    }
    return true;
}

void http_session::write_event_locked(stream& s, std::string message, graveyard_t& graveyard) {
    s.ever_sse = true;
    // The SSE response starts (with its priming event) before this message gets its id.
    if (s.writer && !ensure_sse_locked(s)) {
        graveyard.push_back(std::move(s.writer));
        s.sse = false;
    }
    std::string event_id;
    if (host_->events) {
        event_id = s.id + "-" + std::to_string(++s.seq);
        host_->events->append(id_, s.id, stored_event{event_id, message});
    }
    if (!s.writer) {
        // Kept for a resuming client (when resumable). A client opens its standalone stream
        // only after notifications/initialized, so what a server sends right after that (a
        // roots/list from its on_initialized) would come before any GET, and a GET without
        // Last-Event-ID replays nothing: such messages wait for the first GET, within bounds.
        if (s.standalone && !s.got_first_get && s.before_first_get.size() < max_messages_before_first_get &&
            s.before_first_get_bytes + message.size() <= max_bytes_before_first_get) {
            s.before_first_get_bytes += message.size();
            s.before_first_get.emplace_back(std::move(event_id), std::move(message));
        }
        return;
    }
    if (!s.writer->write(sse_event(event_id, message))) {
        graveyard.push_back(std::move(s.writer));
        s.sse = false;
    }
}

void http_session::finish_stream_locked(const std::shared_ptr<stream>& s, graveyard_t& graveyard) {
    for (const auto& id : s->requests) {
        auto it = by_request_.find(id);
        if (it != by_request_.end() && it->second == s) by_request_.erase(it);
    }
    if (s->writer) graveyard.push_back(std::move(s->writer));
    if (streams_.erase(s->id)) host_->live_streams.fetch_sub(1, std::memory_order_relaxed);
    if (host_->events && s->ever_sse) {
        const auto now = std::chrono::steady_clock::now();
        ended_.emplace_back(now, s->id);
        forget_ended_streams_locked(now);
    }
}

void http_session::forget_ended_streams_locked(std::chrono::steady_clock::time_point now) {
    while (!ended_.empty() && now - ended_.front().first >= host_->opts.replay_window) {
        host_->events->forget_stream(id_, ended_.front().second);
        ended_.pop_front();
    }
}

void http_session::send(jsonrpc::outgoing_message message) {
    using jsonrpc::kind;
    const bool reply =
        message.kind == kind::response || message.kind == kind::error || message.kind == kind::batch;
    if (reply && message.id)
        send_reply(std::move(message.text), *message.id, message.kind == kind::error);
    else if (message.related)
        send_related(std::move(message.text), *message.related);
    else
        send_standalone(std::move(message.text));
}

void http_session::send_standalone(std::string message) {
    graveyard_t graveyard;
    std::lock_guard lock(mu_);
    if (closed_) return;
    write_event_locked(*standalone_, std::move(message), graveyard);
}

void http_session::send_related(std::string message, const jsonrpc::request_id& related) {
    graveyard_t graveyard;
    std::lock_guard lock(mu_);
    if (closed_) return;
    auto s =
        host_->opts.responses == server_options::response_mode::json ? nullptr : stream_of_locked(related);
    write_event_locked(s ? *s : *standalone_, std::move(message), graveyard);
}

void http_session::send_reply(std::string message, const jsonrpc::request_id& id, bool is_error) {
    graveyard_t graveyard;
    std::function<void()> refused; // initialize answered with an error: the session never began
    writer_ptr bare;               // ... and the writer of that answer, sent without the session id
    int status = 200;
    core::header_list headers;
    {
        std::lock_guard lock(mu_);
        last_used_ = std::chrono::steady_clock::now();
        if (closed_) return;
        auto s = stream_of_locked(id);
        if (!s) { // not a request of a POST (should not happen): the standalone stream carries it
            write_event_locked(*standalone_, std::move(message), graveyard);
            return;
        }
        if (!s->early_replies.empty()) message = merged_batch(std::move(message), s->early_replies);
        if (initialize_id_ && *initialize_id_ == id) {
            initialize_id_.reset();
            if (is_error) refused = std::move(initialize_refused_);
            initialize_refused_ = nullptr;
        }
        const bool json_possible = s->writer && !s->sse && !s->ever_sse;
        if (json_possible && (refused || host_->opts.responses != server_options::response_mode::sse)) {
            headers = refused ? core::header_list{{"Content-Type", "application/json"}} : json_headers();
            if (const auto access = access_error_code(message)) { // middleware refused: 429/401/403
                status = http_status_of(*access);
                add_access_error_headers(*access, message, headers);
            }
            if (refused)
                bare = std::move(s->writer); // answered below, once the session is gone
            else
                s->writer->respond(status, std::move(headers), std::move(message));
        } else {
            // (A refused initialize whose stream had started already went out with the session
            // id: the id names a session that is gone, 404 from now on.)
            write_event_locked(*s, std::move(message), graveyard);
            if (s->writer) s->writer->end();
        }
        finish_stream_locked(s, graveyard);
    }
    if (refused) refused();
    if (bare) bare->respond(status, std::move(headers), std::move(message));
}

void http_session::expect_initialize(jsonrpc::request_id id, std::function<void()> refused) {
    std::lock_guard lock(mu_);
    initialize_id_ = std::move(id);
    initialize_refused_ = std::move(refused);
}

bool http_session::close_request_stream(const jsonrpc::request_id& id) {
    graveyard_t graveyard;
    std::lock_guard lock(mu_);
    // Without an event store nothing could be resumed; before 2025-11-25 the client expects the
    // stream to stay open until the response, which then arrives on it.
    if (closed_ || !polls()) return false;
    auto s = stream_of_locked(id);
    if (!s || !s->writer) return false;
    if (!ensure_sse_locked(*s)) return false; // the client must have an id to resume from
    s->writer->end();
    graveyard.push_back(std::move(s->writer));
    s->sse = false;
    return true;
}

void http_session::post(jsonrpc::incoming_message&& message, writer_ptr writer,
                        std::vector<std::string> early_replies) {
    const auto ids = jsonrpc::request_ids(message);
    const bool nothing = message.kind == jsonrpc::kind::batch && message.value.get_array().empty();
    if (ids.empty()) {
        // Notifications and responses: accepted, nothing to stream back but the errors for the
        // elements of a batch the router refused.
        touch();
        if (!nothing) deliver(std::move(message));
        if (early_replies.empty())
            writer->respond(202, {{"Mcp-Session-Id", id_}}, {});
        else
            writer->respond(200, json_headers(), merged_batch("[]", early_replies));
        return;
    }
    auto s = std::make_shared<stream>();
    {
        graveyard_t graveyard;
        std::lock_guard lock(mu_);
        last_used_ = std::chrono::steady_clock::now();
        if (closed_) {
            writer->respond(
                404, {{"Content-Type", "application/json"}},
                error_body(error_code::invalid_request, "Session not found: the session has ended"));
            return;
        }
        for (const auto& id : ids)
            if (by_request_.count(id)) {
                // The engine would refuse it too, but its refusal would land on the other POST's stream.
                std::string body;
                jsonrpc::serialize_error(body, id,
                                         mcp::error(error_code::invalid_request,
                                                    "Invalid Request: id " + jsonrpc::id_to_string(id) +
                                                        " is already used by a request in progress"));
                writer->respond(200, json_headers(), std::move(body));
                return;
            }
        s->id = stream_prefix_ + std::to_string(next_stream_++);
        s->opened = last_used_;
        s->requests = ids;
        s->writer = writer;
        s->early_replies = std::move(early_replies);
        streams_.emplace(s->id, s);
        host_->live_streams.fetch_add(1, std::memory_order_relaxed);
        for (const auto& id : ids) by_request_.emplace(id, s);
        // The answer to initialize decides whether the session begins (see expect_initialize):
        // its response starts once that is known.
        const bool initializing = initialize_id_ && by_request_.count(*initialize_id_) != 0;
        if (host_->opts.responses == server_options::response_mode::sse && !initializing &&
            !ensure_sse_locked(*s)) {
            graveyard.push_back(std::move(s->writer));
        }
    }
    watch(s, writer);
    deliver(std::move(message));
}

void http_session::get(const std::optional<std::string>& last_event_id, writer_ptr writer) {
    graveyard_t graveyard;
    std::unique_lock lock(mu_);
    last_used_ = std::chrono::steady_clock::now();
    if (closed_) {
        writer->respond(404, {{"Content-Type", "application/json"}},
                        error_body(error_code::invalid_request, "Session not found: the session has ended"));
        return;
    }
    if (!last_event_id) {
        if (standalone_ended_) {
            writer->respond(
                503, {{"Content-Type", "application/json"}, {"Connection", "close"}},
                error_body(error_code::internal_error, "Service Unavailable: the server is shutting down"));
            return;
        }
        if (standalone_->writer && !standalone_->writer->closed()) {
            writer->respond(409, {{"Content-Type", "application/json"}},
                            error_body(error_code::invalid_request,
                                       "Conflict: this session already has a standalone SSE stream open"));
            return;
        }
        if (standalone_->writer) graveyard.push_back(std::move(standalone_->writer));
        standalone_->writer = writer;
        standalone_->sse = false;
        if (!ensure_sse_locked(*standalone_)) {
            graveyard.push_back(std::move(standalone_->writer));
            return;
        }
        if (!standalone_->got_first_get) {
            standalone_->got_first_get = true;
            // One write: what waited is sent whatever the stream's queue bound (see replay below).
            std::string waited;
            for (auto& [event_id, message] : std::exchange(standalone_->before_first_get, {}))
                waited += sse_event(event_id, message);
            writer->write(std::move(waited));
            standalone_->before_first_get_bytes = 0;
        }
        lock.unlock();
        watch(standalone_, writer);
        return;
    }
    std::optional<event_store::replay> replay;
    if (host_->events) replay = host_->events->replay_after(id_, *last_event_id);
    if (!replay) {
        writer->respond(400, {{"Content-Type", "application/json"}},
                        error_body(error_code::invalid_request,
                                   "Bad Request: Last-Event-ID '" + last_event_id->substr(0, 64) +
                                       "' names no event this session can replay"));
        return;
    }
    std::shared_ptr<stream> s;
    // The standalone stream of another copy (another replica, or this one before a restore): the
    // session has one such stream, and here it goes on as this copy's.
    bool adopted_standalone = false;
    if (replay->stream == standalone_->id)
        s = standalone_;
    else if (auto it = streams_.find(replay->stream); it != streams_.end())
        s = it->second;
    else if (is_standalone_stream(replay->stream))
        s = standalone_, adopted_standalone = true;
    if (!writer->start_stream(200, sse_headers())) return;
    // One write: the stream's queue bound (max_stream_queue_bytes) limits what accumulates
    // behind a client that does not read, and a replay bigger than it must still reach a client
    // that resumes (it goes when nothing else is queued).
    std::string replayed;
    for (const auto& e : replay->events) replayed += sse_event(e.id, e.data);
    writer->write(std::move(replayed));
    // Ended, or its request runs on another replica: what was replayed is all there is. The
    // standalone stream of a server that is stopping ends too (see end_standalone_stream).
    if (!s || (s == standalone_ && standalone_ended_)) {
        writer->end();
        return;
    }
    if (s->writer) {
        if (s->sse) s->writer->end();
        graveyard.push_back(std::move(s->writer));
    }
    s->writer = writer;
    s->sse = true;
    if (s->standalone) { // resumed: the store's replay is what it missed
        s->got_first_get = true;
        s->before_first_get.clear();
        s->before_first_get_bytes = 0;
    }
    if (adopted_standalone && polls()) {
        // Move the client's Last-Event-ID onto this copy's stream, so that a later resumption
        // replays what this copy sent meanwhile (a number of its own, as every priming event).
        // A client before 2025-11-25 gets no such event: should its connection break before
        // this copy's first message reaches it, what this copy sent meanwhile is not replayed.
        const std::string prime = s->id + "-" + std::to_string(++s->seq);
        host_->events->append(id_, s->id, stored_event{prime, {}});
        writer->write(sse_priming(prime, host_->opts.sse_retry));
    }
    lock.unlock();
    watch(s, writer);
}

bool http_session::may_start_sse_for_keep_alive_locked(const stream& s,
                                                       std::chrono::steady_clock::time_point now) const {
    if (s.standalone || host_->opts.responses == server_options::response_mode::json) return false;
    // The answer to initialize decides whether the session exists (see expect_initialize).
    if (initialize_id_ &&
        std::find(s.requests.begin(), s.requests.end(), *initialize_id_) != s.requests.end())
        return false;
    return now - s.opened >= host_->opts.keep_alive_interval;
}

void http_session::keep_alive() {
    graveyard_t graveyard;
    std::lock_guard lock(mu_);
    if (closed_) return;
    const auto now = std::chrono::steady_clock::now();
    auto ping = [&](stream& s) {
        if (!s.writer) return;
        // A response still waiting for its first byte has nothing to put a comment in; after a
        // whole interval of silence (a long tool call) it becomes an SSE stream, which can
        // carry one, so that no proxy takes the connection for dead.
        if (!s.sse) {
            if (!may_start_sse_for_keep_alive_locked(s, now)) return;
            if (!ensure_sse_locked(s)) {
                graveyard.push_back(std::move(s.writer));
                return;
            }
        }
        if (!s.writer->write(sse_comment("keep-alive"))) {
            graveyard.push_back(std::move(s.writer));
            s.sse = false;
        }
    };
    ping(*standalone_);
    for (auto& [id, s] : streams_) ping(*s);
    if (host_->events) forget_ended_streams_locked(now);
}

void http_session::end_standalone_stream() {
    graveyard_t graveyard;
    std::lock_guard lock(mu_);
    standalone_ended_ = true;
    if (!standalone_->writer) return;
    if (standalone_->sse) standalone_->writer->end();
    graveyard.push_back(std::move(standalone_->writer));
    standalone_->sse = false;
}

void http_session::close() {
    std::function<void()> on_close;
    {
        graveyard_t graveyard;
        std::lock_guard lock(mu_);
        if (!closed_) {
            closed_ = true;
            auto end = [&](stream& s) {
                if (!s.writer) return;
                if (s.sse)
                    s.writer->end();
                else
                    s.writer->respond(404, {{"Content-Type", "application/json"}},
                                      error_body(error_code::invalid_request, "Session ended"));
                graveyard.push_back(std::move(s.writer));
            };
            end(*standalone_);
            for (auto& [id, s] : streams_) end(*s);
            host_->live_streams.fetch_sub(streams_.size(), std::memory_order_relaxed);
            streams_.clear();
            by_request_.clear();
            // The event store is left alone: other replicas may go on serving the session.
        }
        if (!close_notified_) {
            close_notified_ = true;
            on_close = handler_.on_close;
        }
    }
    if (on_close) on_close();
}

} // namespace mcp::http::detail
