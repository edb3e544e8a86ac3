// A scripted HTTP server for the HTTP client tests: mcp::http::core::server on 127.0.0.1 with
// a handler the test sets, every request recorded. The handler runs on the server's I/O thread
// and must not block: to answer later (an SSE stream written step by step), keep the writer
// and use it from the test thread.
#pragma once

#include "http/http_server.hpp"

#include <mcp/json/json.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {

namespace core = mcp::http::core;

struct recorded_request {
    std::string method;
    std::string target;
    core::header_list headers;
    std::string body;
    std::chrono::steady_clock::time_point at;

    std::optional<std::string> header(std::string_view name) const {
        for (const auto& [n, v] : headers)
            if (core::iequals(n, name)) return v;
        return std::nullopt;
    }
    /// The JSON-RPC method of a POST body, or "".
    std::string rpc_method() const {
        try {
            auto v = json::parse(body);
            if (v.is_object())
                if (auto* m = v.as_object().if_contains("method"); m && m->is_string())
                    return std::string(m->get_string());
        } catch (...) {
        }
        return {};
    }
    json::value json() const { return json::parse(body); }
};

class http_test_server {
public:
    using handler = std::function<void(const recorded_request&, std::shared_ptr<core::response_writer>)>;

    explicit http_test_server(handler h = {}) : h_(std::move(h)) {
        core::server_options o;
        o.idle_timeout = std::chrono::seconds(30);
        srv_ = std::make_unique<core::server>(
            o, [this](core::request&& r, std::shared_ptr<core::response_writer> w) {
                recorded_request rec{std::move(r.method), std::move(r.target), std::move(r.headers),
                                     std::move(r.body), std::chrono::steady_clock::now()};
                handler h;
                {
                    std::lock_guard lock(mu_);
                    requests_.push_back(rec);
                    h = h_;
                }
                cv_.notify_all();
                if (h)
                    h(rec, std::move(w));
                else
                    w->respond(500, {}, "no handler");
            });
        srv_->start();
    }
    ~http_test_server() { stop(); }

    void stop() {
        if (srv_) srv_->stop(std::chrono::milliseconds(0));
    }

    void set_handler(handler h) {
        std::lock_guard lock(mu_);
        h_ = std::move(h);
    }

    unsigned short port() const { return srv_->port(); }
    std::string url(std::string_view path = "/mcp") const {
        return "http://127.0.0.1:" + std::to_string(port()) + std::string(path);
    }

    /// Wait until `n` requests (optionally only those `which` selects) arrived.
    bool wait_requests(std::size_t n, std::function<bool(const recorded_request&)> which = {},
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        std::unique_lock lock(mu_);
        return cv_.wait_for(lock, timeout, [&] { return count_locked(which) >= n; });
    }
    std::vector<recorded_request> requests() {
        std::lock_guard lock(mu_);
        return requests_;
    }
    std::vector<recorded_request> requests(std::function<bool(const recorded_request&)> which) {
        std::lock_guard lock(mu_);
        std::vector<recorded_request> out;
        for (const auto& r : requests_)
            if (which(r)) out.push_back(r);
        return out;
    }

    static std::function<bool(const recorded_request&)> method_is(std::string m) {
        return [m](const recorded_request& r) { return r.method == m; };
    }
    static std::function<bool(const recorded_request&)> rpc_is(std::string m) {
        return [m](const recorded_request& r) { return r.method == "POST" && r.rpc_method() == m; };
    }

    static core::header_list json_headers(core::header_list extra = {}) {
        extra.emplace_back("Content-Type", "application/json");
        return extra;
    }
    static core::header_list sse_headers(core::header_list extra = {}) {
        extra.emplace_back("Content-Type", "text/event-stream");
        extra.emplace_back("Cache-Control", "no-cache");
        return extra;
    }

private:
    std::size_t count_locked(const std::function<bool(const recorded_request&)>& which) const {
        if (!which) return requests_.size();
        std::size_t n = 0;
        for (const auto& r : requests_)
            if (which(r)) ++n;
        return n;
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<recorded_request> requests_;
    handler h_;
    std::unique_ptr<core::server> srv_;
};

/// {"jsonrpc":"2.0","id":<id>,"result":<result>}
inline std::string rpc_result(const json::value& id, const json::value& result) {
    return to_json(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}
/// {"jsonrpc":"2.0","id":<id>,"error":{"code":..,"message":..}}
inline std::string rpc_error(const json::value& id, int code, std::string message) {
    json::object o{{"jsonrpc", "2.0"}, {"error", json::object{{"code", code}, {"message", message}}}};
    if (!id.is_null()) o["id"] = id;
    return to_json(o);
}
/// One SSE message event (with an id when given).
inline std::string sse_event(std::string_view data, std::string_view id = {}) {
    std::string e;
    if (!id.empty()) e.append("id: ").append(id).append("\n");
    e.append("data: ").append(data).append("\n\n");
    return e;
}

/// A server that takes every POST and answers none (holding the response open), and refuses
/// other methods with 405: a remote MCP server that has stopped answering.
class silent_http_server {
public:
    std::string url() const { return server_.url(); }
    http_test_server& server() { return server_; }

private:
    std::mutex mu_;
    std::vector<std::shared_ptr<core::response_writer>> held_;
    http_test_server server_{[this](const recorded_request& r, std::shared_ptr<core::response_writer> w) {
        if (r.method != "POST") {
            w->respond(405, {}, "");
            return;
        }
        std::lock_guard lock(mu_);
        held_.push_back(std::move(w));
    }};
};

} // namespace mcp::test
