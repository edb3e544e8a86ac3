// The 2024-11-05 HTTP+SSE transport (see legacy_sse.hpp).
#include "http/legacy_sse.hpp"

#include "http/media_type.hpp"
#include "http/session_lru.hpp"

#include "http/sse.hpp"

#include "server/request_state.hpp"

#include <mcp/jsonrpc/wire_message.hpp>
#include <mcp/server/server.hpp>

namespace mcp::http::detail {

// One legacy session: a transport whose every outgoing message is an event on the GET stream.
class legacy_session final : public mcp::transport {
public:
    legacy_session(std::string id, std::shared_ptr<core::response_writer> w, std::string principal)
        : principal(std::move(principal)), id_(std::move(id)), writer_(std::move(w)) {}
    /// Who opened the stream; POSTs of anyone else are answered as for an unknown session.
    const std::string principal;
    /// Whom it counts against for max_sessions_per_principal (session_owner()).
    std::string owner;
    ~legacy_session() override { close(); }
    void start(transport_handler h) override {
        std::lock_guard lock(mu_);
        handler_ = std::move(h);
    }
    void send(jsonrpc::outgoing_message message) override {
        std::lock_guard lock(mu_);
        if (writer_ && !writer_->write(sse_event({}, message.text))) writer_->end();
    }
    void close() override {
        std::function<void()> on_close;
        std::shared_ptr<core::response_writer> released;
        // The peer's session holds this transport: letting go of the peer breaks that cycle.
        // Whoever calls into the peer holds a copy of its own (peer()), so it outlives the call.
        std::shared_ptr<mcp::server_session> released_peer;
        {
            std::lock_guard lock(mu_);
            if (closed_) return;
            closed_ = true;
            if (writer_) writer_->end();
            released = std::move(writer_);
            released_peer = std::move(peer_);
            on_close = handler_.on_close;
        }
        if (on_close) on_close();
    }
    /// The server side of this session; closed at once if the transport already is.
    void attach(std::shared_ptr<mcp::server_session> p) {
        {
            std::lock_guard lock(mu_);
            if (!closed_) {
                peer_ = std::move(p);
                return;
            }
        }
        p->close();
    }
    std::shared_ptr<mcp::server_session> peer() const {
        std::lock_guard lock(mu_);
        return peer_;
    }
    void deliver(jsonrpc::incoming_message&& message) {
        transport_handler h;
        {
            std::lock_guard lock(mu_);
            if (closed_) return;
            h = handler_;
        }
        std::lock_guard lock(deliver_mu_);
        if (h.on_message) h.on_message(std::move(message));
    }
    void keep_alive() {
        std::lock_guard lock(mu_);
        if (writer_) writer_->write(sse_comment("keep-alive"));
    }

private:
    std::string id_;
    mutable std::mutex mu_;
    std::mutex deliver_mu_;
    std::shared_ptr<mcp::server_session> peer_;
    std::shared_ptr<core::response_writer> writer_;
    transport_handler handler_;
    bool closed_ = false;
};

namespace {
std::string error_body(int code, const std::string& message) {
    std::string out;
    jsonrpc::serialize_error(out, std::nullopt, mcp::error(code, message));
    return out;
}

// The value of `name` in a query string (no percent-decoding: session ids are hex).
std::string query_param(std::string_view target, std::string_view name) {
    const auto q = target.find('?');
    if (q == std::string_view::npos) return {};
    auto query = target.substr(q + 1);
    while (!query.empty()) {
        const auto amp = query.find('&');
        auto pair = query.substr(0, amp);
        const auto eq = pair.find('=');
        if (pair.substr(0, eq) == name && eq != std::string_view::npos)
            return std::string(pair.substr(eq + 1));
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

} // namespace

legacy_sse_endpoint::legacy_sse_endpoint(std::shared_ptr<host_state> host) : host_(std::move(host)) {}

legacy_sse_endpoint::~legacy_sse_endpoint() {
    *alive_ = false;
    close_all();
}

bool legacy_sse_endpoint::handles(std::string_view path) const {
    return path == host_->opts.legacy_sse_path || path == host_->opts.legacy_messages_path;
}

void legacy_sse_endpoint::handle(core::request&& req, std::shared_ptr<core::response_writer> w,
                                 std::string principal) {
    const auto q = req.target.find('?');
    const std::string_view path = std::string_view(req.target).substr(0, q);
    if (path == host_->opts.legacy_sse_path && req.method == "GET")
        open(req, w, std::move(principal));
    else if (path == host_->opts.legacy_messages_path && req.method == "POST")
        post(std::move(req), w, std::move(principal));
    else
        w->respond(405, {{"Allow", path == host_->opts.legacy_sse_path ? "GET" : "POST"}}, {});
}

void legacy_sse_endpoint::open(const core::request& req, const std::shared_ptr<core::response_writer>& w,
                               std::string principal) {
    const std::string id = mcp::detail::random_hex_id();
    auto session = std::make_shared<legacy_session>(id, w, principal);
    session->owner = session_owner(req.remote_address, principal);
    {
        // A session here is its open stream, always busy: nothing to evict, so the caps refuse.
        std::lock_guard lock(mu_);
        const auto per_owner = host_->opts.max_sessions_per_principal;
        std::string refused;
        int status = 503;
        if (sessions_.size() >= host_->opts.max_sessions) {
            refused = "Service Unavailable: " + std::to_string(host_->opts.max_sessions) +
                      " HTTP+SSE sessions open (the limit); retry later";
        } else if (auto it = owners_.find(session->owner);
                   per_owner > 0 && it != owners_.end() && it->second >= per_owner) {
            status = 429;
            refused = "Too Many Requests: this client has " + std::to_string(per_owner) +
                      " HTTP+SSE streams open (its limit); close one or retry later";
        }
        if (!refused.empty()) {
            w->respond(status, {{"Content-Type", "application/json"}, {"Retry-After", "5"}},
                       error_body(error_code::internal_error, refused));
            return;
        }
        sessions_.emplace(id, session);
        ++owners_[session->owner];
    }
    if (!w->start_stream(200, {{"Content-Type", "text/event-stream"},
                               {"Cache-Control", "no-cache"},
                               {"X-Accel-Buffering", "no"}})) {
        forget(id);
        return;
    }
    w->write(sse_endpoint(host_->opts.legacy_messages_path + "?sessionId=" + id));
    auto peer = host_->mcp->connect(session);
    std::weak_ptr<bool> alive = alive_;
    auto forget_me = [this, alive, id] {
        if (auto a = alive.lock(); a && *a) forget(id);
    };
    peer->rpc().on_close(forget_me);
    session->attach(std::move(peer));
    // The stream is the session: when the client goes away, the session ends.
    std::weak_ptr<legacy_session> weak = session;
    w->on_close([weak] {
        if (auto s = weak.lock())
            if (auto p = s->peer()) p->close();
    });
}

void legacy_sse_endpoint::post(core::request&& req, const std::shared_ptr<core::response_writer>& w,
                               std::string principal) {
    const std::string id = query_param(req.target, "sessionId");
    std::shared_ptr<legacy_session> session;
    {
        std::lock_guard lock(mu_);
        if (auto it = sessions_.find(id); it != sessions_.end()) session = it->second;
    }
    if (session && session->principal != principal) session = nullptr; // bound to who opened it
    if (session && !detail::body_is(req, "application/json")) {
        w->respond(415, {{"Content-Type", "application/json"}},
                   error_body(error_code::invalid_request,
                              "Unsupported Media Type: the body must be application/json"));
        return;
    }
    if (!session) {
        w->respond(404, {{"Content-Type", "application/json"}},
                   error_body(error_code::invalid_request,
                              "Not Found: unknown session (open the SSE stream first)"));
        return;
    }
    auto origin = std::make_shared<message_origin>();
    origin->headers = req.headers;
    origin->remote_address = req.remote_address;
    origin->principal = std::move(principal);
    // Accepted at once: the answer, if any, travels on the SSE stream.
    w->respond(202, {{"Content-Type", "text/plain"}}, "Accepted");
    auto message = jsonrpc::incoming_message::parse(req.body);
    message.origin = std::move(origin);
    session->deliver(std::move(message));
}

void legacy_sse_endpoint::forget(const std::string& id) {
    std::shared_ptr<legacy_session> gone;
    {
        std::lock_guard lock(mu_);
        auto it = sessions_.find(id);
        if (it == sessions_.end()) return;
        gone = std::move(it->second);
        sessions_.erase(it);
        if (auto o = owners_.find(gone->owner); o != owners_.end() && --o->second == 0) owners_.erase(o);
    }
    if (gone) gone->close();
}

void legacy_sse_endpoint::keep_alive() {
    std::vector<std::shared_ptr<legacy_session>> all;
    {
        std::lock_guard lock(mu_);
        for (auto& [id, s] : sessions_) all.push_back(s);
    }
    for (auto& s : all) s->keep_alive();
}

void legacy_sse_endpoint::close_all() {
    std::map<std::string, std::shared_ptr<legacy_session>, std::less<>> all;
    {
        std::lock_guard lock(mu_);
        all.swap(sessions_);
        owners_.clear();
    }
    for (auto& [id, s] : all) {
        if (auto p = s->peer()) p->close();
        s->close();
    }
}

std::size_t legacy_sse_endpoint::sessions() const {
    std::lock_guard lock(mu_);
    return sessions_.size();
}

std::size_t legacy_sse_endpoint::requests_in_flight() const {
    std::vector<std::shared_ptr<legacy_session>> all;
    {
        std::lock_guard lock(mu_);
        for (auto& [id, s] : sessions_) all.push_back(s);
    }
    std::size_t n = 0;
    for (auto& s : all)
        if (auto p = s->peer()) n += p->rpc().in_flight_incoming();
    return n;
}

} // namespace mcp::http::detail
