// http/client/client_transport.cpp - mcp::http::client_transport: the public class, reading
// outgoing messages, the wire decision (probe, queue, fall back), and closing.
// The exchanges themselves are in transport_post.cpp, the legacy transport in
// transport_legacy.cpp, incoming messages in transport_deliver.cpp.
#include "transport_impl.hpp"

#include "http/core/response_format.hpp" // valid_field_name / valid_field_value


#include <fstream>
#include <iostream>
#include <stdexcept>

namespace mcp::http {

using namespace detail;

namespace {

// For messages about a URL that did not parse: no query, fragment or user info.
std::string rough_display(std::string_view url) {
    std::string s(url.substr(0, url.find_first_of("?#")));
    const auto scheme = s.find("://");
    const auto at = s.find('@', scheme == std::string::npos ? 0 : scheme + 3);
    if (scheme != std::string::npos && at != std::string::npos && s.find('/', scheme + 3) > at)
        s.erase(scheme + 3, at - scheme - 2);
    return s;
}

// Fields the transport writes itself: the protocol's headers (a second copy would be joined
// with ours into "evil, server/discover" or contradict the body, which a server must refuse
// with -32020) and the message framing and connection management.
bool transport_owned(std::string_view name) {
    // clang-format off
    static constexpr std::string_view owned[] = {
        "MCP-Protocol-Version", "Mcp-Session-Id", "Mcp-Method", "Mcp-Name", "Last-Event-ID", // protocol
        "Accept", "Content-Type", "Content-Length", "Transfer-Encoding", "Host",              // message
        "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer",                               // connection
    };
    // clang-format on
    for (auto o : owned)
        if (core::iequals(name, o)) return true;
    constexpr std::string_view param = "Mcp-Param-";
    return name.size() >= param.size() && core::iequals(name.substr(0, param.size()), param);
}

void check_headers(const header_list& headers, const char* who) {
    for (const auto& [n, v] : headers) {
        if (!core::detail::valid_field_name(n))
            throw std::invalid_argument(std::string(who) + ": header name \"" + n + "\" is not a token");
        if (transport_owned(n))
            throw std::invalid_argument(std::string(who) + ": header \"" + n +
                                        "\" cannot be set in the options: the transport writes it itself "
                                        "(a protocol or framing header)");
        if (!core::detail::valid_field_value(v))
            throw std::invalid_argument(std::string(who) + ": the value of header \"" + n +
                                        "\" contains CR, LF or NUL");
    }
}

} // namespace

outgoing detail::classify_outgoing(jsonrpc::outgoing_message m) {
    using jsonrpc::kind;
    outgoing o;
    o.text = std::move(m.text);
    switch (m.kind) {
    case kind::batch:
        o.k = outgoing::kind::batch;
        if (const auto* elements = m.params.if_array()) // a batch the sender wrote: its requests
            for (const auto& e : *elements)
                if (const auto* eo = e.if_object(); eo && eo->contains("method"))
                    if (const auto* id = eo->if_contains("id"))
                        if (auto read = jsonrpc::read_id(*id)) o.awaiting.push_back(std::move(*read));
        return o;
    case kind::request:
    case kind::notification:
        o.k = m.kind == kind::request ? outgoing::kind::request : outgoing::kind::notification;
        o.method = std::move(m.method);
        if (const auto* po = m.params.if_object()) {
            if (const auto* meta = find_object(*po, "_meta"))
                if (auto version = find_string(*meta, "io.modelcontextprotocol/protocolVersion"))
                    o.stateless_version = std::string(*version);
            if (o.method == "notifications/cancelled")
                if (const auto* id = po->if_contains("requestId")) o.cancels = jsonrpc::read_id(*id);
        }
        if (m.kind == kind::request) {
            o.id = m.id;
            o.awaiting.push_back(*m.id);
        }
        if (o.stateless()) o.params = std::move(m.params);
        return o;
    case kind::response:
    case kind::error:
        o.k = outgoing::kind::response;
        o.id_less_error = m.kind == kind::error && !m.id;
        return o;
    default:
        return o;
    }
}

// ------------------------------------------------------------------------- construction

client_transport::impl::impl(client_transport_options o, url_parts u)
    : opts(std::move(o)), url(std::move(u)), loop(io_loop::create()), max_message(opts.max_message_size) {
    pool = std::make_unique<connection_pool>(loop, tls_options{opts.verify_peer, opts.ca_file});
    if (opts.mode == transport_mode::streamable) wire = client_transport::wire::streamable;
    wire_seen = wire;
}

client_transport::client_transport(client_transport_options o) {
    std::string why;
    auto u = parse_url(o.url, &why);
    if (!u)
        throw std::invalid_argument("mcp::http::client_transport: " + why + ": \"" + rough_display(o.url) +
                                    "\"");
    check_headers(o.headers, "mcp::http::client_transport");
    if (o.authorizer)
        for (const auto& [n, v] : o.headers)
            if (core::iequals(n, "Authorization"))
                throw std::invalid_argument("mcp::http::client_transport: an Authorization header and an "
                                            "authorizer cannot both be given");
    if (!o.ca_file.empty() && !std::ifstream(o.ca_file).good())
        throw std::invalid_argument("mcp::http::client_transport: cannot read the CA file \"" + o.ca_file +
                                    "\"");
    if (o.max_message_size == 0) o.max_message_size = 4u << 20;
    impl_ = std::make_shared<impl>(std::move(o), std::move(*u));
}

client_transport::~client_transport() {
    close();
    // The pool's sockets belong to the loop: destroy them there, or here once the loop is
    // gone. When close() ran on the loop thread, the loop still holds the impl and the pool
    // dies with it later.
}

std::shared_ptr<client_transport> make_client_transport(client_transport_options options) {
    return std::make_shared<client_transport>(std::move(options));
}

client_transport::wire client_transport::current_wire() const {
    return impl_->wire_seen.load();
}

std::string client_transport::session_id() const {
    std::lock_guard lock(impl_->mu);
    return impl_->session_id_copy;
}

void client_transport::set_max_message_size(std::size_t bytes) {
    if (bytes > 0) impl_->max_message = bytes;
}

// ------------------------------------------------------------------------- start / send

void client_transport::start(transport_handler handler) {
    auto& d = *impl_;
    std::vector<outgoing> early;
    {
        std::lock_guard lock(d.mu);
        if (d.started || d.closing) return;
        d.started = true;
        early.swap(d.before_start);
    }
    if (d.opts.authorizer) {
        // A token kept from an earlier login (refreshed if it expired) goes with the first
        // request; without one, the first 401 starts the flow.
        try {
            d.authorization = d.opts.authorizer->authorization(d.opts.url).value_or("");
        } catch (const std::exception& e) {
            d.warn(std::string("no stored authorization: ") + e.what());
        }
    }
    d.loop->start_thread();
    d.loop->post([self = impl_, h = std::move(handler), early = std::move(early)]() mutable {
        self->handler = std::move(h);
        if (self->opts.mode == transport_mode::legacy_sse) self->start_legacy(nullptr);
        for (auto& o : early) self->on_send(std::move(o));
    });
}

void client_transport::send(jsonrpc::outgoing_message message) {
    auto& d = *impl_;
    auto o = classify_outgoing(std::move(message));
    std::lock_guard lock(d.mu);
    if (d.closing) return;
    if (!d.started) {
        d.before_start.push_back(std::move(o));
        return;
    }
    d.loop->post([self = impl_, o = std::move(o)]() mutable { self->on_send(std::move(o)); });
}

void client_transport::impl::on_send(outgoing o) {
    if (shutting_down) return;
    if (o.k == outgoing::kind::notification && o.cancels && cancel_stateless(o)) return;
    switch (wire) {
    case client_transport::wire::streamable:
        dispatch(std::move(o));
        return;
    case client_transport::wire::legacy_sse:
        legacy_post(std::move(o));
        return;
    case client_transport::wire::undecided:
        if (opts.mode == transport_mode::legacy_sse || probe_in_flight) {
            waiting.push_back(std::move(o)); // until the endpoint event / the probe's answer
            return;
        }
        probe_in_flight = true;
        start_post(std::move(o), true);
        return;
    }
}

void client_transport::impl::dispatch(outgoing o) {
    // The 2026-07-28 era has no client responses (and an id-less error is the engine's answer
    // to a framing problem, which an HTTP server cannot act on in that era).
    if (o.k == outgoing::kind::response && stateless_seen && !initialize_seen) {
        warn("a JSON-RPC response was not sent: clients send none in protocol revision 2026-07-28");
        return;
    }
    if (session_gatekeeper(o)) return;
    if (gate_closed) {
        waiting.push_back(std::move(o));
        return;
    }
    const bool initialized =
        o.k == outgoing::kind::notification && o.is("notifications/initialized") && !o.stateless();
    start_post(std::move(o), false);
    if (initialized && opts.open_get_stream) close_gate();
    if (initialized && renewing) {
        // The new session is complete: what waited for it goes (behind the GET stream's gate,
        // as at the first connection).
        renewing = false;
        for (auto it = held_for_session.rbegin(); it != held_for_session.rend(); ++it)
            waiting.push_front(std::move(*it));
        held_for_session.clear();
        flush_waiting();
    }
}

void client_transport::impl::close_gate() {
    gate_closed = true;
    // Bounded: a server that is slow to answer the GET does not hold the session up for long.
    gate_timer = run_after(*loop, std::min(opts.connect_timeout, std::chrono::milliseconds(3000)),
                           [self = shared_from_this()] { self->open_gate(); });
}

void client_transport::impl::open_gate() {
    if (!gate_closed) return;
    gate_closed = false;
    if (gate_timer) gate_timer->cancel();
    gate_timer.reset();
    flush_waiting();
}

void client_transport::impl::flush_waiting() {
    while (!waiting.empty() && !shutting_down) {
        if (wire == client_transport::wire::streamable && gate_closed) return;
        if (wire == client_transport::wire::undecided) {
            if (opts.mode == transport_mode::legacy_sse || probe_in_flight) return;
            auto o = std::move(waiting.front());
            waiting.pop_front();
            probe_in_flight = true;
            start_post(std::move(o), true);
            return;
        }
        auto o = std::move(waiting.front());
        waiting.pop_front();
        if (wire == client_transport::wire::streamable)
            dispatch(std::move(o));
        else
            legacy_post(std::move(o));
    }
}

void client_transport::impl::decide(client_transport::wire w) {
    wire = w;
    wire_seen = w;
    probe_in_flight = false;
    flush_waiting();
}

// ------------------------------------------------------------------------- messages out

void client_transport::impl::emit(jsonrpc::incoming_message&& m) {
    if (shutting_down || !handler.on_message) return;
    handler.on_message(std::move(m));
}

void client_transport::impl::warn(const std::string& text) {
    // One line, whatever a server put into it (a tool name, a header name of a schema, a reason
    // phrase): control characters are escaped, so a log line can neither be split nor forged.
    const std::string line = printable(text);
    if (opts.log)
        opts.log(line);
    else
        std::cerr << "mcpxx http: " << line << '\n';
}

void client_transport::impl::report_error(const std::string& text) {
    if (shutting_down) return;
    const std::string line = printable(text);
    warn(line);
    if (handler.on_error) handler.on_error(line, transport_handler::severity::error);
}

// ------------------------------------------------------------------------- closing

void client_transport::close() {
    auto& d = *impl_;
    {
        std::lock_guard lock(d.mu);
        if (!d.started) {
            d.closing = true;
            return;
        }
        if (!d.closing) {
            d.closing = true;
            d.loop->post([self = impl_] { self->begin_close(true); });
        }
    }
    if (d.loop->on_loop_thread()) return; // from a callback: on_close follows on the loop
    {
        std::unique_lock lock(d.mu);
        d.cv.wait(lock, [&] { return d.close_done; });
    }
    // Aborted exchanges finish within a turn of the loop; if something is still pending after
    // a generous wait, drop it rather than hang the caller.
    if (!d.loop->wait_idle(std::chrono::seconds(10))) d.loop->force_stop();
    static std::mutex join_mu; // join() must not run on two threads at once
    std::lock_guard join_lock(join_mu);
    d.loop->join();
    // The loop is gone, so nothing starts another flow: wait for the one that may run (it
    // was cancelled in begin_close; a user agent that ignores that holds close() up).
    if (d.auth_thread.joinable()) d.auth_thread.join();
}

void client_transport::impl::begin_close(bool send_delete) {
    if (shutting_down) return;
    {
        std::lock_guard lock(mu);
        closing = true;
    }
    auto all = std::move(streams);
    streams.clear();
    for (auto& [serial, st] : all) {
        st->finished = true;
        if (st->timer) st->timer->cancel();
        if (st->call) st->call->abort();
        st->call.reset();
    }
    get_stream.reset();
    legacy.reset();
    fallback_trigger.reset();
    waiting.clear();
    held_for_session.clear();
    if (gate_timer) gate_timer->cancel();
    gate_timer.reset();
    awaiting_owner.clear();
    shutting_down = true;
    held_for_auth.clear();
    auth_cancel.cancel("the transport is closing");

    if (send_delete && wire == client_transport::wire::streamable && !session_id.empty()) {
        // End the session on the server (a 405 means it does not allow that: fine).
        call_request req;
        req.url = url;
        req.method = "DELETE";
        req.headers = common_headers(req.method);
        req.headers.emplace_back("Mcp-Session-Id", session_id);
        if (!negotiated.empty() && negotiated >= "2025-06-18")
            req.headers.emplace_back("MCP-Protocol-Version", negotiated);
        req.connect_timeout = std::min(opts.connect_timeout, opts.close_timeout);
        req.total_timeout = opts.close_timeout;
        call_handlers h;
        h.on_end = [self = shared_from_this()](const call_failure*) { self->finish_close(); };
        auto call = pool->start(std::move(req), std::move(h));
        (void)call; // kept alive by its own handlers until it ends
        return;
    }
    finish_close();
}

void client_transport::impl::finish_close() {
    if (close_posted) return;
    close_posted = true;
    pool->close_idle();
    // on_close runs in a turn of its own: never nested inside another callback.
    loop->post([self = shared_from_this()] {
        auto on_close = std::move(self->handler.on_close);
        self->handler = {};
        if (on_close) on_close();
        {
            std::lock_guard lock(self->mu);
            self->close_done = true;
        }
        self->cv.notify_all();
        self->loop->release();
    });
}

} // namespace mcp::http
