// A transport_handler that records what a transport delivers, for transport tests: messages
// (and the thread each came on), errors, closes, and whether a close overlapped a message.
#pragma once

#include <mcp/transport/transport.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mcp::test {

struct collector {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> lines;
    std::vector<std::thread::id> threads;
    std::vector<std::string> errors;
    std::vector<std::string> failures; ///< on_error with severity::failure
    int closes = 0;
    std::atomic<bool> in_message{false};
    std::atomic<bool> close_during_message{false};
    std::chrono::milliseconds message_delay{0};

    transport_handler handler() {
        transport_handler h;
        h.on_message = [this](jsonrpc::incoming_message&& m) {
            if (m.error && m.text.empty()) { // refused by the transport (over the size limit)
                std::lock_guard lock(mu);
                errors.emplace_back(m.error->what());
                cv.notify_all();
                return;
            }
            in_message = true;
            if (message_delay.count()) std::this_thread::sleep_for(message_delay);
            {
                std::lock_guard lock(mu);
                // A transport that parsed more than one message at once delivers values only.
                lines.push_back(m.text.empty() ? json::serialize(m.value) : std::string(m.text));
                threads.push_back(std::this_thread::get_id());
            }
            in_message = false;
            cv.notify_all();
        };
        h.on_error = [this](std::string_view e, transport_handler::severity level) {
            std::lock_guard lock(mu);
            (level == transport_handler::severity::failure ? failures : errors).emplace_back(e);
            cv.notify_all();
        };
        h.on_close = [this] {
            if (in_message) close_during_message = true;
            std::lock_guard lock(mu);
            ++closes;
            cv.notify_all();
        };
        return h;
    }
    bool wait_lines(std::size_t n, std::chrono::milliseconds t = std::chrono::milliseconds(10000)) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return lines.size() >= n; });
    }
    bool wait_errors(std::size_t n, std::chrono::milliseconds t = std::chrono::milliseconds(5000)) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return errors.size() >= n; });
    }
    bool wait_closed(std::chrono::milliseconds t = std::chrono::milliseconds(5000)) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, t, [&] { return closes > 0; });
    }
};

} // namespace mcp::test
