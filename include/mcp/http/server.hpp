// mcp/http/server.hpp - an mcp::server over HTTP: the Streamable HTTP transport for every protocol
// revision on one endpoint, and (opt-in) the legacy HTTP+SSE transport of 2024-11-05.
//
//   mcp::server s({.info = {"weather", "1.0"}});
//   ...register tools...
//   return mcp::http::serve(s, {.port = 8080});   // http://127.0.0.1:8080/mcp until SIGINT/SIGTERM
//
// One endpoint, both eras:
//   * a POST whose request carries _meta["io.modelcontextprotocol/protocolVersion"] (or whose
//     MCP-Protocol-Version header names a stateless revision) is a 2026-07-28 request: served
//     with no session (through the server's internal entry point); its headers are checked against its body
//     (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*: 400 + -32020 on a mismatch);
//     the response is JSON, or SSE when the request sends notifications first; closing the
//     stream cancels the request; GET and DELETE are for the older era only;
//   * otherwise it is the initialize era (2024-11-05 .. 2025-11-25): with sessions (default) an
//     initialize creates a session whose id (128 bits from the OS CSPRNG) travels in
//     Mcp-Session-Id; requests get JSON or an SSE stream carrying their notifications and the
//     server's requests; GET opens the standalone stream; DELETE ends the session; streams are
//     resumable with Last-Event-ID from the event store; with a client of 2025-11-25 they poll
//     (a priming event with `retry` opens each stream, and context::close_sse_stream ends a
//     connection before the response), older clients get neither; a Last-Event-ID the store
//     cannot replay from (never issued, evicted, or forgotten after replay_window) is 400 with
//     a JSON-RPC error naming it - the specification leaves that answer open, 404 would tell the
//     client its session is gone, and an empty stream that it resumed; an unknown or ended
//     session is 404, a request without one 400; an invalid initialize, or one answered with an
//     error, leaves no session. A session expires when it has been idle for
//     session_idle_timeout: no request came, none is in progress, and its standalone stream
//     is not open. Without sessions (`stateful = false`) every request is served on its own,
//     as the revision in MCP-Protocol-Version, initialize returns no session id, and GET and
//     DELETE are 405.
//
// Replicas. Several servers (processes, or objects in one process) may share `sessions` and
// `events` - a shared implementation of the two store interfaces - behind a load balancer
// without sticky routing. Any of them serves any request of any session: a session this process
// does not hold is restored from its record (mcp::server::restore_session: initialized, with the
// revision, client, capabilities, log level and subscriptions the client set, wherever it set
// them); every request touches the record, so idle expiry (by any replica) sees use anywhere;
// DELETE or expiry on one replica is a 404 on all; a GET with Last-Event-ID replays, from the
// event store, what any replica wrote (event ids are unique across replicas). Replicas should
// run the same tools and the same options (session_idle_timeout above all). What stays with
// the process that has it:
//   * a request the server sent the client (sampling, elicitation, roots) waits on the replica
//     that sent it: the client's answer POSTed to another replica is dropped (each copy numbers
//     its requests apart, so it is never taken for that replica's own), and the request times
//     out;
//   * a request in progress runs where it arrived: notifications/cancelled sent to another
//     replica does not reach it, and a stream resumed on another replica gets what is stored
//     so far and ends (the client resumes again for the rest);
//   * notifications the server raises on one replica (list_changed, resources/updated, log
//     messages) go to the streams that replica holds; each replica holding a copy has its own
//     standalone GET stream (a shared bus for these is a later issue); the replica a standalone
//     stream is attached to touches the session's record on each tick, so the session does not
//     expire while a client listens, and expires a timeout after the stream (or the replica)
//     went;
//   * changes to one session made on two replicas at the same moment: the last one written wins.
// stop() releases this process's copies and leaves the stores alone, so other replicas go on.
//
// Security defaults: bound to 127.0.0.1; Host (or the authority of an absolute-form target)
// must name a loopback host and Origin (when sent, once) a loopback origin, else 403 (DNS
// rebinding); bodies over max_body_bytes get 413; a session cap (the least recently used idle
// session makes way for a new one; 503 only when all are busy), a cap per client (principal or
// address; 429) and an idle expiry. Headers that name one thing (MCP-Protocol-Version,
// Mcp-Session-Id, the mirrored headers) sent on several lines are 400. stop() ends standing
// streams at once and finishes requests in progress for `grace`.
//
// Keep-alive: every SSE response that stays open (standalone and request streams of sessions,
// 2026-07-28 request and listen streams, HTTP+SSE streams) gets a comment every
// keep_alive_interval; a response that has waited a whole interval without a byte (a long tool
// call that sends nothing) becomes an SSE stream to carry them, unless responses are JSON only
// (its answer then travels in the stream: an error too, with the stream's status 200).
//
// Threads: `threads` I/O threads (no handler runs on them); handlers run on the mcp::server's
// executor. Nothing of Boost.Beast or Asio appears in this header.
#pragma once

