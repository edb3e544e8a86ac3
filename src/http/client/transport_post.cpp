// http/client/transport_post.cpp - Streamable HTTP exchanges: the POST of each message and its
// reply (202, JSON, SSE or an error), resumption of SSE streams with GET + Last-Event-ID, and the
// standalone GET stream. The session they belong to: transport_session.cpp.
#include "transport_impl.hpp"

#include <algorithm>
#include <cctype>

namespace mcp::http {

using namespace detail;
using role = stream_state::role;
using body_kind = stream_state::body_kind;

namespace {

std::optional<std::string_view> find_header(const core::header_list& h, std::string_view name) {
    for (const auto& [n, v] : h)
        if (core::iequals(n, name)) return std::string_view(v);
    return std::nullopt;
}

// "text/event-stream; charset=utf-8" -> "text/event-stream"
std::string media_type(std::optional<std::string_view> v) {
    if (!v) return {};
    std::string_view s = v->substr(0, v->find(';'));
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool visible_ascii(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

// Error codes by which a server shows that it speaks the 2026-07-28 revision (or refuses for
// a reason of its own) rather than not being an MCP endpoint at all.
bool modern_code(std::int64_t code) {
    return code == error_code::header_mismatch || code == error_code::missing_required_client_capability ||
           code == error_code::unsupported_protocol_version || code == error_code::invalid_params ||
           code == error_code::method_not_found;
}

bool has_modern_error(const json::value& v) {
    auto one = [](const json::value& e) {
        if (!e.is_object()) return false;
        const auto* err = find_object(e.get_object(), "error");
        if (!err) return false;
        auto code = find_int(*err, "code");
        return code && modern_code(*code);
    };
    if (v.is_array()) return std::any_of(v.get_array().begin(), v.get_array().end(), one);
    return one(v);
}

constexpr std::size_t max_error_body = 64 * 1024;

} // namespace

client_transport::impl::stream_ptr client_transport::impl::new_stream(role r) {
    auto st = std::make_shared<stream_state>();
    st->r = r;
    st->serial = next_serial++;
    return st;
}

void client_transport::impl::track(const stream_ptr& st) {
    streams[st->serial] = st;
    for (const auto& id : st->awaiting) awaiting_owner[id] = st->serial;
}

void client_transport::impl::start_post(outgoing o, bool probe) {
    auto st = new_stream(role::post);
    st->probe = probe;
    st->msg = std::move(o);
    const outgoing& m = st->msg;
    st->awaiting.insert(m.awaiting.begin(), m.awaiting.end());
    track(st);

    call_request req;
    req.url = url;
    req.method = "POST";
    req.body = m.text;
    req.connect_timeout = opts.connect_timeout;
    req.headers = common_headers(req.method);
    req.headers.emplace_back("Content-Type", "application/json");
    req.headers.emplace_back("Accept", "application/json, text/event-stream");

    if (m.stateless()) {
        stateless_seen = true;
        if (m.id) {
            stateless_requests.insert(*m.id);
            if (m.is("tools/list")) tools_list_ids.insert(*m.id);
        }
        req.headers.emplace_back("MCP-Protocol-Version", m.stateless_version);
        req.headers.emplace_back("Mcp-Method", m.method);
        const json::object* params = m.params.is_object() ? &m.params.get_object() : nullptr;
        if (params && (m.is("tools/call") || m.is("prompts/get") || m.is("resources/read"))) {
            if (auto name = find_string(*params, m.is("resources/read") ? "uri" : "name"))
                req.headers.emplace_back("Mcp-Name", encode_header_value(*name));
        }
        if (params && m.is("tools/call")) {
            if (auto name = find_string(*params, "name")) {
                if (auto it = tool_params.find(std::string(*name)); it != tool_params.end()) {
                    static const json::value no_arguments = json::object();
                    const json::value* args = params->if_contains("arguments");
                    const json::value& a = args ? *args : no_arguments;
                    if (auto why = unmirrorable_argument(it->second, a); !why.empty()) {
                        // Not sent: no conforming request exists for these arguments.
                        refuse_locally(st, error_code::invalid_params,
                                       "tools/call '" + std::string(*name) + "' cannot be sent: " + why);
                        return;
                    }
                    for (auto& h : param_headers(it->second, a)) req.headers.push_back(std::move(h));
                }
            }
        }
    } else {
        if (m.is("initialize") && m.id) {
            // A (re-)initialization starts a new session.
            initialize_id = m.id;
            initialize_seen = true;
            session_id.clear();
            negotiated.clear();
            std::lock_guard lock(mu);
            session_id_copy.clear();
        } else if (m.k != outgoing::kind::other || !m.text.empty()) {
            session_headers(req.headers, st);
        }
    }
    start_call(st, std::move(req));
}

// Answer the requests of a POST that is not sent, with a local error.
void client_transport::impl::refuse_locally(const stream_ptr& st, int code, const std::string& message) {
    const auto ids = std::move(st->awaiting);
    st->awaiting.clear();
    for (const auto& id : ids) {
        awaiting_owner.erase(id);
        stateless_requests.erase(id);
        tools_list_ids.erase(id);
    }
    end_stream(st);
    for (const auto& id : ids) {
        if (shutting_down) return;
        emit(local_error(id, code, message));
    }
    if (!shutting_down) flush_waiting();
}

void client_transport::impl::start_call(const stream_ptr& st, call_request req) {
    st->status = 0;
    st->reason.clear();
    st->www_authenticate.clear();
    st->dpop_nonce_offered = false;
    st->body = body_kind::none;
    st->body_bytes.clear();
    st->body_oversize = false;
    st->display = req.url.display;
    st->sent_authorization = authorization;
    call_handlers h;
    auto self = shared_from_this();
    h.on_head = [self, st](int status, std::string reason, core::header_list headers) {
        self->on_head(st, status, std::move(reason), std::move(headers));
    };
    h.on_body = [self, st](std::string_view bytes) { self->on_body(st, bytes); };
    h.on_end = [self, st](const call_failure* f) { self->on_end(st, f); };
    st->call = pool->start(std::move(req), std::move(h));
}

void client_transport::impl::on_head(const stream_ptr& st, int status, std::string reason,
                                     core::header_list headers) {
    if (st->finished) return;
    if (st->r == role::get && gate_closed) {
        // The GET stream has answered (whatever it said): what was held back for it may go
        // (close_gate). Posted, so that no POST starts from inside this handler.
        loop->post([self = shared_from_this()] { self->open_gate(); });
    }
    st->status = status;
    st->reason = std::move(reason);
    if (auto w = find_header(headers, "WWW-Authenticate")) st->www_authenticate = std::string(*w);
    note_dpop_nonce(st, find_header(headers, "DPoP-Nonce"));
    const std::string type = media_type(find_header(headers, "Content-Type"));
    const bool ok = status >= 200 && status < 300;
    if (!ok) {
        st->body = body_kind::error;
        return;
    }
    note_authorized_success(st);
    if (st->r == role::post && !st->resuming) {
        if (st->legacy_post) {
            st->body = body_kind::none; // "Accepted": the answer comes on the SSE stream
            return;
        }
        if (st->msg.is("initialize") && st->msg.id) {
            if (auto sid = find_header(headers, "Mcp-Session-Id")) {
                if (visible_ascii(*sid)) {
                    session_id = std::string(*sid);
                    ++session_serial;
                    std::lock_guard lock(mu);
                    session_id_copy = session_id;
                } else {
                    warn("ignored an Mcp-Session-Id that is not visible ASCII");
                }
            }
        }
        if (st->probe) {
            st->probe = false;
            decide(client_transport::wire::streamable);
            if (st->finished || shutting_down) return;
        }
        if (st->msg.is("notifications/initialized")) {
            get_stream_wanted = true;
            open_get_stream();
        }
    }
    if (status == 202 || status == 204) {
        st->body = body_kind::none;
    } else if (type == "text/event-stream") {
        st->body = body_kind::sse;
        if (!st->sse) {
            std::weak_ptr<stream_state> weak = st;
            auto* self = this;
            sse_parser::callbacks cb;
            cb.on_event = [self, weak](const sse_event& ev) {
                if (auto s = weak.lock()) self->on_sse_event(s, ev);
            };
            cb.on_retry = [weak](std::uint64_t ms) {
                if (auto s = weak.lock()) {
                    s->retry_ms = ms;
                    s->has_retry = true;
                }
            };
            cb.on_oversize = [self, weak](std::size_t bytes) {
                const std::string what = "message of " + std::to_string(bytes) +
                                         " bytes exceeds the limit of " +
                                         std::to_string(self->max_message.load()) + " bytes";
                auto s = weak.lock();
                const auto id = s && s->sse ? s->sse->discarded_response_id() : std::nullopt;
                if (!id || self->shutting_down) {
                    self->report_error(what);
                    return;
                }
                // The answer to a request of ours: that request fails now, and the stream is done.
                self->warn(what + " (the response to request " + std::to_string(*id) + ")");
                const request_id rid{*id};
                self->stateless_requests.erase(rid);
                self->tools_list_ids.erase(rid);
                self->emit(
                    jsonrpc::incoming_message::refused(mcp::error(error_code::invalid_request, what), *id));
                self->answered(rid);
            };
            st->sse = std::make_unique<sse_parser>(std::move(cb), max_message.load());
        } else {
            st->sse->new_connection();
            st->sse->set_max_event_bytes(max_message.load());
        }
    } else if (type == "application/json" && st->r == role::post && !st->resuming) {
        st->body = body_kind::json;
    } else {
        st->body = body_kind::other;
        st->reason = "with Content-Type \"" + utf8_prefix(type, 100) + "\"";
    }
}

void client_transport::impl::on_body(const stream_ptr& st, std::string_view bytes) {
    if (st->finished) return;
    switch (st->body) {
    case body_kind::json:
        if (st->body_bytes.size() + bytes.size() > max_message.load()) {
            // Not kept: the message is reported and the request it answered gets an error.
            const std::size_t limit = max_message.load();
            http_failure f = failure_of(st, st->display);
            f.message = "the response from " + st->display + " exceeds the message size limit of " +
                        std::to_string(limit) + " bytes";
            f.body.clear();
            report_error("message of more than " + std::to_string(limit) + " bytes exceeds the limit of " +
                         std::to_string(limit) + " bytes");
            fail_awaiting(st, f);
            end_stream(st);
            return;
        }
        st->body_bytes.append(bytes);
        return;
    case body_kind::sse:
        st->sse->feed(bytes);
        return;
    case body_kind::error:
    case body_kind::other:
        if (st->body_bytes.size() < max_error_body)
            st->body_bytes.append(bytes.substr(0, max_error_body - st->body_bytes.size()));
        return;
    case body_kind::none:
        return;
    }
}

void client_transport::impl::on_end(const stream_ptr& st, const call_failure* failure) {
    if (st->finished) return;
    st->call.reset();
    if (st->r == role::get && failure && gate_closed)
        loop->post([self = shared_from_this()] { self->open_gate(); });
    if (failure) {
        if (st->r == role::legacy) {
            legacy_failed(st, failure->message);
            return;
        }
        if (st->body == body_kind::sse || (st->status == 0 && (st->resuming || st->r == role::get))) {
            stream_ended(st, failure->message); // reconnectable
            return;
        }
        http_failure f = failure_of(st, st->display);
        f.message = failure->message;
        if (st->probe) probe_in_flight = false;
        if (st->awaiting.empty() && st->r == role::post)
            warn(failure->message + " (sending " + (st->msg.method.empty() ? "a message" : st->msg.method) +
                 ")");
        fail_awaiting(st, f);
        end_stream(st);
        flush_waiting();
        return;
    }
    if (st->status == 0) {
        // No status line at all (the reader reports that as a failure; never "HTTP 0").
        const call_failure closed{"the connection to " + st->display +
                                  " was closed before a response arrived"};
        on_end(st, &closed);
        return;
    }
    switch (st->body) {
    case body_kind::json:
        finish_json(st);
        return;
    case body_kind::sse:
        if (st->r == role::legacy)
            legacy_failed(st, "the server ended the stream");
        else
            stream_ended(st, "the server ended the stream");
        return;
    case body_kind::error:
        if (st->r == role::legacy) {
            legacy_failed(st, status_message(st->status, st->reason, st->display));
            return;
        }
        finish_error_reply(st);
        return;
    case body_kind::none:
    case body_kind::other:
        if (st->r == role::legacy) {
            legacy_failed(st, "the response is not an SSE stream");
            return;
        }
        if (st->r == role::get) {
            if (st->status != 405 && st->body == body_kind::other)
                warn("the GET stream of " + st->display + " answered " + std::to_string(st->status) +
                     " without an SSE stream; no server-initiated messages will arrive");
            end_stream(st);
            return;
        }
        if (st->legacy_post) {
            // Accepted: the answers come on the SSE stream, which owns nothing.
            for (const auto& id : st->awaiting) awaiting_owner.erase(id);
            st->awaiting.clear();
            end_stream(st);
            return;
        }
        if (!st->awaiting.empty()) {
            http_failure f = failure_of(st, st->display);
            if (st->body == body_kind::none)
                f.message = status_message(st->status, st->reason.empty() ? "" : st->reason, st->display) +
                            " without a response to the request";
            else
                f.message = "HTTP " + std::to_string(st->status) + " " + st->reason + " from " + st->display +
                            " where a JSON or SSE response was expected";
            fail_awaiting(st, f);
        }
        end_stream(st);
        return;
    }
}

void client_transport::impl::finish_json(const stream_ptr& st) {
    boost::system::error_code ec;
    std::string_view text = st->body_bytes;
    const bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    std::optional<json::value> v;
    if (!blank) v = parse_json(text, ec);
    if (!v) {
        if (!st->awaiting.empty()) {
            http_failure f = failure_of(st, st->display);
            f.message = blank ? "an empty JSON body from " + st->display
                              : "invalid JSON from " + st->display + ": " + ec.message();
            fail_awaiting(st, f);
        }
        end_stream(st);
        return;
    }
    if (v->is_array()) {
        // A 2025-03-26 batch reply: one message per element, in order.
        for (auto& e : v->get_array()) {
            if (st->finished || shutting_down) return;
            deliver_value(st, jsonrpc::incoming_message::from_value(std::move(e)));
        }
    } else {
        auto m = jsonrpc::incoming_message::from_value(std::move(*v));
        m.text = text;
        deliver_value(st, std::move(m));
    }
    if (st->finished || shutting_down) return;
    if (!st->awaiting.empty()) {
        http_failure f = failure_of(st, st->display);
        f.message = "the JSON reply from " + st->display + " did not answer the request";
        fail_awaiting(st, f);
    }
    end_stream(st);
}

void client_transport::impl::finish_error_reply(const stream_ptr& st) {
    if (authorization_challenge(st)) return;
    if (st->sent_session && st->status == 404 && wire != client_transport::wire::legacy_sse) {
        session_expired(st);
        return;
    }
    boost::system::error_code ec;
    std::optional<json::value> body;
    const std::string_view text = st->body_bytes;
    if (auto first = text.find_first_not_of(" \t\r\n");
        first != std::string_view::npos && (text[first] == '{' || text[first] == '['))
        body = parse_json(text, ec);
    const bool modern = body && has_modern_error(*body);

    if (st->probe && wire == client_transport::wire::undecided && !modern &&
        opts.mode == transport_mode::automatic &&
        (st->status == 400 || st->status == 404 || st->status == 405)) {
        start_legacy(st); // the answer waits for the legacy attempt
        return;
    }
    if (st->probe) {
        st->probe = false;
        probe_in_flight = false;
        if (modern) decide(client_transport::wire::streamable);
    }
    if (st->r == role::get) {
        if (st->status != 405)
            warn("the server refused the GET stream: " + status_message(st->status, st->reason, st->display) +
                 "; no server-initiated messages will arrive outside of requests");
        end_stream(st);
        return;
    }
    answer_error_reply(st);
}

// Deliver the server's JSON-RPC errors for the requests of `st` (re-addressed to the request
// when the server wrote none), synthesize errors for the rest, and end the stream.
void client_transport::impl::answer_error_reply(const stream_ptr& st) {
    if (st->msg.stateless() && wire != client_transport::wire::streamable &&
        (st->status == 400 || st->status == 404 || st->status == 405)) {
        // The server answered a 2026-07-28 request with no modern error and no legacy
        // transport either: it does not speak that revision. "Method not found" is what tells
        // a client to fall back to initialize.
        for (const auto& id : std::set<request_id>(st->awaiting)) {
            emit(local_error(id, error_code::method_not_found,
                             st->msg.method + " is not supported by this server (" +
                                 status_message(st->status, st->reason, st->display) + ")"));
            answered(id);
            if (shutting_down) return;
        }
        end_stream(st);
        flush_waiting();
        return;
    }
    boost::system::error_code ec;
    std::optional<json::value> body;
    const std::string_view text = st->body_bytes;
    if (auto first = text.find_first_not_of(" \t\r\n");
        first != std::string_view::npos && (text[first] == '{' || text[first] == '['))
        body = parse_json(text, ec);
    if (body) {
        auto one = [&](json::value& e) {
            if (!e.is_object() || !e.get_object().contains("error") || e.get_object().contains("method"))
                return;
            auto& eo = e.get_object();
            const auto* id_v = eo.if_contains("id");
            auto id = id_v ? jsonrpc::read_id(*id_v) : std::nullopt;
            if (!id && st->awaiting.size() == 1) {
                // An error without id for the one request of this POST is its answer.
                id = *st->awaiting.begin();
                eo["id"] = jsonrpc::id_to_json(*id);
            }
            if (!id || !st->awaiting.count(*id)) return;
            deliver_value(st, jsonrpc::incoming_message::from_value(std::move(e)));
        };
        if (body->is_array())
            for (auto& e : body->get_array()) one(e);
        else
            one(*body);
        if (st->finished || shutting_down) return;
    }
    const http_failure f = failure_of(st, st->display);
    if (st->awaiting.empty() && st->msg.k != outgoing::kind::request && st->msg.k != outgoing::kind::batch)
        warn(f.message + " (sending " +
             (st->msg.method.empty() ? std::string("a response") : st->msg.method) + ")");
    fail_awaiting(st, f);
    end_stream(st);
    flush_waiting();
}

void client_transport::impl::on_sse_event(const stream_ptr& st, const sse_event& ev) {
    if (st->finished || shutting_down) return;
    st->attempts = 0; // the stream works: reconnections count from here
    if (st->r == role::legacy) {
        legacy_event(st, ev);
        return;
    }
    if (ev.type != "message") return;
    if (ev.data.find_first_not_of(" \t\r\n") == std::string_view::npos) return; // a priming event
    deliver(st, ev.data);
}

// An SSE stream ended or broke (or a reconnection failed to connect).
void client_transport::impl::stream_ended(const stream_ptr& st, const std::string& why) {
    if (st->finished || shutting_down) return;
    if (st->r == role::legacy) {
        legacy_failed(st, why);
        return;
    }
    if (st->r == role::post && st->awaiting.empty()) {
        end_stream(st);
        return;
    }
    const bool has_id = st->sse && !st->sse->last_event_id().empty();
    const bool can_resume =
        !st->msg.stateless() && wire == client_transport::wire::streamable && (st->r == role::get || has_id);
    if (can_resume && st->attempts < opts.max_reconnect_attempts) {
        ++st->attempts;
        const auto delay = st->has_retry ? std::chrono::milliseconds(st->retry_ms) : opts.default_retry;
        std::weak_ptr<stream_state> weak = st;
        st->timer = run_after(*loop, delay, [self = shared_from_this(), weak] {
            if (auto s = weak.lock()) self->resume(s);
        });
        return;
    }
    if (st->r == role::get) {
        warn("the GET stream of " + st->display + " ended (" + why + ") and was not reopened after " +
             std::to_string(st->attempts) + " attempts");
        end_stream(st);
        return;
    }
    http_failure f = failure_of(st, st->display);
    f.status = 0;
    f.message = "the SSE stream from " + st->display + " ended before the response (" + why + ")";
    if (st->attempts > 0)
        f.message += " after " + std::to_string(st->attempts) + " reconnection attempts";
    else if (!has_id && !st->msg.stateless())
        f.message += "; it cannot be resumed without an event id";
    fail_awaiting(st, f);
    end_stream(st);
}

// Reconnect an SSE stream: GET + Last-Event-ID (a POST stream), or reopen the GET stream.
void client_transport::impl::resume(const stream_ptr& st) {
    if (st->finished || shutting_down) return;
    st->timer.reset();
    if (st->sent_session && st->session_serial != session_serial) {
        // The stream belongs to a session that has ended since: the server cannot replay it,
        // and its request may have run.
        http_failure f;
        f.url = st->display;
        f.status = 404;
        f.message = "the SSE stream from " + st->display +
                    " ended before the response, and its session has expired since; the request may "
                    "have run";
        f.session_expired = true;
        fail_awaiting(st, f);
        end_stream(st);
        return;
    }
    if (st->r == role::post) st->resuming = true;
    call_request req;
    req.url = url;
    req.method = "GET";
    req.connect_timeout = opts.connect_timeout;
    req.headers = common_headers(req.method);
    req.headers.emplace_back("Accept", "text/event-stream");
    st->sent_session = false;
    session_headers(req.headers, st);
    if (st->sse && !st->sse->last_event_id().empty())
        req.headers.emplace_back("Last-Event-ID", st->sse->last_event_id());
    start_call(st, std::move(req));
}

void client_transport::impl::open_get_stream() {
    if (!opts.open_get_stream || !get_stream_wanted || get_stream || shutting_down ||
        wire != client_transport::wire::streamable)
        return;
    get_stream = new_stream(role::get);
    track(get_stream);
    resume(get_stream);
}

void client_transport::impl::end_stream(const stream_ptr& st) {
    if (st->finished) return;
    st->finished = true;
    if (st->probe) {
        // A probe that ends without deciding the wire (cancelled, failed, answered with an
        // error): the messages behind it must not wait for a decision that will never come.
        st->probe = false;
        if (fallback_trigger == st) {
            // Nobody waits for the legacy attempt any more: the next probe starts afresh.
            fallback_trigger.reset();
            if (auto l = legacy; l && !l->endpoint_seen) end_stream(l);
        }
        if (wire == client_transport::wire::undecided && probe_in_flight && !shutting_down) {
            probe_in_flight = false;
            loop->post([self = shared_from_this()] { self->flush_waiting(); });
        }
    }
    if (st->timer) st->timer->cancel();
    st->timer.reset();
    if (st->call) st->call->abort();
    st->call.reset();
    if (st->sse) st->sse->stop();
    for (const auto& id : st->awaiting) {
        auto it = awaiting_owner.find(id);
        if (it != awaiting_owner.end() && it->second == st->serial) awaiting_owner.erase(it);
    }
    streams.erase(st->serial);
    if (get_stream == st) get_stream.reset();
    if (legacy == st) legacy.reset();
}

bool client_transport::impl::cancel_stateless(const outgoing& o) {
    const request_id& id = *o.cancels;
    if (auto it = awaiting_owner.find(id); it != awaiting_owner.end()) {
        auto s = streams.find(it->second);
        if (s == streams.end() || !s->second->msg.stateless()) return false;
        // On HTTP in 2026-07-28, closing the request's stream IS the cancellation.
        auto st = s->second;
        st->awaiting.erase(id);
        awaiting_owner.erase(it);
        stateless_requests.erase(id);
        tools_list_ids.erase(id);
        if (st->awaiting.empty()) end_stream(st);
        return true;
    }
    for (auto w = waiting.begin(); w != waiting.end(); ++w) {
        if (w->id && *w->id == id && w->stateless()) {
            waiting.erase(w);
            return true;
        }
    }
    return stateless_requests.erase(id) > 0 || (stateless_seen && !initialize_seen);
}

} // namespace mcp::http
