// mcp/jsonrpc/cancellation.hpp - cooperative cancellation: a source that cancels and the tokens
// handlers poll or subscribe to. Fired by an incoming notifications/cancelled, a closed
// connection, or a timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace mcp {

namespace detail {
struct cancellation_state;
}

class cancellation_token {
public:
    cancellation_token() = default; ///< a token that is never cancelled
    bool is_cancelled() const noexcept;
    /// Why it was cancelled ("" when not cancelled or no reason was given).
    std::string reason() const;
    /// Run `callback` once when cancelled; immediately (on this thread) if already cancelled.
    /// The callback runs on whatever thread cancels: keep it short and non-blocking. It is given
    /// the reason, so it need not capture the token (which would keep the token alive).
    /// Returns a registration to pass to remove_callback (0 when it ran at once).
    std::uint64_t on_cancel(std::function<void(const std::string& reason)> callback) const;
    std::uint64_t on_cancel(std::function<void()> callback) const;
    /// Forget a callback that is no longer wanted (its request finished first).
    void remove_callback(std::uint64_t registration) const;
    /// False for a default-constructed token, which can never be cancelled.
    bool can_be_cancelled() const noexcept { return state_ != nullptr; }

private:
    friend class cancellation_source;
    explicit cancellation_token(std::shared_ptr<detail::cancellation_state> s) : state_(std::move(s)) {}
    std::shared_ptr<detail::cancellation_state> state_;
};

class cancellation_source {
public:
    cancellation_source();
    /// Cancel (first call wins); runs the registered callbacks. Returns false if already cancelled.
    bool cancel(std::string reason = {});
    bool is_cancelled() const noexcept;
    cancellation_token token() const { return cancellation_token(state_); }

private:
    std::shared_ptr<detail::cancellation_state> state_;
};

} // namespace mcp