#include <mcp/http/event_store.hpp>
#include <mcp/http/session_store.hpp>
#include <mcp/server/server.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::http {

/// One incoming HTTP request as an authentication hook sees it.
struct request_info {
    std::string method;
    std::string target;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string remote_address;
    /// The request's body (a POST's JSON-RPC message), valid during the call: lets a hook
    /// decide by what is asked (e.g. the scopes a tools/call of one tool needs).
    std::string_view body;
    const std::string* header(std::string_view name) const noexcept;
    /// How many header lines are named `name` (ASCII case-insensitive).
    std::size_t header_count(std::string_view name) const noexcept;
};

/// What an authentication hook decides: accept (with the principal the request acts for) or
/// refuse with a status (401/403), extra headers (WWW-Authenticate) and a message.
struct auth_decision {
    bool accepted = true;
    std::string principal;
    int status = 401;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string message;
};

struct server_options {
    std::string address = "127.0.0.1"; ///< an IP literal; loopback unless you mean it
    unsigned short port = 0;           ///< 0 = ephemeral (see server::port())
    std::string path = "/mcp";         ///< the MCP endpoint
    std::size_t threads = 1;           ///< I/O threads

    /// Initialize-era clients get sessions (Mcp-Session-Id). When false they are served
    /// statelessly and no session id is minted. 2026-07-28 requests are always stateless.
    bool stateful = true;
    /// How a response is sent: automatic = JSON unless something (a notification, a server
    /// request) belongs to the request before its response, or it has waited a whole
    /// keep_alive_interval, then SSE; sse = always SSE (for a 2025-11-25 session with a priming
    /// event, so every response stream is resumable from its start); json = JSON always (what
    /// belongs to a request before its response then goes to the standalone GET stream; a long
    /// request gets no keep-alive).
    enum class response_mode { automatic, sse, json } responses = response_mode::automatic;

    /// Host header values accepted (host or host:port, compared case-insensitively). Empty: the
    /// loopback names (localhost, 127.0.0.1, [::1], any port) when bound to loopback; when bound
    /// elsewhere, empty means Host is not checked. "*" disables the check.
    std::vector<std::string> allowed_hosts;
    /// Origin header values accepted (scheme://host[:port]). Empty: loopback origins (http or
    /// https, any port). A request without Origin (not a browser) is not affected. "*" disables.
    std::vector<std::string> allowed_origins;

