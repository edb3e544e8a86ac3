// Helpers for wire tests that play a client against a server (or a server against a client)
// over a scripted transport: send a request line, wait for the reply with that id, collecting
// notifications and requests that arrive meanwhile.
#pragma once

#include "support/scripted_transport.hpp"

#include <gtest/gtest.h>

#include <mcp/protocol/revision.hpp>

#include <deque>
#include <functional>

namespace mcp::test {

class wire_peer {
public:
    explicit wire_peer(std::shared_ptr<scripted_transport> t) : wire_(std::move(t)) {}

    /// Called with (0, text) for every message received from the other side and (1, text) for
    /// every message this peer sends: how schema tests see the whole conversation.
    std::function<void(int, std::string_view)> observer;

    /// Send a request and return its whole response object (result or error).
    json::object request(std::string_view method, json::value params = nullptr) {
        const auto id = next_id_++;
        json::object msg{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
        if (!params.is_null()) msg["params"] = std::move(params);
        send(to_json(msg));
        return wait_response(id);
    }
    /// The result of a request; fails the test if it was an error.
    json::object result(std::string_view method, json::value params = nullptr) {
        auto r = request(method, std::move(params));
        if (!r.contains("result")) {
            ADD_FAILURE() << method << " failed: " << to_json(r);
            return {};
        }
        return r.at("result").as_object();
    }
    void notify(std::string_view method, json::value params = nullptr) {
        json::object msg{{"jsonrpc", "2.0"}, {"method", method}};
        if (!params.is_null()) msg["params"] = std::move(params);
        send(to_json(msg));
    }
    /// Send raw text (seen by the observer).
    void send(const std::string& text) {
        if (observer) observer(1, text);
        wire_->inject(text);
    }
    /// initialize + notifications/initialized; returns the initialize result.
    json::object initialize(revision r = latest_initialize_revision, json::object caps = {}) {
        auto res =
            result("initialize", json::object{{"protocolVersion", to_string(r)},
                                              {"capabilities", std::move(caps)},
                                              {"clientInfo", {{"name", "wire-test"}, {"version", "1"}}}});
        notify("notifications/initialized");
        return res;
    }
    json::object wait_response(std::int64_t id) {
        for (;;) {
            auto v = receive(std::chrono::milliseconds(5000));
            if (v.is_null()) {
                ADD_FAILURE() << "no response to request " << id;
                return {};
            }
            auto& o = v.as_object();
            if (const auto* i = o.if_contains("id");
                i && i->is_int64() && i->as_int64() == id && !o.contains("method"))
                return o;
            other_.push_back(std::move(o));
        }
    }
    /// Messages other than our responses (notifications, server requests), in arrival order.
    std::deque<json::object>& others() { return other_; }
    /// Next notification or request from the other side with this method (waiting if needed).
    std::optional<json::object>
    next_message(std::string_view method,
                 std::chrono::milliseconds timeout = std::chrono::milliseconds(3000)) {
        for (auto it = other_.begin(); it != other_.end(); ++it)
            if (it->contains("method") && it->at("method").as_string() == method) {
                auto o = std::move(*it);
                other_.erase(it);
                return o;
            }
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            auto v = receive(std::chrono::milliseconds(100));
            if (v.is_null()) continue;
            auto& o = v.as_object();
            if (o.contains("method") && o.at("method").as_string() == method) return o;
            other_.push_back(std::move(o));
        }
        return std::nullopt;
    }
    scripted_transport& wire() { return *wire_; }

    json::value receive(std::chrono::milliseconds timeout) {
        auto text = wire_->next(timeout);
        if (!text) return nullptr;
        if (observer) observer(0, *text);
        return json::parse(*text);
    }

private:
    std::shared_ptr<scripted_transport> wire_;
    std::int64_t next_id_ = 1;
    std::deque<json::object> other_;
};

} // namespace mcp::test
