// A transport that passes everything through to another one and keeps a copy of every message
// that arrives: what a peer really received, for tests that check the wire (an id in one
// message named by a later one).
#pragma once

#include "support/eventually.hpp"

#include <mcp/json/json.hpp>
#include <mcp/transport/transport_decorator.hpp>

#include <functional>
#include <mutex>
#include <vector>

namespace mcp::test {

class recording_transport final : public transport_decorator {
public:
    using transport_decorator::transport_decorator;

    void start(transport_handler h) override {
        if (h.on_message)
            h.on_message = [this, next = std::move(h.on_message)](jsonrpc::incoming_message&& m) {
                if (!m.value.is_null()) { // not JSON: the engine reports it; nothing to record
                    std::lock_guard lock(mu_);
                    received_.push_back(m.value);
                }
                next(std::move(m));
            };
        transport_decorator::start(std::move(h));
    }

    /// Every message received so far, parsed.
    std::vector<json::value> received() const {
        std::lock_guard lock(mu_);
        return received_;
    }
    /// The first message received that `pred` accepts, waiting for it up to `timeout`; null if none came.
    json::value wait_for(const std::function<bool(const json::object&)>& pred,
                         std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
        json::value found;
        eventually(
            [&] {
                for (const auto& m : received())
                    if (m.is_object() && pred(m.get_object())) {
                        found = m;
                        return true;
                    }
                return false;
            },
            timeout);
        return found;
    }

private:
    mutable std::mutex mu_;
    std::vector<json::value> received_;
};

} // namespace mcp::test
