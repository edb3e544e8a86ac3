// The responses mcp::http::server is writing without a session: requests of the 2026-07-28 era
// (subscriptions/listen streams included), and the requests and batches of a server without
// sessions. A response is listed from the moment its request is handed to the mcp::server until
// it is complete, so that the router's ticks reach every one that stays open: an SSE stream gets
// a keep-alive comment, and a response that has waited a whole keep_alive_interval without a
// byte becomes an SSE stream first, or a proxy in front of a long tool call would take the
// silent connection for dead. (Sessions keep their streams alive themselves: http_session.)
#pragma once

#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace mcp::http::detail {

class open_responses;

/// One open response (the base of stateless_stream and stateless_batch).
class open_response {
public:
    open_response() = default;
    open_response(const open_response&) = delete;
    open_response& operator=(const open_response&) = delete;
    virtual ~open_response();

    /// A tick of the router: keep the response alive if it is still open. False once complete.
    virtual bool keep_alive(std::chrono::steady_clock::time_point now) = 0;

protected:
    /// The response is complete: leave the list. Idempotent; the caller serialises it with
    /// its own lock.
    void leave();

private:
    friend class open_responses;
    std::shared_ptr<open_responses> list_;
    std::list<std::weak_ptr<open_response>>::iterator entry_;
};

class open_responses final : public std::enable_shared_from_this<open_responses> {
public:
    /// List `r` until it leaves (call before its request is handed on: nothing answers it yet).
    void add(const std::shared_ptr<open_response>& r) {
        std::lock_guard lock(mu_);
        r->entry_ = members_.insert(members_.end(), r);
        r->list_ = shared_from_this();
    }

    /// Run keep_alive on every open response (outside the list's lock: a response takes its
    /// own lock there, and leaves under it).
    void keep_alive(std::chrono::steady_clock::time_point now) {
        std::vector<std::shared_ptr<open_response>> open;
        {
            std::lock_guard lock(mu_);
            open.reserve(members_.size());
            for (const auto& m : members_)
                if (auto r = m.lock()) open.push_back(std::move(r));
        }
        for (const auto& r : open) r->keep_alive(now);
    }

    bool empty() const {
        std::lock_guard lock(mu_);
        return members_.empty();
    }

private:
    friend class open_response;
    void remove(std::list<std::weak_ptr<open_response>>::iterator entry) {
        std::lock_guard lock(mu_);
        members_.erase(entry);
    }

    mutable std::mutex mu_;
    std::list<std::weak_ptr<open_response>> members_;
};

inline open_response::~open_response() {
    leave();
}

inline void open_response::leave() {
    if (!list_) return;
    list_->remove(entry_);
    list_.reset();
}

} // namespace mcp::http::detail
