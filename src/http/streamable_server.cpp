// mcp::http::server: routing of the MCP endpoint (see mcp/http/server.hpp for the behaviour).
//
//   request -> Host/Origin -> authenticate -> extra routes -> legacy HTTP+SSE paths ->
//   MCP endpoint: POST (era: stateless if the body's _meta or the MCP-Protocol-Version header
//   says 2026-07-28, else initialize era with or without sessions), GET, DELETE.
#include "http/header_check.hpp"
#include "http/http_server.hpp"
#include "http/http_session.hpp"
#include "http/legacy_sse.hpp"
#include "http/origin_check.hpp"
#include "http/stateless_batch.hpp"
#include "http/stateless_stream.hpp"
#include "http/streamable_host.hpp"

#include "server/request_state.hpp"
#include "session/timer_service.hpp"

#include <mcp/http/server.hpp>
#include <mcp/jsonrpc/message.hpp>
#include <mcp/session/executor.hpp>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <poll.h>
#include <unistd.h>
#include <unordered_map>

namespace mcp::http {

using detail::host_state;
using detail::http_session;
using writer_ptr = std::shared_ptr<core::response_writer>;

const std::string* request_info::header(std::string_view name) const noexcept {
    for (const auto& [n, v] : headers)
        if (core::iequals(n, name)) return &v;
    return nullptr;
}

namespace {

constexpr std::string_view meta_version_key = "io.modelcontextprotocol/protocolVersion";

std::string error_body(int code, const std::string& message,
                       const std::optional<jsonrpc::request_id>& id = {}) {
    std::string out;
    jsonrpc::serialize_error(out, id, mcp::error(code, message));
    return out;
}

void respond_error(const writer_ptr& w, int status, int code, const std::string& message,
                   const std::optional<jsonrpc::request_id>& id = {}, core::header_list extra = {}) {
    extra.emplace_back("Content-Type", "application/json");
    w->respond(status, std::move(extra), error_body(code, message, id));
}

bool accepts(std::string_view accept, std::string_view type) {
    // A media range list: "application/json, text/event-stream;q=0.9", "*/*".
    std::size_t pos = 0;
    while (pos <= accept.size()) {
        auto end = accept.find(',', pos);
        auto item = accept.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        if (auto semi = item.find(';'); semi != std::string_view::npos) item = item.substr(0, semi);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (core::iequals(item, type) || item == "*/*") return true;
        if (item.size() > 2 && item.substr(item.size() - 2) == "/*" &&
            core::iequals(item.substr(0, item.size() - 1), type.substr(0, item.size() - 1)))
            return true;
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    return false;
}

std::string_view path_of(std::string_view target) {
    const auto q = target.find('?');
    return q == std::string_view::npos ? target : target.substr(0, q);
}

std::optional<jsonrpc::request_id> readable_id(const json::value& v) {
    const auto* o = v.if_object();
    if (!o) return std::nullopt;
    const auto* id = o->if_contains("id");
    if (!id) return std::nullopt;
    if (id->is_string()) return jsonrpc::request_id(std::string(id->get_string()));
    if (id->is_int64()) return jsonrpc::request_id(id->get_int64());
    return std::nullopt;
}

/// Why a POST on a session of revision `r` cannot be taken, checked before the session sees it:
/// the engine would refuse it too, but its answer (an error without an id, or to a batch it
/// does not read) would go to the standalone stream and leave the POST waiting forever.
struct refusal {
    mcp::error error;
    std::optional<jsonrpc::request_id> id;
};
std::optional<refusal> refused_on_session(const json::value& body, revision r) {
    std::optional<jsonrpc::request_id> id;
    if (const auto* batch = body.if_array()) {
        if (!allows_batches(r))
            return refusal{mcp::error(error_code::invalid_request,
                                      "Invalid Request: JSON-RPC batches are not part of protocol revision " +
                                          std::string(to_string(r)) + " (send one message per POST)"),
                           std::nullopt};
        for (const auto& m : *batch)
            if (auto problem = jsonrpc::check(m, &id)) return refusal{std::move(*problem), std::move(id)};
        return std::nullopt;
    }
    if (auto problem = jsonrpc::check(body, &id)) return refusal{std::move(*problem), std::move(id)};
    return std::nullopt;
}

bool bound_to_loopback(const std::string& address) {
    return address == "127.0.0.1" || address == "::1" || address.rfind("127.", 0) == 0 ||
           address == "localhost";
}

} // namespace

struct server::impl : std::enable_shared_from_this<server::impl> {
    struct session_entry {
        std::shared_ptr<http_session> transport;
        std::shared_ptr<mcp::server_session> peer;
    };

