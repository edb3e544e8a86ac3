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
    std::thread reader;
    std::atomic<bool> closed{false};
    std::atomic<bool> write_failed{false};
    std::once_flag close_once;

    std::mutex write_mu;
    std::string pending;   // messages waiting for the active writer
    bool writing = false;  // some thread is inside write()
    bool write_closed = false;

    void read_loop() {
        std::string buffer(64 * 1024, '\0');
        for (;;) {
            const auto n = ::read(opts.read_fd, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                if (n < 0 && !closed.load() && handler.on_error)
                    handler.on_error(opts.name + ": read failed: " + std::strerror(errno));
                break;
            }
            framer.feed(
                std::string_view(buffer.data(), static_cast<std::size_t>(n)),
                [this](std::string_view line) {
                    if (!closed.load(std::memory_order_relaxed)) handler.on_message(line);
                },
                [this](std::size_t size) {
                    if (handler.on_error)
                        handler.on_error("message of " + std::to_string(size) + " bytes exceeds the limit of " +
                                         std::to_string(max_line()) + " bytes");
                });
        }
        if (framer.partial() && !closed.load() && handler.on_error)
            handler.on_error(opts.name + ": stream ended in the middle of a message");
        finish();
        reader_done.store(true);
    }
    std::atomic<bool> reader_done{false};

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
    if (impl_->reader.joinable()) {
        // A reader still blocked in read() (stdin that never ends) is left to finish on its own;
        // it owns a reference to the state, so nothing it touches goes away.
        if (impl_->reader_done.load() && impl_->reader.get_id() != std::this_thread::get_id()) {
            impl_->reader.join();
            if (impl_->opts.owns_fds && impl_->opts.read_fd >= 0) ::close(impl_->opts.read_fd);
        } else {
            impl_->reader.detach();
        }
    } else if (impl_->opts.owns_fds && impl_->opts.read_fd >= 0) {
        ::close(impl_->opts.read_fd);
    }
}

void fd_stream_transport::start(transport_handler handler) {
    impl_->handler = std::move(handler);
    // The reader keeps the state alive even if the transport object goes away first.
    impl_->reader = std::thread([p = impl_] { p->read_loop(); });
}

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
