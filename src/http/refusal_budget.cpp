// Refused authentications per client address (see refusal_budget.hpp).
#include "http/refusal_budget.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace mcp::http::detail {
namespace {
// Beyond this many addresses tracked at once, a sweep runs every second (not every interval),
// and beyond max_tracked new addresses are not tracked until a sweep made room.
constexpr std::size_t sweep_threshold = 10000;
constexpr std::size_t max_tracked = 100000;
// The addresses a full table cannot track share this bucket (not an address: no client has it).
const std::string overflow_key = "(untracked addresses)";
constexpr std::size_t max_trusted = 1024;
constexpr std::size_t max_lines_per_interval = 100;

std::uint64_t random_salt() {
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
}
} // namespace

std::string address_key(std::string_view address) {
    if (address.find(':') == std::string_view::npos) return std::string(address);
    std::string text(address);
    if (auto pct = text.find('%'); pct != std::string::npos) text.resize(pct); // zone id
    in6_addr a{};
    if (::inet_pton(AF_INET6, text.c_str(), &a) != 1) return std::string(address);
    static constexpr unsigned char v4_mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(a.s6_addr, v4_mapped, 12) == 0) return std::string(address); // one IPv4 host
    std::memset(a.s6_addr + 8, 0, 8);
    char out[INET6_ADDRSTRLEN];
    if (!::inet_ntop(AF_INET6, &a, out, sizeof out)) return std::string(address);
    return std::string(out) + "/64";
}

refusal_budget::refusal_budget(double rate, double burst, std::function<void(std::string_view)> log,
                               std::chrono::seconds summary_interval)
    : rate_(rate), burst_(std::max(burst, 1.0)), log_(std::move(log)), interval_(summary_interval),
      next_sweep_(clock::now() + summary_interval), lines_since_(clock::now()), salt_(random_salt()) {}

std::uint64_t refusal_budget::hash(std::string_view credential) const {
    std::string salted(reinterpret_cast<const char*>(&salt_), sizeof salt_);
    salted.append(credential);
    return std::hash<std::string>{}(salted);
}

void refusal_budget::authenticated(std::string_view credential) {
    const auto h = hash(credential);
    std::lock_guard lock(mu_);
    if (auto it = trusted_.find(h); it != trusted_.end()) {
        trusted_order_.splice(trusted_order_.begin(), trusted_order_, it->second);
        return;
    }
    trusted_order_.push_front(h);
    trusted_[h] = trusted_order_.begin();
    if (trusted_order_.size() > max_trusted) {
        trusted_.erase(trusted_order_.back());
        trusted_order_.pop_back();
    }
}

bool refusal_budget::trusted(std::string_view credential) {
    const auto h = hash(credential);
    std::lock_guard lock(mu_);
    return trusted_.count(h) != 0;
}

void refusal_budget::distrust(std::string_view credential) {
    const auto h = hash(credential);
    std::lock_guard lock(mu_);
    if (auto it = trusted_.find(h); it != trusted_.end()) {
        trusted_order_.erase(it->second);
        trusted_.erase(it);
    }
}

void refusal_budget::refill(entry& e, clock::time_point now) const {
    const double elapsed = std::chrono::duration<double>(now - e.last).count();
    if (elapsed > 0) e.tokens = std::min(burst_, e.tokens + elapsed * rate_);
    e.last = now;
}

void refusal_budget::flush_dropped(clock::time_point now) {
    if (now - lines_since_ < interval_) return;
    const auto dropped = lines_dropped_;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - lines_since_).count();
    lines_since_ = now;
    lines_ = lines_dropped_ = 0;
    if (dropped)
        emit(std::to_string(dropped) + " more lines about refused authentications left out in the last " +
                 std::to_string(seconds) + " s (at most " + std::to_string(max_lines_per_interval) +
                 " an interval)",
             now);
}

// Every line goes through here, so however many addresses misbehave the log stays bounded.
void refusal_budget::emit(const std::string& line, clock::time_point now) {
    if (!log_) return;
    flush_dropped(now);
    if (lines_ >= max_lines_per_interval) {
        ++lines_dropped_;
        return;
    }
    ++lines_;
    try {
        log_(line);
    } catch (...) {
        // A throwing log must not turn a refusal into an error of the server.
    }
}

void refusal_budget::summarise(const std::string& address, entry& e, clock::time_point now) {
    if (e.unreported == 0 || now - e.reported < interval_) return;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - e.reported).count();
    emit(std::to_string(e.unreported) + " more requests from " + address +
         " refused 429 (too many refused authentications) in the last " + std::to_string(seconds) + " s",
         now);
    e.unreported = 0;
    e.reported = now;
}

std::optional<int> refusal_budget::over_budget(const std::string& address_text, clock::time_point now) {
    const auto address = address_key(address_text);
    std::lock_guard lock(mu_);
    flush_dropped(now);
    auto it = entries_.find(address);
    if (it == entries_.end() && entries_.size() >= max_tracked) it = entries_.find(overflow_key);
    if (it == entries_.end()) return std::nullopt;
    auto& e = it->second;
    refill(e, now);
    if (e.tokens >= 1) {
        summarise(it->first, e, now);
        return std::nullopt;
    }
    ++e.unreported;
    summarise(it->first, e, now);
    return std::max(1, static_cast<int>(std::ceil((1 - e.tokens) / rate_)));
}

void refusal_budget::charge(const std::string& address_text, clock::time_point now) {
    auto address = address_key(address_text);
    std::lock_guard lock(mu_);
    if (now >= next_sweep_ ||
        (entries_.size() >= sweep_threshold && now >= next_sweep_ - interval_ + std::chrono::seconds(1)))
        sweep(now);
    // Full: the untracked share one bucket, so a flood from many addresses is still limited.
    if (entries_.size() >= max_tracked && !entries_.count(address)) address = overflow_key;
    auto [it, fresh] = entries_.try_emplace(address, entry{burst_, now});
    auto& e = it->second;
    if (!fresh) refill(e, now);
    if (e.tokens >= burst_) e.over = false; // it slowed down for a whole burst: news again if it goes over
    e.tokens = std::max(0.0, e.tokens - 1);
    if (e.tokens < 1 && !e.over) {
        e.over = true;
        e.reported = now;
        char rate[32];
        std::snprintf(rate, sizeof rate, "%g", rate_);
        emit(address + ": too many refused authentications (" + std::to_string(static_cast<long>(burst_)) +
             " at once, then " + rate + " a second): its requests are refused 429 until it slows down",
             now);
    }
}

std::size_t refusal_budget::tracked() const {
    std::lock_guard lock(mu_);
    return entries_.size();
}

// Forget the addresses whose bucket is full again and that have nothing left to report.
void refusal_budget::sweep(clock::time_point now) {
    next_sweep_ = now + interval_;
    flush_dropped(now);
    for (auto it = entries_.begin(); it != entries_.end();) {
        refill(it->second, now);
        summarise(it->first, it->second, now);
        if (it->second.tokens >= burst_ && it->second.unreported == 0)
            it = entries_.erase(it);
        else
            ++it;
    }
}

} // namespace mcp::http::detail
