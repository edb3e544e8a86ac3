// http/client/transport_legacy.cpp - the HTTP+SSE transport of 2024-11-05: a GET opens the SSE
// stream, whose first event, `endpoint`, says where to POST; every server message then comes
// as a `message` event on that stream. Reached by falling back from Streamable HTTP (automatic
// mode) or chosen outright (legacy_sse mode).
#include "transport_impl.hpp"

namespace mcp::http {

using namespace detail;
using role = stream_state::role;

void client_transport::impl::start_legacy(const stream_ptr& trigger) {
    if (shutting_down) return;
    auto st = new_stream(role::legacy);
    legacy = st;
    fallback_trigger = trigger;
    track(st);
    call_request req;
    req.url = url;
    req.method = "GET";
    req.connect_timeout = opts.connect_timeout;
    req.headers = common_headers(req.method);
    req.headers.emplace_back("Accept", "text/event-stream");
    // The endpoint event must come soon: a server that opens an SSE stream without one (a
    // Streamable HTTP server's GET stream, say) is not a legacy server. The deadline covers
    // the whole GET (connection, response head, first event) and is the connect timeout, which
    // by default equals the client's discover_timeout: a 2026-07-28 probe refused by a server
    // that is neither modern nor legacy is answered (-32601, "fall back to initialize") in
    // about the time a silent server would cost.
    std::weak_ptr<stream_state> weak = st;
    st->timer = run_after(*loop, opts.connect_timeout, [self = shared_from_this(), weak] {
        if (auto s = weak.lock(); s && !s->endpoint_seen) self->legacy_failed(s, "no endpoint event arrived");
    });
    start_call(st, std::move(req));
}

void client_transport::impl::legacy_event(const stream_ptr& st, const sse_event& ev) {
    if (!st->endpoint_seen) {
        if (ev.type != "endpoint") {
            legacy_failed(st, "the first event of the SSE stream is not \"endpoint\"");
            return;
        }
        std::string data(ev.data);
        while (!data.empty() && (data.back() == ' ' || data.back() == '\r' || data.back() == '\n'))
            data.pop_back();
        auto resolved = resolve_reference(opts.url, data);
        std::optional<url_parts> endpoint;
        if (resolved) endpoint = parse_url(*resolved);
        if (!endpoint) {
            legacy_failed(st, "the endpoint event does not hold a usable URL");
            return;
        }
        // Messages (and the headers sent with them, credentials included) go to the server
        // the user named, nowhere else.
        if (endpoint->origin != url.origin) {
            legacy_failed(st,
                          "the endpoint " + endpoint->display + " is not on the origin of " + url.display);
            return;
        }
        st->endpoint_seen = true;
        if (st->timer) st->timer->cancel();
        st->timer.reset();
        legacy_endpoint = std::move(*endpoint);
        auto trigger = std::move(fallback_trigger);
        fallback_trigger.reset();
        wire = client_transport::wire::legacy_sse;
        wire_seen = wire;
        probe_in_flight = false;
        if (trigger && !trigger->finished) {
            if (trigger->msg.stateless()) {
                // A 2026-07-28 request (server/discover) to a 2024-11-05 server: "method not
                // found" makes the client fall back to initialize, which then goes here.
                for (const auto& id : std::set<request_id>(trigger->awaiting)) {
                    emit(local_error(
                        id, error_code::method_not_found,
                        trigger->msg.method +
                            " is not supported: the server speaks the HTTP+SSE transport of 2024-11-05"));
                    if (shutting_down) return;
                }
                trigger->awaiting.clear();
                end_stream(trigger);
            } else {
                outgoing again = trigger->msg;
                end_stream(trigger); // forgets its awaited ids; legacy_post takes them over
                trigger->awaiting.clear();
                legacy_post(std::move(again));
            }
        }
        flush_waiting();
        return;
    }
    if (ev.type != "message") return;
    if (ev.data.find_first_not_of(" \t\r\n") == std::string_view::npos) return;
    deliver(st, ev.data);
}

void client_transport::impl::legacy_failed(const stream_ptr& st, const std::string& why) {
    if (st->finished || shutting_down) return;
    const bool established = st->endpoint_seen;
    end_stream(st);
    if (established) {
        report_error("the SSE stream of the HTTP+SSE transport at " + url.display + " ended: " + why);
        begin_close(false);
        return;
    }
    auto trigger = std::move(fallback_trigger);
    fallback_trigger.reset();
    if (trigger && !trigger->finished) {
        // Not a legacy server either: the refusal of the POST is the answer.
        probe_in_flight = false;
        answer_error_reply(trigger);
        return;
    }
    if (opts.mode != transport_mode::legacy_sse) {
        // The probe that asked for this attempt is gone (cancelled): what waited behind it goes
        // out as the next probe.
        if (wire == client_transport::wire::undecided) {
            probe_in_flight = false;
            flush_waiting();
        }
        return;
    }
    // Forced legacy mode and no stream: nothing can be sent.
    http_failure f;
    f.url = url.display;
    f.message = "cannot open the HTTP+SSE stream at " + url.display + ": " + why;
    for (auto& o : waiting)
        for (const auto& id : o.awaiting) emit(synthesize_error(id, f));
    waiting.clear();
    report_error(f.message);
    begin_close(false);
}

void client_transport::impl::legacy_post(outgoing o) {
    auto st = new_stream(role::post);
    st->legacy_post = true;
    st->msg = std::move(o);
    st->awaiting.insert(st->msg.awaiting.begin(), st->msg.awaiting.end());
    track(st);
    if (st->msg.is("initialize") && st->msg.id) {
        initialize_id = st->msg.id;
        initialize_seen = true;
    }
    call_request req;
    req.url = *legacy_endpoint;
    req.method = "POST";
    req.body = st->msg.text;
    req.connect_timeout = opts.connect_timeout;
    req.headers = common_headers(req.method);
    req.headers.emplace_back("Content-Type", "application/json");
    start_call(st, std::move(req));
}

} // namespace mcp::http
