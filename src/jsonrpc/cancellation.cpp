// Cancellation state shared by a source and its tokens.
#include <mcp/jsonrpc/cancellation.hpp>

#include <atomic>
#include <mutex>
#include <vector>

namespace mcp {
namespace detail {
struct cancellation_state {
    std::atomic<bool> cancelled{false};
    std::mutex mu;
    std::string reason;
    std::vector<std::pair<std::uint64_t, std::function<void(const std::string&)>>> callbacks;
    std::uint64_t next = 1;
};
} // namespace detail

bool cancellation_token::is_cancelled() const noexcept {
    return state_ && state_->cancelled.load(std::memory_order_acquire);
}

std::string cancellation_token::reason() const {
    if (!state_) return {};
    std::lock_guard lock(state_->mu);
    return state_->reason;
}

std::uint64_t cancellation_token::on_cancel(std::function<void(const std::string&)> callback) const {
    if (!state_ || !callback) return 0;
    std::string reason;
    {
        std::lock_guard lock(state_->mu);
        if (!state_->cancelled.load(std::memory_order_relaxed)) {
            const auto id = state_->next++;
            state_->callbacks.emplace_back(id, std::move(callback));
            return id;
        }
        reason = state_->reason;
    }
    callback(reason);
    return 0;
}

std::uint64_t cancellation_token::on_cancel(std::function<void()> callback) const {
    if (!callback) return 0;
    return on_cancel([cb = std::move(callback)](const std::string&) { cb(); });
}

void cancellation_token::remove_callback(std::uint64_t registration) const {
    if (!state_ || !registration) return;
    std::function<void(const std::string&)> dropped; // destroyed outside the lock
    std::lock_guard lock(state_->mu);
    auto& cbs = state_->callbacks;
    for (auto it = cbs.begin(); it != cbs.end(); ++it)
        if (it->first == registration) {
            dropped = std::move(it->second);
            cbs.erase(it);
            break;
        }
}

cancellation_source::cancellation_source() : state_(std::make_shared<detail::cancellation_state>()) {}

bool cancellation_source::cancel(std::string reason) {
    std::vector<std::pair<std::uint64_t, std::function<void(const std::string&)>>> callbacks;
    std::string why;
    {
        std::lock_guard lock(state_->mu);
        if (state_->cancelled.load(std::memory_order_relaxed)) return false;
        state_->reason = std::move(reason);
        why = state_->reason;
        state_->cancelled.store(true, std::memory_order_release);
        callbacks.swap(state_->callbacks);
    }
    for (auto& [id, cb] : callbacks) cb(why);
    return true;
}

bool cancellation_source::is_cancelled() const noexcept {
    return state_->cancelled.load(std::memory_order_acquire);
}

} // namespace mcp
