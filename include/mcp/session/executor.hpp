// mcp/session/executor.hpp - where request handlers run.
//
// Incoming requests are handed to an executor so that a slow or blocking handler never stalls
// reading, pings, cancellations or other requests. The default is a shared elastic thread pool:
// it keeps a few threads (one per core) and adds threads, up to a maximum, only when queued work
// has waited too long because every thread is busy (for example blocked in a tool). That keeps the
// common case cheap and a stuck handler harmless.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace mcp {

class executor {
public:
    virtual ~executor() = default;
    /// Run `work` at some later point on some thread. Must not run it inside post().
    virtual void post(std::function<void()> work) = 0;
};

struct thread_pool_options {
    std::size_t min_threads = 0; ///< 0 = one per hardware thread (at least 2)
    std::size_t max_threads = 64;
    /// Queued work older than this while every thread is busy makes the pool grow by one thread.
    std::chrono::milliseconds starvation_threshold{20};
    /// Threads above min_threads exit after this long without work.
    std::chrono::milliseconds idle_timeout{30000};
};

class thread_pool final : public executor {
public:
    explicit thread_pool(thread_pool_options options = {});
    ~thread_pool() override; ///< runs what is queued, then joins every thread
    void post(std::function<void()> work) override;
    std::size_t thread_count() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

/// The process-wide pool used when a session is given no executor.
std::shared_ptr<executor> default_executor();

} // namespace mcp
