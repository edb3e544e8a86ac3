// mcp::memory_handle_backend (see mcp/server/handle_backend.hpp).
//
// Two maps under one mutex: live records, and tombstones of expired ones (principal and when to
// forget them). A live record is a shared object with a mutex of its own: update() finds it under
// the map's mutex, lets go of that, and runs the change under the record's mutex, so a slow
// change of one handle blocks neither the map nor other handles. A record that expires or is
// erased while a change runs leaves the map at once; the change then finishes on an object no
// map holds any more, and its result is dropped with it.
#include <mcp/server/handle_backend.hpp>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace mcp {

namespace {

using clock = std::chrono::steady_clock;

struct record {
    std::mutex mu;     // held while update() runs its change
    json::value value; // guarded by mu
    // Guarded by the backend's mutex:
    std::string principal;
    clock::time_point expires;
    std::chrono::milliseconds lifetime{0}; // how long a tombstone outlives it
};

struct tombstone {
    std::string principal;
    clock::time_point forget;
};

bool allowed(std::string_view bound, std::string_view caller) noexcept {
    return bound.empty() || bound == caller;
}

} // namespace

struct memory_handle_backend::impl {
    std::size_t max_handles = 0;
    std::size_t max_per_principal = 0; // 0: none
    mutable std::mutex mu;
    std::unordered_map<std::string, std::size_t> per_principal; // live records bound to each
    std::unordered_map<std::string, std::shared_ptr<record>> live;
    std::unordered_map<std::string, tombstone> expired;
    clock::duration skew{0}; // advance_clock
    clock::time_point next_sweep{};
    std::chrono::milliseconds shortest_lifetime = std::chrono::milliseconds::max();

    clock::time_point now() const { return clock::now() + skew; }

    // Under mu: turn `it` into a tombstone.
    void bury(std::unordered_map<std::string, std::shared_ptr<record>>::iterator it) {
        const auto& r = *it->second;
        expired[it->first] = tombstone{r.principal, r.expires + r.lifetime};
        drop(it);
    }

    // Under mu: remove a live record, and its count.
    void drop(std::unordered_map<std::string, std::shared_ptr<record>>::iterator it) {
        if (!it->second->principal.empty())
            if (auto c = per_principal.find(it->second->principal);
                c != per_principal.end() && --c->second == 0)
                per_principal.erase(c);
        live.erase(it);
    }

    // Under mu: whether `principal` holds as many live records as it may.
    bool at_principal_cap(const std::string& principal) const {
        if (principal.empty() || max_per_principal == 0) return false;
        auto c = per_principal.find(principal);
        return c != per_principal.end() && c->second >= max_per_principal;
    }

    // Under mu: bury what expired, forget tombstones whose time is up. Sweeps run at most every
    // quarter of the shortest lifetime seen (at least a second apart), or when the map is full.
    void sweep(clock::time_point t) {
        for (auto it = live.begin(); it != live.end();) {
            if (it->second->expires <= t) {
                auto next = std::next(it);
                bury(it);
                it = next;
            } else {
                ++it;
            }
        }
        std::erase_if(expired, [&](const auto& kv) { return kv.second.forget <= t; });
        next_sweep = t + std::max<clock::duration>(shortest_lifetime / 4, std::chrono::seconds(1));
    }

    // Under mu: the live record of `handle` for `principal`, renewed; or the state to report.
    handle_state find(std::string_view handle, std::string_view principal,
                      std::optional<std::chrono::milliseconds> renew, std::shared_ptr<record>& out) {
        const std::string key(handle);
        const auto t = now();
        if (auto it = live.find(key); it != live.end()) {
            auto& r = *it->second;
            // Another principal learns nothing, not even that the handle exists or expired.
            if (!allowed(r.principal, principal)) return handle_state::unknown;
            if (r.expires <= t) {
                bury(it);
                return handle_state::expired;
            }
            if (renew) r.expires = t + *renew;
            out = it->second;
            return handle_state::live;
        }
        // A tombstone says "expired" until a sweep forgets it.
        if (auto it = expired.find(key); it != expired.end() && allowed(it->second.principal, principal))
            return handle_state::expired;
        return handle_state::unknown;
    }
};