    std::shared_ptr<host_state> host = std::make_shared<host_state>();
    detail::origin_check origins;
    std::unique_ptr<core::server> http;
    std::unique_ptr<detail::legacy_sse_endpoint> legacy;

    mutable std::mutex sessions_mu;
    std::unordered_map<std::string, session_entry> sessions; ///< this process's copies
    std::mutex restore_mu;                                   ///< see restore()

    std::mutex listen_mu; // stateless listen streams, for keep-alive
    std::map<std::uint64_t, std::weak_ptr<detail::stateless_stream>> listen_streams;
    std::uint64_t next_listen = 1;

    std::mutex tools_mu; // x-mcp-header annotations per tool, computed once per definition
    std::unordered_map<std::string, std::pair<std::weak_ptr<const tool>,
                                              std::shared_ptr<const std::vector<detail::header_param>>>>
        header_params;

    std::atomic<bool> stopping{false};
    std::atomic<bool> started{false};
    std::mutex tick_mu;
    mcp::detail::timer_service::timer_id tick = 0;
    bool tick_armed = false;

    impl(mcp::server& s, server_options o)
        : origins(o.allowed_hosts, o.allowed_origins, bound_to_loopback(o.address)) {
        host->mcp = &s;
        if (!o.sessions) o.sessions = std::make_shared<memory_session_store>();
        if (o.resumable && !o.events) o.events = std::make_shared<memory_event_store>();
        host->events = o.resumable ? o.events : nullptr;
        host->store = o.sessions;
        host->opts = std::move(o);
    }

    // ------------------------------------------------------------------ entry
    void handle(core::request&& req, writer_ptr w) {
        try {
            route(std::move(req), w);
        } catch (const std::exception& e) {
            // A bug here must not take the I/O thread down; the client learns what it can.
            if (!w->closed())
                respond_error(w, 500, error_code::internal_error, std::string("Internal error: ") + e.what());
        }
    }

    void route(core::request&& req, const writer_ptr& w) {
        if (auto refused = origins.check(req.header("Host"), req.header("Origin"))) {
            respond_error(w, 403, error_code::invalid_request, *refused);
            return;
        }
        std::string principal;
        if (host->opts.authenticate || host->opts.extra_routes) {
            request_info info{req.method, req.target, req.headers, req.remote_address};
            if (host->opts.extra_routes) {
                int status = 200;
                core::header_list headers;
                std::string body;
                if (host->opts.extra_routes(info, status, headers, body)) {
                    w->respond(status, std::move(headers), std::move(body));
                    return;
                }
            }
            if (host->opts.authenticate) {
                auto decision = host->opts.authenticate(info);
                if (!decision.accepted) {
                    respond_error(w, decision.status, error_code::invalid_request,
                                  decision.message.empty() ? "Unauthorized" : decision.message, std::nullopt,
                                  std::move(decision.headers));
                    return;
                }
                principal = std::move(decision.principal);
            }
        }
        const auto path = path_of(req.target);
        if (legacy && legacy->handles(path)) {
            legacy->handle(std::move(req), w, std::move(principal));
            return;
        }
        if (path != host->opts.path) {
            respond_error(w, 404, error_code::invalid_request,
                          "Not Found: the MCP endpoint is " + host->opts.path);
            return;
        }
        if (stopping.load()) {
            respond_error(w, 503, error_code::internal_error,
                          "Service Unavailable: the server is shutting down", std::nullopt,
                          {{"Connection", "close"}});
            return;
        }
        if (req.method == "POST")
            post(std::move(req), w, std::move(principal));
        else if (req.method == "GET")
            get(req, w);
        else if (req.method == "DELETE")
            del(req, w);
        else
            respond_error(w, 405, error_code::invalid_request, "Method Not Allowed: use POST, GET or DELETE",
                          std::nullopt, {{"Allow", "GET, POST, DELETE"}});
    }

    // Takes the request's headers (the request is not used for them afterwards).
    std::shared_ptr<message_origin> origin_of(core::request& req, std::string principal) {
        auto o = std::make_shared<message_origin>();
        o->headers = std::move(req.headers);
        o->remote_address = req.remote_address;
        o->principal = std::move(principal);
        return o;
    }

