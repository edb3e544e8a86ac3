// Waiting in a test for something another thread or process does.
#pragma once

#include <chrono>
#include <thread>

namespace mcp::test {

/// Whether `pred` becomes true within `timeout` (checked every millisecond). A test that waits
/// this long has failed.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

} // namespace mcp::test