    std::size_t max_body_bytes = std::size_t{4} << 20;
    /// Per SSE response (a request's stream, a standalone GET stream, a response served without
    /// a session, a listen stream, an HTTP+SSE stream): bytes the server has written and the
    /// client not yet read, at most (8 MiB). A client that stops reading while messages keep
    /// coming is cut off when its stream would pass it: that connection is closed (never a
    /// blocked handler, never a dropped message on a stream that goes on), what was queued is
    /// freed, and `log` gets one line. What that means is the stream's own rule: a session's
    /// stream is detached and resumable from the event store (Last-Event-ID), a 2026-07-28
    /// request is cancelled, a listen stream ends, an HTTP+SSE session ends. One event larger
    /// than the bound still goes when nothing else waits (a replay is sent as one).
    std::size_t max_stream_queue_bytes = std::size_t{8} << 20;
    /// Problems no request can be told about: a client cut off for not reading (above). One
    /// line each, naming the client's address and its request (method and path); called on an
    /// I/O thread, so it must not block. Default: the mcp::server's session_options::
    /// diagnostic_sink when set, else a line on stderr prefixed "mcpxx http: ".
    std::function<void(std::string_view)> log;
    /// Sessions held at once (initialize era, and HTTP+SSE sessions counted apart). When the
    /// table is full, a new session takes the place of the least recently used idle session (no
    /// request of it in progress, no stream of it open): that session ends, and its client's next
    /// request gets 404 (the client initializes again). Only when every session is busy is
    /// initialize refused: 503 with Retry-After and a JSON-RPC error. So clients that initialize
    /// and walk away cannot lock others out. An HTTP+SSE session is its open stream, so it is
    /// always busy: beyond the cap its GET gets 503.
    std::size_t max_sessions = 10000;
    /// Sessions one client may hold: the principal `authenticate` gave, or without one the
    /// client's IP address (0: no cap of its own). A client at its cap loses its own least
    /// recently used idle session to the new one, never another client's; when every one of its
    /// sessions is busy, 429 with Retry-After and a JSON-RPC error.
    std::size_t max_sessions_per_principal = 1000;
    std::chrono::milliseconds session_idle_timeout{std::chrono::minutes(30)};
    /// How often open SSE responses get a keep-alive comment (see above).
    std::chrono::milliseconds keep_alive_interval{std::chrono::seconds(15)};
    std::chrono::milliseconds sse_retry{1000}; ///< `retry:` of priming events
    /// SSE streams of the initialize era can be resumed: events are kept in `events` (a bounded
    /// memory_event_store when null) and, for a 2025-11-25 session, each stream opens with a
    /// priming event.
    bool resumable = true;
    std::shared_ptr<event_store> events;
    /// How long the events of a stream whose response went out stay replayable (a client whose
    /// connection broke on the last events resumes within its retry delay); then the event store
    /// is told to forget them. Checked when streams end and on keep-alive ticks.
    std::chrono::milliseconds replay_window{std::chrono::minutes(1)};
    /// Which sessions exist and what each negotiated (a memory_session_store when null). Share
    /// it, and `events`, between replicas (see above).
    std::shared_ptr<session_store> sessions;

    /// Also serve the 2024-11-05 HTTP+SSE transport: GET `legacy_sse_path` opens a stream whose
    /// first event (`endpoint`) names `legacy_messages_path?sessionId=...` for the POSTs.
    bool legacy_sse = false;
    std::string legacy_sse_path = "/sse";
    std::string legacy_messages_path = "/messages";

    // ---- what one client address may take (refused clearly, never left waiting; `log` gets
    //      the refusals counted, a line a second at most, and a line per address over budget) ----
    /// Connections served at once; more get 503 with "Connection: close" and Retry-After at
    /// once, without their request being read. Lowered at start() to what the descriptor limit
    /// (RLIMIT_NOFILE) allows, with a reserve for the rest of the process (logged).
    std::size_t max_connections = 10000;
    /// Connections served at once for one client address; 0 = max_connections / 8, at least 64
    /// (or max_connections when lower). Behind a reverse proxy every client has the proxy's
    /// address: raise it there.
    std::size_t max_connections_per_address = 0;
    /// start() raises the soft RLIMIT_NOFILE toward the hard limit as far as max_connections
    /// needs (process-wide). false: leave it, and fit max_connections under it.
    bool raise_descriptor_limit = true;
    /// Requests refused by `authenticate` (or answered 401/403 by an extra route when
    /// `authenticate` is set), per client address: a token bucket of this rate and burst. An
    /// address that spent it gets 429 with Retry-After for every request, before any
    /// authentication (and without a log line each: those refusals are counted, one line per
    /// address and interval), until the bucket refills. 0 disables.
    double refused_auth_per_second = 1;
    double refused_auth_burst = 20;

