// The sessions of mcp::http::server (protocol revisions 2025-03-26 .. 2025-11-25 with a stateful
// server): this process's copies, kept in step with the session store so that any replica can
// serve any session, created by initialize or restored from the store, released or ended; and
// the ticker that keeps streams alive and expires idle sessions. See streamable_router.hpp.
#include "http/streamable_router.hpp"

#include "server/request_state.hpp"

#include <mcp/session/executor.hpp>

namespace mcp::http {

std::optional<server::impl::session_entry> server::impl::find_session(std::string_view id) {
    std::lock_guard lock(sessions_mu);
    auto it = sessions.find(std::string(id));
    if (it == sessions.end()) return std::nullopt;
    return it->second;
}

std::optional<server::impl::session_entry> server::impl::session_for(std::string_view id,
                                                                     const std::string& principal,
                                                                     const std::string& owner,
                                                                     detail::session_lru::verdict& refusal) {
    const auto now = std::chrono::system_clock::now();
    auto entry = lookup_session(id, now, owner, refusal);
    // A session is bound to whoever created it: with another principal's token a stolen or
    // guessed id is as good as an unknown one (MCP security best practices, session hijacking).
    if (entry && entry->principal != principal) return std::nullopt;
    return entry;
}

std::optional<server::impl::session_entry>
server::impl::lookup_session(std::string_view id, std::chrono::system_clock::time_point now,
                             const std::string& owner, detail::session_lru::verdict& refusal) {
    std::optional<session_entry> local;
    {
        // Found and moved to the front of the order of use under one lock: a copy the store
        // then says is gone is released anyway.
        std::lock_guard lock(sessions_mu);
        if (auto it = sessions.find(std::string(id)); it != sessions.end()) {
            local = it->second;
            lru.touch(it->first);
        }
    }
    if (local) {
        // Every request touches the record, as requests of one session may reach any replica
        // and only the store sees them all; the same call says whether the session still
        // exists. For memory_session_store it is a map lookup under a mutex; for a remote
        // store, a round trip per request. Touching at most every few seconds would save
        // most of those, but a DELETE or an expiry on another replica would then go unnoticed
        // here for as long, so we pay it.
        const auto version = host->store->touch(id, now);
        if (!version) {
            release_local(std::string(id));
            return std::nullopt;
        }
        if (*version != local->transport->record_version() && !refresh(*local)) return std::nullopt;
        return local;
    }
    return restore(id, now, owner, refusal);
}

bool server::impl::refresh(const session_entry& e) {
    const auto record = host->store->get(e.transport->id());
    if (!record) {
        release_local(e.transport->id());
        return false;
    }
    if (e.peer)
        if (auto snapshot = decode_session_data(record->data)) e.peer->adopt(*snapshot);
    e.transport->set_record_version(record->version);
    return true;
}

std::optional<server::impl::session_entry> server::impl::restore(std::string_view id,
                                                                 std::chrono::system_clock::time_point now,
                                                                 const std::string& owner,
                                                                 detail::session_lru::verdict& refusal) {
    // One restore at a time: two requests of a session new here must not make two copies.
    // Restoring happens once per session and replica, so this lock is rarely contended.
    std::lock_guard restoring(restore_mu);
    if (auto local = find_session(id)) return local; // restored by a request that came first
    auto record = host->store->get(id);
    if (!record) return std::nullopt;
    std::optional<session_snapshot> snapshot;
    if (!record->data.empty()) {
        snapshot = decode_session_data(record->data);
        // Written by a version of mcpxx that this one cannot read: the client initializes again.
        if (!snapshot) return std::nullopt;
    } // empty: initialize was not answered yet, the copy starts uninitialized
    session_entry evicted;
    {
        std::lock_guard lock(sessions_mu); // the caps bound this process's copies, restored or not
        if (const auto verdict = make_room_locked(owner, evicted); verdict != detail::session_lru::verdict::room) {
            refusal = verdict;
            return std::nullopt;
        }
        // Held as busy until the copy is in `sessions` (a concurrent make_room sees it there).
        lru.add(std::string(id), owner);
    }
    evict(std::move(evicted));
    const std::string session_id(id);
    auto transport = std::make_shared<http_session>(session_id, host);
    if (snapshot) transport->set_protocol_revision(snapshot->protocol_version);
    std::shared_ptr<mcp::server_session> peer;
    try {
        peer = snapshot ? host->mcp->restore_session(transport, *snapshot) : host->mcp->connect(transport);
    } catch (const std::invalid_argument&) {
        std::lock_guard lock(sessions_mu);
        lru.remove(session_id);
        return std::nullopt; // a revision this replica does not offer
    }
    transport->set_record_version(record->version);
    keep_record_current(peer, transport, record->principal);
    session_entry entry{transport, peer, record->principal};
    {
        std::lock_guard lock(sessions_mu);
        sessions.emplace(session_id, entry);
    }
    watch_peer(peer, transport);
    host->store->touch(id, now);
    arm_ticker();
    return entry;
}

void server::impl::keep_record_current(const std::shared_ptr<mcp::server_session>& peer,
                                       const std::shared_ptr<http_session>& transport,
                                       std::string principal) {
    std::weak_ptr<http_session> weak = transport;
    peer->on_snapshot_changed([store = host->store, weak, id = transport->id(),
                               principal = std::move(principal)](const session_snapshot& s) {
        // The first snapshot comes when initialize is answered, before its response is sent:
        // from then on the copy's streams follow the negotiated revision's rules.
        auto t = weak.lock();
        if (t) t->set_protocol_revision(s.protocol_version);
        // update, not put: a change handled after the session ended (notifications/initialized
        // still on its way when a DELETE came) must not create the record again.
        const auto version = store->update(
            session_record{id, encode_session_data(s), std::chrono::system_clock::now(), 0, principal});
        if (t && version) t->set_record_version(*version);
    });
}

void server::impl::watch_peer(const std::shared_ptr<mcp::server_session>& peer,
                              const std::shared_ptr<http_session>& transport) {
    std::weak_ptr<impl> weak = shared_from_this();
    peer->rpc().on_close([weak, id = transport->id(), copy = transport.get()] {
        auto self = weak.lock();
        if (!self) return;
        session_entry gone;
        {
            std::lock_guard lock(self->sessions_mu);
            auto it = self->sessions.find(id);
            if (it == self->sessions.end() || it->second.transport.get() != copy) return;
            gone = self->take_locked(id);
        }
        self->forget_everywhere(id);
        gone.transport->close(); // the engine is closing already: only the copy is left
    });
}

void server::impl::start_session(core::request& req, json::value&& parsed, jsonrpc::request_id request,
                                 const writer_ptr& w, std::string principal) {
    std::string id = mcp::detail::random_hex_id(); // 128 bits from the OS CSPRNG
    auto transport = std::make_shared<http_session>(id, host);
    session_entry evicted;
    const auto owner = owner_of(req, principal);
    auto verdict = detail::session_lru::verdict::room;
    {
        std::lock_guard lock(sessions_mu);
        verdict = make_room_locked(owner, evicted);
        if (verdict == detail::session_lru::verdict::room) {
            sessions.emplace(id, session_entry{transport, nullptr, principal, /*starting=*/true});
            lru.add(id, owner);
        }
    }
    if (verdict != detail::session_lru::verdict::room) {
        respond_at_capacity(w, readable_id(parsed), verdict);
        return;
    }
    evict(std::move(evicted));
    auto peer = host->mcp->connect(transport);
    keep_record_current(peer, transport, principal); // before initialize reaches it
    {
        std::lock_guard lock(sessions_mu);
        if (auto it = sessions.find(id); it != sessions.end()) it->second.peer = peer;
    }
    watch_peer(peer, transport);
    // The id exists from now on (initialize fills the record in when it is answered).
    transport->set_record_version(
        host->store->put(session_record{id, json::object{}, std::chrono::system_clock::now(), 0, principal}));
    arm_ticker();
    std::weak_ptr<impl> weak = shared_from_this();
    transport->expect_initialize(std::move(request), [weak, id] {
        if (auto self = weak.lock()) self->end_session(id); // its record goes with it
    });
    auto message = jsonrpc::incoming_message::from_value(std::move(parsed));
    message.text = req.body;
    message.origin = origin_of(req, std::move(principal));
    transport->post(std::move(message), w);
    // The initialize is the engine's now (its stream keeps the copy busy while it runs): from
    // here the session is like any other.
    std::lock_guard lock(sessions_mu);
    if (auto it = sessions.find(id); it != sessions.end()) it->second.starting = false;
}

void server::impl::respond_at_capacity(const writer_ptr& w, const std::optional<jsonrpc::request_id>& id,
                                       detail::session_lru::verdict why) {
    if (why == detail::session_lru::verdict::owner_busy)
        respond_error(w, 429, error_code::internal_error,
                      "Too Many Requests: this client holds " +
                          std::to_string(host->opts.max_sessions_per_principal) +
                          " sessions (its limit), all with a request in progress or a stream open; retry "
                          "later or end one with DELETE",
                      id, {{"Retry-After", "5"}});
    else
        respond_error(
            w, 503, error_code::internal_error,
            "Service Unavailable: " + std::to_string(host->opts.max_sessions) +
                " sessions (the limit), all with a request in progress or a stream open; retry later",
            id, {{"Retry-After", "5"}});
}

std::string server::impl::owner_of(const core::request& req, const std::string& principal) {
    return detail::session_owner(req.remote_address, principal);
}

detail::session_lru::verdict server::impl::make_room_locked(const std::string& owner,
                                                            session_entry& evicted) {
    const auto busy = [this](const std::string& id) {
        auto it = sessions.find(id);
        // A copy being restored is in `lru` before `sessions`, a new one has no engine or no
        // request yet for a moment: busy until then.
        return it == sessions.end() || !it->second.peer || it->second.starting ||
               it->second.transport->in_use();
    };
    const detail::session_lru::limits limits{host->opts.max_sessions, host->opts.max_sessions_per_principal};
    auto choice = lru.make_room(owner, limits, busy);
    if (choice.what == detail::session_lru::verdict::all_busy ||
        choice.what == detail::session_lru::verdict::owner_busy) {
        // Copies set aside as busy may have become idle since (their streams closed): look
        // again before refusing, rather than refusing until the next tick. Throttled, so that a
        // flood of initializes against a table of busy sessions does not rescan it each time.
        const auto now = std::chrono::steady_clock::now();
        if (now - last_relist_on_refusal >= std::chrono::seconds(1)) {
            last_relist_on_refusal = now;
            lru.relist([this](const std::string& id) {
                auto it = sessions.find(id);
                return it != sessions.end() && it->second.transport->in_use();
            });
            choice = lru.make_room(owner, limits, busy);
        }
    }
    if (choice.what != detail::session_lru::verdict::evict) return choice.what;
    evicted = take_locked(choice.victim);
    return detail::session_lru::verdict::room;
}

void server::impl::evict(session_entry evicted) {
    if (!evicted.transport) return;
    // Behind a load balancer a session moves between replicas: the least recently used copy
    // here may be a session its client now uses through another replica. Every request
    // touches the shared record, so a record used after this copy last was (with a margin
    // for the clocks of one request) means the session lives elsewhere: only this copy goes.
    // A store that cannot be asked: only this copy goes too (the store's own idle expiry ends
    // the record if nobody uses it).
    bool used_elsewhere = true;
    try {
        if (const auto record = host->store->get(evicted.transport->id())) {
            const auto idle_here = std::chrono::steady_clock::now() - evicted.transport->last_used();
            const auto last_here = std::chrono::system_clock::now() -
                                   std::chrono::duration_cast<std::chrono::system_clock::duration>(idle_here);
            used_elsewhere = record->last_used > last_here + std::chrono::milliseconds(500);
        } else {
            used_elsewhere = false; // already gone: nothing to keep
        }
    } catch (const std::exception&) {
    }
    if (!used_elsewhere) forget_everywhere(evicted.transport->id());
    close_copy(evicted);
}

server::impl::session_entry server::impl::take_locked(const std::string& id) {
    session_entry gone;
    lru.remove(id);
    auto it = sessions.find(id);
    if (it == sessions.end()) return gone;
    gone = std::move(it->second);
    sessions.erase(it);
    return gone;
}

void server::impl::close_copy(session_entry& gone) {
    if (gone.peer) gone.peer->close(); // the engine closes the transport
    if (gone.transport) gone.transport->close();
}

void server::impl::release_local(const std::string& id) {
    session_entry gone;
    {
        std::lock_guard lock(sessions_mu);
        gone = take_locked(id);
    }
    close_copy(gone);
}

void server::impl::end_session(const std::string& id) {
    forget_everywhere(id);
    release_local(id);
}

void server::impl::forget_everywhere(const std::string& id) {
    host->store->remove(id);
    if (host->events) host->events->forget_session(id);
}

// ------------------------------------------------------------------ keep-alive and expiry
std::chrono::milliseconds server::impl::tick_interval() const {
    auto t = std::min(host->opts.keep_alive_interval, host->opts.session_idle_timeout / 4);
    return std::max(t, std::chrono::milliseconds(50));
}

void server::impl::arm_ticker() {
    std::lock_guard lock(tick_mu);
    if (tick_armed || stopping.load()) return;
    tick_armed = true;
    std::weak_ptr<impl> weak = shared_from_this();
    tick = mcp::detail::timer_service::instance().schedule(
        mcp::detail::timer_service::clock::now() + tick_interval(), [weak] {
            auto self = weak.lock();
            if (!self) return;
            // Off the timer thread: closing a session runs the engine's close path.
            default_executor()->post([weak] {
                if (auto s = weak.lock()) s->on_tick();
            });
        });
}

void server::impl::on_tick() {
    {
        std::lock_guard lock(tick_mu);
        tick_armed = false;
    }
    if (stopping.load()) return;
    try {
        expire_sessions();
    } catch (const std::exception&) {
        // The session store failed (a remote one unreachable): the next tick tries again.
    }
    host->sessionless_responses->keep_alive(std::chrono::steady_clock::now());
    if (legacy) legacy->keep_alive();
    // A stateful server ticks while it runs, copies or not: sessions held only by other
    // replicas expire through any of them.
    if (host->opts.stateful || !host->sessionless_responses->empty() || (legacy && legacy->sessions() > 0))
        arm_ticker();
}

void server::impl::expire_sessions() {
    std::vector<session_entry> all;
    {
        std::lock_guard lock(sessions_mu);
        // Copies make_room found busy join the order of use again once idle.
        lru.relist([this](const std::string& id) {
            auto it = sessions.find(id);
            return it != sessions.end() && it->second.transport->in_use();
        });
        all.reserve(sessions.size());
        for (auto& [id, e] : sessions) all.push_back(e);
    }
    const auto now = std::chrono::system_clock::now();
    const auto steady_now = std::chrono::steady_clock::now();
    const auto timeout = host->opts.session_idle_timeout;
    std::vector<std::string> unused_here;
    for (auto& e : all) {
        if (e.transport->in_use()) {
            // Requests in progress here, or a client listening on the standalone stream: in
            // use, though no request came lately. Touching the record says so to every replica
            // (the session lives while the stream is attached to this one, and expires a
            // timeout after it went, or this replica did). A copy whose record is gone was
            // ended elsewhere.
            if (!host->store->touch(e.transport->id(), now)) {
                release_local(e.transport->id());
                continue;
            }
        } else if (steady_now - e.transport->last_used() > timeout) {
            unused_here.push_back(e.transport->id());
            continue;
        }
        e.transport->keep_alive();
    }
    // Any replica expires any session: the store knows when each was last used anywhere.
    for (const auto& id : host->store->idle_since(now - timeout)) end_session(id);
    // Unused here for a whole timeout: the copy goes; the session lives on if it is used
    // elsewhere (and is restored if it comes back).
    for (const auto& id : unused_here) release_local(id);
}

} // namespace mcp::http
