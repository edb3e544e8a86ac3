// The in-process event store and session store of the Streamable HTTP server (see
// mcp/http/event_store.hpp and session_store.hpp).
#include <mcp/http/event_store.hpp>
#include <mcp/http/session_store.hpp>

#include <charconv>
#include <deque>
#include <map>
#include <mutex>

namespace mcp::http {

std::optional<event_id_parts> parse_event_id(std::string_view id) noexcept {
    const auto dash = id.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == id.size()) return std::nullopt;
    event_id_parts parts;
    parts.stream = id.substr(0, dash);
    const char* end = id.data() + id.size();
    auto [stop, ec] = std::from_chars(id.data() + dash + 1, end, parts.sequence);
    if (ec != std::errc() || stop != end) return std::nullopt;
    return parts;
}

// ------------------------------------------------------------------------ memory_event_store

struct memory_event_store::impl {
    struct entry {
        std::string stream;
        stored_event event;
    };
    struct session_events {
        std::deque<entry> events; // oldest first
        std::size_t bytes = 0;
    };
    std::size_t max_session;
    std::size_t max_total;
    mutable std::mutex mu;
    std::map<std::string, session_events, std::less<>> sessions;
    std::deque<std::string> order; // sessions by first append, for evicting across sessions
    std::size_t total = 0;

    static std::size_t cost(const entry& e) {
        return e.event.data.size() + e.event.id.size() + e.stream.size() + 32;
    }

    void pop_oldest(session_events& s) {
        total -= cost(s.events.front());
        s.bytes -= cost(s.events.front());
        s.events.pop_front();
    }
};

memory_event_store::memory_event_store(std::size_t max_bytes_per_session, std::size_t max_total_bytes)
    : impl_(std::make_unique<impl>()) {
    impl_->max_session = max_bytes_per_session;
    impl_->max_total = max_total_bytes;
}

memory_event_store::~memory_event_store() = default;

void memory_event_store::append(std::string_view session, std::string_view stream, stored_event event) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->sessions.find(session);
    if (it == impl_->sessions.end()) {
        it = impl_->sessions.emplace(std::string(session), impl::session_events{}).first;
        impl_->order.emplace_back(session);
    }
    impl::entry e{std::string(stream), std::move(event)};
    const std::size_t c = impl::cost(e);
    it->second.events.push_back(std::move(e));
    it->second.bytes += c;
    impl_->total += c;
    while (it->second.bytes > impl_->max_session && it->second.events.size() > 1)
        impl_->pop_oldest(it->second);
    // Over the global bound: take from the sessions that started earliest.
    while (impl_->total > impl_->max_total && !impl_->order.empty()) {
        auto victim = impl_->sessions.find(impl_->order.front());
        if (victim == impl_->sessions.end() || victim->second.events.empty()) {
            if (victim != impl_->sessions.end() && victim != it) impl_->sessions.erase(victim);
            impl_->order.pop_front();
            continue;
        }
        impl_->pop_oldest(victim->second);
        if (victim == it && it->second.events.size() <= 1) break;
    }
}

std::optional<event_store::replay> memory_event_store::replay_after(std::string_view session,
                                                                    std::string_view last_event_id) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->sessions.find(session);
    if (it == impl_->sessions.end()) return std::nullopt;
    const auto& events = it->second.events;
    std::size_t i = 0;
    for (; i < events.size(); ++i)
        if (events[i].event.id == last_event_id) break;
    if (i == events.size()) return std::nullopt;
    replay r;
    r.stream = events[i].stream;
    for (++i; i < events.size(); ++i)
        if (events[i].stream == r.stream && !events[i].event.data.empty())
            r.events.push_back(events[i].event);
    return r;
}

