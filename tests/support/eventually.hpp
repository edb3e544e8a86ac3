// Waiting in a test for something another thread or process does.
#pragma once

#include <chrono>
#include <cstdlib>
#include <thread>

namespace mcp::test {

/// How much longer than usual the tests may wait: MCPXX_TEST_TIMEOUT_SCALE (default 1), set by
/// the TSan stage of scripts/run-tests, where everything runs 5-15 times slower. A wait that
/// only bounds how long a failing test hangs is scaled; a wait whose length is the thing tested
/// (a timeout that must fire, a delay that must pass) is not.
inline double timeout_scale() {
    static const double scale = [] {
        const char* s = std::getenv("MCPXX_TEST_TIMEOUT_SCALE");
        const double v = s ? std::atof(s) : 1.0;
        return v >= 1.0 ? v : 1.0;
    }();
    return scale;
}

/// `d` times timeout_scale().
template <class Rep, class Period>
std::chrono::milliseconds scaled(std::chrono::duration<Rep, Period> d) {
    return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(
        std::chrono::duration<double, std::milli>(d).count() * timeout_scale()));
}

/// Whether `pred` becomes true within `timeout` (checked every millisecond; scaled by
/// timeout_scale()). A test that waits this long has failed.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + scaled(timeout);
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

} // namespace mcp::test
