// fd_stream_transport: newline-delimited messages over a readable and a writable descriptor.
//
// Reading: one thread at a time polls the read descriptor and a private "wake" pipe, reads
// 64 KiB at a time and frames lines. close() writes to the wake pipe, so a reader blocked on a
// silent pipe (stdin that never ends) stops at once and can be joined; on_close is always called
// by the reader thread after its last delivery, so it never overlaps an on_message.
//
// Writing: send() appends to a pending buffer under a mutex; if no thread is writing, the caller
// becomes the writer and writes batches outside the lock until nothing is pending. The write
// descriptor is only closed when no thread is inside write() (no descriptor-reuse race). What
// waits for a peer that does not read (pending, and the flusher's batch) is bounded by
// max_queued_bytes: reaching it closes the transport rather than block a sender or drop silently.
#include <mcp/transport/fd_stream.hpp>
#include <mcp/transport/line_framer.hpp>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mcp {

namespace {
// Writing to a pipe whose reader is gone must give EPIPE, not kill the process. Sockets use
// MSG_NOSIGNAL; for pipes there is no per-call flag, so the library sets SIGPIPE to SIG_IGN once
// for the process (as most network programs do). Child processes get SIG_DFL back before exec.
void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction old {};
        if (::sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
            std::signal(SIGPIPE, SIG_IGN);
    });
}

bool is_socket(int fd) {
    struct stat st {};
    return fd >= 0 && ::fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}
} // namespace

struct fd_stream_transport::impl {
    options opts;
    transport_handler handler;
    line_framer framer;
    std::atomic<std::size_t> max_line{4u << 20};
    bool read_socket = false;
    bool write_socket = false;
    int wake[2] = {-1, -1};

    std::atomic<bool> started{false};
    std::atomic<bool> closed{false}; // no more deliveries
    std::once_flag close_once;       // on_close

    // Writing.
    std::mutex write_mu;
    std::string pending;          // messages waiting for the active writer
    bool writing = false;         // some thread is inside write()
    bool write_closed = false;    // no new messages accepted
    bool write_fd_closed = false; // the descriptor itself was closed
    std::atomic<bool> write_failed{false};
    std::size_t flusher_unwritten = 0; // bytes of the flusher's batch not written yet

    // Reading may move between threads (hand_off_reading): each reader knows its generation and
    // stops after the message during which reading was handed to a newer one.
    struct reader_thread {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::mutex reader_mu;
    std::condition_variable reader_cv;
    std::uint64_t generation = 0;
    bool inside_last = false;             // the current reader is inside a reader_idle on_message
    std::atomic<bool> read_inline{false}; // mark reader_idle messages (see inline_reader)
    bool close_delivered = false;         // on_close has returned
    bool input_ended = false;             // the reader saw EOF and handed the ending to on_input_end
    std::atomic<bool> draining{false};    // writing failed: read what is there, then end
    std::vector<reader_thread> readers;

    bool on_reader_thread_locked() const {
        const auto me = std::this_thread::get_id();
        for (auto& r : readers)
            if (r.thread.get_id() == me) return true;
        return false;
    }

    ~impl() {
        if (opts.owns_fds) {
            if (opts.read_fd >= 0) ::close(opts.read_fd);
            if (opts.write_fd >= 0 && opts.write_fd != opts.read_fd && !write_fd_closed)
                ::close(opts.write_fd);
        }
        for (int fd : wake)
            if (fd >= 0) ::close(fd);
    }

    void start_reader_locked(const std::shared_ptr<impl>& self) {
        // Reap readers that handed off and have finished since (a long session hands off often).
        for (auto it = readers.begin(); it != readers.end();) {
            if (it->done->load() && it->thread.get_id() != std::this_thread::get_id()) {
                it->thread.join();
                it = readers.erase(it);
            } else {
                ++it;
            }
        }
        auto done = std::make_shared<std::atomic<bool>>(false);
        const auto gen = generation;
        readers.push_back({std::thread([self, gen, done] {
                               self->read_loop(gen);
                               done->store(true);
                           }),
                           done});
    }

