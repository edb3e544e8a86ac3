// mcp/session/session.hpp - the two-way JSON-RPC engine shared by clients and servers.
//
// A session owns one transport and speaks JSON-RPC 2.0 over it in both directions:
//   * incoming requests are dispatched to handlers registered per method and run concurrently on
//     an executor; each gets a request_context (params, cancellation, progress, the peer);
//   * incoming notifications run in arrival order, one at a time;
//   * outgoing requests get fresh integer ids, are matched to their responses, time out
//     (default 60 s, reset on progress, capped by a hard maximum) and can be cancelled; both
//     send notifications/cancelled to the peer;
//   * ping is answered at once by the engine itself, whatever the handlers are doing.
// This is the low-level API (the MCP documents' "Protocol" class): mcp::server and mcp::client
// are built on it, and users who want no typed layer can use it directly.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/jsonrpc/message.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/jsonrpc/cancellation.hpp>
#include <mcp/session/executor.hpp>
#include <mcp/session/request_stream.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

class session;

/// One notifications/progress update.
struct progress_update {
    double progress = 0;
    std::optional<double> total;
    std::optional<std::string> message;
};

/// Options for one outgoing request.
struct request_options {
    /// Time to wait for the response; default: the session's request_timeout.
    std::optional<std::chrono::milliseconds> timeout;
    /// Hard cap on the total time even when progress keeps resetting the timeout.
    std::optional<std::chrono::milliseconds> max_total_timeout;
    bool reset_timeout_on_progress = true;
    /// When set, a progressToken is put in params._meta and updates are delivered here (on the
    /// session's notification thread, in order).
    std::function<void(const progress_update&)> on_progress;
    /// Cancelling this token cancels the request (notifications/cancelled is sent).
    cancellation_token cancel;
    /// The incoming request on whose behalf this one is sent (a sampling request made by a tool
    /// handler, say): multi-channel transports send it on that request's stream.
    std::optional<jsonrpc::request_id> related_request;
};

/// The outcome of an outgoing request: a result, or an error (from the peer, a timeout,
/// a cancellation or a closed connection).
struct response_outcome {
    json::value result;
    std::optional<mcp::error> error;
    bool ok() const noexcept { return !error.has_value(); }
};

/// The answer to a request whose handler returned without answering (request_context::defer):
/// resolve or reject it later, from any thread. The first call wins; if the object is destroyed
/// unanswered, the requester gets -32603 "the request was dropped". A request cancelled in the
/// meantime gets no response (the requester stopped waiting), as for any cancelled request.
class deferred_reply {
public:
    using finisher = std::function<void(std::string message, const mcp::error* error)>;
    deferred_reply(jsonrpc::request_id id, finisher finish)
        : id_(std::move(id)), finish_(std::move(finish)) {}
    ~deferred_reply();
    deferred_reply(const deferred_reply&) = delete;
    deferred_reply& operator=(const deferred_reply&) = delete;

    void resolve(const json::value& result);
    void reject(const mcp::error& e);
    bool done() const noexcept;

private:
    void finish(std::string message, const mcp::error* error);
    jsonrpc::request_id id_;
    mutable std::mutex mu_;
    finisher finish_; // empty once finished
};

/// What a request handler is given.
class request_context {
public:
    const jsonrpc::request_id& id() const noexcept { return id_; }
    std::string_view method() const noexcept { return method_; }
    /// The params object (empty object when the request had none).
    const json::object& params() const noexcept { return params_; }
    /// params._meta, or null.
    const json::object* meta() const noexcept;
    const cancellation_token& cancellation() const noexcept { return cancel_; }
    bool cancelled() const noexcept { return cancel_.is_cancelled(); }
    /// Whether the requester asked for progress (params._meta.progressToken).
    bool wants_progress() const noexcept { return !progress_token_.is_null(); }
    /// params._meta.progressToken (null when none).
    const json::value& progress_token() const noexcept { return progress_token_; }
    /// Send notifications/progress if the requester asked for it; otherwise does nothing.
    /// `progress` must increase from one call to the next.
    void report_progress(double progress, std::optional<double> total = std::nullopt,
                         std::optional<std::string> message = std::nullopt) const;
    /// Send a notification that belongs to this request (on its stream, for transports that
    /// have several).
    void notify(std::string method, json::value params = nullptr) const;
    /// The same, as a function that stays usable after the handler returned (for a deferred
    /// request), from any thread; it holds the session or stream weakly.
    std::function<void(std::string method, json::value params)> notifier() const;
    /// Where the request came from (HTTP headers, principal), when the transport said; or null.
    const message_origin* origin() const noexcept { return origin_.get(); }
    const std::shared_ptr<const message_origin>& origin_ptr() const noexcept { return origin_; }
    /// Close the connection carrying this request's response stream; the client resumes it later
    /// (see transport::close_request_stream). False when the transport cannot.
    bool close_stream() const;
    /// The revision whose rules apply to this request's messages, when known.
    std::optional<revision> protocol_revision() const noexcept;

