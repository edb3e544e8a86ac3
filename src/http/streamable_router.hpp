// The Streamable HTTP router behind mcp::http::server: its state and the parts of its work,
// declared here once and defined by idea - routing, POST dispatch, GET and DELETE in
// streamable_server.cpp; sessions (initialize era), keep-alive and expiry in
// streamable_sessions.cpp; requests served without a session in streamable_sessionless.cpp.
// Also the few helpers those files share. Private to src/http.
#pragma once

#include "http/header_check.hpp"
#include "http/http_server.hpp"
#include "http/http_session.hpp"
#include "http/legacy_sse.hpp"
#include "http/origin_check.hpp"
#include "http/refusal_budget.hpp"
#include "http/session_lru.hpp"
#include "http/stateless_stream.hpp"
#include "http/streamable_host.hpp"

#include "session/timer_service.hpp"

#include <mcp/http/server.hpp>
#include <mcp/jsonrpc/wire_message.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcp::http {

namespace detail {

inline std::string error_body(int code, const std::string& message,
                              const std::optional<jsonrpc::request_id>& id = {}) {
    std::string out;
    jsonrpc::serialize_error(out, id, mcp::error(code, message));
    return out;
}

/// A JSON-RPC error as the whole (application/json) response, with HTTP `status`.
inline void respond_error(const std::shared_ptr<core::response_writer>& w, int status, int code,
                          const std::string& message, const std::optional<jsonrpc::request_id>& id = {},
                          core::header_list extra = {}) {
    extra.emplace_back("Content-Type", "application/json");
    w->respond(status, std::move(extra), error_body(code, message, id));
}

/// The id of a message, when it has one this server can echo (a string or an integer).
inline std::optional<jsonrpc::request_id> readable_id(const json::value& v) {
    const auto* o = v.if_object();
    const auto* id = o ? o->if_contains("id") : nullptr;
    return id ? jsonrpc::read_id(*id) : std::nullopt;
}

} // namespace detail

using detail::host_state;
using detail::http_session;
using detail::readable_id;
using detail::respond_error;
using writer_ptr = std::shared_ptr<core::response_writer>;

struct server::impl : std::enable_shared_from_this<server::impl> {
    struct session_entry {
        std::shared_ptr<http_session> transport;
        std::shared_ptr<mcp::server_session> peer;
        std::string principal; ///< who created it; no one else may use it
        /// A new session whose initialize has not reached its engine yet: busy, never evicted
        /// (it has no stream open yet, so in_use() alone would call it idle).
        bool starting = false;
    };

    std::shared_ptr<host_state> host = std::make_shared<host_state>();
    detail::origin_check origins;
    std::unique_ptr<detail::refusal_budget> auth_budget; ///< set by start() when authenticate is
    std::unique_ptr<core::server> http;
    std::unique_ptr<detail::legacy_sse_endpoint> legacy;

    mutable std::mutex sessions_mu;
    std::unordered_map<std::string, session_entry> sessions; ///< this process's copies
    detail::session_lru lru; ///< the same copies by last use and owner (under sessions_mu)
    std::mutex restore_mu;   ///< see restore()

    std::mutex tools_mu; // x-mcp-header annotations per tool, computed once per definition
    std::unordered_map<std::string,
                       std::pair<std::weak_ptr<const tool>,
                                 std::shared_ptr<const std::vector<mcp::detail::header_parameter>>>>
        header_params;

    std::atomic<bool> stopping{false};
    std::atomic<bool> started{false};
    std::mutex tick_mu;
    mcp::detail::timer_service::timer_id tick = 0;
    bool tick_armed = false;

    impl(mcp::server& s, server_options o);

    // ------------------------------------------------------------------ entry (streamable_server.cpp)
    void handle(core::request&& req, writer_ptr w);
    void route(core::request&& req, const writer_ptr& w);
    // Takes the request's headers (the request is not used for them afterwards).
    std::shared_ptr<message_origin> origin_of(core::request& req, std::string principal);

    // ------------------------------------------------------------------ POST, GET, DELETE
    void post(core::request&& req, const writer_ptr& w, std::string principal);
    /// A POST of the initialize era naming session `session_id` (one message, or a batch whose
    /// elements are sorted first: see batch_triage.hpp).
    void post_on_session(core::request& req, json::value&& parsed, std::string_view session_id,
                         const writer_ptr& w, std::string principal);
    void get(const core::request& req, const writer_ptr& w, const std::string& principal);
    void del(const core::request& req, const writer_ptr& w, const std::string& principal);

    // ------------------------------------------------------------------ without a session
    // (streamable_sessionless.cpp)
    void serve_sessionless(core::request& req, json::value&& message, revision era, const writer_ptr& w,
                           std::string principal);
    void serve_sessionless_batch(core::request& req, json::array&& elements, revision era,
                                 const writer_ptr& w, std::string principal);
    void post_stateless(core::request& req, json::value&& message,
                        const std::optional<std::string>& meta_version, const writer_ptr& w,
                        std::string principal);
    void run_request(jsonrpc::request&& request, const writer_ptr& w,
                     std::shared_ptr<const message_origin> origin, std::optional<revision> era,
                     bool stateless);
    std::shared_ptr<const std::vector<mcp::detail::header_parameter>>
    header_params_of(const std::string& name);

