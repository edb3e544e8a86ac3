// The answer to one JSON-RPC batch served without a session. Revision 2025-03-26 is the only
// one with batches, and its servers must take them whether or not they keep sessions.
//
// Each request of the batch gets a member stream. While nothing but responses come, they are
// collected and written as one JSON array when the last arrives (JSON-RPC's batch response).
// Once a request sends a notification first, the answer becomes an SSE stream carrying every
// message as it comes (what 2025-03-26 allows for a POST holding requests), ended by the last
// response. Replies made before any request ran (errors for invalid elements) go first. Listed
// in open_responses until complete, for keep-alive; each request counts in
// host_state::sessionless_requests until answered.
#pragma once

#include "http/http_server.hpp"
#include "http/sse.hpp"
#include "http/streamable_host.hpp"

#include <mcp/session/request_stream.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp::http::detail {

class stateless_batch final : public open_response, public std::enable_shared_from_this<stateless_batch> {
public:
    /// `requests`: how many member streams will be asked for; `replies`: answers already known.
    stateless_batch(std::shared_ptr<core::response_writer> writer, std::size_t requests,
                    std::vector<std::string> replies, std::shared_ptr<host_state> host)
        : writer_(std::move(writer)), host_(std::move(host)), outstanding_(requests),
          replies_(std::move(replies)) {}

    /// The stream of one request of the batch.
    std::shared_ptr<mcp::request_stream> member() {
        return std::make_shared<member_stream>(shared_from_this(), host_);
    }

    /// A comment when the stream is open; a batch whose replies waited a whole interval starts
    /// SSE for it (unless responses are JSON only). See open_responses.hpp.
    bool keep_alive(std::chrono::steady_clock::time_point now) override {
        std::lock_guard lock(mu_);
        if (done_) return false;
        if (!sse_ && (host_->opts.responses == server_options::response_mode::json ||
                      now - opened_ < host_->opts.keep_alive_interval))
            return true;
        if (start_sse_locked() && !writer_->write(sse_comment("keep-alive"))) {
            done_ = true;
            leave();
        }
        return !done_;
    }

    /// Answer now if no request is outstanding (a batch of invalid elements only).
    void finish_if_done() {
        std::lock_guard lock(mu_);
        if (outstanding_ == 0) finish_locked();
    }

private:
    struct member_stream final : mcp::request_stream {
        member_stream(std::shared_ptr<stateless_batch> b, std::shared_ptr<host_state> host)
            : batch(std::move(b)), counted(std::move(host)) {}
        void notify(std::string message) override { batch->notify(std::move(message)); }
        void respond(std::string message, const mcp::error*) override {
            counted.done();
            batch->respond(std::move(message));
        }
        std::shared_ptr<stateless_batch> batch;
        sessionless_request_count counted;
    };

    void notify(std::string message) {
        std::lock_guard lock(mu_);
        if (done_ || !start_sse_locked()) return;
        writer_->write(sse_event({}, message));
    }

    void respond(std::string message) {
        std::lock_guard lock(mu_);
        if (done_) return;
        if (sse_)
            writer_->write(sse_event({}, message));
        else
            replies_.push_back(std::move(message));
        if (--outstanding_ == 0) finish_locked();
    }

    bool start_sse_locked() {
        if (sse_) return true;
        if (!writer_->start_stream(200, {{"Content-Type", "text/event-stream"},
                                         {"Cache-Control", "no-cache"},
                                         {"X-Accel-Buffering", "no"}})) {
            done_ = true;
            leave();
            return false;
        }
        sse_ = true;
        for (auto& r : replies_) writer_->write(sse_event({}, r)); // collected so far
        replies_.clear();
        return true;
    }

    void finish_locked() {
        if (done_) return;
        done_ = true;
        leave();
        if (sse_) {
            writer_->end();
            return;
        }
        std::string body = "[";
        for (std::size_t i = 0; i < replies_.size(); ++i) {
            if (i) body += ',';
            body += replies_[i];
        }
        body += ']';
        writer_->respond(200, {{"Content-Type", "application/json"}}, std::move(body));
    }

    std::mutex mu_;
    std::shared_ptr<core::response_writer> writer_;
    const std::shared_ptr<host_state> host_;
    const std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
    std::size_t outstanding_;
    std::vector<std::string> replies_;
    bool sse_ = false;
    bool done_ = false;
};

} // namespace mcp::http::detail