    /// Whether the request came on a session (see peer()). A request served without one (a
    /// stateless HTTP request of the 2026-07-28 era) has only its own stream.
    bool has_peer() const noexcept { return session_ != nullptr; }
    /// The session the request came from, to send requests or notifications back. Throws
    /// std::logic_error when there is none (has_peer() is false).
    session& peer() const;
    std::shared_ptr<session> peer_ptr() const noexcept { return session_; }

    /// Answer later: the handler returns (its return value is ignored) and the request stays in
    /// progress until the returned object is resolved, rejected or destroyed. For long-lived
    /// requests such as subscriptions/listen. Calling it again returns the same object.
    std::shared_ptr<deferred_reply> defer();
    bool deferred() const noexcept { return deferred_ != nullptr; }

    /// A request that arrived on session `s`.
    request_context(std::shared_ptr<session> s, jsonrpc::request_id id, std::string method,
                    json::object params, cancellation_token cancel,
                    std::shared_ptr<const message_origin> origin = nullptr);
    /// A request served without a session: its notifications and its response go to `stream`.
    request_context(std::shared_ptr<request_stream> stream, revision r, jsonrpc::request_id id,
                    std::string method, json::object params, cancellation_token cancel,
                    std::shared_ptr<const message_origin> origin = nullptr);

    /// Set by the engine before the handler runs: how a deferred reply is delivered.
    void set_deferred_finisher(deferred_reply::finisher f) { finisher_ = std::move(f); }

private:
    std::shared_ptr<session> session_;
    std::shared_ptr<request_stream> stream_;
    std::optional<revision> stream_revision_;
    jsonrpc::request_id id_;
    std::string method_;
    json::object params_;
    cancellation_token cancel_;
    json::value progress_token_;
    std::shared_ptr<const message_origin> origin_;
    deferred_reply::finisher finisher_;
    std::shared_ptr<deferred_reply> deferred_;
};

/// Returns the result (an object; null means {}), or throws mcp::error for a JSON-RPC error.
using request_handler = std::function<json::value(request_context&)>;
using notification_handler = std::function<void(const json::object& params)>;
/// Decides, before dispatch, whether an incoming request may run (lifecycle gating, capability
/// checks). Return an error to reject it.
using request_filter = std::function<std::optional<mcp::error>(std::string_view method)>;
/// Sees each incoming notification before the session acts on it, on the reading thread and in
/// arrival order (so it must be quick). `params` may be changed; `deliver` hands the
/// notification on (cancellation and progress are acted on at once, the others are queued for
/// their handler); not calling it drops the notification. `origin` is null when the transport
/// tells none.
using notification_interceptor = std::function<void(std::string_view method, json::object& params,
                                                    const std::shared_ptr<const message_origin>& origin,
                                                    const std::function<void()>& deliver)>;

/// A message as seen by tracing: direction and the JSON text.
struct trace_event {
    enum class direction { in, out } dir;
    std::string_view message;
    std::chrono::microseconds since_start;
};

struct session_options {
    /// Largest incoming message (bytes); larger ones are rejected and the session goes on.
    std::size_t max_message_size = 4u << 20;
    /// Incoming requests being handled at once; more are answered with an error.
    std::size_t max_in_flight_requests = 1024;
    /// Default timeout of outgoing requests, and the hard maximum when progress resets it.
    std::chrono::milliseconds request_timeout{60000};
    std::chrono::milliseconds max_request_timeout{600000};
    /// Where request handlers run; null = the shared default pool.
    std::shared_ptr<executor> handler_executor;
    /// When the transport allows it, a request after which nothing else is buffered runs on the
    /// reading thread itself (no thread hand-off: the common case of one request at a time).
    /// If such a handler runs longer than this, or waits on a request of its own, reading moves
    /// to a new thread so the session keeps reading. Zero: always use the executor.
    std::chrono::milliseconds inline_stall_threshold{5};
    /// Deliver the outcome of each outgoing request after the notifications the peer sent
    /// before it (which run in order on the notification queue): a result never overtakes the
    /// log messages of its request, as it never overtakes its progress. Costs nothing while the
    /// queue is idle. A notification handler must then not wait for a response of this session.
    bool ordered_responses = false;
    /// When the peer ends its input while the way back stays open (a stdio server's stdin
    /// closes: the client's way of saying it is done), the requests it sent are given this long
    /// to be answered before the session closes and cancels what still runs. Outgoing requests
    /// fail at once (their answers can no longer come). Zero: close at once.
    std::chrono::milliseconds input_end_grace{5000};
    /// Log every message in and out. Also switched on by the environment variable MCPXX_TRACE=1.
    bool trace = false;
    /// Where trace lines go; default: stderr (never stdout).
    std::function<void(const trace_event&)> trace_sink;
    /// A label for trace lines and errors, e.g. "server" or the server's name.
    std::string name;
    /// Where the session reports problems no caller can be told about: a request handler that
    /// threw, a notification interceptor that failed, an error response without an id, a
    /// transport that closed because the peer stopped reading (transport_handler::on_error with
    /// severity::failure). One line each, without a newline; the session may call it from any of
    /// its threads.
    /// Default: stderr, as "mcpxx[name]: <line>".
    std::function<void(std::string_view)> diagnostic_sink;
};

