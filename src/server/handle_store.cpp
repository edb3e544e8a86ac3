// server/handle_store.cpp - the type-erased table behind mcp::handle_store<T>.
//
// One mutex guards the map; each entry has its own mutex for update(), so a slow update of one
// handle never blocks the others. Expired entries keep their key (not their value) for one more
// lifetime so that a late caller is told "expired" rather than "unknown"; they are swept in
// batches, never one by one on the hot path.
#include <mcp/server/handle_store.hpp>

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <unordered_map>

namespace mcp::detail {

namespace {

using clock = std::chrono::steady_clock;

/// 16 bytes from the OS CSPRNG (getrandom blocks only before the pool is first seeded).
std::string random_hex128() {
    unsigned char bytes[16];
    std::size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        got += static_cast<std::size_t>(n);
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (std::size_t i = 0; i < sizeof bytes; ++i) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    return out;
}

/// A handle as it may appear in a message: caller-supplied text, so bounded and printable.
std::string quoted(std::string_view handle) {
    std::string out = "\"";
    for (char c : handle.substr(0, 80)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
    if (handle.size() > 80) out += "...";
    return out + "\"";
}

std::string describe(std::chrono::milliseconds d) {
    using namespace std::chrono;
    if (d >= hours(1) && d % hours(1) == milliseconds(0))
        return std::to_string(duration_cast<hours>(d).count()) + " h";
    if (d >= minutes(1) && d % minutes(1) == milliseconds(0))
        return std::to_string(duration_cast<minutes>(d).count()) + " min";
    if (d >= seconds(1) && d % seconds(1) == milliseconds(0))
        return std::to_string(duration_cast<seconds>(d).count()) + " s";
    if (d >= seconds(1)) { // one decimal, never rounded down to less than it is
        const auto tenths = (d.count() + 99) / 100;
        return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
    }
    return std::to_string(d.count()) + " ms";
}

struct entry {
    std::shared_ptr<void> value; // null once expired (the key stays as a tombstone)
    std::string principal;
    clock::time_point expires;
    std::mutex mu; // serialises update() on this handle
};

} // namespace

struct handle_table::impl {
    handle_store_options opts;
    mutable std::mutex mu;
    std::unordered_map<std::string, std::shared_ptr<entry>> entries;
    std::size_t live = 0;    // entries with a value
    clock::duration skew{0}; // advance_clock
    clock::time_point next_sweep{};

    clock::time_point now() const { return clock::now() + skew; }

    std::string with_recovery(std::string message) const {
        if (!opts.recovery.empty()) message += " " + opts.recovery;
        return message;
    }

    [[noreturn]] void fail_unknown(std::string_view handle) const {
        throw handle_error(
            handle_error::reason::unknown,
            with_recovery("Unknown " + opts.noun + " " + quoted(handle) +
                          ": it was never issued, has been closed, or belongs to someone else."));
    }

    [[noreturn]] void fail_expired(std::string_view handle) const {
        throw handle_error(
            handle_error::reason::expired,
            with_recovery("The " + opts.noun + " " + quoted(handle) + " has expired (a " + opts.noun +
                          " lasts " + describe(opts.lifetime) +
                          (opts.sliding ? " after its last use)." : " after it is created).")));
    }

    // Under mu: drop values whose time is up, and keys whose tombstone has served its lifetime.
    void sweep(clock::time_point t) {
        for (auto it = entries.begin(); it != entries.end();) {
            auto& e = *it->second;
            if (e.value && e.expires <= t) {
                e.value.reset();
                --live;
            }
            if (!e.value && e.expires + opts.lifetime <= t)
                it = entries.erase(it);
            else
                ++it;
        }
        next_sweep = t + std::max<clock::duration>(opts.lifetime / 4, std::chrono::seconds(1));
    }

    // Under mu: the live entry for handle and principal, or a handle_error.
    std::shared_ptr<entry> find(std::string_view handle, std::string_view principal, clock::time_point t) {
        auto it = entries.find(std::string(handle));
        if (it == entries.end()) fail_unknown(handle);
        auto& e = *it->second;
        // A foreign principal learns nothing, not even that the handle exists or expired.
        if (!e.principal.empty() && e.principal != principal) fail_unknown(handle);
        if (!e.value) fail_expired(handle);
        if (e.expires <= t) {
            e.value.reset();
            --live;
            fail_expired(handle);
        }
        if (opts.sliding) e.expires = t + opts.lifetime;
        return it->second;
    }
};

handle_table::handle_table(handle_store_options options) : impl_(std::make_unique<impl>()) {
    if (options.lifetime <= std::chrono::milliseconds(0))
        throw std::invalid_argument("mcp::handle_store: lifetime must be positive");
    if (options.max_handles == 0)
        throw std::invalid_argument("mcp::handle_store: max_handles must be positive");
    if (options.noun.empty()) options.noun = "handle";
    impl_->opts = std::move(options);
}

handle_table::~handle_table() = default;

std::string handle_table::create(std::shared_ptr<void> value, std::string_view principal) {
    std::string handle = impl_->opts.noun + "_" + random_hex128();
    auto e = std::make_shared<entry>();
    e->value = std::move(value);
    e->principal = std::string(principal);
    std::lock_guard lock(impl_->mu);
    const auto t = impl_->now();
    e->expires = t + impl_->opts.lifetime;
    if (t >= impl_->next_sweep || impl_->live >= impl_->opts.max_handles) impl_->sweep(t);
    if (impl_->live >= impl_->opts.max_handles)
        throw handle_error(handle_error::reason::capacity,
                           "Too many open " + impl_->opts.noun + "s (at most " +
                               std::to_string(impl_->opts.max_handles) + "); close one or try again later.");
    impl_->entries.emplace(handle, std::move(e)); // 128 random bits: a collision is not a concern
    ++impl_->live;
    return handle;
}

void handle_table::visit(std::string_view handle, std::string_view principal,
                         const std::function<void(void*)>& fn) {
    std::shared_ptr<entry> e;
    std::shared_ptr<void> value;
    {
        std::lock_guard lock(impl_->mu);
        e = impl_->find(handle, principal, impl_->now());
        value = e->value; // keeps the value alive even if it expires or is erased meanwhile
    }
    std::lock_guard entry_lock(e->mu);
    fn(value.get());
}

bool handle_table::erase(std::string_view handle, std::string_view principal) {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->entries.find(std::string(handle));
    if (it == impl_->entries.end()) return false;
    auto& e = *it->second;
    if (!e.principal.empty() && e.principal != principal) return false;
    const bool was_live = e.value && e.expires > impl_->now();
    if (e.value) --impl_->live;
    impl_->entries.erase(it);
    return was_live;
}

std::size_t handle_table::size() const {
    std::lock_guard lock(impl_->mu);
    return impl_->live;
}

const handle_store_options& handle_table::options() const noexcept {
    return impl_->opts;
}

void handle_table::advance_clock(std::chrono::milliseconds by) {
    std::lock_guard lock(impl_->mu);
    impl_->skew += by;
}

} // namespace mcp::detail
