// http/client/transport_impl.hpp - the state of mcp::http::client_transport, shared by the
// transport_*.cpp files. Everything below `loop state` is touched on the loop thread only.
//
// The moving parts:
//   outgoing      one message from the session, read once in send() (kind, id, method, era);
//   stream_state  one HTTP exchange and what follows from it: a POST (with its JSON or SSE
//                 reply, and the GET + Last-Event-ID calls that resume that SSE stream), the
//                 standalone GET stream, or the legacy SSE stream;
//   wire          undecided (automatic mode, until a POST succeeds or the legacy GET works),
//                 streamable or legacy_sse.
// Requests awaiting an answer are owned by the stream that carried them (awaiting_owner); an
// answer may come on any stream (a resumed one, the GET stream) and completes them there. A
// stream that ends with requests still awaiting answers them with synthesized errors, so the
// session's pending requests always complete.
#pragma once

#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/message.hpp>
#include <mcp/jsonrpc/cancellation.hpp>

#include "errors.hpp"
#include "io.hpp"
#include "mcp_headers.hpp"
#include "sse_parser.hpp"
#include "url.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace mcp::http {

namespace detail {

using jsonrpc::request_id;

/// One message from the session, classified once (in send(), on the caller's thread).
struct outgoing {
    enum class kind { request, notification, response, batch, other };
    std::string text;
    kind k = kind::other;
    std::optional<request_id> id;     ///< a request's id
    std::vector<request_id> awaiting; ///< the request ids this POST will be answered for
    std::string method;
    std::string stateless_version;     ///< params._meta protocol version (2026-07-28 era), or empty
    json::value params;                ///< kept for the 2026-07-28 headers (name, uri, arguments)
    std::optional<request_id> cancels; ///< notifications/cancelled: the request it cancels
    bool id_less_error = false;
    std::size_t auth_retries = 0; ///< times this message was sent again after a 401/403

    bool stateless() const { return !stateless_version.empty(); }
    bool is(std::string_view m) const { return method == m; }
};

/// What the transport needs to know of a message from the session, from what the session
/// said of it (never throws; anything unreadable is kind::other).
outgoing classify_outgoing(jsonrpc::outgoing_message m);

struct stream_state {
    enum class role { post, get, legacy };
    enum class body_kind { none, json, sse, error, other };

    role r = role::post;
    std::uint64_t serial = 0;
    outgoing msg;                  ///< role::post: what was POSTed
    std::set<request_id> awaiting; ///< requests not answered yet
    std::shared_ptr<detail::http_call> call;
    std::shared_ptr<detail::timer_handle> timer; ///< reconnection wait / endpoint deadline
    bool finished = false;
    bool probe = false;               ///< automatic mode: this POST decides the wire
    bool sent_session = false;        ///< the current call carried Mcp-Session-Id
    std::uint64_t session_serial = 0; ///< ... of this session (impl::session_serial)

    // the current response
    int status = 0;
    std::string reason;
    std::string www_authenticate;
    body_kind body = body_kind::none;
    std::string body_bytes; ///< a JSON body, or the start of an error body
    bool body_oversize = false;
    std::unique_ptr<sse_parser> sse; ///< created with the first SSE response; kept across resumptions
    bool resuming = false;           ///< the current call is a GET + Last-Event-ID
    std::uint64_t retry_ms = 0;
    bool has_retry = false;
    std::size_t attempts = 0;   ///< reconnections since the last event
    bool endpoint_seen = false; ///< role::legacy
    bool legacy_post = false;   ///< a POST to the legacy endpoint (answers come on the SSE stream)
    std::string display;        ///< the URL of the current call, for messages
    std::string sent_authorization; ///< the Authorization value the current call carried
    bool dpop_nonce_offered = false; ///< the current response carried a DPoP-Nonce
};

} // namespace detail

struct client_transport::impl : std::enable_shared_from_this<client_transport::impl> {
    using stream_ptr = std::shared_ptr<detail::stream_state>;
    using request_id = detail::request_id;

    impl(client_transport_options o, detail::url_parts u);
    ~impl(); // transport_auth.cpp: the flow's thread

    // ---- set at construction, then read-only ----
    client_transport_options opts;
    detail::url_parts url;
    std::shared_ptr<detail::io_loop> loop;
    std::unique_ptr<detail::connection_pool> pool;

    // ---- shared with other threads ----
    std::mutex mu;
    std::condition_variable cv;
    bool started = false;
    bool closing = false;                       // close() was asked for (by the user or by the transport)
    bool close_done = false;                    // on_close has returned
    std::vector<detail::outgoing> before_start; // send() before start()
    std::atomic<std::size_t> max_message;
    std::atomic<client_transport::wire> wire_seen{client_transport::wire::undecided};
    std::string session_id_copy; // under mu, for session_id()
    // OAuth (transport_auth.cpp): the flow runs on a thread of its own, never on the loop;
    // started on the loop thread, joined there before the next one or by close().
    std::thread auth_thread;
    cancellation_source auth_cancel;

