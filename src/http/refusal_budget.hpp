// What a client address may cost the server in refused authentications. Refusing is not free:
// each refusal runs the authenticate hook (a hash, a lookup, perhaps a log line), so a client
// that sends bad tokens as fast as it can would cost as much as one with a good token and
// no rate limit, and fill the log. Each address gets a token bucket of refusals; once it is
// empty every request from that address is answered 429 (Retry-After) before authentication,
// and those 429s are counted, not logged one by one: one line when an address goes over, then
// at most one summary per address and interval ("N more requests from ADDR refused 429 in the
// last Ts").
//
// Clients share an address behind a reverse proxy, and on 127.0.0.1 (the default bind) every
// local client does: so a credential that authenticated recently is never refused by the budget
// (a bounded LRU of salted hashes), or one client's bad tokens would lock the others out.
// IPv6 addresses are budgeted by their /64 (one host usually holds a whole /64), and when the
// table is full the addresses it cannot track share one overflow bucket instead of passing free.
// The lines themselves are bounded overall: at most max_lines_per_interval per interval, then
// one line saying how many were left out.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::http::detail {

class refusal_budget {
public:
    using clock = std::chrono::steady_clock;

    /// `rate` refusals a second refill a bucket of `burst`; `log` gets the lines (may be empty).
    refusal_budget(double rate, double burst, std::function<void(std::string_view)> log,
                   std::chrono::seconds summary_interval = std::chrono::seconds(10));

    /// nullopt when a request from `address` may go on to authentication; otherwise the
    /// seconds until it may (for Retry-After), and the refusal is counted for the log.
    std::optional<int> over_budget(const std::string& address, clock::time_point now = clock::now());
    /// A request from `address` was refused authentication.
    void charge(const std::string& address, clock::time_point now = clock::now());

    /// A request carrying `credential` (e.g. the Authorization header) was authenticated:
    /// requests carrying it pass the budget from now on (until it is refused, or evicted).
    void authenticated(std::string_view credential);
    /// Whether `credential` authenticated recently (then a request with it is not refused 429).
    bool trusted(std::string_view credential);
    /// `credential` was refused: it is trusted no longer.
    void distrust(std::string_view credential);

    /// Addresses tracked now (bounded: full buckets with nothing to report are forgotten).
    std::size_t tracked() const;

private:
    struct entry {
        double tokens;
        clock::time_point last;     // of the refill
        std::size_t unreported = 0; // 429s not in a log line yet
        clock::time_point reported; // the last line about this address
        bool over = false;          // its bucket ran out (and the line saying so was written),
                                    // and has not been full since
    };
    void refill(entry& e, clock::time_point now) const;
    void summarise(const std::string& address, entry& e, clock::time_point now);
    void sweep(clock::time_point now);
    void emit(const std::string& line, clock::time_point now);
    std::uint64_t hash(std::string_view credential) const;
    void flush_dropped(clock::time_point now);

    const double rate_, burst_;
    const std::function<void(std::string_view)> log_;
    const std::chrono::seconds interval_;
    mutable std::mutex mu_;
    std::unordered_map<std::string, entry> entries_;
    clock::time_point next_sweep_;
    // Lines written this interval, and those left out (reported in one line at the next).
    clock::time_point lines_since_;
    std::size_t lines_ = 0, lines_dropped_ = 0;
    // Recently authenticated credentials, most recent first (salted: a hash is no oracle).
    const std::uint64_t salt_;
    std::list<std::uint64_t> trusted_order_;
    std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> trusted_;
};

/// The key an address is budgeted under: itself, or for IPv6 its /64 prefix ("2001:db8::/64").
std::string address_key(std::string_view address);

} // namespace mcp::http::detail
