// A single background thread that runs callbacks at deadlines: request timeouts for every
// session of the process, with no thread or OS timer per request.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace mcp::detail {

class timer_service {
public:
    using clock = std::chrono::steady_clock;
    using timer_id = std::uint64_t;

    static timer_service& instance();

    /// Run `callback` on the timer thread at `when`. Keep callbacks short (post real work).
    timer_id schedule(clock::time_point when, std::function<void()> callback);
    /// Returns false if the timer already fired or was cancelled.
    bool cancel(timer_id id);

    struct impl;

private:
    timer_service();
    impl* impl_;
};

} // namespace mcp::detail
