#include "session/timer_service.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace mcp::detail {

struct timer_service::impl {
    std::mutex mu;
    std::condition_variable cv;
    std::multimap<clock::time_point, timer_id> by_deadline;
    std::unordered_map<timer_id,
                       std::pair<std::multimap<clock::time_point, timer_id>::iterator, std::function<void()>>>
        timers;
    timer_id next = 1;

    void run() {
        std::unique_lock lock(mu);
        for (;;) {
            if (by_deadline.empty()) {
                cv.wait(lock);
                continue;
            }
            auto first = by_deadline.begin();
            if (const auto when = first->first; when > clock::now()) {
                // A copy: cancel() may erase this node while we wait.
                cv.wait_until(lock, when);
                continue;
            }
            auto it = timers.find(first->second);
            by_deadline.erase(first);
            if (it == timers.end()) continue;
            auto callback = std::move(it->second.second);
            timers.erase(it);
            lock.unlock();
            try {
                callback();
            } catch (...) {
            }
            callback = nullptr;
            lock.lock();
        }
    }
};

timer_service::timer_service() : impl_(new impl) {
    std::thread([p = impl_] { p->run(); }).detach();
}

timer_service& timer_service::instance() {
    // Never destroyed: its thread lives as long as the process.
    static auto* service = new timer_service();
    return *service;
}

timer_service::timer_id timer_service::schedule(clock::time_point when, std::function<void()> callback) {
    std::lock_guard lock(impl_->mu);
    const auto id = impl_->next++;
    auto pos = impl_->by_deadline.emplace(when, id);
    impl_->timers.emplace(id, std::make_pair(pos, std::move(callback)));
    if (pos == impl_->by_deadline.begin()) impl_->cv.notify_one();
    return id;
}

bool timer_service::cancel(timer_id id) {
    std::function<void()> dropped;
    std::lock_guard lock(impl_->mu);
    auto it = impl_->timers.find(id);
    if (it == impl_->timers.end()) return false;
    impl_->by_deadline.erase(it->second.first);
    dropped = std::move(it->second.second);
    impl_->timers.erase(it);
    return true;
}

} // namespace mcp::detail