    // ------------------------------------------------------------------ POST
    void post(core::request&& req, const writer_ptr& w, std::string principal) {
        const auto content_type = req.header("Content-Type");
        if (!content_type || !accepts(*content_type, "application/json")) {
            respond_error(w, 415, error_code::invalid_request,
                          "Unsupported Media Type: the body must be application/json");
            return;
        }
        const auto accept = req.header("Accept");
        if (!accept || !accepts(*accept, "application/json") || !accepts(*accept, "text/event-stream")) {
            respond_error(
                w, 406, error_code::invalid_request,
                "Not Acceptable: the client must accept both application/json and text/event-stream");
            return;
        }
        boost::system::error_code ec;
        auto parsed = parse_json(req.body, ec);
        if (!parsed) {
            respond_error(w, 400, error_code::parse_error, "Parse error: " + ec.message());
            return;
        }
        if (!parsed->is_object() && !parsed->is_array()) {
            respond_error(w, 400, error_code::invalid_request,
                          "Invalid Request: the body must be a JSON-RPC message");
            return;
        }
        if (parsed->is_array() && parsed->get_array().empty()) {
            respond_error(w, 400, error_code::invalid_request, "Invalid Request: empty batch");
            return;
        }

        // Which era: the request's own _meta says so, or the protocol header names a stateless revision.
        std::optional<std::string> meta_version;
        if (const auto* o = parsed->if_object())
            if (const auto* params = find_object(*o, "params"))
                if (const auto* meta = find_object(*params, "_meta"))
                    if (auto v = find_string(*meta, meta_version_key)) meta_version = std::string(*v);
        const auto header_version = req.header("MCP-Protocol-Version");
        std::optional<revision> header_rev;
        if (header_version) header_rev = parse_revision(*header_version);
        const bool stateless_era =
            parsed->is_object() && (meta_version || (header_rev && !is_initialize_era(*header_rev)));
        if (stateless_era) {
            post_stateless(req, std::move(*parsed), meta_version, w, std::move(principal));
            return;
        }

        const auto session_id = req.header("Mcp-Session-Id");
        if (session_id) {
            bool at_capacity = false;
            auto entry = session_for(*session_id, at_capacity);
            if (!entry && at_capacity) {
                respond_at_capacity(w, readable_id(*parsed));
                return;
            }
            if (!entry) {
                respond_error(
                    w, 404, error_code::invalid_request,
                    "Not Found: unknown or expired session; send initialize without Mcp-Session-Id to start "
                    "a new one",
                    readable_id(*parsed));
                return;
            }
            if (header_version) {
                const auto negotiated = entry->peer->protocol_version();
                if (!header_rev || !is_initialize_era(*header_rev) || *header_rev != negotiated) {
                    respond_error(w, 400, error_code::invalid_request,
                                  "Bad Request: MCP-Protocol-Version '" + std::string(*header_version) +
                                      "' does not match the session's protocol version " +
                                      std::string(to_string(negotiated)),
                                  readable_id(*parsed));
                    return;
                }
            }
            if (auto refused = refused_on_session(*parsed, entry->peer->protocol_version())) {
                respond_error(w, 400, refused->error.code(), refused->error.what(), refused->id);
                return;
            }
            entry->transport->post(req.body, *parsed, origin_of(req, std::move(principal)), w);
            return;
        }

        const bool initialize =
            parsed->is_object() && find_string(parsed->get_object(), "method") == "initialize";
        if (initialize && host->opts.stateful) {
            start_session(req, *parsed, w, std::move(principal));
            return;
        }
        if (header_version && !header_rev && !initialize) {
            // A revision this server has never heard of: say so rather than ask for a session.
            json::array supported;
            for (auto r : host->mcp->options().revisions) supported.emplace_back(to_string(r));
            std::string body;
            jsonrpc::serialize_error(
                body, readable_id(*parsed),
                mcp::error(error_code::unsupported_protocol_version,
                           "Unsupported protocol version: MCP-Protocol-Version '" +
                               std::string(header_version->substr(0, 64)) + "'",
                           json::object{{"supported", std::move(supported)},
                                        {"requested", std::string(header_version->substr(0, 64))}}));
            w->respond(400, {{"Content-Type", "application/json"}}, std::move(body));
            return;
        }
        if (host->opts.stateful) {
            respond_error(w, 400, error_code::invalid_request,
                          "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)",
                          readable_id(*parsed));
            return;
        }
        // A server without sessions: every request on its own, as the revision the client uses.
        revision era = revision::v2025_03_26; // what a client without the header speaks
        if (header_rev && is_initialize_era(*header_rev))
            era = *header_rev;
        else if (header_version) {
            respond_error(w, 400, error_code::invalid_request,
                          "Bad Request: unsupported MCP-Protocol-Version '" + std::string(*header_version) +
                              "'",
                          readable_id(*parsed));
            return;
        }
        if (initialize)
            if (const auto* p = find_object(parsed->get_object(), "params"))
                if (auto v = find_string(*p, "protocolVersion"); v && parse_revision(*v))
                    era = *parse_revision(*v);
        serve_sessionless(req, std::move(*parsed), era, w, std::move(principal));
    }

