// Refused authentications per client address (see refusal_budget.hpp).
#include "http/refusal_budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mcp::http::detail {
namespace {
// Beyond this many addresses tracked at once, a sweep runs every second (not every interval),
// and beyond max_tracked new addresses are not tracked until a sweep made room.
constexpr std::size_t sweep_threshold = 10000;
constexpr std::size_t max_tracked = 100000;
} // namespace

refusal_budget::refusal_budget(double rate, double burst, std::function<void(std::string_view)> log,
                               std::chrono::seconds summary_interval)
    : rate_(rate), burst_(std::max(burst, 1.0)), log_(std::move(log)), interval_(summary_interval),
      next_sweep_(clock::now() + summary_interval) {}

void refusal_budget::refill(entry& e, clock::time_point now) const {
    const double elapsed = std::chrono::duration<double>(now - e.last).count();
    if (elapsed > 0) e.tokens = std::min(burst_, e.tokens + elapsed * rate_);
    e.last = now;
}

void refusal_budget::emit(const std::string& line) {
    if (!log_) return;
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
         " refused 429 (too many refused authentications) in the last " + std::to_string(seconds) + " s");
    e.unreported = 0;
    e.reported = now;
}

std::optional<int> refusal_budget::over_budget(const std::string& address, clock::time_point now) {
    std::lock_guard lock(mu_);
    const auto it = entries_.find(address);
    if (it == entries_.end()) return std::nullopt;
    auto& e = it->second;
    refill(e, now);
    if (e.tokens >= 1) {
        summarise(address, e, now);
        return std::nullopt;
    }
    ++e.unreported;
    summarise(address, e, now);
    return std::max(1, static_cast<int>(std::ceil((1 - e.tokens) / rate_)));
}

void refusal_budget::charge(const std::string& address, clock::time_point now) {
    std::lock_guard lock(mu_);
    if (now >= next_sweep_ ||
        (entries_.size() >= sweep_threshold && now >= next_sweep_ - interval_ + std::chrono::seconds(1)))
        sweep(now);
    if (entries_.size() >= max_tracked && !entries_.count(address)) return;
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
             " at once, then " + rate + " a second): its requests are refused 429 until it slows down");
    }
}

std::size_t refusal_budget::tracked() const {
    std::lock_guard lock(mu_);
    return entries_.size();
}

// Forget the addresses whose bucket is full again and that have nothing left to report.
void refusal_budget::sweep(clock::time_point now) {
    next_sweep_ = now + interval_;
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
