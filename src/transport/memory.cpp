// The in-memory transport pair. Each side has an inbox and, once started, a delivery thread;
// send() only queues (never delivers inline). Closing either side closes the pair: the closing
// side drops what it has not delivered yet, the other side still gets what was sent before the
// close (like a socket), then both get on_close, each exactly once, on their delivery thread.
// All state lives in shared objects the threads own too, so a side may be destroyed from inside
// its own callbacks.
#include <mcp/transport/memory.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace mcp::memory_transport {
namespace {

struct link {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::string> inbox[2];
    bool closed = false;
    bool dropped[2] = {false, false}; // this side closed itself: drop its undelivered messages
};

struct side_state {
    std::shared_ptr<link> l;
    int side = 0;
    transport_handler handler;
    std::atomic<std::size_t> max_size{4u << 20};
    std::atomic<std::thread::id> delivery_thread{};
    bool close_delivered = false; // under l->mu

    void deliver() {
        std::unique_lock lock(l->mu);
        auto& inbox = l->inbox[side];
        for (;;) {
            l->cv.wait(lock, [&] { return l->closed || !inbox.empty(); });
            if (l->dropped[side]) inbox.clear();
            if (inbox.empty()) break; // closed and drained
            auto msg = std::move(inbox.front());
            inbox.pop_front();
            lock.unlock();
            const auto limit = max_size.load(std::memory_order_relaxed);
            if (handler.on_message) {
                if (msg.size() <= limit)
                    handler.on_message(jsonrpc::incoming_message::parse(msg));
                else
                    handler.on_message(jsonrpc::incoming_message::refused(
                        mcp::error(error_code::invalid_request, "message of " + std::to_string(msg.size()) +
                                                                    " bytes exceeds the limit of " +
                                                                    std::to_string(limit) + " bytes")));
            }
            lock.lock();
        }
        lock.unlock();
        if (handler.on_close) handler.on_close();
        lock.lock();
        close_delivered = true;
        l->cv.notify_all();
    }
};

class end final : public transport {
public:
    end(std::shared_ptr<link> l, int side) : st_(std::make_shared<side_state>()) {
        st_->l = std::move(l);
        st_->side = side;
    }
    ~end() override {
        close();
        std::lock_guard lock(start_mu_);
        if (thread_.joinable()) {
            if (thread_.get_id() == std::this_thread::get_id())
                thread_.detach(); // dropped in a callback
            else
                thread_.join();
        }
    }
    void start(transport_handler h) override {
        std::lock_guard lock(start_mu_);
        if (thread_.joinable()) return;
        st_->handler = std::move(h);
        thread_ = std::thread([st = st_] { st->deliver(); });
        st_->delivery_thread = thread_.get_id();
    }
    void send(jsonrpc::outgoing_message message) override {
        auto& l = *st_->l;
        std::lock_guard lock(l.mu);
        if (l.closed) return;
        l.inbox[1 - st_->side].push_back(std::move(message.text));
        l.cv.notify_all();
    }
    // Closes the pair, then (unless called on this side's delivery thread, or before start)
    // waits until this side's on_close has returned: no callback of this side runs afterwards.
    void close() override {
        auto& l = *st_->l;
        std::unique_lock lock(l.mu);
        if (!l.closed) {
            l.closed = true;
            l.dropped[st_->side] = true;
            l.cv.notify_all();
        }
        const auto id = st_->delivery_thread.load();
        if (id == std::thread::id() || id == std::this_thread::get_id()) return;
        l.cv.wait(lock, [&] { return st_->close_delivered; });
    }
    void set_max_message_size(std::size_t bytes) override { st_->max_size.store(bytes); }

private:
    std::shared_ptr<side_state> st_;
    std::mutex start_mu_;
    std::thread thread_;
};

} // namespace

std::pair<transport_ptr, transport_ptr> create_pair() {
    auto l = std::make_shared<link>();
    return {std::make_shared<end>(l, 0), std::make_shared<end>(l, 1)};
}

} // namespace mcp::memory_transport
