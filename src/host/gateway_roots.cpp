// Roots outside a call. The servers behind the gateway are shared by every client, so a server
// asking for roots on its own (after it started, or after roots/list_changed) is answered with
// the union of the roots of the connected clients that declare roots - each asked then - or
// with the manager's (--root) when none does; and whatever may change that answer (a client's
// roots/list_changed, a client with roots arriving or leaving) is passed on to every server as
// roots/list_changed, so that a server that keeps its roots (a filesystem server) asks again.
#include "host/gateway_state.hpp"

#include <mcp/session/executor.hpp>

#include <future>
#include <set>

namespace mcp::host {

std::vector<root> gateway::impl::roots_outside_calls() const {
    // Asked of every client at once; each answers within roots_timeout or is left out.
    std::vector<std::future<json::value>> asked;
    for (const auto& peer : srv->sessions()) {
        if (!peer->initialized() || !peer->client_caps().roots) continue;
        request_options o;
        o.timeout = opts.roots_timeout;
        asked.push_back(peer->rpc().request("roots/list", nullptr, std::move(o)));
    }
    if (asked.empty()) return mgr->roots();
    std::vector<root> all;
    std::set<std::string> seen;
    for (auto& answer : asked) {
        try {
            for (auto& r : from_json<list_roots_result>(answer.get()).roots)
                if (seen.insert(r.uri).second) all.push_back(std::move(r));
        } catch (const std::exception&) {
            // It failed, timed out or went away: its roots are not known, the others' are.
        }
    }
    return all;
}

void gateway::impl::announce_roots_changed() {
    {
        std::lock_guard lock(sweeper_mu);
        if (closing) return;
    }
    exec->post([weak = weak_from_this()] {
        if (auto self = weak.lock()) self->mgr->notify_roots_changed();
    });
}

void gateway::impl::watch_client_roots() {
    std::weak_ptr<impl> weak = weak_from_this();
    srv->on_roots_list_changed([weak](server_session&) {
        if (auto self = weak.lock()) self->announce_roots_changed();
    });
    srv->on_initialized([weak](server_session& peer) {
        if (!peer.client_caps().roots) return; // not part of the answer: nothing changed
        auto self = weak.lock();
        if (!self) return;
        self->announce_roots_changed();
        // When it goes, its roots leave the union.
        peer.rpc().on_close([weak] {
            if (auto self = weak.lock()) self->announce_roots_changed();
        });
    });
}

} // namespace mcp::host