class session : public std::enable_shared_from_this<session> {
public:
    static std::shared_ptr<session> create(transport_ptr transport, session_options options = {});
    ~session();
    session(const session&) = delete;
    session& operator=(const session&) = delete;

    // --- handlers (set before start(); later changes are allowed and thread-safe) ---
    void set_request_handler(std::string method, request_handler handler);
    void set_notification_handler(std::string method, notification_handler handler);
    void set_request_filter(request_filter filter);
    /// Handle requests of `method` on the reading thread, before any message after them is
    /// read: for quick handlers that change what later messages mean (initialize, whose
    /// followers a pipelining client may send before its answer). Such a handler must not wait
    /// for the peer.
    void set_handled_in_order(std::string method);
    /// See notification_interceptor; null removes it.
    void set_notification_interceptor(notification_interceptor interceptor);
    /// Called once when the session ends (transport closed, error, or close()).
    void on_close(std::function<void()> callback);

    /// Start reading from the transport.
    void start();
    /// Close the transport; pending outgoing requests fail with connection_closed and running
    /// handlers see their cancellation fire.
    void close();
    bool is_closed() const noexcept;
    /// Block until the session has closed.
    void wait_closed();

    // --- outgoing ---
    /// Send a request; `done` is called exactly once with the outcome (on an internal thread:
    /// it must not block; on the calling thread, before this returns, when the session is
    /// already closed). Returns the id the request was sent with, so that messages that name
    /// it (a subscription's notifications, say) can be matched with it.
    jsonrpc::request_id async_request(std::string method, json::value params, request_options options,
                                      std::function<void(response_outcome)> done);
    /// Send a request; the future yields the result or throws mcp::error.
    std::future<json::value> request(std::string method, json::value params = nullptr,
                                     request_options options = {});
    /// Send a request and wait for the result; throws mcp::error.
    json::value call(std::string method, json::value params = nullptr, request_options options = {});
    void notify(std::string method, json::value params = nullptr);
    /// A notification that belongs to incoming request `related` (see transport::send_related).
    void notify_related(const jsonrpc::request_id& related, std::string method, json::value params = nullptr);
    /// See transport::close_request_stream.
    bool close_request_stream(const jsonrpc::request_id& id);

    // --- protocol state set by the layer above after negotiation ---
    /// Record the negotiated revision. Also sets batch acceptance and the unknown-id error style
    /// to what that revision requires, and decides which optional fields the engine's own
    /// messages (progress) carry.
    void set_protocol_revision(revision r) noexcept;
    std::optional<revision> protocol_revision() const noexcept;
    /// Accept JSON-RPC batches (only 2025-03-26 allows them).
    void set_batches_allowed(bool allowed) noexcept;
    /// How error replies to messages with an unreadable id are written.
    void set_unknown_id_style(jsonrpc::unknown_id_style style) noexcept;
    /// Number the requests this session sends from `first` on (default 1). For a session that
    /// continues one another process served (a restored HTTP session): ids drawn apart from that
    /// process's keep an answer meant for it from being taken for one of ours. Call before the
    /// first request.
    void set_next_request_id(std::int64_t first) noexcept;

    const session_options& options() const noexcept;
    /// Statistics, for tests and metrics.
    std::size_t in_flight_incoming() const;
    std::size_t pending_outgoing() const;

    struct impl;

private:
    explicit session(std::unique_ptr<impl> p);
    std::unique_ptr<impl> impl_;
    friend class request_context;
};

} // namespace mcp
