// A transport that passes everything through to another one and keeps a copy of every message
// that arrives: what a peer really received, for tests that check the wire (an id in one
// message named by a later one).
#pragma once

#include "support/eventually.hpp"

#include <mcp/json/json.hpp>
#include <mcp/transport/transport.hpp>

#include <functional>
#include <mutex>
#include <vector>

namespace mcp::test {

class recording_transport final : public transport {
public:
    explicit recording_transport(transport_ptr inner) : inner_(std::move(inner)) {}

    void start(transport_handler h) override {
        auto keep = [this](std::string_view m) {
            try {
                auto v = json::parse(m);
                std::lock_guard lock(mu_);
                received_.push_back(std::move(v));
            } catch (const std::exception&) {
                // Not JSON: the engine reports it; nothing to record.
            }
        };
        if (h.on_message)
            h.on_message = [keep, next = h.on_message](std::string_view m) {
                keep(m);
                next(m);
            };
        if (h.on_last_message)
            h.on_last_message = [keep, next = h.on_last_message](std::string_view m) {
                keep(m);
                next(m);
            };
        if (h.on_message_from)
            h.on_message_from = [keep, next = h.on_message_from](std::string_view m,
                                                                 std::shared_ptr<const message_origin> o) {
                keep(m);
                next(m, std::move(o));
            };
        inner_->start(std::move(h));
    }
    void send(std::string message) override { inner_->send(std::move(message)); }
    void send_reply(std::string message, const jsonrpc::request_id& id) override {
        inner_->send_reply(std::move(message), id);
    }
    void send_related(std::string message, const jsonrpc::request_id& related) override {
        inner_->send_related(std::move(message), related);
    }
    void close() override { inner_->close(); }
    bool close_request_stream(const jsonrpc::request_id& id) override {
        return inner_->close_request_stream(id);
    }
    void set_max_message_size(std::size_t bytes) override { inner_->set_max_message_size(bytes); }
    bool hand_off_reading() override { return inner_->hand_off_reading(); }

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
    transport_ptr inner_;
    mutable std::mutex mu_;
    std::vector<json::value> received_;
};

} // namespace mcp::test