    void serve_sessionless(core::request& req, json::value&& message, revision era, const writer_ptr& w,
                           std::string principal) {
        if (message.is_array()) {
            serve_sessionless_batch(req, std::move(message.get_array()), era, w, std::move(principal));
            return;
        }
        auto c = jsonrpc::classify(std::move(message));
        if (!c.msg) {
            respond_error(w, 400, c.err->code(), c.err->what(), c.id);
            return;
        }
        auto* request = std::get_if<jsonrpc::request>(&*c.msg);
        if (!request) { // notifications and responses need no answer without a session
            w->respond(202, {}, {});
            return;
        }
        run_request(std::move(*request), w, origin_of(req, std::move(principal)), era, false);
    }

    void serve_sessionless_batch(core::request& req, json::array&& elements, revision era,
                                 const writer_ptr& w, std::string principal) {
        if (!allows_batches(era)) {
            respond_error(w, 400, error_code::invalid_request,
                          "Invalid Request: JSON-RPC batches are not part of protocol revision " +
                              std::string(to_string(era)) + " (send one message per POST)");
            return;
        }
        std::vector<jsonrpc::request> requests;
        std::vector<std::string> replies; // errors for the elements that are no message
        for (auto& e : elements) {
            auto c = jsonrpc::classify(std::move(e));
            if (!c.msg) {
                std::string out;
                jsonrpc::serialize_error(out, c.id, *c.err, jsonrpc::unknown_id_style::null);
                replies.push_back(std::move(out));
            } else if (auto* r = std::get_if<jsonrpc::request>(&*c.msg)) {
                if (r->method == "initialize") { // 2025-03-26: it must not be part of a batch
                    std::string out;
                    jsonrpc::serialize_error(
                        out, r->id,
                        mcp::error(error_code::invalid_request,
                                   "Invalid Request: initialize must not be part of a batch"));
                    replies.push_back(std::move(out));
                } else {
                    requests.push_back(std::move(*r));
                }
            } // notifications and responses need no answer without a session
        }
        if (requests.empty() && replies.empty()) {
            w->respond(202, {}, {});
            return;
        }
        auto batch = std::make_shared<detail::stateless_batch>(w, requests.size(), std::move(replies));
        cancellation_source closed;
        w->on_close([closed]() mutable { closed.cancel("the client closed the stream"); });
        auto origin = origin_of(req, std::move(principal));
        for (auto& r : requests)
            host->mcp->handle_request(std::move(r), batch->member(), closed.token(), origin, era);
        batch->finish_if_done();
    }

    void post_stateless(core::request& req, json::value&& message,
                        const std::optional<std::string>& meta_version, const writer_ptr& w,
                        std::string principal) {
        auto c = jsonrpc::classify(std::move(message));
        if (!c.msg) {
            respond_error(w, 400, c.err->code(), c.err->what(), c.id);
            return;
        }
        if (std::holds_alternative<jsonrpc::response>(*c.msg) ||
            std::holds_alternative<jsonrpc::error_response>(*c.msg)) {
            respond_error(w, 400, error_code::invalid_request,
                          "Bad Request: clients send no responses in protocol revision 2026-07-28");
            return;
        }
        if (std::holds_alternative<jsonrpc::notification>(*c.msg)) {
            w->respond(202, {}, {}); // nothing for the server to do with one over HTTP
            return;
        }
        auto& request = std::get<jsonrpc::request>(*c.msg);
        if (meta_version) {
            json::object as_object{{"method", request.method}};
            if (request.params.is_object()) as_object["params"] = request.params;
            auto lookup = [this](const std::string& name) { return header_params_of(name); };
            if (auto mismatch = detail::check_mirrored_headers(req, as_object, *meta_version, lookup)) {
                respond_error(w, 400, error_code::header_mismatch, *mismatch, request.id);
                return;
            }
        }
        run_request(std::move(request), w, origin_of(req, std::move(principal)), std::nullopt, true);
    }

