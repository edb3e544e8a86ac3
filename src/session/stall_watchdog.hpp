// Watches handlers that run on a transport's reading thread (inline dispatch) and hands reading
// over to a new thread when one of them takes longer than its threshold, so that a slow handler
// costs a thread, never the session's ability to read pings, cancellations or other requests.
//
// Cost per inline handler: two clock reads and two atomic stores. The watchdog thread polls
// every millisecond or two while inline work has happened in the last second, and sleeps
// untimed otherwise.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace mcp::detail {

/// One per reading thread (a thread runs one inline handler at a time; after a hand-off several
/// reading threads of one session may each be inside a handler).
struct stall_slot {
    std::atomic<std::int64_t> started_ns{0}; ///< 0: no inline handler running
    std::atomic<std::int64_t> threshold_ns{5'000'000};
    std::atomic<bool> handed_off{false}; ///< reading was handed off for the current handler
    std::mutex mu;
    std::function<void()> hand_off; ///< asks the current transport to read elsewhere (under mu)
    std::weak_ptr<void> owner;      ///< whose hand_off is installed (under mu)

    /// Hand reading off now (once per handler); safe from any thread.
    void trigger() {
        if (handed_off.exchange(true)) return;
        std::function<void()> f;
        {
            std::lock_guard lock(mu);
            f = hand_off;
        }
        if (f) f();
    }
};

/// The calling thread's slot, registered with the watchdog on first use and removed when the
/// thread ends.
stall_slot& thread_stall_slot();

class stall_watchdog {
public:
    static stall_watchdog& instance();
    void add(const std::shared_ptr<stall_slot>& slot);
    void remove(const stall_slot* slot);
    /// Mark the start / end of an inline handler in `slot`.
    void begin(stall_slot& slot);
    void end(stall_slot& slot);

    struct impl;

private:
    stall_watchdog();
    impl* impl_;
};

std::int64_t monotonic_ns() noexcept;

} // namespace mcp::detail
