// The elastic thread pool behind mcp::default_executor().
//
// Workers take work from one queue. A monitor thread wakes only while work is queued and adds a
// worker when the oldest queued item has waited longer than the starvation threshold with no
// worker idle: a handler blocked for seconds (or forever) costs one thread, never the session.
#include <mcp/session/executor.hpp>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace mcp {

struct thread_pool::impl : std::enable_shared_from_this<impl> {
    using clock = std::chrono::steady_clock;
    struct item {
        std::function<void()> work;
        clock::time_point queued;
    };

    thread_pool_options opts;
    std::mutex mu;
    std::condition_variable work_cv;
    std::condition_variable monitor_cv;
    std::deque<item> queue;
    std::size_t threads = 0;
    std::size_t idle = 0;
    bool stopping = false;
    bool monitor_sleeping = false;     // the monitor waits untimed; post() must wake it
    std::vector<std::thread> joinable; // every thread ever started that has not been joined
    std::thread monitor;

    void start_worker_locked() {
        ++threads;
        joinable.emplace_back([self = shared_from_this()] { self->worker_loop(); });
    }

    void worker_loop() {
        std::unique_lock lock(mu);
        for (;;) {
            if (queue.empty()) {
                if (stopping) break;
                ++idle;
                const bool timed_out =
                    !work_cv.wait_for(lock, opts.idle_timeout, [&] { return stopping || !queue.empty(); });
                --idle;
                if (timed_out && threads > opts.min_threads) {
                    // A worker that retires detaches itself: the pool lives as long as the
                    // process (default_executor), and a finished thread left in `joinable` keeps
                    // its stack and descriptor until joined, so a pool that grows and shrinks
                    // again and again would leak one per retirement. `self` keeps impl alive
                    // for the rest of this function.
                    retire_locked();
                    break;
                }
                continue;
            }
            auto work = std::move(queue.front().work);
            queue.pop_front();
            lock.unlock();
            try {
                work();
            } catch (...) {
                // Work items handle their own errors; an escaping exception must not kill the pool.
            }
            work = nullptr; // destroy captures outside the lock
            lock.lock();
        }
        --threads;
    }

    void retire_locked() {
        const auto me = std::this_thread::get_id();
        const auto it = std::find_if(joinable.begin(), joinable.end(),
                                     [&](const std::thread& t) { return t.get_id() == me; });
        if (it == joinable.end()) return; // the destructor took the list: it joins us
        it->detach();
        joinable.erase(it);
    }

    // Polls every half threshold while there is work, sleeps untimed after a quiet second, so an
    // idle process does not wake and a busy one pays nothing per post().
    void monitor_loop() {
        std::unique_lock lock(mu);
        auto last_busy = clock::now();
        while (!stopping) {
            const auto now = clock::now();
            if (queue.empty()) {
                if (now - last_busy > std::chrono::seconds(1)) {
                    // The flag is set again before every wait: post() clears it when it wakes the
                    // monitor, and a worker may take that item before the monitor looks, which
                    // sends the monitor back to sleep; with the flag left clear, no later post()
                    // would wake it and a pool whose workers are all blocked would starve.
                    while (!stopping && queue.empty()) {
                        monitor_sleeping = true;
                        monitor_cv.wait(lock);
                    }
                    monitor_sleeping = false;
                    last_busy = clock::now();
                    continue;
                }
            } else {
                last_busy = now;
                if (now - queue.front().queued >= opts.starvation_threshold && idle == 0 &&
                    threads < opts.max_threads)
                    start_worker_locked();
            }
            monitor_cv.wait_for(lock, opts.starvation_threshold / 2);
        }
    }
};

thread_pool::thread_pool(thread_pool_options options) : impl_(std::make_shared<impl>()) {
    if (options.min_threads == 0)
        options.min_threads = std::max<std::size_t>(1, std::thread::hardware_concurrency() / 2);
    options.max_threads = std::max(options.max_threads, options.min_threads);
    impl_->opts = options;
    std::lock_guard lock(impl_->mu);
    for (std::size_t i = 0; i < options.min_threads; ++i) impl_->start_worker_locked();
    impl_->monitor = std::thread([p = impl_.get()] { p->monitor_loop(); });
}

thread_pool::~thread_pool() {
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(impl_->mu);
        impl_->stopping = true;
    }
    impl_->work_cv.notify_all();
    impl_->monitor_cv.notify_all();
    impl_->monitor.join();
    {
        std::lock_guard lock(impl_->mu);
        threads.swap(impl_->joinable);
    }
    for (auto& t : threads) {
        if (t.get_id() == std::this_thread::get_id())
            t.detach();
        else
            t.join();
    }
}

void thread_pool::post(std::function<void()> work) {
    bool wake_monitor = false;
    {
        std::lock_guard lock(impl_->mu);
        impl_->queue.push_back({std::move(work), impl::clock::now()});
        if (impl_->threads < impl_->opts.min_threads) impl_->start_worker_locked();
        wake_monitor = impl_->monitor_sleeping;
        impl_->monitor_sleeping = false;
    }
    impl_->work_cv.notify_one();
    if (wake_monitor) impl_->monitor_cv.notify_one();
}

std::size_t thread_pool::thread_count() const {
    std::lock_guard lock(impl_->mu);
    return impl_->threads;
}

std::shared_ptr<executor> default_executor() {
    // Deliberately never destroyed: handlers may still be running when static destructors run.
    static auto* pool = new std::shared_ptr<executor>(std::make_shared<thread_pool>());
    return *pool;
}

} // namespace mcp