    /// Called for every request before anything else (after Host/Origin checks). Refusing
    /// answers with the decision's status; the principal reaches handlers (context::principal).
    std::function<auth_decision(const request_info&)> authenticate;
    /// Extra routes (e.g. /healthz, /metrics): return true when handled, filling status,
    /// headers and body. Checked before the MCP endpoint.
    std::function<bool(const request_info&, int& status,
                       std::vector<std::pair<std::string, std::string>>& headers, std::string& body)>
        extra_routes;
};

class server {
public:
    /// Serve `mcp_server` (which must outlive this object).
    server(mcp::server& mcp_server, server_options options = {});
    ~server(); ///< stop(0)
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    /// Bind and listen. Throws std::system_error naming the address when it cannot.
    void start();
    unsigned short port() const;
    /// The endpoint URL, e.g. "http://127.0.0.1:8080/mcp".
    std::string url() const;
    /// Stop accepting; end the streams that never end by themselves (standalone GET streams,
    /// subscriptions/listen streams with their result, HTTP+SSE streams) at once, cleanly (the
    /// chunked body terminated); let requests in progress finish for up to `grace`, then close
    /// every connection and this process's copy of every session (the sessions stay in the
    /// session store, for other replicas). With nothing in progress it returns at once (a
    /// connection a client keeps open after its stream ended is closed within 2 s).
    /// Idempotent.
    void stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

    // --- observability (health checks and metrics read these; tests count them to show
    //     nothing leaks) ---
    std::size_t sessions() const;     ///< initialize-era sessions held by this process
    std::size_t open_streams() const; ///< SSE responses being written
    std::size_t open_connections() const;
    /// Requests received and not answered yet, in every era: their handlers are running (or
    /// their answers being sent). A request of a session goes on when its client disconnects
    /// (the client may resume), one of 2026-07-28 is cancelled and counts until its handler
    /// returns. Open subscriptions/listen streams are not requests in flight (mcp::server::
    /// listeners() counts them).
    std::size_t requests_in_flight() const;
    /// Response streams of this process's sessions whose response has not gone out: each keeps
    /// its events replayable, attached to a connection or waiting for the client to resume it.
    /// (Standalone GET streams are not counted: every session has one.)
    std::size_t session_streams() const;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

/// What serve() waits for, for programs that run their own server: install_stop_signals()
/// makes SIGINT and SIGTERM wake wait_for_stop_signal() (and ignores SIGPIPE, which a client
/// that goes away would otherwise raise); call it early, so that a signal that comes before
/// the wait is not lost. Process-wide; installing twice is harmless.
void install_stop_signals();
/// Block until SIGINT or SIGTERM arrives (after install_stop_signals()).
void wait_for_stop_signal();
/// Wait at most `timeout` for SIGINT or SIGTERM; true when one has arrived (then and ever
/// after: the signal stays noticed, and wait_for_stop_signal() returns at once). For a program
/// that must stay stoppable while it does something else first (a gateway starting its servers).
bool wait_for_stop_signal(std::chrono::milliseconds timeout);

/// Start an HTTP server for `s`, print nothing, and block until SIGINT or SIGTERM; then stop
/// gracefully. Returns a process exit code (0; 1 if it could not listen, with the reason on
/// stderr).
int serve(mcp::server& s, server_options options = {});

} // namespace mcp::http