    // ---- loop state ----
    transport_handler handler;
    client_transport::wire wire = client_transport::wire::undecided;
    bool shutting_down = false; // begin_close ran
    bool close_posted = false;  // on_close is on its way
    bool probe_in_flight = false;
    std::deque<detail::outgoing> waiting; // behind the probe, or until the legacy endpoint is known
    std::uint64_t next_serial = 1;
    std::map<std::uint64_t, stream_ptr> streams;
    std::map<request_id, std::uint64_t> awaiting_owner;
    stream_ptr get_stream; // the standalone GET stream (initialize era)
    bool get_stream_wanted = false;
    // Between POSTing notifications/initialized and the GET stream's response head, later
    // messages wait: a server may send its requests on the GET stream only (the TypeScript
    // SDK drops them when that stream is not open yet), so it must be open before any request
    // can lead the server to send one.
    bool gate_closed = false;
    std::shared_ptr<detail::timer_handle> gate_timer;
    stream_ptr legacy; // the legacy SSE stream
    std::optional<detail::url_parts> legacy_endpoint;
    stream_ptr fallback_trigger; // the probe whose refusal started the legacy attempt
    // initialize era
    std::string session_id;
    // Sessions end (404) and begin (initialize): each change counts, so that a 404 for an
    // older session is told from one for the current session.
    std::uint64_t session_serial = 0;
    // The server no longer knows the session (404): requests are refused here until an
    // initialize starts a new one. While that initialize runs (renewing), requests wait in
    // held_for_session until notifications/initialized, as at the first connection.
    bool session_lost = false;
    bool renewing = false;
    std::deque<detail::outgoing> held_for_session;
    std::string session_lost_why;
    std::string negotiated; // protocol version of the initialize result, e.g. "2025-06-18"
    std::optional<request_id> initialize_id;
    bool initialize_seen = false;
    bool stateless_seen = false;
    // 2026-07-28 era
    std::set<request_id> tools_list_ids;
    std::map<std::string, std::vector<detail::header_parameter>> tool_params;
    std::set<request_id> stateless_requests;
    // OAuth: the Authorization value sent with every request ("" without one), whether a flow
    // runs, and the POSTs refused with 401/403 that wait for it (their streams stay open).
    std::string authorization;
    bool auth_running = false;
    std::vector<stream_ptr> held_for_auth;

    // ---- client_transport.cpp: plumbing ----
    void on_send(detail::outgoing o);
    void dispatch(detail::outgoing o);
    void flush_waiting();
    void close_gate();
    void open_gate();
    void decide(client_transport::wire w);
    void begin_close(bool send_delete);
    void finish_close();
    void warn(const std::string& text);
    void report_error(const std::string& text);
    void emit(jsonrpc::incoming_message&& m);
    void emit(std::string_view text) { emit(jsonrpc::incoming_message::parse(text)); }

    // ---- transport_auth.cpp: the fields every request carries (options, Authorization, DPoP) ----
    core::header_list common_headers(std::string_view method) const;

    // ---- transport_post.cpp: Streamable HTTP exchanges ----
    void start_post(detail::outgoing o, bool probe);
    void start_call(const stream_ptr& st, detail::call_request req);
    void refuse_locally(const stream_ptr& st, int code, const std::string& message);
    void session_headers(core::header_list& h, const stream_ptr& st) const;
    void answer_error_reply(const stream_ptr& st);
    void on_head(const stream_ptr& st, int status, std::string reason, core::header_list headers);
    void on_body(const stream_ptr& st, std::string_view bytes);
    void on_end(const stream_ptr& st, const detail::call_failure* failure);
    void on_sse_event(const stream_ptr& st, const detail::sse_event& ev);
    void finish_json(const stream_ptr& st);
    void finish_error_reply(const stream_ptr& st);
    void stream_ended(const stream_ptr& st, const std::string& why);
    void resume(const stream_ptr& st);
    void open_get_stream();
    void session_expired(const stream_ptr& st);
    void lose_session(const std::string& why);
    bool session_gatekeeper(detail::outgoing& o);
    void refuse_for_session(const detail::outgoing& o);
    void renewal_failed();
    void end_stream(const stream_ptr& st);
    bool cancel_stateless(const detail::outgoing& o);

    // ---- transport_auth.cpp: OAuth ----
    bool authorization_challenge(const stream_ptr& st);
    void run_authorization(const stream_ptr& st);
    void authorized(std::string authorization);
    void authorization_failed(const std::string& why);
    void send_again(const stream_ptr& st);
    void note_authorized_success(const stream_ptr& st);
    void note_dpop_nonce(const stream_ptr& st, std::optional<std::string_view> nonce);

    // ---- transport_legacy.cpp: HTTP+SSE ----
    void start_legacy(const stream_ptr& trigger);
    void legacy_event(const stream_ptr& st, const detail::sse_event& ev);
    void legacy_failed(const stream_ptr& st, const std::string& why);
    void legacy_post(detail::outgoing o);

    // ---- transport_deliver.cpp: incoming messages and synthesized answers ----
    void deliver(const stream_ptr& st, std::string_view text);
    void deliver_value(const stream_ptr& st, jsonrpc::incoming_message m);
    void answered(const request_id& id);
    void fail_awaiting(const stream_ptr& st, const detail::http_failure& f);
    detail::http_failure failure_of(const stream_ptr& st, const std::string& url_display) const;
    void track(const stream_ptr& st);
    stream_ptr new_stream(detail::stream_state::role r);
};

} // namespace mcp::http