    void report(const std::string& what,
                transport_handler::severity level = transport_handler::severity::error) {
        if (handler.on_error) handler.on_error(what, level);
    }

    void read_loop(std::uint64_t gen) {
        std::string buffer(64 * 1024, '\0');
        bool handed_off = false;
        bool eof = false;
        while (!handed_off && !closed.load(std::memory_order_acquire)) {
            pollfd p[2] = {{opts.read_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
            if (::poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                report(opts.name + ": poll failed: " + std::strerror(errno));
                break;
            }
            if (p[1].revents != 0) {
                if (draining.load(std::memory_order_acquire)) drain_readable(buffer);
                break; // close() (or a failed write) woke us
            }
            if (p[0].revents & POLLNVAL) {
                report(opts.name + ": read failed: invalid descriptor");
                break;
            }
            const auto n = ::read(opts.read_fd, buffer.data(), buffer.size());
            if (n < 0) {
                if (errno == EINTR || errno == EAGAIN) continue;
                if (!closed.load()) report(opts.name + ": read failed: " + std::strerror(errno));
                break;
            }
            if (n == 0) {
                eof = true;
                break;
            }
            framer.set_max_line(max_line.load(std::memory_order_relaxed));
            framer.feed(
                std::string_view(buffer.data(), static_cast<std::size_t>(n)),
                [&](std::string_view line, bool last) {
                    if (closed.load(std::memory_order_acquire)) return;
                    auto m = jsonrpc::incoming_message::parse(line);
                    if (!last || !read_inline.load(std::memory_order_relaxed)) {
                        if (handler.on_message) handler.on_message(std::move(m));
                        return;
                    }
                    {
                        std::lock_guard lock(reader_mu);
                        inside_last = true;
                    }
                    reader_cv.notify_all(); // close() does not wait for an inline handler
                    m.reader_idle = true;
                    handler.on_message(std::move(m));
                    std::lock_guard lock(reader_mu);
                    handed_off = generation != gen;
                    // After a hand-off the flag belongs to the newer reader, which may already
                    // be inside a message of its own: only the current reader clears it.
                    if (!handed_off) inside_last = false;
                },
                [this](std::size_t size) {
                    if (closed.load(std::memory_order_acquire)) return;
                    const std::string what = "message of " + std::to_string(size) +
                                             " bytes exceeds the limit of " +
                                             std::to_string(max_line.load()) + " bytes";
                    if (handler.on_message)
                        handler.on_message(jsonrpc::incoming_message::refused(
                            mcp::error(error_code::invalid_request, what), framer.discarded_response_id()));
                });
        }
        if (handed_off) return; // a newer reader owns the stream now
        if (eof && framer.partial() && !closed.load())
            report(opts.name + ": stream ended in the middle of a message");
        if (eof && handler.on_input_end && !closed.load()) {
            // The receiver answers what it has, then calls close(), which ends the stream.
            {
                std::lock_guard lock(reader_mu);
                input_ended = true;
            }
            handler.on_input_end();
            return;
        }
        end_of_stream();
    }

    // After a failed write: deliver every complete message the peer wrote before it went away
    // (without waiting for more), so that what it said last is not lost.
    void drain_readable(std::string& buffer) {
        for (;;) {
            pollfd p{opts.read_fd, POLLIN, 0};
            if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
            const auto n = ::read(opts.read_fd, buffer.data(), buffer.size());
            if (n <= 0) return;
            framer.feed(
                std::string_view(buffer.data(), static_cast<std::size_t>(n)),
                [&](std::string_view line, bool) {
                    if (closed.load(std::memory_order_acquire)) return;
                    if (handler.on_message) handler.on_message(jsonrpc::incoming_message::parse(line));
                },
                [](std::size_t) {});
        }
    }

    bool hand_off(const std::shared_ptr<impl>& self) {
        std::lock_guard lock(reader_mu);
        if (!inside_last || closed.load()) return false;
        inside_last = false; // one hand-off per message
        ++generation;
        start_reader_locked(self);
        return true;
    }

    // Write everything in `data`; false (errno set) on a broken stream.
    // Write as much of `data` as the descriptor takes without blocking. Returns the bytes
    // written; `would_block` tells that the peer is not keeping up; -1 (errno set) on error.
    ssize_t write_some(std::string_view data, bool& would_block) {
        std::size_t off = 0;
        would_block = false;
        while (off < data.size()) {
            ssize_t n;
            if (write_socket)
                n = ::send(opts.write_fd, data.data() + off, data.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
            else
                n = ::write(opts.write_fd, data.data() + off, data.size() - off);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    would_block = true;
                    break;
                }
                return -1;
            }
            off += static_cast<std::size_t>(n);
        }
        return static_cast<ssize_t>(off);
    }

    // The flusher: takes over writing when the peer stops reading, so that no sender (and above
    // all no reading thread) ever blocks on a full pipe. It waits for the descriptor to become
    // writable (or for close) and drains `pending`.
    std::thread flusher;
    std::condition_variable flusher_cv;
    bool flusher_has_work = false;
    bool flusher_stop = false;

    void flusher_loop() {
        bool closing_seen = false;
        std::unique_lock lock(write_mu);
        for (;;) {
            flusher_cv.wait(lock, [&] { return flusher_has_work || flusher_stop; });
            if (flusher_stop && !flusher_has_work) return;
            std::string batch;
            while (!pending.empty() && !write_failed_locked) {
                batch.clear();
                batch.swap(pending);
                std::size_t off = 0;
                flusher_unwritten = batch.size();
                while (off < batch.size()) {
                    lock.unlock();
                    // Until close(), wait for the peer as long as it takes; once closing, keep
                    // flushing while the peer reads, and give up after a second without progress.
                    pollfd p[2] = {{opts.write_fd, POLLOUT, 0}, {wake[0], POLLIN, 0}};
                    const int ready = ::poll(p, closing_seen ? 1 : 2, closing_seen ? 1000 : -1);
                    if (!closing_seen && (p[1].revents & POLLIN)) closing_seen = true;
                    bool wb = false;
                    const bool give_up = closing_seen && ready == 0;
                    const auto n = give_up ? ssize_t(-2)
                                   : (p[0].revents & (POLLOUT | POLLERR | POLLHUP))
                                       ? write_some(std::string_view(batch).substr(off), wb)
                                       : ssize_t(0);
                    const int err = errno;
                    lock.lock();
                    if (write_failed_locked) break; // the peer was given up on (abandon_peer_locked)
                    if (n == -2) {                  // closing while the peer does not read: drop what is left
                        off = batch.size();
                        pending.clear();
                        break;
                    }
                    if (n < 0) {
                        fail_write_locked(lock, err);
                        break;
                    }
                    off += static_cast<std::size_t>(n);
                    flusher_unwritten = batch.size() - off;
                }
                flusher_unwritten = 0;
            }
            flusher_has_work = false;
            writing = false;
            if (write_closed) release_write_fd_locked();
            if (flusher_stop) return;
        }
    }

    bool write_failed_locked = false;
    std::weak_ptr<impl> self;
    int original_write_flags = -1; // restored on descriptors we do not own

    void stop_flusher() {
        std::thread t;
        {
            std::lock_guard lock(write_mu);
            flusher_stop = true;
            t.swap(flusher);
        }
        flusher_cv.notify_all();
        if (!t.joinable()) return;
        if (t.get_id() == std::this_thread::get_id())
            t.detach();
        else
            t.join();
    }
    void fail_write_locked(std::unique_lock<std::mutex>& lock, int err) {
        writing = false;
        write_closed = true;
        write_failed_locked = true;
        pending.clear();
        release_write_fd_locked();
        lock.unlock();
        if (!write_failed.exchange(true) && !closed.load() && started.load(std::memory_order_acquire))
            report(opts.name + ": write failed: " + std::strerror(err));
        // Never waits: the sender may hold locks the reader needs. What the peer wrote before
        // it went away is still read (its last words: an error, a banner) before the end.
        request_close_after_input();
        lock.lock();
    }

    void hand_to_flusher_locked(std::string rest) {
        rest.append(pending);
        pending.swap(rest);
        flusher_has_work = true;
        if (!flusher.joinable()) flusher = std::thread([keep = self.lock(), this] { flusher_loop(); });
        flusher_cv.notify_one();
    }

    // Under write_mu, with no thread inside write(): let the peer see the end of the stream.
    void release_write_fd_locked() {
        if (!opts.owns_fds || opts.write_fd < 0 || write_fd_closed) return;
        if (opts.write_fd == opts.read_fd) {
            if (write_socket) ::shutdown(opts.write_fd, SHUT_WR); // closed when the state goes
        } else {
            ::close(opts.write_fd);
            write_fd_closed = true;
        }
    }

    // True when queuing `bytes` more would pass max_queued_bytes. One message larger than the
    // limit may go when nothing waits: what is bounded is accumulation behind a silent peer.
    bool over_limit_locked(std::size_t bytes) const {
        const std::size_t queued = pending.size() + flusher_unwritten;
        return opts.max_queued_bytes != 0 && queued != 0 && queued + bytes > opts.max_queued_bytes;
    }

    // The peer stopped reading and what waits for it reached the limit: it is treated as gone.
    // The queue and its memory are dropped (the flusher abandons its batch when it wakes), one
    // line says why, and the transport closes. Never waits: the sender may be any thread.
    void abandon_peer_locked(std::unique_lock<std::mutex>& lock, std::size_t bytes) {
        const std::size_t waiting = pending.size() + flusher_unwritten + bytes;
        write_closed = true;
        write_failed_locked = true;
        std::string().swap(pending);
        lock.unlock();
        if (!write_failed.exchange(true) && !closed.load() && started.load(std::memory_order_acquire))
            report(opts.name + ": the peer stopped reading: closing the connection with " +
                       std::to_string(waiting) + " bytes waiting to be sent (the limit is " +
                       std::to_string(opts.max_queued_bytes) + " bytes)",
                   transport_handler::severity::failure);
        request_close(); // wakes the flusher (and the reader) through the wake pipe
    }

    void send(std::string&& message) {
        std::unique_lock lock(write_mu);
        if (write_closed) return;
        if (writing) {
            if (over_limit_locked(message.size() + 1)) {
                abandon_peer_locked(lock, message.size() + 1);
                return;
            }
            pending.append(message);
            pending.push_back('\n');
            return;
        }
        writing = true;
        std::string batch = std::move(message);
        batch.push_back('\n');
        for (;;) {
            lock.unlock();
            bool would_block = false;
            const auto n = write_some(batch, would_block);
            const int err = errno;
            lock.lock();
            if (write_failed_locked) { // another sender gave up on the peer meanwhile
                writing = false;
                release_write_fd_locked();
                return;
            }
            if (n < 0) {
                fail_write_locked(lock, err);
                return;
            }
            if (would_block) { // the peer is not reading: the flusher waits for it, we do not
                hand_to_flusher_locked(batch.substr(static_cast<std::size_t>(n)));
                return;
            }
            if (pending.empty()) break;
            batch.clear();
            batch.swap(pending); // keep both buffers' capacity: no allocation in steady state
        }
        writing = false;
        if (write_closed) release_write_fd_locked(); // close() came while we were writing
    }

    void close_write() {
        std::lock_guard lock(write_mu);
        if (write_closed) return;
        write_closed = true;
        if (!writing) release_write_fd_locked(); // else the active writer flushes, then releases
    }

    void wake_readers() {
        if (wake[1] >= 0) {
            const char c = 1;
            (void)!::write(wake[1], &c, 1);
        }
    }

    // The way out is broken: deliver what is already readable, then end (the reader does it).
    void request_close_after_input() {
        if (closed.load(std::memory_order_acquire)) return;
        {
            std::lock_guard lock(reader_mu);
            if (!input_ended && started.load(std::memory_order_acquire)) {
                draining.store(true, std::memory_order_release);
                wake_readers();
                return;
            }
        }
        request_close();
    }

    void request_close() {
        if (closed.exchange(true, std::memory_order_acq_rel)) return;
        close_write();
        bool reader_gone = false;
        {
            std::lock_guard lock(reader_mu);
            reader_gone = input_ended;
        }
        if (reader_gone)
            end_of_stream(); // no reader left to deliver on_close
        else
            wake_readers(); // the reader stops and calls on_close (if started)
    }

    // close(): stop, then wait until on_close has been delivered, so that no callback runs after
    // close() returns. Not waited for: when called from a reader thread (inside a callback), and
    // while a message is being handled inline (reader_idle; on_close follows its return).
    void close() {
        request_close();
        std::unique_lock lock(reader_mu);
        if (!started.load() || on_reader_thread_locked()) return;
        reader_cv.wait(lock, [&] { return close_delivered || inside_last; });
    }

    // The reader is done (EOF, error or close): the only place on_close is called.
    void end_of_stream() {
        closed.store(true, std::memory_order_release);
        close_write();
        std::call_once(close_once, [this] {
            if (handler.on_close) handler.on_close();
            {
                std::lock_guard lock(reader_mu);
                close_delivered = true;
            }
            reader_cv.notify_all();
        });
    }
};

fd_stream_transport::fd_stream_transport(options o) : impl_(std::make_shared<impl>()) {
    ignore_sigpipe_once();
    if (::pipe2(impl_->wake, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::system_error(errno, std::generic_category(), "fd_stream_transport: pipe2");
    impl_->read_socket = is_socket(o.read_fd);
    impl_->write_socket = o.write_fd == o.read_fd ? impl_->read_socket : is_socket(o.write_fd);
    // Writes never block a sender: a pipe is switched to non-blocking (sockets use MSG_DONTWAIT)
    // and what the peer cannot take yet waits for the flusher thread.
    if (!impl_->write_socket && o.write_fd >= 0) {
        const int flags = ::fcntl(o.write_fd, F_GETFL);
        if (flags >= 0 && !(flags & O_NONBLOCK) && ::fcntl(o.write_fd, F_SETFL, flags | O_NONBLOCK) == 0)
            impl_->original_write_flags = flags;
    }
    impl_->opts = std::move(o);
    impl_->self = impl_;
}

fd_stream_transport::~fd_stream_transport() {
    impl_->close();
    impl_->stop_flusher();
    if (!impl_->opts.owns_fds && impl_->original_write_flags >= 0) // leave stdout as we found it
        ::fcntl(impl_->opts.write_fd, F_SETFL, impl_->original_write_flags);
    std::vector<impl::reader_thread> readers;
    bool current_inline = false;
    {
        std::lock_guard lock(impl_->reader_mu);
        readers.swap(impl_->readers);
        current_inline = impl_->inside_last;
    }
    for (std::size_t i = 0; i < readers.size(); ++i) {
        auto& r = readers[i];
        const bool busy = i + 1 == readers.size() ? current_inline : !r.done->load();
        // Never join ourselves (the transport dropped from inside its own callback); a reader still
        // inside an inline handler keeps the state alive and is left to finish on its own.
        if (r.thread.get_id() == std::this_thread::get_id() || busy)
            r.thread.detach();
        else
            r.thread.join();
    }
}

void fd_stream_transport::start(transport_handler handler) {
    std::lock_guard lock(impl_->reader_mu);
    if (impl_->started.load()) return;
    impl_->handler = std::move(handler);
    impl_->started.store(true, std::memory_order_release);
    impl_->start_reader_locked(impl_);
}

void fd_stream_transport::read_inline() {
    impl_->read_inline.store(true);
}

bool fd_stream_transport::hand_off_reading() {
    return impl_->hand_off(impl_);
}

void fd_stream_transport::send(jsonrpc::outgoing_message message) {
    if (impl_->closed.load(std::memory_order_relaxed)) return;
    impl_->send(std::move(message.text));
}

void fd_stream_transport::close_write_side() {
    impl_->close_write();
}

void fd_stream_transport::close() {
    impl_->close();
}

void fd_stream_transport::set_max_message_size(std::size_t bytes) {
    impl_->max_line.store(bytes);
}

} // namespace mcp
