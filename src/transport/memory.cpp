#include <mcp/transport/memory.hpp>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace mcp::memory_transport {
namespace {

// What both ends share: one inbox per side, and whether the pair is closed.
struct link {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::string> inbox[2];
    bool closed = false;
};

class end final : public transport {
public:
    end(std::shared_ptr<link> l, int side) : link_(std::move(l)), side_(side) {}
    ~end() override {
        close();
        if (thread_.joinable()) {
            if (thread_.get_id() == std::this_thread::get_id()) thread_.detach();
            else thread_.join();
        }
    }
    void start(transport_handler h) override {
        handler_ = std::move(h);
        thread_ = std::thread([this, l = link_] { deliver(); });
    }
    void send(std::string message) override {
        std::lock_guard lock(link_->mu);
        if (link_->closed) return;
        link_->inbox[1 - side_].push_back(std::move(message));
        link_->cv.notify_all();
    }
    void close() override {
        std::lock_guard lock(link_->mu);
        link_->closed = true;
        link_->cv.notify_all();
    }

private:
    void deliver() {
        std::unique_lock lock(link_->mu);
        auto& inbox = link_->inbox[side_];
        for (;;) {
            link_->cv.wait(lock, [&] { return link_->closed || !inbox.empty(); });
            if (inbox.empty()) break; // closed and drained
            auto msg = std::move(inbox.front());
            inbox.pop_front();
            lock.unlock();
            if (handler_.on_message) handler_.on_message(msg);
            lock.lock();
        }
        lock.unlock();
        if (handler_.on_close) handler_.on_close();
    }

    std::shared_ptr<link> link_;
    int side_;
    transport_handler handler_;
    std::thread thread_;
};

} // namespace

std::pair<transport_ptr, transport_ptr> create_pair() {
    auto l = std::make_shared<link>();
    return {std::make_shared<end>(l, 0), std::make_shared<end>(l, 1)};
}

} // namespace mcp::memory_transport