memory_handle_backend::memory_handle_backend(std::size_t max_handles, std::size_t max_per_principal)
    : impl_(std::make_unique<impl>()) {
    if (max_handles == 0)
        throw std::invalid_argument("mcp::memory_handle_backend: max_handles must be positive");
    impl_->max_handles = max_handles;
    impl_->max_per_principal = max_per_principal;
}

memory_handle_backend::~memory_handle_backend() = default;

bool memory_handle_backend::put(const std::string& handle, const std::string& principal, json::value value,
                                std::chrono::milliseconds lifetime) {
    auto r = std::make_shared<record>();
    r->value = std::move(value);
    r->principal = principal;
    r->lifetime = lifetime;
    std::lock_guard lock(impl_->mu);
    const auto t = impl_->now();
    r->expires = t + lifetime;
    impl_->shortest_lifetime = std::min(impl_->shortest_lifetime, lifetime);
    // A principal at its cap waits for the next scheduled sweep: sweeping on each of its
    // attempts would let one client make every create() walk the whole map.
    if (t >= impl_->next_sweep || impl_->live.size() >= impl_->max_handles) impl_->sweep(t);
    if (impl_->live.size() >= impl_->max_handles || impl_->at_principal_cap(principal)) return false;
    impl_->expired.erase(handle); // 128 random bits: a collision is not a concern, but stay exact
    if (auto old = impl_->live.find(handle); old != impl_->live.end()) impl_->drop(old);
    impl_->live[handle] = std::move(r);
    if (!principal.empty()) ++impl_->per_principal[principal];
    return true;
}

handle_lookup memory_handle_backend::get(std::string_view handle, std::string_view principal,
                                         std::optional<std::chrono::milliseconds> renew) {
    std::shared_ptr<record> r;
    handle_lookup out;
    {
        std::lock_guard lock(impl_->mu);
        out.state = impl_->find(handle, principal, renew, r);
    }
    if (r) {
        std::lock_guard record_lock(r->mu); // a committed value, never one being changed
        out.value = r->value;
    }
    return out;
}

handle_state memory_handle_backend::update(std::string_view handle, std::string_view principal,
                                           std::optional<std::chrono::milliseconds> renew,
                                           const std::function<json::value(const json::value&)>& change) {
    std::shared_ptr<record> r;
    handle_state state;
    {
        std::lock_guard lock(impl_->mu);
        state = impl_->find(handle, principal, renew, r);
    }
    if (!r) return state;
    std::lock_guard record_lock(r->mu);
    json::value next = change(r->value); // may throw: the value stays as it was
    r->value = std::move(next);
    return state;
}

bool memory_handle_backend::erase(std::string_view handle, std::string_view principal) {
    const std::string key(handle);
    std::lock_guard lock(impl_->mu);
    if (auto it = impl_->live.find(key); it != impl_->live.end()) {
        if (!allowed(it->second->principal, principal)) return false;
        const bool was_live = it->second->expires > impl_->now();
        impl_->drop(it); // a change running on it finishes on an orphan
        return was_live;
    }
    if (auto it = impl_->expired.find(key);
        it != impl_->expired.end() && allowed(it->second.principal, principal))
        impl_->expired.erase(it);
    return false;
}

std::size_t memory_handle_backend::size() const {
    std::lock_guard lock(impl_->mu);
    return impl_->live.size();
}

std::optional<std::size_t> memory_handle_backend::capacity() const {
    return impl_->max_handles;
}

std::optional<std::size_t> memory_handle_backend::capacity_per_principal() const {
    if (impl_->max_per_principal == 0) return std::nullopt;
    return impl_->max_per_principal;
}

void memory_handle_backend::advance_clock(std::chrono::milliseconds by) {
    std::lock_guard lock(impl_->mu);
    impl_->skew += by;
}

} // namespace mcp
