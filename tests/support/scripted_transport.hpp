// A transport for wire tests: the test injects raw incoming messages and reads back exactly what
// the engine wrote, message by message.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

namespace mcp::test {

class scripted_transport : public transport {
public:
    void start(transport_handler h) override {
        std::lock_guard lock(mu_);
        handler_ = std::move(h);
    }
    void send(jsonrpc::outgoing_message message) override {
        std::lock_guard lock(mu_);
        sent_.push_back(std::move(message.text));
        cv_.notify_all();
    }
    void close() override {
        std::function<void()> cb;
        {
            std::lock_guard lock(mu_);
            if (closed_) return;
            closed_ = true;
            cb = handler_.on_close;
        }
        if (cb) cb();
    }
    void set_max_message_size(std::size_t n) override { max_size_ = n; }

    /// Deliver one incoming message as the transport's reader would (same thread as the caller).
    void inject(std::string_view text) {
        if (text.size() > max_size_) {
            handler_.on_message(jsonrpc::incoming_message::refused(
                mcp::error(error_code::invalid_request, "message of " + std::to_string(text.size()) +
                                                            " bytes exceeds the limit of " +
                                                            std::to_string(max_size_) + " bytes")));
            return;
        }
        handler_.on_message(jsonrpc::incoming_message::parse(text));
    }
    /// Next message the engine wrote, waiting up to `timeout`; nullopt if none came.
    std::optional<std::string> next(std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
        std::unique_lock lock(mu_);
        if (!cv_.wait_for(lock, timeout, [&] { return !sent_.empty(); })) return std::nullopt;
        auto s = std::move(sent_.front());
        sent_.pop_front();
        return s;
    }
    /// Next message parsed as JSON (null value if none came).
    json::value next_json(std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
        auto s = next(timeout);
        if (!s) return nullptr;
        return json::parse(*s);
    }
    std::size_t max_size() const { return max_size_; }
    bool closed() const {
        std::lock_guard lock(mu_);
        return closed_;
    }

private:
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::string> sent_;
    transport_handler handler_;
    bool closed_ = false;
    std::size_t max_size_ = SIZE_MAX;
};

} // namespace mcp::test
