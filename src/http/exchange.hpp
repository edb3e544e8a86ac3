// http/exchange.hpp - the response_writer the server hands out: one per request.
//
// The exchange is the meeting point of two worlds. Handler code calls it from any thread; it
// formats bytes into a pending buffer under a mutex and asks its connection (an exchange_sink,
// implemented next to Asio in http_server.cpp) to flush. The connection, on its strand, takes
// the pending bytes, writes them, and tells the exchange when they are out. Writes therefore
// never block and coalesce: many write() calls made while a socket write is in progress go out
// as one.
//
// Lifetime rules:
//   * the connection holds the exchange weakly; handler code, flush requests on their way and
//     in-progress I/O hold it strongly. An exchange destroyed before it is over is "dropped":
//     its destructor tells the connection (500, or a cut stream) and hands it the on_close
//     callback, so on_close still runs exactly once, on the strand;
//   * the exchange holds its connection weakly, and only touches it under server_shared's
//     post guard: once the server has stopped, no thread can reach a connection (or post to an
//     io_context that is being destroyed) through a writer the application still holds.
#pragma once

#include "response_writer.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

namespace mcp::http::core::detail {

/// State shared by a server and all its exchanges; outlives the server if writers do.
struct server_shared {
    /// Held shared by an exchange while it calls into its connection; held exclusively by
    /// server::stop() to switch `accepting_posts` off before the io_context goes away.
    std::shared_mutex post_mu;
    bool accepting_posts = true; // guarded by post_mu
    std::atomic<std::size_t> open_streams{0};
};

class exchange;

/// The connection side of an exchange (see http_server.cpp). Called from any thread, under
/// the post guard; must not block (both only post to the connection's strand).
class exchange_sink {
public:
    /// `ex` has bytes to write, has finished, or must be closed (slow consumer).
    virtual void exchange_ready(std::shared_ptr<exchange> ex) = 0;
    /// The exchange of request `seq` was destroyed before it was over. `unanswered`: nothing
    /// was sent yet (the client gets 500); otherwise the response is cut short (the connection
    /// closes). `on_close` is the exchange's callback, still to be run on the strand.
    virtual void exchange_dropped(std::uint64_t seq, bool unanswered, std::function<void()> on_close) = 0;

protected:
    ~exchange_sink() = default;
};

/// While one exists on a thread, exchanges whose owner is `owner` do not post flush requests
/// but set a flag the owner checks afterwards (take_inline_flush): a handler that answers at
/// once, on the I/O thread, costs no extra trip through the io_context.
class inline_scope {
public:
    explicit inline_scope(const void* owner) noexcept;
    ~inline_scope();
    inline_scope(const inline_scope&) = delete;
    inline_scope& operator=(const inline_scope&) = delete;

private:
    const void* previous_;
};

class exchange final : public response_writer, public std::enable_shared_from_this<exchange> {
public:
    struct config {
        std::uint64_t seq = 0;     ///< the connection's request number
        std::size_t max_queue = 0; ///< server_options::max_stream_queue_bytes
        bool keep_alive = true;    ///< the request allows keeping the connection
        bool http10 = false;       ///< HTTP/1.0 client: no chunked coding
        bool head = false;         ///< HEAD request: no body is sent
    };

    /// `buffer` (cleared, capacity kept) becomes the pending buffer: the connection lends the
    /// buffer of its previous write so that formatting a response does not allocate.
    exchange(std::weak_ptr<exchange_sink> sink, const void* owner, std::shared_ptr<server_shared> shared,
             config cfg, std::string buffer = {});
    ~exchange() override;

    // response_writer
    void respond(int status, header_list headers, std::string body) override;
    bool start_stream(int status, header_list headers) override;
    bool write(std::string bytes) override;
    void end() override;
    bool closed() const override;
    void on_close(std::function<void()> fn) override;

    // ---- connection side (its strand) ----
    enum class output {
        none,     ///< nothing to write now
        write,    ///< `head` / `body` filled: write them, then call output_written()
        finished, ///< everything was written: the exchange is complete
        close,    ///< slow consumer: close the connection
    };
    /// Moves pending bytes into `head` and `body` (both cleared first; `body` is used for a
    /// large respond() body so that it is written without a copy).
    output take_output(std::string& head, std::string& body);
    void output_written();
    /// A flush was requested inside an inline_scope; clears the flag.
    bool take_inline_flush();
    /// The exchange is over (complete, or `client_gone`): runs on_close once. Idempotent.
    void finish(bool client_gone);
    bool keep_alive() const;
    /// The server is stopping: a response not started yet says "Connection: close".
    void disable_keep_alive();
    bool unanswered() const;
    bool overflowed() const; ///< a write() exceeded the queue bound: close the connection
    /// The bytes that would have been queued by the write() that overflowed (for the log).
    std::size_t overflow_bytes() const;
    std::uint64_t seq() const { return cfg_.seq; }

private:
    enum class state : std::uint8_t { waiting, streaming, finishing, done, gone, overflow };

    bool request_flush_locked(); // true: the caller must post (outside the lock)
    void post_ready();

    const std::weak_ptr<exchange_sink> sink_;
    const void* const owner_;
    const std::shared_ptr<server_shared> shared_;
    config cfg_;

    mutable std::mutex mu_;
    state state_ = state::waiting;
    bool over_ = false;            // finish() ran (on_close taken)
    bool counted_ = false;         // counted in server_shared::open_streams
    bool flush_scheduled_ = false; // a flush request is on its way to the connection
    bool inline_flush_ = false;
    std::string pending_;        // formatted bytes not yet taken by the connection
    std::string body_;           // a large respond() body, written after pending_
    std::size_t in_flight_ = 0;  // bytes taken by the connection and not yet written
    std::size_t head_bytes_ = 0; // start_stream()'s head: not counted against the queue bound
    bool head_out_ = false;      // the first write (which carries the head) has completed
    std::size_t overflow_bytes_ = 0;
    std::function<void()> on_close_;
};

} // namespace mcp::http::core::detail
