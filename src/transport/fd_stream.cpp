#include <mcp/transport/fd_stream.hpp>
#include <mcp/transport/line_framer.hpp>
#include <mcp/transport/stdio.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace mcp {

namespace {
// Writing to a pipe whose reader is gone must give EPIPE, not kill the process.
void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}
} // namespace

struct fd_stream_transport::impl {
    options opts;
    transport_handler handler;
    line_framer framer;
    std::atomic<bool> closed{false};
    std::atomic<bool> write_failed{false};
    std::once_flag close_once;

    std::mutex write_mu;
    std::string pending;   // messages waiting for the active writer
    bool writing = false;  // some thread is inside write()
    bool write_closed = false;

    // Reading may move between threads (hand_off_reading): each reader knows its generation
    // and stops after the message during which reading was handed to a newer one.
    std::mutex reader_mu;
    std::uint64_t generation = 0;
    bool inside_last = false; // the current reader is inside on_last_message
    struct reader_thread {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<reader_thread> readers;

    void start_reader_locked(const std::shared_ptr<impl>& self) {
        auto done = std::make_shared<std::atomic<bool>>(false);
        const auto gen = generation;
        readers.push_back({std::thread([self, gen, done] {
                               self->read_loop(gen);
                               done->store(true);
                           }),
                           done});
    }

    bool current(std::uint64_t gen) {
        std::lock_guard lock(reader_mu);
        return generation == gen;
    }

    void read_loop(std::uint64_t gen) {
        std::string buffer(64 * 1024, '\0');
        bool handed_off = false;
        while (!handed_off) {
            const auto n = ::read(opts.read_fd, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                if (n < 0 && !closed.load() && handler.on_error)
                    handler.on_error(opts.name + ": read failed: " + std::strerror(errno));
                break;
            }
            framer.feed(
                std::string_view(buffer.data(), static_cast<std::size_t>(n)),
                [&](std::string_view line, bool last) {
                    if (closed.load(std::memory_order_relaxed)) return;
                    if (!last || !handler.on_last_message) {
                        handler.on_message(line);
                        return;
                    }
                    {
                        std::lock_guard lock(reader_mu);
                        inside_last = true;
                    }
                    handler.on_last_message(line);
                    std::lock_guard lock(reader_mu);
                    inside_last = false;
                    handed_off = generation != gen;
                },
                [this](std::size_t size) {
                    if (handler.on_error)
                        handler.on_error("message of " + std::to_string(size) + " bytes exceeds the limit of " +
                                         std::to_string(max_line()) + " bytes");
                });
        }
        if (handed_off) return; // a newer reader owns the stream now
        if (framer.partial() && !closed.load() && handler.on_error)
            handler.on_error(opts.name + ": stream ended in the middle of a message");
        finish();
    }

    bool hand_off(const std::shared_ptr<impl>& self) {
        std::lock_guard lock(reader_mu);
        if (!inside_last || closed.load()) return false;
        inside_last = false; // one hand-off per message
        ++generation;
        start_reader_locked(self);
        return true;
    }

    std::size_t max_line() const { return max_line_value.load(); }
    std::atomic<std::size_t> max_line_value{4u << 20};

    // Write everything in `data`; false on a broken stream.
    bool write_all(const std::string& data) {
        std::size_t off = 0;
        while (off < data.size()) {
            ssize_t n;
            if (is_socket) n = ::send(opts.write_fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
            else n = ::write(opts.write_fd, data.data() + off, data.size() - off);
            if (n < 0) {
                if (errno == EINTR) continue;
                return false;
            }
            off += static_cast<std::size_t>(n);
        }
        return true;
    }
    bool is_socket = false;

    void send(std::string&& message) {
        std::unique_lock lock(write_mu);
        if (write_closed) return;
        if (writing) {
            pending.append(message);
            pending.push_back('\n');
            return;
        }
        writing = true;
        std::string batch = std::move(message);
        batch.push_back('\n');
        for (;;) {
            lock.unlock();
            const bool ok = write_all(batch);
            lock.lock();
            if (!ok) {
                writing = false;
                write_closed = true;
                pending.clear();
                lock.unlock();
                if (!write_failed.exchange(true) && !closed.load() && handler.on_error)
                    handler.on_error(opts.name + ": write failed: " + std::strerror(errno));
                return;
            }
            if (pending.empty()) break;
            batch.clear();
            batch.swap(pending); // keep both buffers' capacity: no allocation in steady state
        }
        writing = false;
    }

    void close_write() {
        std::lock_guard lock(write_mu);
        if (write_closed) return;
        write_closed = true;
        if (opts.owns_fds && opts.write_fd >= 0 && opts.write_fd != opts.read_fd) ::close(opts.write_fd);
    }

    // End of the stream: close once, tell the handler once.
    void finish() {
        std::call_once(close_once, [this] {
            closed.store(true);
            if (handler.on_close) handler.on_close();
        });
    }
};

fd_stream_transport::fd_stream_transport(options o) : impl_(std::make_shared<impl>()) {
    ignore_sigpipe_once();
    struct stat st {};
    impl_->is_socket = o.write_fd >= 0 && fstat(o.write_fd, &st) == 0 && S_ISSOCK(st.st_mode);
    impl_->opts = std::move(o);
}

fd_stream_transport::~fd_stream_transport() {
    close();
    std::vector<impl::reader_thread> readers;
    {
        std::lock_guard lock(impl_->reader_mu);
        readers.swap(impl_->readers);
    }
    bool all_done = true;
    for (auto& r : readers) {
        // A reader still blocked in read() (stdin that never ends) is left to finish on its own;
        // it owns a reference to the state, so nothing it touches goes away.
        if (r.done->load() && r.thread.get_id() != std::this_thread::get_id()) r.thread.join();
        else {
            all_done = false;
            r.thread.detach();
        }
    }
    if (all_done && impl_->opts.owns_fds && impl_->opts.read_fd >= 0) ::close(impl_->opts.read_fd);
}

void fd_stream_transport::start(transport_handler handler) {
    impl_->handler = std::move(handler);
    std::lock_guard lock(impl_->reader_mu);
    impl_->start_reader_locked(impl_);
}

bool fd_stream_transport::hand_off_reading() { return impl_->hand_off(impl_); }

void fd_stream_transport::send(std::string message) {
    if (impl_->closed.load(std::memory_order_relaxed)) return;
    impl_->send(std::move(message));
}

void fd_stream_transport::close_write_side() { impl_->close_write(); }

void fd_stream_transport::close() {
    if (impl_->closed.exchange(true)) return;
    impl_->close_write();
    // Wake the reader: shut down a socket, or let the owner's close of the fd end read().
    if (impl_->is_socket) ::shutdown(impl_->opts.read_fd, SHUT_RDWR);
    else if (impl_->opts.owns_fds && impl_->opts.read_fd >= 0) {
        // Closing an fd another thread is blocked on is racy; a pipe's reader ends when the
        // writer closes, which the owner arranges (child exit, peer close).
    }
    std::call_once(impl_->close_once, [this] {
        if (impl_->handler.on_close) impl_->handler.on_close();
    });
}

void fd_stream_transport::set_max_message_size(std::size_t bytes) {
    impl_->max_line_value.store(bytes);
    impl_->framer.set_max_line(bytes);
}

stdio_transport::stdio_transport() : fd_stream_transport(options{0, 1, false, "stdio"}) {}

} // namespace mcp
