#include "session/stall_watchdog.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace mcp::detail {

std::int64_t monotonic_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct stall_watchdog::impl {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::shared_ptr<stall_slot>> slots;
    std::atomic<std::int64_t> last_activity_ns{0};
    std::atomic<bool> sleeping{false};

    void run() {
        std::unique_lock lock(mu);
        for (;;) {
            const auto now = monotonic_ns();
            if (now - last_activity_ns.load() > 1'000'000'000) {
                // begin() stores the activity time before it looks at `sleeping`: re-checking the
                // time after setting the flag means no start of a handler goes unseen.
                sleeping.store(true);
                cv.wait(lock, [&] {
                    return !sleeping.load() || monotonic_ns() - last_activity_ns.load() <= 1'000'000'000;
                });
                sleeping.store(false);
                continue;
            }
            std::vector<std::shared_ptr<stall_slot>> stalled;
            for (auto& s : slots) {
                const auto started = s->started_ns.load(std::memory_order_acquire);
                if (started && now - started > s->threshold_ns.load() && !s->handed_off.load())
                    stalled.push_back(s);
            }
            lock.unlock();
            for (auto& s : stalled) s->trigger();
            stalled.clear();
            lock.lock();
            cv.wait_for(lock, std::chrono::milliseconds(1));
        }
    }
};

stall_watchdog::stall_watchdog() : impl_(new impl) {
    std::thread([p = impl_] { p->run(); }).detach();
}

stall_watchdog& stall_watchdog::instance() {
    static auto* w = new stall_watchdog(); // never destroyed: its thread lives with the process
    return *w;
}

void stall_watchdog::add(const std::shared_ptr<stall_slot>& slot) {
    std::lock_guard lock(impl_->mu);
    impl_->slots.push_back(slot);
}

void stall_watchdog::remove(const stall_slot* slot) {
    std::lock_guard lock(impl_->mu);
    impl_->slots.erase(std::remove_if(impl_->slots.begin(), impl_->slots.end(),
                                      [&](const auto& s) { return s.get() == slot; }),
                       impl_->slots.end());
}

stall_slot& thread_stall_slot() {
    // Registered on first use; the holder's destructor (thread exit) unregisters it.
    struct holder {
        std::shared_ptr<stall_slot> slot = std::make_shared<stall_slot>();
        holder() { stall_watchdog::instance().add(slot); }
        ~holder() { stall_watchdog::instance().remove(slot.get()); }
    };
    thread_local holder h;
    return *h.slot;
}

void stall_watchdog::begin(stall_slot& slot) {
    const auto now = monotonic_ns();
    slot.handed_off.store(false, std::memory_order_relaxed);
    slot.started_ns.store(now, std::memory_order_release);
    impl_->last_activity_ns.store(now);
    if (impl_->sleeping.load()) {
        std::lock_guard lock(impl_->mu);
        impl_->sleeping.store(false);
        impl_->cv.notify_one();
    }
}

void stall_watchdog::end(stall_slot& slot) {
    slot.started_ns.store(0, std::memory_order_release);
    impl_->last_activity_ns.store(monotonic_ns(), std::memory_order_relaxed);
}

} // namespace mcp::detail