    void run_request(jsonrpc::request&& request, const writer_ptr& w,
                     std::shared_ptr<const message_origin> origin, std::optional<revision> era,
                     bool stateless) {
        auto stream = std::make_shared<detail::stateless_stream>(w, stateless);
        cancellation_source closed;
        // Closing the response stream cancels the request (2026-07-28); once it is answered the
        // callback finds nothing left to cancel.
        w->on_close([closed]() mutable { closed.cancel("the client closed the stream"); });
        if (request.method == "subscriptions/listen") {
            std::lock_guard lock(listen_mu);
            const auto key = next_listen++;
            listen_streams.emplace(key, stream);
            arm_ticker();
        }
        host->mcp->handle_request(std::move(request), std::move(stream), closed.token(), std::move(origin),
                                  era);
    }

    std::shared_ptr<const std::vector<detail::header_param>> header_params_of(const std::string& name) {
        auto definition = host->mcp->find_tool(name);
        if (!definition) return nullptr;
        std::lock_guard lock(tools_mu);
        auto& slot = header_params[name];
        if (slot.first.lock() != definition) {
            slot.first = definition;
            slot.second = std::make_shared<const std::vector<detail::header_param>>(
                detail::header_params_of(definition->input_schema));
        }
        return slot.second;
    }

    // ------------------------------------------------------------------ sessions
    //
    // `sessions` holds this process's copies; the session store says which sessions exist, when
    // each was last used and what it negotiated (mcp/http/session_store.hpp). A copy is created
    // by initialize or restored from the store's record, and released (closed here, the record
    // and its events left for other replicas) when unused here for an idle timeout, when its
    // record is gone, or when the server stops; a session ends everywhere (record and events
    // removed) on DELETE, on idle expiry, or when the mcp::server closes it.

    /// This process's copy of session `id`, as it is (no store access).
    std::optional<session_entry> find_session(std::string_view id) {
        std::lock_guard lock(sessions_mu);
        auto it = sessions.find(std::string(id));
        if (it == sessions.end()) return std::nullopt;
        return it->second;
    }

    /// The session `id` names, ready to serve a request here: this process's copy, once the
    /// store confirms the session still exists (taking changes other replicas made), or a copy
    /// restored from the store's record. Null when there is no such session (404): also when
    /// this process had a copy but the session ended elsewhere (the copy is released), and,
    /// with `at_capacity` set, when restoring would exceed max_sessions (503).
    std::optional<session_entry> session_for(std::string_view id, bool& at_capacity) {
        const auto now = std::chrono::system_clock::now();
        if (auto local = find_session(id)) {
            // Every request touches the record, as requests of one session may reach any replica
            // and only the store sees them all; the same call says whether the session still
            // exists. For memory_session_store it is a map lookup under a mutex; for a remote
            // store, a round trip per request. Touching at most every few seconds would save
            // most of those, but a DELETE or an expiry on another replica would then go unnoticed
            // here for as long, so we pay it.
            const auto version = host->store->touch(id, now);
            if (!version) {
                release_local(std::string(id));
                return std::nullopt;
            }
            if (*version != local->transport->record_version() && !refresh(*local)) return std::nullopt;
            return local;
        }
        return restore(id, now, at_capacity);
    }

    /// Another replica changed the session (log level, subscriptions): take the change. False
    /// when the record has gone meanwhile (the copy is released).
    bool refresh(const session_entry& e) {
        const auto record = host->store->get(e.transport->id());
        if (!record) {
            release_local(e.transport->id());
            return false;
        }
        if (e.peer)
            if (auto snapshot = decode_session_data(record->data)) e.peer->adopt(*snapshot);
        e.transport->set_record_version(record->version);
        return true;
    }

