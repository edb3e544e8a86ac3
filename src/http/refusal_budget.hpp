// What a client address may cost the server in refused authentications. Refusing is not free:
// each refusal runs the authenticate hook (a hash, a lookup, perhaps a log line), so a client
// that sends bad tokens as fast as it can would cost as much as one with a good token and
// no rate limit, and fill the log. Each address gets a token bucket of refusals; once it is
// empty every request from that address is answered 429 (Retry-After) before authentication,
// and those 429s are counted, not logged one by one: one line when an address goes over, then
// at most one summary per address and interval ("N more requests from ADDR refused 429 in the
// last Ts").
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
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
    void emit(const std::string& line);

    const double rate_, burst_;
    const std::function<void(std::string_view)> log_;
    const std::chrono::seconds interval_;
    mutable std::mutex mu_;
    std::unordered_map<std::string, entry> entries_;
    clock::time_point next_sweep_;
};

} // namespace mcp::http::detail
