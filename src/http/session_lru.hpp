// Which session goes when the session table is full: the HTTP server's record of its sessions in
// order of last use, with the owner (principal, or client address) of each, so that a new session
// takes the place of the least recently used idle one instead of being refused, and an owner at
// its own cap loses its own oldest idle session, never another owner's.
//
// Idle is the caller's to say (a predicate: no request in flight, no open stream): use changes
// inside a session without this object hearing of it. make_room() walks from the oldest end; a
// session found busy there is set aside (out of the order, still counted) until it is touched
// again or relist() (the server's ticker, or a refusal at most once a second) finds it idle; so every session is stepped over at most
// once per tick, and each call is O(1) amortized, however many sessions there are. Not
// thread-safe: the caller holds its lock.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcp::http::detail {

/// Whom a session counts against for server_options::max_sessions_per_principal: the principal
/// authentication gave, or without one the client's address (prefixed, so that a principal named
/// like an address is not that address).
inline std::string session_owner(std::string_view remote_address, std::string_view principal) {
    return principal.empty() ? "address " + std::string(remote_address)
                             : "principal " + std::string(principal);
}

class session_lru {
public:
    struct limits {
        std::size_t total;     ///< sessions in all
        std::size_t per_owner; ///< sessions of one owner
    };
    enum class verdict {
        room,       ///< the new session fits
        evict,      ///< it fits once `victim` has gone (call remove(victim))
        owner_busy, ///< its owner is at its cap and every session of it is busy
        all_busy,   ///< the table is full and every session is busy
    };
    struct choice {
        verdict what = verdict::room;
        std::string victim;
    };

    /// A new session, the most recently used.
    void add(const std::string& id, const std::string& owner) {
        auto [it, created] = nodes_.try_emplace(id);
        if (!created) return;
        it->second.owner = owner;
        ++owners_[owner].count;
        list_front(it);
    }

    /// Session `id` is used now: the most recently used (listed again if it was set aside).
    void touch(const std::string& id) {
        auto it = nodes_.find(id);
        if (it == nodes_.end()) return;
        unlist(it);
        list_front(it);
    }

    void remove(const std::string& id) {
        auto it = nodes_.find(id);
        if (it == nodes_.end()) return;
        unlist(it);
        auto o = owners_.find(it->second.owner);
        if (o != owners_.end() && --o->second.count == 0) owners_.erase(o);
        nodes_.erase(it);
    }

    std::size_t size() const noexcept { return nodes_.size(); }
    std::size_t count_of(const std::string& owner) const {
        auto o = owners_.find(owner);
        return o == owners_.end() ? 0 : o->second.count;
    }

    /// What a new session of `owner` needs: room, an eviction (the owner's own oldest idle
    /// session when it is at its cap, else the oldest idle session of all), or a refusal.
    /// `busy(id)` says whether a session is in use; busy ones met on the way are set aside.
    template <class Busy> choice make_room(const std::string& owner, limits lim, Busy&& busy) {
        if (lim.per_owner > 0 && count_of(owner) >= lim.per_owner) {
            auto& own = owners_[owner].idle;
            while (!own.empty()) {
                auto it = nodes_.find(*own.back());
                if (!busy(it->first)) return {verdict::evict, it->first};
                set_aside(it);
            }
            return {verdict::owner_busy, {}};
        }
        if (nodes_.size() < lim.total) return {};
        while (!idle_.empty()) {
            auto it = nodes_.find(*idle_.back());
            if (!busy(it->first)) return {verdict::evict, it->first};
            set_aside(it);
        }
        return {verdict::all_busy, {}};
    }

    /// Sessions set aside as busy that are idle now join the order again (as just used: when
    /// they stopped being busy is not known). O(sessions set aside).
    template <class Busy> void relist(Busy&& busy) {
        std::vector<std::string> still;
        for (auto& id : aside_) {
            auto it = nodes_.find(id);
            if (it == nodes_.end()) continue; // gone
            if (it->second.listed) {          // touched since
                it->second.aside = false;
            } else if (busy(id)) {
                still.push_back(std::move(id));
            } else {
                it->second.aside = false;
                list_front(it);
            }
        }
        aside_.swap(still);
    }

private:
    using order = std::list<const std::string*>; // ids (keys of nodes_), most recent first
    struct node {
        std::string owner;
        bool listed = false;
        bool aside = false; ///< named in aside_ (once)
        order::iterator in_all, in_owner;
    };
    struct owner_state {
        std::size_t count = 0;
        order idle;
    };
    using node_map = std::unordered_map<std::string, node>; // references to keys are stable

    void list_front(node_map::iterator it) {
        auto& n = it->second;
        idle_.push_front(&it->first);
        n.in_all = idle_.begin();
        auto& own = owners_[n.owner].idle;
        own.push_front(&it->first);
        n.in_owner = own.begin();
        n.listed = true;
    }
    void unlist(node_map::iterator it) {
        auto& n = it->second;
        if (!n.listed) return;
        idle_.erase(n.in_all);
        owners_[n.owner].idle.erase(n.in_owner);
        n.listed = false;
    }
    void set_aside(node_map::iterator it) {
        unlist(it);
        if (!it->second.aside) aside_.push_back(it->first);
        it->second.aside = true;
    }

    node_map nodes_;
    std::unordered_map<std::string, owner_state> owners_;
    order idle_;
    std::vector<std::string> aside_; ///< set aside as busy (may name sessions gone or listed since)
};

} // namespace mcp::http::detail
