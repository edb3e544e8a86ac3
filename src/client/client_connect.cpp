// mcp::client: connecting. The era is settled here: a client that asks for 2026-07-28 probes
// with server/discover and falls back to initialize when the server turns out to be of the
// initialize era (2026-07-28 basic/versioning.mdx "Backward Compatibility", transports/stdio.mdx
// and streamable-http.mdx "Backward Compatibility": any answer other than a DiscoverResult or a
// recognised 2026-07-28 error marks a legacy server; the fall back is not keyed to one code).
#include "client/client_state.hpp"

namespace mcp {

namespace {

std::string revisions_text(const std::vector<revision>& rs) {
    std::string out;
    for (auto r : rs) out += (out.empty() ? "" : ", ") + std::string(to_string(r));
    return out;
}

std::string join_strings(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "(none named)" : out;
}

std::optional<int> http_status(const error& e) {
    if (const auto* d = e.data().if_object())
        if (auto s = find_int(*d, "httpStatus")) return static_cast<int>(*s);
    return std::nullopt;
}

// Errors after which initialize would fare no better: report them as they are.
bool cured_by_no_fall_back(const error& e) {
    switch (e.code()) {
    case error_code::header_mismatch:
    case error_code::missing_required_client_capability:
        return true; // a 2026-07-28 server that refused the request itself
    case error_code::http_error: {
        // No HTTP status: the server was not reached. 401/403: it wants credentials first.
        const auto status = http_status(e);
        return !status || *status == 401 || *status == 403;
    }
    default:
        return false;
    }
}

// serverInfo of a DiscoverResult: in the result's _meta (2026-07-28), or a member of its own
// (the draft the revision came from, still sent by some servers).
implementation server_info_of(const discover_result& d, const json::value& raw) {
    if (auto info = result_server_info(d.meta)) return *info;
    const auto* o = raw.if_object();
    const auto* info = o ? o->if_contains("serverInfo") : nullptr;
    if (!info) return {};
    try {
        return from_json<implementation>(*info);
    } catch (const error&) {
        return {}; // identity is for display only: a malformed one is not worth failing for
    }
}

bool lists_initialize_era(const json::value& supported, const std::vector<revision>& mine) {
    const auto* a = supported.if_array();
    if (!a) return false;
    for (const auto& v : *a) {
        if (!v.is_string()) continue;
        auto r = parse_revision(v.get_string());
        if (!r || !is_initialize_era(*r)) continue;
        for (auto m : mine)
            if (m == *r) return true;
    }
    return false;
}

} // namespace

client::impl::discover_outcome client::impl::discover(const std::shared_ptr<session>& s,
                                                      revision asked) const {
    discover_outcome out;
    out.version = asked;
    bool retried = false;
    for (;;) {
        request_options o;
        o.timeout = opts.discover_timeout;
        json::value raw;
        try {
            raw =
                s->call("server/discover", json::object{{"_meta", request_meta(out.version)}}, std::move(o));
        } catch (const error& e) {
            if (s->is_closed())
                throw error(error_code::connection_closed,
                            std::string("the connection closed during server/discover: ") + e.what(),
                            e.data());
            if (e.code() == error_code::unsupported_protocol_version) {
                const json::value* supported = nullptr;
                if (const auto* d = e.data().if_object()) supported = d->if_contains("supported");
                const json::value none;
                const json::value& list = supported ? *supported : none;
                if (auto next = common_stateless_revision(list); next && !retried) {
                    retried = true;
                    out.version = *next;
                    continue;
                }
                // A server of both eras that does not offer 2026-07-28: initialize it.
                if (lists_initialize_era(list, opts.revisions)) {
                    out.legacy = e;
                    return out;
                }
                std::string theirs;
                if (const auto* a = list.if_array())
                    for (const auto& v : *a)
                        if (v.is_string())
                            theirs += (theirs.empty() ? "" : ", ") + std::string(v.get_string());
                throw error(
                    e.code(),
                    "the server supports protocol versions " + (theirs.empty() ? "(none named)" : theirs) +
                        "; this client speaks " + revisions_text(opts.revisions) +
                        (retried ? " (it refused " + std::string(to_string(out.version)) + " as well)" : ""),
                    e.data());
            }
            if (cured_by_no_fall_back(e)) {
                // A server that was not reached at all: the transport's words say it best
                // ("cannot connect to ...: Connection refused"), whatever the first request was.
                if (e.code() == error_code::http_error && !http_status(e)) throw;
                throw error(e.code(), std::string("server/discover failed: ") + e.what(), e.data());
            }
            out.legacy = e; // method not found, a legacy server's own error, no answer in time...
            return out;
        }
        discover_result d;
        try {
            d = from_json<discover_result>(raw);
        } catch (const error& e) {
            // Something answered, but not with a DiscoverResult: not a 2026-07-28 server.
            out.legacy =
                error(error_code::invalid_params,
                      std::string("the answer to server/discover is not a DiscoverResult: ") + e.what());
            return out;
        }
        json::array supported;
        for (const auto& v : d.supported_versions) supported.emplace_back(v);
        bool ours_listed = false;
        for (const auto& v : d.supported_versions) ours_listed = ours_listed || v == to_string(out.version);
        if (!ours_listed) {
            if (auto next = common_stateless_revision(supported); next && !retried) {
                retried = true;
                out.version = *next;
                continue;
            }
            if (lists_initialize_era(supported, opts.revisions)) {
                out.legacy = error(error_code::unsupported_protocol_version,
                                   "server/discover lists no stateless revision this client speaks");
                return out;
            }
            throw error(
                error_code::unsupported_protocol_version,
                "the server supports protocol versions " + join_strings(d.supported_versions) +
                    "; this client speaks " + revisions_text(opts.revisions),
                json::object{{"supported", std::move(supported)}, {"requested", to_string(out.version)}});
        }
        out.server_info = server_info_of(d, raw);
        out.result = std::move(d);
        return out;
    }
}

void client::impl::initialize(const std::shared_ptr<session>& rpc, revision asked) {
    {
        // Until the server answers, requests it sends (ping, logging) are read in the revision asked for.
        std::lock_guard lock(mu);
        version = asked;
    }
    initialize_request req{.protocol_version = std::string(to_string(asked)),
                           .capabilities = declared_capabilities(asked),
                           .client_info = opts.info};
    request_options o;
    o.timeout = opts.timeout;
    initialize_result result;
    {
        auto raw = rpc->call("initialize", to_json(req, asked), o);
        try {
            result = from_json<initialize_result>(raw);
        } catch (const error& e) {
            throw error(e.code(), std::string("the server's initialize result is malformed: ") + e.what(),
                        e.data());
        }
    }
    auto offered = parse_revision(result.protocol_version);
    bool accepted = offered && is_initialize_era(*offered);
    if (accepted) {
        accepted = false;
        for (auto r : opts.revisions) accepted = accepted || r == *offered;
    }
    if (!accepted)
        throw error(error_code::invalid_request,
                    "server answered initialize with protocol version '" + result.protocol_version +
                        "', which this client does not speak (it asked for " + std::string(to_string(asked)) +
                        "; it accepts " + revisions_text(opts.revisions) + "); connection closed",
                    json::object{{"requested", to_string(asked)}, {"offered", result.protocol_version}});
    rpc->set_protocol_revision(*offered);
    {
        std::lock_guard lock(mu);
        init = std::move(result);
        version = *offered;
        connected = true;
    }
    rpc->notify("notifications/initialized");
}

const initialize_result& client::connect(transport_ptr transport) {
    auto& d = *impl_;
    const revision asked = d.opts.protocol_version;
    if (!transport) throw error(error_code::invalid_params, "client::connect: the transport is null");
    // The newest initialize-era revision the client accepts: what initialize asks for, either
    // outright or after the stateless probe found a server of that era.
    std::optional<revision> initialize_revision;
    if (is_initialize_era(asked)) {
        initialize_revision = asked;
    } else {
        for (auto r : d.opts.revisions)
            if (is_initialize_era(r) && (!initialize_revision || r > *initialize_revision))
                initialize_revision = r;
    }
    // A live session (connected, or still in its handshake) must be closed first. Checked before
    // the transport is touched, so a refused transport stays usable; checked again below for a
    // connect() racing with this one.
    auto already = [&d] { return d.rpc && !d.rpc->is_closed(); };
    {
        std::lock_guard lock(d.mu);
        if (already())
            throw error(error_code::invalid_request, "client is already connected; close() it first");
    }
    d.stop_listening();
    auto rpc = session::create(std::move(transport), d.opts.session);
    d.install_request_handlers(*rpc);
    {
        std::lock_guard lock(d.mu);
        if (already())
            throw error(error_code::invalid_request, "client is already connected; close() it first");
        d.rpc = rpc;
        d.ever_connected = true;
        d.connected = false;
        d.stateless = false;
        d.discovered.reset();
        d.version = asked;
        // A new connection may reach another server: nothing listed before holds.
        d.output_checks.clear();
        ++d.tools_epoch;
        d.list_cache.clear();
        ++d.list_epoch;
        d.log_level.reset();
        d.session_subscriptions.clear();
        if (initialize_revision) d.initialize_asked = *initialize_revision;
        for (auto& cb : d.close_callbacks) rpc->on_close(cb);
    }
    std::vector<std::string> methods;
    {
        std::lock_guard lock(d.mu);
        for (auto& [m, cbs] : d.notification_callbacks) methods.push_back(m);
    }
    // Always watched: they void what the client remembers of the lists (outputSchemas, cached
    // listings), and the acknowledgement of a listen stream.
    for (const char* m :
         {tools_list_changed_method, prompts_list_changed_method, resources_list_changed_method})
        methods.emplace_back(m);
    for (auto& m : methods) d.install_notification(*rpc, m);
    {
        std::weak_ptr<impl> weak = impl_;
        rpc->set_notification_handler(acknowledged_method, [weak](const json::object& params) {
            if (auto self = weak.lock()) self->on_acknowledged(params);
        });
    }
    rpc->start();

    // Why the stateless probe gave up, when it did (the fall back to initialize).
    std::optional<error> probe_failure;
    try {
        if (!is_initialize_era(asked)) {
            auto found = d.discover(rpc, asked);
            if (found.result) {
                rpc->set_protocol_revision(found.version);
                initialize_result facts{.protocol_version = std::string(to_string(found.version)),
                                        .capabilities = found.result->capabilities,
                                        .server_info = std::move(found.server_info),
                                        .instructions = found.result->instructions,
                                        .meta = found.result->meta};
                {
                    std::lock_guard lock(d.mu);
                    d.init = std::move(facts);
                    d.version = found.version;
                    d.stateless = true;
                    d.discovered = std::move(found.result);
                    d.connected = true;
                }
                if (d.opts.listen) {
                    // Bounded: a server that never acknowledges does not hold connect() up. The
                    // stream stays asked for (and its callbacks armed) either way.
                    if (auto a = d.relisten(false)) {
                        try {
                            d.await_listen(a, std::min(d.opts.timeout, d.opts.discover_timeout));
                        } catch (const error&) {
                        }
                    }
                }
                return d.init;
            }
            if (!initialize_revision)
                throw error(
                    found.legacy->code(),
                    "the server does not speak protocol revision " + std::string(to_string(asked)) +
                        " (server/discover failed: " + found.legacy->what() +
                        "), and this client may not fall back to initialize (client_options::revisions "
                        "holds no revision of the initialize era)",
                    found.legacy->data());
            probe_failure = std::move(found.legacy);
        }
        try {
            d.initialize(rpc, *initialize_revision);
        } catch (const error& e) {
            // After a probe that got no answer, initialize failing too: say what each step met
            // (a slow 2026-07-28-only server refuses initialize; a dead one answers nothing).
            if (!probe_failure || probe_failure->code() != error_code::request_timeout || rpc->is_closed())
                throw;
            const std::string silent = "server/discover got no answer within " +
                                       std::to_string(d.opts.discover_timeout.count()) +
                                       " ms (client_options::discover_timeout)";
            if (e.code() == error_code::request_timeout)
                throw error(error_code::request_timeout,
                            "the server answered nothing: " + silent + ", then initialize none within " +
                                std::to_string(d.opts.timeout.count()) + " ms (client_options::timeout)",
                            e.data());
            throw error(e.code(), silent + ", and the fall back to initialize failed: " + e.what(), e.data());
        }
    } catch (...) {
        rpc->close();
        {
            std::lock_guard lock(d.mu);
            d.connected = false;
            d.stateless = false;
        }
        d.stop_listening();
        throw;
    }
    return d.init;
}

void client::close() {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        s = impl_->rpc;
        impl_->connected = false;
    }
    impl_->stop_listening();
    if (s) s->close();
}

bool client::connected() const {
    std::lock_guard lock(impl_->mu);
    return impl_->connected && impl_->rpc && !impl_->rpc->is_closed();
}

const initialize_result& client::server() const {
    std::lock_guard lock(impl_->mu);
    if (!impl_->connected)
        throw error(error_code::connection_closed, "client::server(): the client is not connected");
    return impl_->init;
}

revision client::protocol_version() const {
    return impl_->negotiated();
}

bool client::stateless() const {
    return impl_->is_stateless();
}

std::optional<discover_result> client::discovery() const {
    std::lock_guard lock(impl_->mu);
    return impl_->discovered;
}

session& client::rpc() const {
    std::lock_guard lock(impl_->mu);
    if (!impl_->rpc)
        throw error(error_code::connection_closed, "client::rpc(): the client was never connected");
    return *impl_->rpc;
}

revision client::impl::negotiated() const {
    std::lock_guard lock(mu);
    return version;
}

} // namespace mcp