    std::optional<session_entry> restore(std::string_view id, std::chrono::system_clock::time_point now,
                                         bool& at_capacity) {
        // One restore at a time: two requests of a session new here must not make two copies.
        // Restoring happens once per session and replica, so this lock is rarely contended.
        std::lock_guard restoring(restore_mu);
        if (auto local = find_session(id)) return local; // restored by a request that came first
        auto record = host->store->get(id);
        if (!record) return std::nullopt;
        std::optional<session_snapshot> snapshot;
        if (!record->data.empty()) {
            snapshot = decode_session_data(record->data);
            // Written by a version of mcpxx that this one cannot read: the client initializes again.
            if (!snapshot) return std::nullopt;
        } // empty: initialize was not answered yet, the copy starts uninitialized
        {
            std::lock_guard lock(sessions_mu); // the cap bounds this process's copies, restored or not
            if (sessions.size() >= host->opts.max_sessions) {
                at_capacity = true;
                return std::nullopt;
            }
        }
        const std::string session_id(id);
        auto transport = std::make_shared<http_session>(session_id, host);
        std::shared_ptr<mcp::server_session> peer;
        try {
            peer =
                snapshot ? host->mcp->restore_session(transport, *snapshot) : host->mcp->connect(transport);
        } catch (const std::invalid_argument&) {
            return std::nullopt; // a revision this replica does not offer
        }
        transport->set_record_version(record->version);
        keep_record_current(peer, transport);
        session_entry entry{transport, peer};
        {
            std::lock_guard lock(sessions_mu);
            sessions.emplace(session_id, entry);
        }
        watch_peer(peer, transport);
        host->store->touch(id, now);
        arm_ticker();
        return entry;
    }

    /// Write the session's snapshot to its record whenever it changes (before the response of
    /// the request that changed it). A change made just as another replica ends the session
    /// writes the record again: the session then lives until it is idle (a put-if-present in
    /// the store interface would close that window).
    void keep_record_current(const std::shared_ptr<mcp::server_session>& peer,
                             const std::shared_ptr<http_session>& transport) {
        std::weak_ptr<http_session> weak = transport;
        peer->on_snapshot_changed(
            [store = host->store, weak, id = transport->id()](const session_snapshot& s) {
                const auto version =
                    store->put(session_record{id, encode_session_data(s), std::chrono::system_clock::now()});
                if (auto t = weak.lock()) t->set_record_version(version);
            });
    }

    /// When the engine closes a copy that is still in `sessions` (released copies are taken out
    /// first), the mcp::server ended the session itself (server::shutdown): it ends everywhere.
    void watch_peer(const std::shared_ptr<mcp::server_session>& peer,
                    const std::shared_ptr<http_session>& transport) {
        std::weak_ptr<impl> weak = shared_from_this();
        peer->rpc().on_close([weak, id = transport->id(), copy = transport.get()] {
            auto self = weak.lock();
            if (!self) return;
            session_entry gone;
            {
                std::lock_guard lock(self->sessions_mu);
                auto it = self->sessions.find(id);
                if (it == self->sessions.end() || it->second.transport.get() != copy) return;
                gone = std::move(it->second);
                self->sessions.erase(it);
            }
            self->forget_everywhere(id);
            gone.transport->close(); // the engine is closing already: only the copy is left
        });
    }

    void start_session(core::request& req, const json::value& parsed, const writer_ptr& w,
                       std::string principal) {
        std::string id = mcp::detail::random_hex_id(); // 128 bits from the OS CSPRNG
        auto transport = std::make_shared<http_session>(id, host);
        {
            std::lock_guard lock(sessions_mu);
            if (sessions.size() >= host->opts.max_sessions) {
                respond_at_capacity(w, readable_id(parsed));
                return;
            }
            sessions.emplace(id, session_entry{transport, nullptr});
        }
        auto peer = host->mcp->connect(transport);
        keep_record_current(peer, transport); // before initialize reaches it
        {
            std::lock_guard lock(sessions_mu);
            if (auto it = sessions.find(id); it != sessions.end()) it->second.peer = peer;
        }
        watch_peer(peer, transport);
        // The id exists from now on (initialize fills the record in when it is answered).
        transport->set_record_version(
            host->store->put(session_record{id, json::object{}, std::chrono::system_clock::now()}));
        arm_ticker();
        transport->post(req.body, parsed, origin_of(req, std::move(principal)), w);
    }

    void respond_at_capacity(const writer_ptr& w, const std::optional<jsonrpc::request_id>& id) {
        respond_error(w, 503, error_code::internal_error,
                      "Service Unavailable: too many sessions (limit " +
                          std::to_string(host->opts.max_sessions) + "); retry later",
                      id, {{"Retry-After", "5"}});
    }

    /// Close this process's copy of session `id`, leaving its record and events to other replicas.
    void release_local(const std::string& id) {
        session_entry gone;
        {
            std::lock_guard lock(sessions_mu);
            auto it = sessions.find(id);
            if (it == sessions.end()) return;
            gone = std::move(it->second);
            sessions.erase(it);
        }
        if (gone.peer) gone.peer->close(); // the engine closes the transport
        if (gone.transport) gone.transport->close();
    }

