// mcp::http::server: routing of the MCP endpoint (see mcp/http/server.hpp for the behaviour).
//
//   request -> Host/Origin -> authenticate -> extra routes -> legacy HTTP+SSE paths ->
//   MCP endpoint: POST (era: stateless if the body's _meta or the MCP-Protocol-Version header
//   says 2026-07-28, else initialize era with or without sessions), GET, DELETE.
//
// This file: the entry, the POST dispatch by era, GET and DELETE, and mcp::http::server's public
// members. The router's state is declared in streamable_router.hpp; sessions live in
// streamable_sessions.cpp, requests without a session in streamable_sessionless.cpp.
#include "http/streamable_router.hpp"

#include "http/batch_triage.hpp"
#include "http/media_type.hpp"
#include "http/request_target.hpp"

#include <cstdio>

namespace mcp::http {

const std::string* request_info::header(std::string_view name) const noexcept {
    for (const auto& [n, v] : headers)
        if (core::iequals(n, name)) return &v;
    return nullptr;
}

std::size_t request_info::header_count(std::string_view name) const noexcept {
    std::size_t count = 0;
    for (const auto& field : headers) count += core::iequals(field.first, name) ? 1 : 0;
    return count;
}

namespace {

constexpr std::string_view meta_version_key = "io.modelcontextprotocol/protocolVersion";

std::string_view path_of(std::string_view target) {
    const auto q = target.find('?');
    return q == std::string_view::npos ? target : target.substr(0, q);
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
    if (body.is_array()) {
        // Its elements are sorted before the engine sees them (batch_triage.hpp): each invalid
        // one gets its own answer, in the batch's reply.
        if (!allows_batches(r))
            return refusal{mcp::error(error_code::invalid_request,
                                      "Invalid Request: JSON-RPC batches are not part of protocol revision " +
                                          std::string(to_string(r)) + " (send one message per POST)"),
                           std::nullopt};
        return std::nullopt;
    }
    if (auto problem = jsonrpc::check(body, &id)) return refusal{std::move(*problem), std::move(id)};
    return std::nullopt;
}

bool bound_to_loopback(const std::string& address) {
    return address == "127.0.0.1" || address == "::1" || address.rfind("127.", 0) == 0 ||
           address == "localhost";
}

/// Whether MCP-Protocol-Version names a revision without sessions: its GET and DELETE are
/// not allowed, whatever Mcp-Session-Id says (the header is ignored in that era).
bool stateless_revision_named(const core::request& req) {
    const auto v = req.header("MCP-Protocol-Version");
    if (!v) return false;
    const auto r = parse_revision(*v);
    return r && !is_initialize_era(*r);
}

/// A header naming one thing (a session, a revision, a stream position) sent on several lines:
/// RFC 9110 5.3 joins them into a list, which names nothing. Answers 400 with `code`.
bool refuse_repeated(const core::request& req, std::string_view name, int code, const writer_ptr& w,
                     const std::optional<jsonrpc::request_id>& id = {}) {
    const auto n = req.header_count(name);
    if (n < 2) return false;
    respond_error(w, 400, code,
                  std::string(code == error_code::header_mismatch ? "Header mismatch" : "Bad Request") +
                      ": the " + std::string(name) + " header is repeated (" + std::to_string(n) +
                      " lines); send it once",
                  id);
    return true;
}

/// 400 with -32022 UnsupportedProtocolVersion, naming the revisions this server offers.
void respond_unsupported_version(const writer_ptr& w, std::string_view requested,
                                 const std::vector<revision>& offered,
                                 const std::optional<jsonrpc::request_id>& id) {
    json::array supported;
    for (auto r : offered) supported.emplace_back(to_string(r));
    const std::string shown(requested.substr(0, 64));
    std::string body;
    jsonrpc::serialize_error(
        body, id,
        mcp::error(error_code::unsupported_protocol_version,
                   "Unsupported protocol version: MCP-Protocol-Version '" + shown + "'",
                   json::object{{"supported", std::move(supported)}, {"requested", shown}}));
    w->respond(400, {{"Content-Type", "application/json"}}, std::move(body));
}

/// MCP-Protocol-Version of a request of the initialize era (any method): 400 when it names no
/// revision this server offers (-32022), or, with `negotiated`, another revision than the
/// session's (-32600). Absent, it is fine (2025-03-26 clients do not send it).
bool refuse_version(const core::request& req, const std::vector<revision>& offered,
                    std::optional<revision> negotiated, const writer_ptr& w,
                    const std::optional<jsonrpc::request_id>& id = {}) {
    const auto v = req.header("MCP-Protocol-Version");
    if (!v) return false;
    const auto r = parse_revision(*v);
    if (!r || std::find(offered.begin(), offered.end(), *r) == offered.end()) {
        respond_unsupported_version(w, *v, offered, id);
        return true;
    }
    if (negotiated && *r != *negotiated) {
        respond_error(w, 400, error_code::invalid_request,
                      "Bad Request: MCP-Protocol-Version '" + std::string(*v) +
                          "' does not match the session's protocol version " +
                          std::string(to_string(*negotiated)),
                      id);
        return true;
    }
    return false;
}

} // namespace

server::impl::impl(mcp::server& s, server_options o)
    : origins(o.allowed_hosts, o.allowed_origins, bound_to_loopback(o.address)) {
    host->mcp = &s;
    if (!o.sessions) o.sessions = std::make_shared<memory_session_store>();
    if (o.resumable && !o.events) o.events = std::make_shared<memory_event_store>();
    host->events = o.resumable ? o.events : nullptr;
    host->store = o.sessions;
    host->opts = std::move(o);
}

// ------------------------------------------------------------------ entry
void server::impl::handle(core::request&& req, writer_ptr w) {
    try {
        route(std::move(req), w);
    } catch (const std::exception& e) {
        // A bug here must not take the I/O thread down; the client learns what it can.
        if (!w->closed())
            respond_error(w, 500, error_code::internal_error, std::string("Internal error: ") + e.what());
    }
}

void server::impl::route(core::request&& req, const writer_ptr& w) {
    // Absolute-form ("POST http://host/mcp"), which a server must accept: its authority takes
    // the place of Host (RFC 9112 3.2.2), and the rest of the router sees the path.
    auto target = detail::read_request_target(req.target);
    if (target.error) {
        respond_error(w, 400, error_code::invalid_request, *target.error);
        return;
    }
    req.target = std::move(target.origin_form);
    if (const auto origins_sent = req.header_count("Origin"); origins_sent > 1) {
        respond_error(w, 403, error_code::invalid_request,
                      "Forbidden: the Origin header is repeated (" + std::to_string(origins_sent) +
                          " lines); a request has one origin");
        return;
    }
    const auto host_name =
        target.authority ? std::optional<std::string_view>(*target.authority) : req.header("Host");
    if (auto refused = origins.check(host_name, req.header("Origin"))) {
        respond_error(w, refused->status, error_code::invalid_request, refused->message);
        return;
    }
    std::string principal;
    if (host->opts.authenticate || host->opts.extra_routes) {
        // An address that spent its budget of refused authentications is not heard at all
        // until it slows down: refusing costs the server too (refusal_budget.hpp). A credential
        // that authenticated recently is heard anyway: clients share an address behind a proxy
        // and on 127.0.0.1, and one of them sending bad tokens must not lock the others out.
        const auto credential = req.header("Authorization");
        if (auth_budget && !(credential && auth_budget->trusted(*credential)))
            if (auto wait = auth_budget->over_budget(req.remote_address)) {
                respond_error(w, 429, mcp::error_code::rate_limited,
                              "Too Many Requests: too many refused authentications from " +
                                  req.remote_address + "; retry after " + std::to_string(*wait) + " s",
                              std::nullopt, {{"Retry-After", std::to_string(*wait)}});
                return;
            }
        request_info info{req.method, req.target, req.headers, req.remote_address, req.body};
        if (host->opts.extra_routes) {
            int status = 200;
            core::header_list headers;
            std::string body;
            if (host->opts.extra_routes(info, status, headers, body)) {
                if (auth_budget && (status == 401 || status == 403)) auth_budget->charge(req.remote_address);
                w->respond(status, std::move(headers), std::move(body));
                return;
            }
        }
        if (host->opts.authenticate) {
            auto decision = host->opts.authenticate(info);
            if (!decision.accepted) {
                if (auth_budget) {
                    auth_budget->charge(req.remote_address);
                    if (credential) auth_budget->distrust(*credential);
                }
                respond_error(w, decision.status, error_code::invalid_request,
                              decision.message.empty() ? "Unauthorized" : decision.message, std::nullopt,
                              std::move(decision.headers));
                return;
            }
            if (auth_budget && credential) auth_budget->authenticated(*credential);
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
        respond_error(w, 503, error_code::internal_error, "Service Unavailable: the server is shutting down",
                      std::nullopt, {{"Connection", "close"}});
        return;
    }
    if (req.method == "POST")
        post(std::move(req), w, std::move(principal));
    else if (req.method == "GET")
        get(req, w, principal);
    else if (req.method == "DELETE")
        del(req, w, principal);
    else
        respond_error(w, 405, error_code::invalid_request, "Method Not Allowed: use POST, GET or DELETE",
                      std::nullopt, {{"Allow", "GET, POST, DELETE"}});
}

std::shared_ptr<message_origin> server::impl::origin_of(core::request& req, std::string principal) {
    auto o = std::make_shared<message_origin>();
    o->headers = std::move(req.headers);
    o->remote_address = req.remote_address;
    o->principal = std::move(principal);
    return o;
}

// ------------------------------------------------------------------ POST
void server::impl::post(core::request&& req, const writer_ptr& w, std::string principal) {
    if (!detail::body_is(req, "application/json")) {
        respond_error(w, 415, error_code::invalid_request,
                      req.header_count("Content-Type") > 1
                          ? "Unsupported Media Type: the Content-Type lines disagree; the body must be "
                            "application/json"
                          : "Unsupported Media Type: the body must be application/json");
        return;
    }
    // Several Accept lines are one list (RFC 9110 5.3).
    const auto accept = req.combined_header("Accept");
    if (!accept || !detail::accepts(*accept, "application/json") ||
        !detail::accepts(*accept, "text/event-stream")) {
        respond_error(w, 406, error_code::invalid_request,
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
    // In the stateless era the header mirrors _meta (a mismatch is -32020).
    if (refuse_repeated(req, "MCP-Protocol-Version",
                        meta_version ? error_code::header_mismatch : error_code::invalid_request, w,
                        readable_id(*parsed)))
        return;
    const auto header_version = req.header("MCP-Protocol-Version");
    std::optional<revision> header_rev;
    if (header_version) header_rev = parse_revision(*header_version);
    if (parsed->is_array() && header_rev && !is_initialize_era(*header_rev)) {
        respond_error(w, 400, error_code::invalid_request,
                      "Invalid Request: JSON-RPC batches are not part of protocol revision " +
                          std::string(to_string(*header_rev)) + " (send one message per POST)");
        return;
    }
    const bool stateless_era =
        parsed->is_object() && (meta_version || (header_rev && !is_initialize_era(*header_rev)));
    if (stateless_era) {
        post_stateless(req, std::move(*parsed), meta_version, w, std::move(principal));
        return;
    }

    if (refuse_repeated(req, "Mcp-Session-Id", error_code::invalid_request, w, readable_id(*parsed))) return;
    const auto session_id = req.header("Mcp-Session-Id");
    if (session_id) {
        post_on_session(req, std::move(*parsed), *session_id, w, std::move(principal));
        return;
    }

    const bool initialize =
        parsed->is_object() && find_string(parsed->get_object(), "method") == "initialize";
    if (initialize) {
        // What the session would refuse is refused before there is one: no session for it.
        std::optional<jsonrpc::request_id> id;
        if (auto problem = jsonrpc::check(*parsed, &id)) {
            respond_error(w, 400, problem->code(), problem->what(), id);
            return;
        }
        if (!id) {
            respond_error(
                w, 400, error_code::invalid_request,
                "Invalid Request: initialize is a request; it needs an id (a string or an integer)");
            return;
        }
        if (host->opts.stateful) {
            start_session(req, std::move(*parsed), *id, w, std::move(principal));
            return;
        }
    }
    if (header_version && !header_rev && !initialize) {
        // A revision this server has never heard of: say so rather than ask for a session.
        respond_unsupported_version(w, *header_version, host->mcp->options().revisions, readable_id(*parsed));
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
                      "Bad Request: unsupported MCP-Protocol-Version '" + std::string(*header_version) + "'",
                      readable_id(*parsed));
        return;
    }
    if (initialize)
        if (const auto* p = find_object(parsed->get_object(), "params"))
            if (auto v = find_string(*p, "protocolVersion"); v && parse_revision(*v))
                era = *parse_revision(*v);
    serve_sessionless(req, std::move(*parsed), era, w, std::move(principal));
}

void server::impl::post_on_session(core::request& req, json::value&& parsed, std::string_view session_id,
                                   const writer_ptr& w, std::string principal) {
    auto refusal = detail::session_lru::verdict::room;
    auto entry = session_for(session_id, principal, owner_of(req, principal), refusal);
    if (!entry && refusal != detail::session_lru::verdict::room) {
        respond_at_capacity(w, readable_id(parsed), refusal);
        return;
    }
    if (!entry) {
        respond_error(
            w, 404, error_code::invalid_request,
            "Not Found: unknown or expired session; send initialize without Mcp-Session-Id to start "
            "a new one",
            readable_id(parsed));
        return;
    }
    const auto negotiated = entry->peer->protocol_version();
    if (refuse_version(req, host->mcp->options().revisions, negotiated, w, readable_id(parsed))) return;
    if (auto refused = refused_on_session(parsed, negotiated)) {
        respond_error(w, 400, refused->error.code(), refused->error.what(), refused->id);
        return;
    }
    auto origin = origin_of(req, std::move(principal));
    if (!parsed.is_array()) {
        auto message = jsonrpc::incoming_message::from_value(std::move(parsed));
        message.text = req.body;
        message.origin = std::move(origin);
        entry->transport->post(std::move(message), w);
        return;
    }
    // A batch: what cannot run is answered here, element by element; the rest goes to the session.
    auto sorted = detail::triage_batch(std::move(parsed.get_array()));
    auto message = jsonrpc::incoming_message::from_value(json::value(std::move(sorted.kept)));
    if (sorted.replies.empty()) message.text = req.body;
    message.origin = std::move(origin);
    entry->transport->post(std::move(message), w, std::move(sorted.replies));
}

// ------------------------------------------------------------------ GET, DELETE
void server::impl::get(const core::request& req, const writer_ptr& w, const std::string& principal) {
    const auto accept = req.combined_header("Accept");
    if (!accept || !detail::accepts(*accept, "text/event-stream")) {
        respond_error(w, 406, error_code::invalid_request,
                      "Not Acceptable: GET needs Accept: text/event-stream");
        return;
    }
    if (refuse_repeated(req, "MCP-Protocol-Version", error_code::invalid_request, w)) return;
    if (!host->opts.stateful || stateless_revision_named(req)) {
        respond_error(
            w, 405, error_code::invalid_request,
            host->opts.stateful
                ? "Method Not Allowed: protocol revision 2026-07-28 uses POST only (GET streams "
                  "are replaced by subscriptions/listen)"
                : "Method Not Allowed: this server keeps no sessions, so it has no GET stream; use POST",
            std::nullopt, {{"Allow", "POST"}});
        return;
    }
    if (refuse_repeated(req, "Mcp-Session-Id", error_code::invalid_request, w) ||
        refuse_repeated(req, "Last-Event-ID", error_code::invalid_request, w))
        return;
    const auto& offered = host->mcp->options().revisions;
    if (refuse_version(req, offered, std::nullopt, w)) return;
    const auto session_id = req.header("Mcp-Session-Id");
    if (!session_id) {
        // 2025-11-25: a server that requires sessions answers requests without one with 400.
        respond_error(w, 400, error_code::invalid_request,
                      "Bad Request: GET needs an Mcp-Session-Id header (send initialize first to get one; "
                      "protocol revision 2026-07-28 uses POST only)");
        return;
    }
    auto refusal = detail::session_lru::verdict::room;
    auto entry = session_for(*session_id, principal, owner_of(req, principal), refusal);
    if (!entry && refusal != detail::session_lru::verdict::room) {
        respond_at_capacity(w, std::nullopt, refusal);
        return;
    }
    if (!entry) {
        respond_error(w, 404, error_code::invalid_request, "Not Found: unknown or expired session");
        return;
    }
    if (refuse_version(req, offered, entry->peer->protocol_version(), w)) return;
    std::optional<std::string> last;
    if (auto l = req.header("Last-Event-ID")) last = std::string(*l);
    entry->transport->get(last, w);
}

void server::impl::del(const core::request& req, const writer_ptr& w, const std::string& principal) {
    if (refuse_repeated(req, "MCP-Protocol-Version", error_code::invalid_request, w)) return;
    if (!host->opts.stateful || stateless_revision_named(req)) {
        respond_error(w, 405, error_code::invalid_request,
                      host->opts.stateful
                          ? "Method Not Allowed: protocol revision 2026-07-28 has no sessions to end"
                          : "Method Not Allowed: this server keeps no sessions to end",
                      std::nullopt, {{"Allow", "POST"}});
        return;
    }
    if (refuse_repeated(req, "Mcp-Session-Id", error_code::invalid_request, w)) return;
    const auto& offered = host->mcp->options().revisions;
    if (refuse_version(req, offered, std::nullopt, w)) return;
    const auto session_id = req.header("Mcp-Session-Id");
    if (!session_id) {
        respond_error(w, 400, error_code::invalid_request,
                      "Bad Request: DELETE needs the Mcp-Session-Id header of the session to end");
        return;
    }
    const std::string id(*session_id);
    const auto record = host->store->get(id);
    if (!record || record->principal != principal) {
        if (!record) release_local(id); // a copy of a session that ended elsewhere
        respond_error(w, 404, error_code::invalid_request, "Not Found: unknown or expired session");
        return;
    }
    // The revision the session negotiated: this process's copy knows it, else its record does
    // (a record without data is a session whose initialize is not answered yet).
    std::optional<revision> negotiated;
    if (auto local = find_session(id); local && local->peer && local->peer->initialized())
        negotiated = local->peer->protocol_version();
    else if (!record->data.empty())
        if (auto snapshot = decode_session_data(record->data)) negotiated = snapshot->protocol_version;
    if (refuse_version(req, offered, negotiated, w)) return;
    end_session(id);
    w->respond(200, {}, {});
}

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
    co.max_stream_queue_bytes = o.max_stream_queue_bytes;
    co.max_connections = o.max_connections;
    co.max_connections_per_address = o.max_connections_per_address;
    co.raise_descriptor_limit = o.raise_descriptor_limit;
    co.log = o.log;
    if (!co.log) {
        if (auto sink = impl_->host->mcp->options().session.diagnostic_sink)
            co.log = std::move(sink);
        else
            co.log = [](std::string_view line) {
                std::string out = "mcpxx http: ";
                out.append(line).push_back('\n');
                std::fwrite(out.data(), 1, out.size(), stderr);
            };
    }
    if (o.authenticate && o.refused_auth_per_second > 0)
        impl_->auth_budget =
            std::make_unique<detail::refusal_budget>(o.refused_auth_per_second, o.refused_auth_burst, co.log);
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
    // Standing streams first: they never end by themselves, so they would hold the whole grace
    // period and then be cut. Subscriptions end with their result, legacy SSE streams and the
    // sessions' standalone GET streams end (a clean end of the chunked body). What is left
    // for the grace period is requests in progress.
    impl_->host->mcp->end_subscriptions();
    if (impl_->legacy) impl_->legacy->close_all();
    auto held = [this] {
        std::vector<server::impl::session_entry> copies;
        std::lock_guard lock(impl_->sessions_mu);
        for (auto& [id, e] : impl_->sessions) copies.push_back(e);
        return copies;
    };
    for (auto& e : held()) e.transport->end_standalone_stream();
    if (impl_->http) impl_->http->stop(grace);
    // Copies only: with a shared store, other replicas go on serving these sessions.
    for (auto& e : held()) impl_->release_local(e.transport->id());
}

std::size_t server::sessions() const {
    std::lock_guard lock(impl_->sessions_mu);
    return impl_->sessions.size() + (impl_->legacy ? impl_->legacy->sessions() : 0);
}

std::size_t server::open_streams() const {
    return impl_->http ? impl_->http->open_streams() : 0;
}

std::size_t server::requests_in_flight() const {
    std::vector<std::shared_ptr<mcp::server_session>> peers;
    {
        std::lock_guard lock(impl_->sessions_mu);
        for (auto& [id, e] : impl_->sessions)
            if (e.peer) peers.push_back(e.peer);
    }
    std::size_t n = impl_->host->sessionless_requests.load(std::memory_order_relaxed);
    for (auto& p : peers) n += p->rpc().in_flight_incoming();
    return n + (impl_->legacy ? impl_->legacy->requests_in_flight() : 0);
}

std::size_t server::session_streams() const {
    return impl_->host->live_streams.load(std::memory_order_relaxed);
}
std::size_t server::open_connections() const {
    return impl_->http ? impl_->http->open_connections() : 0;
}

} // namespace mcp::http
