// The response of one request served without a session (the stateless era, or initialize-era
// clients of a server without sessions): JSON, or SSE once a notification of the request comes
// before its response. No event ids: such streams are not resumable. When the client closes the
// stream the request is cancelled (2026-07-28: closing the stream is the cancellation).
#pragma once

#include "http/http_server.hpp"
#include "http/sse.hpp"
#include "http/streamable_host.hpp"

#include <mcp/session/cancellation.hpp>
#include <mcp/session/request_stream.hpp>

#include <mutex>

namespace mcp::http::detail {

class stateless_stream final : public mcp::request_stream {
public:
    /// `map_errors`: answer JSON-RPC errors with the stateless era's HTTP statuses (400/404).
    stateless_stream(std::shared_ptr<core::response_writer> writer, bool map_errors)
        : writer_(std::move(writer)), map_errors_(map_errors) {}

    void notify(std::string message) override {
        std::lock_guard lock(mu_);
        if (done_) return;
        if (!sse_) {
            if (!writer_->start_stream(200, {{"Content-Type", "text/event-stream"},
                                             {"Cache-Control", "no-cache"},
                                             {"X-Accel-Buffering", "no"}})) {
                done_ = true;
                return;
            }
            sse_ = true;
        }
        writer_->write(sse_event({}, message));
    }

    void respond(std::string message, const mcp::error* error) override {
        std::lock_guard lock(mu_);
        if (done_) return;
        done_ = true;
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

    /// An SSE comment when the stream is open and idle (subscriptions/listen keep-alive).
    bool keep_alive() {
        std::lock_guard lock(mu_);
        if (done_) return false;
        if (sse_ && !writer_->write(sse_comment("keep-alive"))) done_ = true;
        return !done_;
    }

private:
    std::mutex mu_;
    std::shared_ptr<core::response_writer> writer_;
    bool map_errors_;
    bool sse_ = false;
    bool done_ = false;
};

} // namespace mcp::http::detail