    /// End session `id` everywhere: its record and events go, and so does the copy here (copies
    /// on other replicas go when they next find the record missing).
    void end_session(const std::string& id) {
        forget_everywhere(id);
        release_local(id);
    }

    void forget_everywhere(const std::string& id) {
        host->store->remove(id);
        if (host->events) host->events->forget_session(id);
    }

    // ------------------------------------------------------------------ GET, DELETE
    /// Whether MCP-Protocol-Version names a revision without sessions: its GET and DELETE are
    /// not allowed, whatever Mcp-Session-Id says (the header is ignored in that era).
    static bool stateless_revision_named(const core::request& req) {
        const auto v = req.header("MCP-Protocol-Version");
        if (!v) return false;
        const auto r = parse_revision(*v);
        return r && !is_initialize_era(*r);
    }

    void get(const core::request& req, const writer_ptr& w) {
        const auto accept = req.header("Accept");
        if (!accept || !accepts(*accept, "text/event-stream")) {
            respond_error(w, 406, error_code::invalid_request,
                          "Not Acceptable: GET needs Accept: text/event-stream");
            return;
        }
        if (stateless_revision_named(req)) {
            respond_error(w, 405, error_code::invalid_request,
                          "Method Not Allowed: protocol revision 2026-07-28 uses POST only (GET streams "
                          "are replaced by subscriptions/listen)",
                          std::nullopt, {{"Allow", "POST"}});
            return;
        }
        const auto session_id = req.header("Mcp-Session-Id");
        if (!session_id) {
            respond_error(w, 405, error_code::invalid_request,
                          "Method Not Allowed: GET needs an Mcp-Session-Id (protocol revisions 2025-03-26 .. "
                          "2025-11-25); revision 2026-07-28 uses POST only",
                          std::nullopt, {{"Allow", "POST"}});
            return;
        }
        bool at_capacity = false;
        auto entry = session_for(*session_id, at_capacity);
        if (!entry && at_capacity) {
            respond_at_capacity(w, std::nullopt);
            return;
        }
        if (!entry) {
            respond_error(w, 404, error_code::invalid_request, "Not Found: unknown or expired session");
            return;
        }
        std::optional<std::string> last;
        if (auto l = req.header("Last-Event-ID")) last = std::string(*l);
        entry->transport->get(last, w);
    }

    void del(const core::request& req, const writer_ptr& w) {
        if (stateless_revision_named(req)) {
            respond_error(w, 405, error_code::invalid_request,
                          "Method Not Allowed: protocol revision 2026-07-28 has no sessions to end",
                          std::nullopt, {{"Allow", "POST"}});
            return;
        }
        const auto session_id = req.header("Mcp-Session-Id");
        if (!session_id) {
            respond_error(w, 405, error_code::invalid_request,
                          "Method Not Allowed: DELETE needs an Mcp-Session-Id", std::nullopt,
                          {{"Allow", "POST"}});
            return;
        }
        const std::string id(*session_id);
        if (!host->store->get(id)) {
            release_local(id); // a copy of a session that ended elsewhere
            respond_error(w, 404, error_code::invalid_request, "Not Found: unknown or expired session");
            return;
        }
        end_session(id);
        w->respond(200, {}, {});
    }

    // ------------------------------------------------------------------ keep-alive and expiry
    std::chrono::milliseconds tick_interval() const {
        auto t = std::min(host->opts.keep_alive_interval, host->opts.session_idle_timeout / 4);
        return std::max(t, std::chrono::milliseconds(50));
    }

    void arm_ticker() {
        std::lock_guard lock(tick_mu);
        if (tick_armed || stopping.load()) return;
        tick_armed = true;
        std::weak_ptr<impl> weak = shared_from_this();
        tick = mcp::detail::timer_service::instance().schedule(
            mcp::detail::timer_service::clock::now() + tick_interval(), [weak] {
                auto self = weak.lock();
                if (!self) return;
                // Off the timer thread: closing a session runs the engine's close path.
                default_executor()->post([weak] {
                    if (auto s = weak.lock()) s->on_tick();
                });
            });
    }

    void on_tick() {
        {
            std::lock_guard lock(tick_mu);
            tick_armed = false;
        }
        if (stopping.load()) return;
        try {
            expire_sessions();
        } catch (const std::exception&) {
            // The session store failed (a remote one unreachable): the next tick tries again.
        }
        bool listening = false;
        {
            std::lock_guard lock(listen_mu);
            for (auto it = listen_streams.begin(); it != listen_streams.end();) {
                auto s = it->second.lock();
                if (!s || !s->keep_alive())
                    it = listen_streams.erase(it);
                else
                    ++it;
            }
            listening = !listen_streams.empty();
        }
        if (legacy) legacy->keep_alive();
        // A stateful server ticks while it runs, copies or not: sessions held only by other
        // replicas expire through any of them.
        if (host->opts.stateful || listening || (legacy && legacy->sessions() > 0)) arm_ticker();
    }

