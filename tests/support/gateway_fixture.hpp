// A gateway (mcp::host::gateway) in front of real server processes, served over Streamable HTTP
// on a loopback port, with the ways the tests talk to it: an mcp::client of the initialize era
// over the HTTP client transport, and 2026-07-28 requests POSTed by hand.
#pragma once

#include "support/recording_transport.hpp"

#include <mcp/client/client.hpp>
#include <mcp/host/gateway.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/http/server.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mcp::test {

using namespace std::chrono_literals;

inline std::string built(const char* program) {
    return std::string(MCPXX_BINARY_DIR) + "/" + program;
}

inline host::server_config stdio_server(std::string name, const char* program,
                                        std::vector<std::string> args = {},
                                        std::map<std::string, std::string> env = {}) {
    host::server_config c;
    c.name = std::move(name);
    c.command = built(program);
    c.args = std::move(args);
    c.env = std::move(env);
    return c;
}

/// Wait (polling every few ms) until `pred` holds; false after `timeout`.
template <class Pred> bool wait_until(Pred pred, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!pred()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

/// The JSON-RPC message answering a POST: the body itself, or the last `data:` of an SSE body
/// that carries a response (notifications before it are kept in `notifications`).
struct rpc_reply {
    int status = 0;
    json::value message;
    std::vector<json::value> notifications;
    const json::object& result() const { return message.as_object().at("result").as_object(); }
    bool is_error() const { return message.is_object() && message.as_object().contains("error"); }
    std::int64_t error_code() const {
        return message.as_object().at("error").as_object().at("code").as_int64();
    }
};

inline rpc_reply parse_reply(const http::fetch_response& r) {
    rpc_reply out;
    out.status = r.status;
    const auto type = r.header("Content-Type").value_or("");
    if (type.find("text/event-stream") == std::string_view::npos) {
        if (!r.body.empty()) out.message = json::parse(r.body);
        return out;
    }
    std::size_t pos = 0;
    while (pos < r.body.size()) {
        auto end = r.body.find('\n', pos);
        if (end == std::string::npos) end = r.body.size();
        const std::string_view line(r.body.data() + pos, end - pos);
        if (line.rfind("data:", 0) == 0) {
            auto v = json::parse(line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5));
            if (v.as_object().contains("id"))
                out.message = std::move(v);
            else
                out.notifications.push_back(std::move(v));
        }
        pos = end + 1;
    }
    return out;
}

class gateway_fixture {
public:
    explicit gateway_fixture(std::vector<host::server_config> servers,
                             const std::function<void(host::gateway_options&)>& tweak = {}) {
        host::gateway_options o;
        o.manager.approval.approve_all = true;
        o.manager.restart.initial_delay = 20ms;
        o.on_event = [this](const json::object& e) {
            std::lock_guard lock(mu_);
            events_.push_back(e);
        };
        if (tweak) tweak(o);
        gw_ = std::make_unique<host::gateway>(std::move(o));
        for (auto& s : servers) gw_->add_server(std::move(s));
        gw_->start();
        http_ = std::make_unique<http::server>(gw_->server(), http::server_options{});
        http_->start();
    }
    ~gateway_fixture() {
        http_->stop(0ms);
        gw_->close();
    }

    host::gateway& gateway() { return *gw_; }
    std::string url() const { return http_->url(); }
    unsigned short port() const { return http_->port(); }

    /// A client over Streamable HTTP, of the initialize era unless told; `setup` sets its handlers.
    std::shared_ptr<mcp::client> connect(const std::function<void(mcp::client&)>& setup = {},
                                         revision era = revision::v2025_11_25) {
        auto c = std::make_shared<mcp::client>(
            client_options{.info = {"gateway-test", "1.0"}, .protocol_version = era, .timeout = 10s});
        if (setup) setup(*c);
        c->connect(http::make_client_transport(url()));
        return c;
    }

    /// connect(), the client's transport keeping what the client receives (`wire`).
    std::shared_ptr<mcp::client> connect_recorded(std::shared_ptr<recording_transport>& wire,
                                                  const std::function<void(mcp::client&)>& setup = {}) {
        auto c = std::make_shared<mcp::client>(client_options{
            .info = {"gateway-test", "1.0"}, .protocol_version = revision::v2025_11_25, .timeout = 10s});
        if (setup) setup(*c);
        wire = std::make_shared<recording_transport>(http::make_client_transport(url()));
        c->connect(wire);
        return c;
    }

    /// POST one request of the 2026-07-28 era (its _meta and mirrored headers filled in).
    rpc_reply stateless(const std::string& method, json::object params, json::object capabilities = {},
                        std::optional<std::string> log_level = std::nullopt) {
        json::object meta; // what the test put there (a progressToken), then the era's keys
        if (auto* m = params.if_contains("_meta"); m && m->is_object()) meta = m->as_object();
        meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
        meta["io.modelcontextprotocol/clientCapabilities"] = std::move(capabilities);
        meta["io.modelcontextprotocol/clientInfo"] = json::object{{"name", "t"}, {"version", "1"}};
        if (log_level) meta["io.modelcontextprotocol/logLevel"] = *log_level;
        params["_meta"] = std::move(meta);
        http::header_list h{{"Content-Type", "application/json"},
                            {"Accept", "application/json, text/event-stream"},
                            {"MCP-Protocol-Version", "2026-07-28"},
                            {"Mcp-Method", method}};
        if (auto n = find_string(params, method == "resources/read" ? "uri" : "name"))
            h.emplace_back("Mcp-Name", std::string(*n));
        json::object body{
            {"jsonrpc", "2.0"}, {"id", ++next_id_}, {"method", method}, {"params", std::move(params)}};
        return parse_reply(http::fetch({.method = "POST",
                                        .url = url(),
                                        .headers = std::move(h),
                                        .body = to_json(json::value(std::move(body)))}));
    }

    std::vector<json::object> events() const {
        std::lock_guard lock(mu_);
        return events_;
    }
    bool saw_event(std::string_view kind, std::string_view server = {}) const {
        for (const auto& e : events())
            if (find_string(e, "event").value_or("") == kind &&
                (server.empty() || find_string(e, "server").value_or("") == server))
                return true;
        return false;
    }

private:
    mutable std::mutex mu_;
    std::vector<json::object> events_;
    std::unique_ptr<host::gateway> gw_;
    std::unique_ptr<http::server> http_;
    std::int64_t next_id_ = 0;
};

/// The text of a tool result's text blocks, joined.
inline std::string text_of(const call_tool_result& r) {
    std::string out;
    for (const auto& c : r.content)
        if (const auto* t = std::get_if<text_content>(&c)) out += t->text;
    return out;
}

inline std::string text_of(const json::object& result) {
    std::string out;
    if (const auto* c = result.if_contains("content"))
        for (const auto& b : c->as_array())
            if (auto t = find_string(b.as_object(), "text")) out += std::string(*t);
    return out;
}

} // namespace mcp::test