    // ------------------------------------------------------------------ sessions (streamable_sessions.cpp)
    //
    // `sessions` holds this process's copies; the session store says which sessions exist, when
    // each was last used and what it negotiated (mcp/http/session_store.hpp). A copy is created
    // by initialize or restored from the store's record, and released (closed here, the record
    // and its events left for other replicas) when unused here for an idle timeout, when its
    // record is gone, or when the server stops; a session ends everywhere (record and events
    // removed) on DELETE, on idle expiry, or when the mcp::server closes it.

    /// This process's copy of session `id`, as it is (no store access).
    std::optional<session_entry> find_session(std::string_view id);

    /// The session `id` names, ready to serve a request here: this process's copy, once the
    /// store confirms the session still exists (taking changes other replicas made), or a copy
    /// restored from the store's record. Null when there is no such session (404): also when
    /// this process had a copy but the session ended elsewhere (the copy is released), and
    /// when it belongs to another principal than `principal` (the two look the same to the
    /// caller). Also null, with `refusal` set to the make_room verdict (all_busy: 503,
    /// owner_busy: 429), when restoring would exceed a cap and every copy that could make way
    /// is busy (an idle one is evicted otherwise, see make_room_locked); `refusal` is left
    /// alone otherwise. `owner` is whom the copy counts against should it be restored
    /// (owner_of()).
    std::optional<session_entry> session_for(std::string_view id, const std::string& principal,
                                             const std::string& owner,
                                             detail::session_lru::verdict& refusal);

    /// Another replica changed the session (log level, subscriptions): take the change. False
    /// when the record has gone meanwhile (the copy is released).
    bool refresh(const session_entry& e);

    /// This process's copy of session `id`, checked against the store, or restored from it.
    std::optional<session_entry> lookup_session(std::string_view id,
                                                std::chrono::system_clock::time_point now,
                                                const std::string& owner,
                                                detail::session_lru::verdict& refusal);
    std::optional<session_entry> restore(std::string_view id, std::chrono::system_clock::time_point now,
                                         const std::string& owner, detail::session_lru::verdict& refusal);

    /// Whom a session counts against for max_sessions_per_principal: the principal, or without
    /// one the client's address.
    static std::string owner_of(const core::request& req, const std::string& principal);
    /// Under sessions_mu: make room in `lru` for one more copy of `owner`, taking the victim (if
    /// one must go) out of `sessions` into `evicted`. The verdict says whether the copy may come.
    detail::session_lru::verdict make_room_locked(const std::string& owner, session_entry& evicted);
    /// A copy taken out by make_room_locked: the session ends everywhere (its client's next
    /// request gets 404 and it initializes again) - unless the shared store says another
    /// replica used it after this copy last was: then only this copy goes.
    void evict(session_entry evicted);
    /// When make_room last re-examined the copies it had set aside as busy because it was about
    /// to refuse (under sessions_mu): at most once a second, so that refusals stay O(1).
    std::chrono::steady_clock::time_point last_relist_on_refusal{};
    /// Take copy `id` out of `sessions` and `lru` (under sessions_mu); empty when absent.
    session_entry take_locked(const std::string& id);
    /// Close a copy taken out of `sessions`.
    static void close_copy(session_entry& gone);

    /// Write the session's snapshot to its record whenever it changes (before the response of
    /// the request that changed it). A change made just as another replica ends the session
    /// writes the record again: the session then lives until it is idle (a put-if-present in
    /// the store interface would close that window).
    void keep_record_current(const std::shared_ptr<mcp::server_session>& peer,
                             const std::shared_ptr<http_session>& transport, std::string principal);

    /// When the engine closes a copy that is still in `sessions` (released copies are taken out
    /// first), the mcp::server ended the session itself (server::shutdown): it ends everywhere.
    void watch_peer(const std::shared_ptr<mcp::server_session>& peer,
                    const std::shared_ptr<http_session>& transport);

    /// A new session for `parsed`, a valid initialize request with id `id`. Should initialize
    /// be answered with an error, the session is dropped at once (end_session) and the answer
    /// goes without Mcp-Session-Id: a failed initialize leaves nothing behind.
    void start_session(core::request& req, json::value&& parsed, jsonrpc::request_id id, const writer_ptr& w,
                       std::string principal);

    /// 503 (every session busy) or 429 (every session of this client busy), with Retry-After.
    void respond_at_capacity(const writer_ptr& w, const std::optional<jsonrpc::request_id>& id,
                             detail::session_lru::verdict why = detail::session_lru::verdict::all_busy);

    /// Close this process's copy of session `id`, leaving its record and events to other replicas.
    void release_local(const std::string& id);

    /// End session `id` everywhere: its record and events go, and so does the copy here (copies
    /// on other replicas go when they next find the record missing).
    void end_session(const std::string& id);

    void forget_everywhere(const std::string& id);

    // ------------------------------------------------------------------ keep-alive and expiry
    // (streamable_sessions.cpp)
    std::chrono::milliseconds tick_interval() const;
    void arm_ticker();
    void on_tick();
    /// Idle expiry (through the store) and keep-alive of this process's copies.
    void expire_sessions();
};

} // namespace mcp::http