    /// Idle expiry (through the store) and keep-alive of this process's copies.
    void expire_sessions() {
        std::vector<session_entry> all;
        {
            std::lock_guard lock(sessions_mu);
            all.reserve(sessions.size());
            for (auto& [id, e] : sessions) all.push_back(e);
        }
        const auto now = std::chrono::system_clock::now();
        const auto steady_now = std::chrono::steady_clock::now();
        const auto timeout = host->opts.session_idle_timeout;
        std::vector<std::string> unused_here;
        for (auto& e : all) {
            if (e.transport->stream_count() > 0) {
                // Requests in progress here: in use, though no request came lately. A copy
                // whose record is gone was ended elsewhere.
                if (!host->store->touch(e.transport->id(), now)) {
                    release_local(e.transport->id());
                    continue;
                }
            } else if (steady_now - e.transport->last_used() > timeout) {
                unused_here.push_back(e.transport->id());
                continue;
            }
            e.transport->keep_alive();
        }
        // Any replica expires any session: the store knows when each was last used anywhere.
        for (const auto& id : host->store->idle_since(now - timeout)) end_session(id);
        // Unused here for a whole timeout: the copy goes; the session lives on if it is used
        // elsewhere (and is restored if it comes back).
        for (const auto& id : unused_here) release_local(id);
    }
};

server::server(mcp::server& mcp_server, server_options options)
    : impl_(std::make_shared<impl>(mcp_server, std::move(options))) {}

server::~server() {
    stop(std::chrono::milliseconds(0));
}

void server::start() {
    if (impl_->started.exchange(true)) throw std::logic_error("mcp::http::server::start: already started");
    const auto& o = impl_->host->opts;
    core::server_options co;
    co.address = o.address;
    co.port = o.port;
    co.threads = o.threads;
    co.max_body_bytes = o.max_body_bytes;
    std::weak_ptr<impl> weak = impl_;
    if (o.legacy_sse) impl_->legacy = std::make_unique<detail::legacy_sse_endpoint>(impl_->host);
    impl_->http = std::make_unique<core::server>(co, [weak](core::request&& req, writer_ptr w) {
        if (auto self = weak.lock())
            self->handle(std::move(req), std::move(w));
        else
            w->respond(503, {}, {});
    });
    impl_->http->start();
    if (o.stateful) impl_->arm_ticker(); // idle expiry, also of sessions held only by other replicas
}

unsigned short server::port() const {
    return impl_->http ? impl_->http->port() : 0;
}

std::string server::url() const {
    const auto& a = impl_->host->opts.address;
    const bool v6 = a.find(':') != std::string::npos;
    return "http://" + (v6 ? "[" + a + "]" : a) + ":" + std::to_string(port()) + impl_->host->opts.path;
}

void server::stop(std::chrono::milliseconds grace) {
    if (impl_->stopping.exchange(true)) return;
    {
        std::lock_guard lock(impl_->tick_mu);
        if (impl_->tick_armed) mcp::detail::timer_service::instance().cancel(impl_->tick);
        impl_->tick_armed = false;
    }
    // Standing streams first (they would hold the grace period): subscriptions end with their
    // result, legacy SSE streams end.
    impl_->host->mcp->end_subscriptions();
    if (impl_->legacy) impl_->legacy->close_all();
    if (impl_->http) impl_->http->stop(grace);
    std::vector<std::string> ids;
    {
        std::lock_guard lock(impl_->sessions_mu);
        for (auto& [id, e] : impl_->sessions) ids.push_back(id);
    }
    // Copies only: with a shared store, other replicas go on serving these sessions.
    for (auto& id : ids) impl_->release_local(id);
}

std::size_t server::sessions() const {
    std::lock_guard lock(impl_->sessions_mu);
    return impl_->sessions.size() + (impl_->legacy ? impl_->legacy->sessions() : 0);
}

std::size_t server::open_streams() const {
    return impl_->http ? impl_->http->open_streams() : 0;
}
std::size_t server::open_connections() const {
    return impl_->http ? impl_->http->open_connections() : 0;
}

} // namespace mcp::http
