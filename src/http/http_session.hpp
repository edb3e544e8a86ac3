// One Streamable HTTP session of the initialize era (2025-03-26 .. 2025-11-25), seen by the JSON-RPC
// engine as a transport, and by the HTTP router as the place POSTs and GETs of its session id go.
//
// Streams. Every POST that carries a request opens a logical stream; GET opens the standalone
// stream ("0"). A message goes to the stream of the request it belongs to (the request a
// response answers, or its `related` request), anything else to the standalone stream. A stream
// is logical because the HTTP connection under it may break and be replaced: each event gets an
// id "<stream>-<n>" and, when resumable, is kept in the event store; a GET with Last-Event-ID
// replays what followed and, if the stream is still open, carries the rest. A broken connection
// does not cancel anything (2025-11-25: disconnection is not cancellation). A stream ends with
// its request's response.
//
// Revisions. Priming events (an id with empty data) and ending a request's connection before
// its response (context::close_sse_stream) are SSE polling, which only 2025-11-25 clients know
// (has_sse_polling): older clients would take the empty event for a message, and expect a
// request's stream to stay open. Until the session's revision is known (initialize answered),
// no stream is primed.
//
// Keep-alive. On each of the router's ticks every SSE stream attached to a connection gets a
// comment, and a response that has waited a whole keep_alive_interval without a byte becomes an
// SSE stream (unless responses are JSON only), so that intermediaries do not cut it.
//
// Replicas. This object is one process's copy of the session; other replicas sharing the
// stores may hold copies too. Stream ids start with a random prefix per copy (see
// mcp/http/event_store.hpp), so events of every copy can share the event store. A GET that
// resumes a stream of another copy gets what the store holds; a request stream then ends (its
// request runs elsewhere: the client resumes again later), while the session's standalone
// stream goes on as this copy's. Closing a copy leaves the stores alone: whether the session
// ended is the router's to say.
//
// Response shape per POST (server_options::responses): JSON when the response is the only thing
// to send, SSE once anything else belongs to the request first (automatic), or always SSE.
//
// Locking: `mu_` guards the streams; writer calls are non-blocking and may be made under it, but
// a writer reference is never released under it (a writer's destructor can run its on_close
// callback synchronously, which takes `mu_`). The engine is called without `mu_` held.
#pragma once

#include "http/http_server.hpp"
#include "http/streamable_host.hpp"

#include <mcp/transport/transport.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp::http::detail {

class http_session final : public mcp::transport, public std::enable_shared_from_this<http_session> {
public:
    http_session(std::string id, std::shared_ptr<host_state> host);
    ~http_session() override;
    const std::string& id() const noexcept { return id_; }

    // ---- mcp::transport (the engine's side) ----
    void start(transport_handler handler) override;
    void send(jsonrpc::outgoing_message message) override;
    void close() override;
    bool close_request_stream(const jsonrpc::request_id& id) override;