void memory_event_store::forget_stream(std::string_view session, std::string_view stream) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->sessions.find(session);
    if (it == impl_->sessions.end()) return;
    auto& s = it->second;
    std::deque<impl::entry> kept;
    for (auto& e : s.events) {
        if (e.stream == stream) {
            const auto c = impl::cost(e);
            s.bytes -= c;
            impl_->total -= c;
        } else {
            kept.push_back(std::move(e));
        }
    }
    s.events.swap(kept);
}

void memory_event_store::forget_session(std::string_view session) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->sessions.find(session);
    if (it == impl_->sessions.end()) return;
    impl_->total -= it->second.bytes;
    impl_->sessions.erase(it);
    // `order` keeps the id until it reaches the front; sessions are erased lazily there.
    if (impl_->order.size() > 2 * impl_->sessions.size() + 64) {
        std::deque<std::string> live;
        for (auto& id : impl_->order)
            if (impl_->sessions.count(id)) live.push_back(std::move(id));
        impl_->order.swap(live);
    }
}

std::size_t memory_event_store::bytes() const {
    std::lock_guard lock(impl_->mu);
    return impl_->total;
}

// ---------------------------------------------------------------------- memory_session_store

struct memory_session_store::impl {
    // The data is kept as JSON text: a few hundred bytes per session instead of a DOM several
    // times that, which matters with 10,000 idle sessions; it is parsed only by get(), which a
    // replica calls once per session it restores (and when another replica changed it).
    struct record {
        std::string data;
        std::chrono::system_clock::time_point last_used;
        std::uint64_t version = 0;
        std::string principal;
    };
    mutable std::mutex mu;
    std::map<std::string, record, std::less<>> records;
};

memory_session_store::memory_session_store() : impl_(std::make_unique<impl>()) {}
memory_session_store::~memory_session_store() = default;

std::uint64_t memory_session_store::put(const session_record& record) {
    std::string data = record.data.empty() ? std::string() : to_json(json::value(record.data));
    std::lock_guard lock(impl_->mu);
    auto [it, created] = impl_->records.try_emplace(record.id);
    const std::uint64_t version = created ? 1 : it->second.version + 1;
    it->second = impl::record{std::move(data), record.last_used, version, record.principal};
    return version;
}

std::optional<std::uint64_t> memory_session_store::update(const session_record& record) {
    std::string data = record.data.empty() ? std::string() : to_json(json::value(record.data));
    std::lock_guard lock(impl_->mu);
    auto it = impl_->records.find(record.id);
    if (it == impl_->records.end()) return std::nullopt;
    it->second = impl::record{std::move(data), record.last_used, it->second.version + 1, record.principal};
    return it->second.version;
}

std::optional<session_record> memory_session_store::get(std::string_view id) {
    session_record out;
    std::string data;
    {
        std::lock_guard lock(impl_->mu);
        auto it = impl_->records.find(id);
        if (it == impl_->records.end()) return std::nullopt;
        out.id = it->first;
        out.last_used = it->second.last_used;
        out.version = it->second.version;
        out.principal = it->second.principal;
        data = it->second.data;
    }
    if (!data.empty()) out.data = json::parse(data).as_object(); // our own serialization
    return out;
}

std::optional<std::uint64_t> memory_session_store::touch(std::string_view id,
                                                         std::chrono::system_clock::time_point when) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->records.find(id);
    if (it == impl_->records.end()) return std::nullopt;
    it->second.last_used = when;
    return it->second.version;
}

void memory_session_store::remove(std::string_view id) {
    std::lock_guard lock(impl_->mu);
    if (auto it = impl_->records.find(id); it != impl_->records.end()) impl_->records.erase(it);
}

std::vector<std::string> memory_session_store::idle_since(std::chrono::system_clock::time_point cutoff) {
    std::lock_guard lock(impl_->mu);
    std::vector<std::string> out;
    for (const auto& [id, r] : impl_->records)
        if (r.last_used < cutoff) out.push_back(id);
    return out;
}

std::size_t memory_session_store::size() const {
    std::lock_guard lock(impl_->mu);
    return impl_->records.size();
}

} // namespace mcp::http
