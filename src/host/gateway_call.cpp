// forwarded_call and call_registry (see gateway_call.hpp).
#include "host/gateway_call.hpp"

namespace mcp::host::detail {

void forwarded_call::attach(context& ctx) {
    std::lock_guard lock(mu_);
    if (ctx_)
        throw error(
            error_code::invalid_params,
            "Invalid params: another request is already continuing this call (requestState was used twice)");
    ctx_ = &ctx;
}

void forwarded_call::detach() {
    std::unique_lock lock(mu_);
    ctx_ = nullptr;
    cv_.wait(lock, [&] { return users_ == 0; });
}

std::string forwarded_call::next_key(std::string_view base) {
    std::lock_guard lock(mu_);
    auto it = key_uses_.find(base);
    if (it == key_uses_.end()) it = key_uses_.emplace(std::string(base), 0).first;
    return std::string(base) + "-" + std::to_string(++it->second);
}

std::shared_ptr<pending_input> forwarded_call::add_input(std::string key, input_request request,
                                                         json::object batch) {
    auto in = std::make_shared<pending_input>();
    in->key = std::move(key);
    in->request = std::move(request);
    in->batch = std::move(batch);
    std::lock_guard lock(mu_);
    if (done_) {
        in->settled = true;
        in->answer.set_exception(std::make_exception_ptr(
            error(error_code::request_cancelled, "the call this request belongs to has ended")));
        return in;
    }
    inputs_.push_back(in);
    cv_.notify_all();
    return in;
}

std::vector<std::shared_ptr<pending_input>> forwarded_call::unanswered() const {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<pending_input>> out;
    for (const auto& in : inputs_)
        if (!in->settled) out.push_back(in);
    return out;
}

void forwarded_call::settle(pending_input& input, input_response answer) {
    std::lock_guard lock(mu_);
    if (input.settled) return;
    input.settled = true;
    input.answer.set_value(std::move(answer));
    std::erase_if(inputs_, [](const auto& in) { return in->settled; });
}

void forwarded_call::withdraw(pending_input& input, const error& why) {
    std::lock_guard lock(mu_);
    if (input.settled) return;
    input.settled = true;
    input.answer.set_exception(std::make_exception_ptr(why));
    std::erase_if(inputs_, [](const auto& in) { return in->settled; });
}

void forwarded_call::fail_inputs(const error& e) {
    std::lock_guard lock(mu_);
    for (auto& in : inputs_)
        if (!in->settled) {
            in->settled = true;
            in->answer.set_exception(std::make_exception_ptr(e));
        }
    inputs_.clear();
}

void forwarded_call::finish(std::exception_ptr failure) {
    std::lock_guard lock(mu_);
    done_ = true;
    failure_ = std::move(failure);
    cv_.notify_all();
}

bool forwarded_call::done() const {
    std::lock_guard lock(mu_);
    return done_;
}

std::exception_ptr forwarded_call::failure() const {
    std::lock_guard lock(mu_);
    return failure_;
}

forwarded_call::event forwarded_call::wait(const cancellation_token& caller) {
    // The callback may run on another thread after this returns: it holds the call weakly and
    // only wakes the waiter, which reads the token itself.
    const auto reg = caller.on_cancel([weak = weak_from_this()] {
        if (auto self = weak.lock()) {
            std::lock_guard lock(self->mu_);
            self->cv_.notify_all();
        }
    });
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] {
        if (done_ || caller.is_cancelled()) return true;
        for (const auto& in : inputs_)
            if (!in->settled) return true;
        return false;
    });
    const bool was_done = done_;
    lock.unlock();
    if (reg) caller.remove_callback(reg);
    // Done wins over cancelled: the result is there, nothing is left to cancel.
    if (was_done) return event::done;
    if (caller.is_cancelled()) return event::cancelled;
    return event::input;
}

// -------------------------------------------------------------------------------- registry

void call_registry::add(const std::shared_ptr<forwarded_call>& call) {
    std::lock_guard lock(mu_);
    calls_[call->id] = entry{call};
}

void call_registry::remove(const std::string& id) {
    std::lock_guard lock(mu_);
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    if (it->second.parked) --parked_;
    calls_.erase(it);
}

std::shared_ptr<forwarded_call> call_registry::find(const std::string& id) const {
    std::lock_guard lock(mu_);
    auto it = calls_.find(id);
    return it == calls_.end() ? nullptr : it->second.call;
}

std::shared_ptr<forwarded_call> call_registry::only_call_on(const std::string& server) const {
    std::lock_guard lock(mu_);
    std::shared_ptr<forwarded_call> found;
    for (const auto& [id, e] : calls_) {
        if (e.parked || e.call->server != server) continue;
        if (found) return nullptr; // several: cannot tell
        found = e.call;
    }
    return found;
}

bool call_registry::park(const std::shared_ptr<forwarded_call>& call,
                         std::chrono::steady_clock::time_point until, std::size_t max) {
    std::lock_guard lock(mu_);
    auto it = calls_.find(call->id);
    if (it == calls_.end()) return false;
    if (!it->second.parked) {
        if (parked_ >= max) return false;
        ++parked_;
    }
    it->second.parked = true;
    it->second.until = until;
    return true;
}

call_registry::resume_status call_registry::resume(const std::string& id, const std::string& principal,
                                                   std::shared_ptr<forwarded_call>& out) {
    std::lock_guard lock(mu_);
    auto it = calls_.find(id);
    if (it == calls_.end()) return resume_status::unknown;
    if (it->second.call->principal != principal) return resume_status::other_principal;
    if (!it->second.parked) return resume_status::busy;
    it->second.parked = false;
    --parked_;
    out = it->second.call;
    return resume_status::resumed;
}

std::size_t call_registry::parked() const {
    std::lock_guard lock(mu_);
    return parked_;
}

std::vector<std::shared_ptr<forwarded_call>>
call_registry::take_expired(std::chrono::steady_clock::time_point now,
                            std::chrono::steady_clock::time_point& next) {
    std::vector<std::shared_ptr<forwarded_call>> out;
    next = std::chrono::steady_clock::time_point::max();
    std::lock_guard lock(mu_);
    for (auto it = calls_.begin(); it != calls_.end();) {
        if (it->second.parked && it->second.until <= now) {
            out.push_back(std::move(it->second.call));
            --parked_;
            it = calls_.erase(it);
            continue;
        }
        if (it->second.parked) next = std::min(next, it->second.until);
        ++it;
    }
    return out;
}

std::vector<std::shared_ptr<forwarded_call>> call_registry::take_all() {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<forwarded_call>> out;
    for (auto& [id, e] : calls_) out.push_back(std::move(e.call));
    calls_.clear();
    parked_ = 0;
    return out;
}

} // namespace mcp::host::detail
