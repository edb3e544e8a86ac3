// Runs posted work one item at a time, in order, on an executor: how notifications of one peer
// keep their order while requests run concurrently.
#pragma once

#include <mcp/session/executor.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace mcp::detail {

class serial_queue {
public:
    explicit serial_queue(std::shared_ptr<executor> exec) : state_(std::make_shared<state>()) {
        state_->exec = std::move(exec);
    }

    void post(std::function<void()> work) {
        {
            std::lock_guard lock(state_->mu);
            state_->items.push_back(std::move(work));
            if (state_->running) return;
            state_->running = true;
        }
        state_->exec->post([st = state_] { drain(st); });
    }

    /// Run `work` on this thread when nothing is queued or running, else queue it like post().
    void run_or_post(std::function<void()> work) {
        {
            std::lock_guard lock(state_->mu);
            if (state_->running || !state_->items.empty()) {
                state_->items.push_back(std::move(work));
                return;
            }
            state_->running = true;
        }
        try {
            work();
        } catch (...) {
        }
        {
            std::lock_guard lock(state_->mu);
            if (state_->items.empty()) {
                state_->running = false;
                return;
            }
        }
        // Items came while it ran: they are drained on the executor, still in order.
        state_->exec->post([st = state_] { drain(st); });
    }

private:
    struct state {
        std::shared_ptr<executor> exec;
        std::mutex mu;
        std::deque<std::function<void()>> items;
        bool running = false;
    };

    static void drain(const std::shared_ptr<state>& st) {
        for (;;) {
            std::function<void()> work;
            {
                std::lock_guard lock(st->mu);
                if (st->items.empty()) {
                    st->running = false;
                    return;
                }
                work = std::move(st->items.front());
                st->items.pop_front();
            }
            try {
                work();
            } catch (...) {
            }
        }
    }

    std::shared_ptr<state> state_;
};

} // namespace mcp::detail
