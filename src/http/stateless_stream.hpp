// The response of one request served without a session (the stateless era, or initialize-era
// clients of a server without sessions): JSON, or SSE once a notification of the request comes
// before its response. No event ids: such streams are not resumable. When the client closes the
// stream the request is cancelled (2026-07-28: closing the stream is the cancellation). Listed in
// open_responses until answered, for keep-alive.
#pragma once

#include "http/http_server.hpp"
#include "http/sse.hpp"
#include "http/streamable_host.hpp"

#include <mcp/jsonrpc/cancellation.hpp>
#include <mcp/session/request_stream.hpp>

#include <chrono>
#include <mutex>

namespace mcp::http::detail {

class stateless_stream final : public mcp::request_stream, public open_response {
public:
    /// `map_errors`: answer JSON-RPC errors with the stateless era's HTTP statuses (400/404).
    /// `counted`: the request counts in host_state::sessionless_requests until answered (not
    /// a subscriptions/listen stream, which is answered only when it ends).
    stateless_stream(std::shared_ptr<core::response_writer> writer, bool map_errors,
                     std::shared_ptr<host_state> host, bool counted)
        : writer_(std::move(writer)), map_errors_(map_errors),
          keep_alive_interval_(host->opts.keep_alive_interval),
          json_only_(host->opts.responses == server_options::response_mode::json),
          counted_(counted ? host : nullptr) {}

    void notify(std::string message) override {
        std::lock_guard lock(mu_);
        if (done_ || !start_sse_locked()) return;
        writer_->write(sse_event({}, message));
    }

    void respond(std::string message, const mcp::error* error) override {
        std::lock_guard lock(mu_);
        counted_.done(); // the handler is over, whether the client is still there or not
        if (done_) return;
        finish_locked();
        if (sse_) {
            writer_->write(sse_event({}, message));
            writer_->end();
            return;
        }
        int status = error && map_errors_ ? http_status_of(error->code()) : 200;
        core::header_list headers{{"Content-Type", "application/json"}};
        if (const auto access = error ? access_error_code(message) : std::nullopt) {
            status = http_status_of(*access); // middleware refused: 429/401/403 in every era
            add_access_error_headers(*access, message, headers);
        }
        writer_->respond(status, std::move(headers), std::move(message));
    }

    /// A comment when the stream is open; a response that waited a whole interval without a
    /// byte starts SSE for it (unless responses are JSON only). See open_responses.hpp.
    bool keep_alive(std::chrono::steady_clock::time_point now) override {
        std::lock_guard lock(mu_);
        if (done_) return false;
        if (!sse_ && (json_only_ || now - opened_ < keep_alive_interval_)) return true;
        if (!start_sse_locked() || !writer_->write(sse_comment("keep-alive"))) finish_locked();
        return !done_;
    }

private:
    bool start_sse_locked() {
        if (sse_) return true;
        if (!writer_->start_stream(200, {{"Content-Type", "text/event-stream"},
                                         {"Cache-Control", "no-cache"},
                                         {"X-Accel-Buffering", "no"}})) {
            finish_locked();
            return false;
        }
        sse_ = true;
        return true;
    }

    /// Nothing more goes out (answered, or the client is gone).
    void finish_locked() {
        done_ = true;
        leave();
    }

    std::mutex mu_;
    std::shared_ptr<core::response_writer> writer_;
    bool map_errors_;
    const std::chrono::milliseconds keep_alive_interval_;
    const bool json_only_;
    const std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
    sessionless_request_count counted_;
    bool sse_ = false;
    bool done_ = false;
};

} // namespace mcp::http::detail