    // ---- the HTTP router's side (I/O threads) ----
    /// A POST of this session: `message`, as the router parsed it (one message or a 2025-03-26
    /// batch; kind::invalid with an empty batch: nothing to deliver). Requests get a stream
    /// (JSON or SSE); notifications and responses alone get 202. `early_replies`: for a batch,
    /// the error responses to elements the router refused before it ran (they are not in
    /// `message`); they join the batch's reply array.
    void post(jsonrpc::incoming_message&& message, std::shared_ptr<core::response_writer> writer,
              std::vector<std::string> early_replies = {});
    /// The first POST of a new session carries initialize request `id`. Should it be answered
    /// with an error, the session never began: `refused` runs (the router drops the session)
    /// before the answer is sent, and the answer carries no Mcp-Session-Id. Call before post().
    void expect_initialize(jsonrpc::request_id id, std::function<void()> refused);
    /// A GET: the standalone stream, or (with Last-Event-ID) the resumption of a stream.
    void get(const std::optional<std::string>& last_event_id, std::shared_ptr<core::response_writer> writer);
    /// Keep-alive (see above): a comment on every attached SSE stream; a response that has
    /// waited a whole keep_alive_interval starts SSE first.
    void keep_alive();
    /// The server stops: the standalone stream's response ends cleanly (its chunked body is
    /// terminated, so the client sees an end, not a cut) and no new one is attached: a GET for
    /// it gets 503, and a resumption of it what was missed, then the end.
    void end_standalone_stream();
    /// The revision the session negotiated: told once initialize is answered, or from the
    /// record of a restored session. It decides whether streams poll (see above).
    void set_protocol_revision(revision r) noexcept;
    std::chrono::steady_clock::time_point last_used() const;
    bool is_closed() const;
    std::size_t stream_count() const; ///< logical streams not finished (for leak tests)
    /// In use though no request may have come lately: a request of it in progress here, or its
    /// standalone stream attached to a connection (a client that only listens is using it).
    bool in_use() const;
    /// The version of the session store's record this copy's state reflects (the router's).
    std::uint64_t record_version() const noexcept { return record_version_.load(std::memory_order_acquire); }
    void set_record_version(std::uint64_t v) noexcept { record_version_.store(v, std::memory_order_release); }

private:
    struct stream {
        std::string id;
        std::shared_ptr<core::response_writer> writer; ///< null while no connection carries it
        bool sse = false;                              ///< the current writer has started an SSE response
        bool ever_sse = false;                         ///< some connection carried it as SSE (events exist)
        std::uint64_t seq = 0;                         ///< last event number
        std::vector<jsonrpc::request_id> requests;
        bool standalone = false;
        std::vector<std::string> early_replies;       ///< see post(): merged into the batch's reply
        std::chrono::steady_clock::time_point opened; ///< when its POST came (keep-alive)
        /// The standalone stream until the client's first GET: what the server sent meanwhile
        /// (event id, message), written when that GET comes (bounded; see write_event_locked).
        std::vector<std::pair<std::string, std::string>> before_first_get;
        std::size_t before_first_get_bytes = 0;
        bool got_first_get = false;
    };

    std::shared_ptr<stream> stream_of_locked(const jsonrpc::request_id& id);
    /// Start SSE on the stream's writer if needed (with a priming event when it polls).
    bool ensure_sse_locked(stream& s);
    /// Streams open with a priming event and may be ended before their response: there is an
    /// event store to resume from, and the session's revision has SSE polling.
    bool polls() const noexcept;
    /// Whether keep_alive() may turn the waiting response of `s` into an SSE stream now.
    bool may_start_sse_for_keep_alive_locked(const stream& s,
                                             std::chrono::steady_clock::time_point now) const;
    /// Number, store and write one event. Returns false if the writer had to be detached
    /// (its release goes to `graveyard`).
    void write_event_locked(stream& s, std::string message,
                            std::vector<std::shared_ptr<core::response_writer>>& graveyard);
    void finish_stream_locked(const std::shared_ptr<stream>& s,
                              std::vector<std::shared_ptr<core::response_writer>>& graveyard);
    void watch(const std::shared_ptr<stream>& s, const std::shared_ptr<core::response_writer>& w);
    core::header_list json_headers() const;
    core::header_list sse_headers() const;
    void deliver(jsonrpc::incoming_message&& message);
    void send_standalone(std::string message);
    /// `is_error`: the message is an error response (an initialize refused ends the session).
    void send_reply(std::string message, const jsonrpc::request_id& id, bool is_error);
    void send_related(std::string message, const jsonrpc::request_id& related);
    void touch();
    /// Tell the event store to forget the streams that ended more than replay_window ago.
    void forget_ended_streams_locked(std::chrono::steady_clock::time_point now);

    const std::string id_;
    const std::string stream_prefix_; ///< "<copy>.": makes stream ids unique across replicas
    const std::shared_ptr<host_state> host_;
    std::atomic<std::uint64_t> record_version_{0};
    std::atomic<int> revision_{-1}; ///< a revision, or -1 until known
    transport_handler handler_;
    std::mutex deliver_mu_; // one message at a time into the engine

    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<stream>> streams_; // live logical streams by id
    std::map<jsonrpc::request_id, std::shared_ptr<stream>> by_request_;
    std::shared_ptr<stream> standalone_;
    std::uint64_t next_stream_ = 1;
    /// Streams whose response went out, oldest first, with when: their events stay replayable
    /// for replay_window (a client whose connection broke on the last event resumes), then the
    /// event store is told to forget them.
    std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> ended_;
    std::chrono::steady_clock::time_point last_used_;
    bool closed_ = false;
    bool close_notified_ = false;
    bool standalone_ended_ = false;                    ///< see end_standalone_stream()
    std::optional<jsonrpc::request_id> initialize_id_; ///< see expect_initialize()
    std::function<void()> initialize_refused_;
};

} // namespace mcp::http::detail
