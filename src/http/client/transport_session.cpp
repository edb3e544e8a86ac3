// http/client/transport_session.cpp - the session of the Streamable HTTP wire (initialize era):
// the headers that name it on every exchange, its end (HTTP 404 for its id), and what happens to
// messages while it is lost or being renewed by the next initialize.
#include "transport_impl.hpp"

namespace mcp::http {

using namespace detail;
using role = stream_state::role;

void client_transport::impl::session_headers(core::header_list& h, const stream_ptr& st) const {
    if (!session_id.empty()) {
        h.emplace_back("Mcp-Session-Id", session_id);
        st->sent_session = true;
        st->session_serial = session_serial;
    }
    // The header exists from 2025-06-18 on; a 2025-03-26 server would not know it.
    if (!negotiated.empty() && negotiated >= "2025-06-18") h.emplace_back("MCP-Protocol-Version", negotiated);
}

// HTTP 404 to a request that carried the session id: the server no longer knows the session
// (2025-11-25 basic/transports.mdx, "Session Management": the client MUST start a new session
// with an InitializeRequest without a session id). The transport stays open: the requests of
// this exchange fail with an error that says so (data.sessionExpired; data.requestRefused when
// the request itself was refused, so that it never ran and may be sent again), later requests
// are refused here until the next initialize, which mcp::client sends itself.
void client_transport::impl::session_expired(const stream_ptr& st) {
    http_failure f = failure_of(st, st->display);
    f.message += ": the session has expired (the server no longer knows its Mcp-Session-Id); "
                 "initialize starts a new one";
    f.session_expired = true;
    // A POST refused outright never ran; a resumed stream's request may have.
    f.request_refused = st->r == role::post && !st->resuming;
    // A 404 for a session that ended already (another exchange of it said so first) changes
    // nothing more; nor does one that arrives while a new session is being started. The session
    // is forgotten before the error goes out: whoever reads it finds the transport without one.
    if (st->session_serial == session_serial && !shutting_down)
        lose_session(status_message(st->status, st->reason, st->display) +
                     " for a request with the session id");
    fail_awaiting(st, f);
    end_stream(st);
}

void client_transport::impl::lose_session(const std::string& why) {
    warn("session expired: " + why + "; requests are refused until an initialize starts a new session");
    session_id.clear();
    {
        std::lock_guard lock(mu);
        session_id_copy.clear();
    }
    ++session_serial;
    session_lost = true;
    session_lost_why = why;
    renewing = false;
    // The old session's GET stream is the server's no more.
    get_stream_wanted = false;
    if (get_stream) end_stream(get_stream);
    if (gate_closed) open_gate();
    // Requests that waited for a renewal that was already under way go the same way.
    auto held = std::move(held_for_session);
    held_for_session.clear();
    for (auto& o : held) refuse_for_session(o);
}

// Answer the requests of `o` (not sent) with the session-expired error.
void client_transport::impl::refuse_for_session(const outgoing& o) {
    if (o.awaiting.empty()) {
        warn("a message (" + (o.method.empty() ? std::string("a response") : o.method) +
             ") was not sent: the session has expired and no initialize has started a new one");
        return;
    }
    http_failure f;
    f.url = url.display;
    f.status = 404;
    f.message = "not sent: the session with " + url.display + " has expired (" + session_lost_why +
                "); initialize starts a new one";
    f.session_expired = true;
    f.request_refused = true;
    for (const auto& id : o.awaiting) {
        if (shutting_down) return;
        emit(synthesize_error(id, f));
    }
}

// While the session is lost or being renewed, decide what happens to an initialize-era message
// on the Streamable HTTP wire. True when it has been taken care of (refused or held).
bool client_transport::impl::session_gatekeeper(outgoing& o) {
    if (o.stateless() || (!session_lost && !renewing)) return false;
    if (o.k == outgoing::kind::request && o.is("initialize")) {
        session_lost = false;
        renewing = true;
        return false; // it goes, without a session id
    }
    if (session_lost) {
        refuse_for_session(o);
        return true;
    }
    // renewing: requests wait for the new session to be complete (notifications/initialized,
    // after which they go as at the first connection); the rest goes at once.
    if (o.k == outgoing::kind::request || o.k == outgoing::kind::batch) {
        held_for_session.push_back(std::move(o));
        return true;
    }
    return false;
}

// The initialize that should have started a new session failed: its requests are refused.
void client_transport::impl::renewal_failed() {
    if (!renewing) return;
    renewing = false;
    session_lost = true;
    auto held = std::move(held_for_session);
    held_for_session.clear();
    for (auto& o : held) refuse_for_session(o);
}

} // namespace mcp::http
