// http/client/io.hpp - the client's connection code behind a Boost-free interface: an event
// loop (one io_context, optionally with its own thread), timers, and HTTP/1.1 exchanges over
// TCP or TLS with a keep-alive pool. Asio and asio::ssl live in io.cpp only (one expensive
// translation unit); the MCP transport and fetch() are written against this header.
//
// Everything here runs on the loop: start() and the handlers of an exchange are called on the
// loop thread, one at a time, so the layers above need no locks for their per-exchange state.
#pragma once

#include "http/core/request.hpp" // core::header_list
#include "url.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::http::detail {

/// One io_context. Either run by a thread of its own (start_thread) or on the caller's thread
/// until it runs out of work (run_here).
class io_loop : public std::enable_shared_from_this<io_loop> {
public:
    static std::shared_ptr<io_loop> create();
    ~io_loop();
    io_loop(const io_loop&) = delete;
    io_loop& operator=(const io_loop&) = delete;

    /// Start the thread (idempotent). It keeps the loop alive until run() returns, which it
    /// does once release() was called and no work is left.
    void start_thread();
    /// Let the thread end once idle.
    void release();
    /// Wait until the thread's run() has returned; false on timeout.
    bool wait_idle(std::chrono::milliseconds timeout);
    /// Stop the io_context at once (pending handlers are dropped).
    void force_stop();
    /// Join the thread (not from the loop thread, where it does nothing).
    void join();
    /// Run on the calling thread until no work is left.
    void run_here();

    void post(std::function<void()> fn);
    bool on_loop_thread() const noexcept;

    struct impl;
    impl& get() { return *impl_; }

private:
    io_loop();
    std::unique_ptr<impl> impl_;
};

/// A pending run_after(). cancel() (loop thread) guarantees the function will not run.
class timer_handle {
public:
    virtual ~timer_handle() = default;
    virtual void cancel() = 0;
};
/// Run `fn` on the loop after `delay`. Loop thread only.
std::shared_ptr<timer_handle> run_after(io_loop& loop, std::chrono::milliseconds delay,
                                        std::function<void()> fn);

struct tls_options {
    bool verify_peer = true;
    std::string ca_file;
};

struct call_request {
    url_parts url;
    std::string method = "GET";
    /// Fields besides Host and Content-Length (which are written here).
    core::header_list headers;
    std::string body;
    /// Also the longest a request write may go without the server taking a byte of it.
    std::chrono::milliseconds connect_timeout{10000};
    /// Bound on the whole exchange; zero: none (streams may last for hours).
    std::chrono::milliseconds total_timeout{0};
};

struct call_failure {
    /// Says what failed and names url.display, e.g. "cannot connect to http://127.0.0.1:1/mcp:
    /// Connection refused". Never contains header values.
    std::string message;
    bool timed_out = false;
};

struct call_handlers {
    /// The status line and fields (interim 1xx responses are skipped).
    std::function<void(int status, std::string reason, core::header_list headers)> on_head;
    /// Body bytes as they arrive (de-chunked).
    std::function<void(std::string_view bytes)> on_body;
    /// The exchange is over: nullptr when the response is complete, otherwise why it failed
    /// (before or after the head). Not called after abort().
    std::function<void(const call_failure* failure)> on_end;
};

/// One request/response exchange. abort() (loop thread; also from inside its own handlers)
/// closes its connection at once; no handler runs afterwards.
class http_call {
public:
    virtual ~http_call() = default;
    virtual void abort() = 0;
};

/// Connections of one client (a transport, an http_client), idle ones kept per origin for
/// reuse. Loop thread only, except construction and destruction.
class connection_pool {
public:
    connection_pool(std::shared_ptr<io_loop> loop, tls_options tls);
    ~connection_pool();
    connection_pool(const connection_pool&) = delete;
    connection_pool& operator=(const connection_pool&) = delete;

    /// Start an exchange: an idle connection to the origin is reused, otherwise one is opened.
    /// A reused connection that turns out to be closed before any byte of the response is
    /// replaced by a fresh one, once. Handlers run on the loop.
    std::shared_ptr<http_call> start(call_request request, call_handlers handlers);
    /// Close the idle connections; no connection is kept from now on.
    void close_idle();
    std::size_t idle_connections() const;

    struct state;

private:
    std::shared_ptr<state> st_;
};

} // namespace mcp::http::detail
