// A call the gateway forwards to one of its servers, and the registry that finds it again: by
// the correlation id the server echoes in its own requests and log messages, and by the
// requestState of a 2026-07-28 client that comes back with answers.
#pragma once

#include <mcp/server/context.hpp>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp::host::detail {

/// One input a server asked for while serving a forwarded call, waiting for the client.
struct pending_input {
    std::string key;
    input_request request;
    /// Everything the server's handler asked for at once (forwarding_meta::input_requests),
    /// so that the client can be asked for all of it in one round.
    json::object batch;
    std::promise<input_response> answer;
    bool settled = false; ///< guarded by the call's mutex
};

class forwarded_call : public std::enable_shared_from_this<forwarded_call> {
public:
    forwarded_call(std::string id, std::string server, std::string principal, bool stateless,
                   bool caller_has_roots)
        : id(std::move(id)), server(std::move(server)), principal(std::move(principal)), stateless(stateless),
          caller_has_roots(caller_has_roots) {}

    const std::string id; ///< correlation id: 128 random bits, hex
    const std::string server;
    const std::string principal;
    const bool stateless;         ///< the caller speaks 2026-07-28 (input through MRTR)
    const bool caller_has_roots;  ///< the caller declared roots
    cancellation_source cancel;   ///< of the request to the server
    std::shared_ptr<void> result; ///< where the request's result goes (typed by the forwarder)

    // --- the context of the handler serving the client's request, while one does ---
    /// Throws mcp::error (invalid_params) when another request is attached already.
    void attach(context& ctx);
    /// Detach, after waiting for other threads that are using the context.
    void detach();
    /// Run f(context) if a handler is attached; false (f not run) otherwise.
    template <class F> bool with_context(F&& f) {
        context* c;
        {
            std::lock_guard lock(mu_);
            if (!ctx_) return false;
            c = ctx_;
            ++users_;
        }
        struct release {
            forwarded_call& self;
            ~release() {
                std::lock_guard lock(self.mu_);
                if (--self.users_ == 0) self.cv_.notify_all();
            }
        } guard{*this};
        f(*c);
        return true;
    }

    // --- input requests from the server (callers of 2026-07-28) ---
    /// A key for an input the server sent without one ("elicitation-1", "sampling-2"...).
    std::string next_key(std::string_view base);
    std::shared_ptr<pending_input> add_input(std::string key, input_request request, json::object batch);
    std::vector<std::shared_ptr<pending_input>> unanswered() const;
    void settle(pending_input& input, input_response answer);
    /// Take back an input the server no longer wants (it cancelled its request): it is answered
    /// with `why` and not asked of the client again (an answer that still comes is ignored).
    void withdraw(pending_input& input, const error& why);
    /// Answer every unanswered input with `e` (the server's request then fails).
    void fail_inputs(const error& e);

    // --- the request to the server ---
    void finish(std::exception_ptr failure);
    bool done() const;
    std::exception_ptr failure() const;

    enum class event { done, input, cancelled };
    /// Wait until the request to the server is done, an input is unanswered, or `caller` is
    /// cancelled (the client gave up on its request).
    event wait(const cancellation_token& caller);

private:
    mutable std::mutex mu_;
    std::condition_variable cv_;
    context* ctx_ = nullptr;
    int users_ = 0;
    std::vector<std::shared_ptr<pending_input>> inputs_;
    std::map<std::string, int, std::less<>> key_uses_;
    bool done_ = false;
    std::exception_ptr failure_;
};

/// The calls in flight, and those parked between the rounds of a 2026-07-28 client's input.
class call_registry {
public:
    void add(const std::shared_ptr<forwarded_call>& call);
    void remove(const std::string& id);
    std::shared_ptr<forwarded_call> find(const std::string& id) const;
    /// The one call in flight on `server` that is not parked; null when none or several.
    std::shared_ptr<forwarded_call> only_call_on(const std::string& server) const;

    /// Park `call` until `until`; false when `max` calls are parked already.
    bool park(const std::shared_ptr<forwarded_call>& call, std::chrono::steady_clock::time_point until,
              std::size_t max);
    enum class resume_status { resumed, unknown, busy, other_principal };
    /// Take back a parked call for the request of `principal` that names it.
    resume_status resume(const std::string& id, const std::string& principal,
                         std::shared_ptr<forwarded_call>& out);
    std::size_t parked() const;
    /// Remove and return the parked calls whose time is up; `next` is set to the next deadline.
    std::vector<std::shared_ptr<forwarded_call>> take_expired(std::chrono::steady_clock::time_point now,
                                                              std::chrono::steady_clock::time_point& next);
    /// Remove and return every call (closing).
    std::vector<std::shared_ptr<forwarded_call>> take_all();

private:
    struct entry {
        std::shared_ptr<forwarded_call> call;
        bool parked = false;
        std::chrono::steady_clock::time_point until{};
    };
    mutable std::mutex mu_;
    std::map<std::string, entry> calls_;
    std::size_t parked_ = 0;
};

} // namespace mcp::host::detail
