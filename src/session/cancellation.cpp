// Cancellation state shared by a source and its tokens.
#include <mcp/session/cancellation.hpp>

#include <atomic>
#include <mutex>
#include <vector>

namespace mcp {
namespace detail {
struct cancellation_state {
    std::atomic<bool> cancelled{false};
    std::mutex mu;
    std::string reason;
    std::vector<std::function<void()>> callbacks;
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

void cancellation_token::on_cancel(std::function<void()> callback) const {
    if (!state_ || !callback) return;
    {
        std::lock_guard lock(state_->mu);
        if (!state_->cancelled.load(std::memory_order_relaxed)) {
            state_->callbacks.push_back(std::move(callback));
            return;
        }
    }
    callback();
}

cancellation_source::cancellation_source() : state_(std::make_shared<detail::cancellation_state>()) {}

bool cancellation_source::cancel(std::string reason) {
    std::vector<std::function<void()>> callbacks;
    {
        std::lock_guard lock(state_->mu);
        if (state_->cancelled.load(std::memory_order_relaxed)) return false;
        state_->reason = std::move(reason);
        state_->cancelled.store(true, std::memory_order_release);
        callbacks.swap(state_->callbacks);
    }
    for (auto& cb : callbacks) cb();
    return true;
}

bool cancellation_source::is_cancelled() const noexcept {
    return state_->cancelled.load(std::memory_order_acquire);
}

} // namespace mcp
