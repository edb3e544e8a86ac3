// mcp::server's lifecycle: connecting a peer (a new session or a restored one), negotiating
// the revision in initialize, and installing the engine handlers that serve every MCP method of
// the one method table (server_methods.cpp) for that peer.
#include <mcp/server/server.hpp>

#include "server/request_state.hpp"
#include "server/server_state.hpp"

#include <cstring>
#include <stdexcept>
#include <thread>

namespace mcp {

// ------------------------------------------------------------------ connecting

std::shared_ptr<server_session> server::connect(transport_ptr transport) {
    return attach(session::create(std::move(transport), impl_->opts.session),
                  std::make_shared<server_session::state>());
}

std::shared_ptr<server_session> server::restore_session(transport_ptr transport,
                                                        const session_snapshot& snapshot) {
    const auto r = snapshot.protocol_version;
    bool offered = false;
    for (auto o : impl_->opts.revisions) offered = offered || o == r;
    if (!is_initialize_era(r) || !offered)
        throw std::invalid_argument("mcp::server::restore_session: protocol revision " +
                                    std::string(to_string(r)) +
                                    " is not an initialize-era revision this server offers");
    auto who = std::make_shared<caller_info>();
    who->protocol_version = r;
    who->client = snapshot.client_info;
    try {
        who->capabilities = from_json<client_capabilities>(json::value(snapshot.client_capabilities));
    } catch (const error& e) {
        throw std::invalid_argument(std::string("mcp::server::restore_session: client capabilities: ") +
                                    e.what());
    }
    who->capabilities_json = snapshot.client_capabilities;
    auto st = std::make_shared<server_session::state>();
    st->initialize_done = true;
    st->initialized_notified = snapshot.initialized;
    st->caller = std::move(who);
    st->declared = declared_from(snapshot.declared);
    st->level = snapshot.log_level;
    st->subscriptions = snapshot.subscriptions;
    auto rpc = session::create(std::move(transport), impl_->opts.session);
    rpc->set_protocol_revision(r); // what the initialize handler does after negotiating
    // Requests to the client get ids from a random point in [2^32, 2^52) - exact in any JSON
    // reader - instead of 1, so that an answer to a request of the process that served the
    // session before (or of another replica) is not taken for one of ours.
    const auto draw = detail::random_bytes(sizeof(std::uint64_t));
    std::uint64_t bits = 0;
    std::memcpy(&bits, draw.data(), sizeof bits);
    constexpr std::uint64_t low = std::uint64_t{1} << 32, high = std::uint64_t{1} << 52;
    rpc->set_next_request_id(static_cast<std::int64_t>(low + bits % (high - low)));
    return attach(std::move(rpc), std::move(st));
}

std::shared_ptr<server_session> server::attach(std::shared_ptr<mcp::session> rpc,
                                               std::shared_ptr<server_session::state> st) {
    auto ss = std::make_shared<server_session>(rpc, st);
    {
        std::lock_guard lock(impl_->sessions_mu);
        impl_->sessions[ss.get()] = ss;
    }
    std::weak_ptr<impl> weak_server = impl_;
    const server_session* key = ss.get();
    rpc->on_close([weak_server, key] {
        if (auto srv = weak_server.lock()) {
            std::shared_ptr<server_session> dropped;
            std::lock_guard lock(srv->sessions_mu);
            auto it = srv->sessions.find(key);
            if (it != srv->sessions.end()) {
                dropped = std::move(it->second);
                srv->sessions.erase(it);
            }
        }
    });
    impl_->install_handlers(ss);
    rpc->start();
    return ss;
}

void server::serve(transport_ptr transport) {
    auto ss = connect(std::move(transport));
    auto rpc = ss->rpc_ptr();
    ss.reset();
    rpc->wait_closed();
    // Handlers still running were cancelled by the close; give them a moment to return, so that
    // a program that returns from main() right after serve() does not pull objects from under
    // them. A handler that ignores its cancellation for longer is its author's to fix.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (rpc->in_flight_incoming() != 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

// ------------------------------------------------------------------ lifecycle

namespace {

// The revision an initialize is answered with: the one asked for when offered, else the newest
// initialize-era revision offered.
revision negotiate(const server_options& opts, std::string_view requested) {
    revision chosen = latest_initialize_revision;
    bool have_newest = false;
    for (auto r : opts.revisions) {
        if (!is_initialize_era(r)) continue;
        if (!have_newest || r > chosen) chosen = r;
        have_newest = true;
    }
    if (auto wanted = parse_revision(requested); wanted && is_initialize_era(*wanted))
        for (auto r : opts.revisions)
            if (r == *wanted) chosen = r;
    return chosen;
}

} // namespace

json::object initialize_result_json(const server::impl& srv, const json::object& params,
                                    declared_features declared, caller_info& who) {
    auto requested = find_string(params, "protocolVersion");
    if (!requested)
        throw error(error_code::invalid_params,
                    "Invalid params: initialize needs \"protocolVersion\" (a string)");
    const auto* caps_v = params.if_contains("capabilities");
    if (caps_v && !caps_v->is_object())
        throw error(error_code::invalid_params, "Invalid params: \"capabilities\" must be an object");
    const auto* info_v = params.if_contains("clientInfo");
    if (!info_v) throw error(error_code::invalid_params, "Invalid params: initialize needs \"clientInfo\"");
    who.client = from_json<implementation>(*info_v);
    who.capabilities = caps_v ? from_json<client_capabilities>(*caps_v) : client_capabilities{};
    who.capabilities_json = caps_v ? caps_v->get_object() : json::object();
    who.protocol_version = negotiate(srv.opts, *requested);
    who.stateless = false;
    const revision chosen = who.protocol_version;
    json::object result;
    result["protocolVersion"] = to_string(chosen);
    result["capabilities"] = capabilities_json(declared, chosen);
    result["serverInfo"] = to_json(srv.opts.info, chosen);
    if (srv.opts.instructions && chosen >= revision::v2025_03_26)
        result["instructions"] = *srv.opts.instructions;
    return result;
}

std::shared_ptr<const caller_info> forwarded_caller(std::shared_ptr<const caller_info> session_caller,
                                                    const request_context& rpc) {
    const auto* meta = rpc.meta();
    const auto* caps = meta ? meta->if_contains(forwarding_meta::client_capabilities) : nullptr;
    if (!caps || !caps->is_object()) return session_caller;
    client_capabilities end;
    try {
        end = from_json<client_capabilities>(*caps);
    } catch (const error&) {
        return session_caller; // not a ClientCapabilities: ignored
    }
    // What the intermediary itself can answer bounds what its client can.
    const auto& own = session_caller->capabilities;
    if (!own.roots) end.roots.reset();
    if (!own.sampling) end.sampling.reset();
    if (!own.elicitation) end.elicitation.reset();
    if (!own.tasks) end.tasks.reset();
    auto who = std::make_shared<caller_info>(*session_caller);
    who->capabilities = std::move(end);
    who->capabilities_json = to_json(who->capabilities, who->protocol_version);
    return who;
}

bool is_stateless_request(const request_context& rpc) noexcept {
    const auto* m = rpc.meta();
    return m && m->contains("io.modelcontextprotocol/protocolVersion");
}

void server::impl::install_handlers(const std::shared_ptr<server_session>& ss) {
    auto& rpc = ss->rpc();
    std::weak_ptr<impl> weak_server = shared_from_this();
    std::weak_ptr<server_session> weak_session = ss;
    auto st = ss->state_ptr();

    // Capability gating once initialized. Before initialize every request reaches its handler,
    // which serves it statelessly (2026-07-28) when its _meta says so and refuses it otherwise.
    rpc.set_request_filter([st](std::string_view method) -> std::optional<error> {
        std::lock_guard lock(st->mu);
        if (!st->initialize_done) return std::nullopt;
        if (const char* cap = capability_needed(method); cap && !declares(st->declared, cap))
            return error(error_code::method_not_found, "Method not found: " + std::string(method) +
                                                           " (the server does not offer '" + cap + "')");
        return std::nullopt;
    });

    // A client that pipelines (`printf ... | server`) sends its first requests before the answer
    // to initialize: they must find the session initialized.
    rpc.set_handled_in_order("initialize");
    rpc.set_request_handler("initialize", [weak_server, st](request_context& ctx) -> json::value {
        auto srv = weak_server.lock();
        if (!srv) throw error(error_code::internal_error, "server is shutting down");
        return srv->receive(ctx, false, [&]() -> json::value {
            caller_info who;
            auto declared = srv->declared_now();
            auto result = initialize_result_json(*srv, ctx.params(), declared, who);
            const revision chosen = who.protocol_version;
            {
                std::lock_guard lock(st->mu);
                if (st->initialize_done)
                    throw error(error_code::invalid_request, "Invalid Request: already initialized");
                st->caller = std::make_shared<const caller_info>(std::move(who));
                st->declared = std::move(declared);
                st->initialize_done = true;
            }
            ctx.peer().set_protocol_revision(chosen);
            publish_snapshot(*st);
            return result;
        });
    });

    // ping: the engine answers it by itself unless a handler is set; this one lets the receiving
    // middleware see it (a rate limit counts it, metrics record it, auth may refuse it). With no
    // middleware installed it costs what the engine's own answer costs.
    rpc.set_request_handler("ping", [weak_server](request_context& ctx) -> json::value {
        auto srv = weak_server.lock();
        if (!srv) return json::object();
        return srv->receive(ctx, is_stateless_request(ctx), [] { return json::value(json::object()); });
    });

    // Every other MCP method of either era, straight from the one table (server_methods.cpp).
    for (const auto& m : methods())
        rpc.set_request_handler(std::string(m.name), [weak_server, weak_session, &m](request_context& ctx) {
            auto srv = weak_server.lock();
            auto peer = weak_session.lock();
            if (!srv || !peer) throw error(error_code::internal_error, "server is shutting down");
            return srv->serve_on_session(ctx, m, std::move(peer));
        });

    // Run a list of the server's callbacks for this peer (copied under the lock, run outside it).
    auto run_callbacks = [weak_server,
                          weak_session](std::vector<std::function<void(server_session&)>> impl::*list) {
        auto srv = weak_server.lock();
        auto ss = weak_session.lock();
        if (!srv || !ss) return;
        std::vector<std::function<void(server_session&)>> callbacks;
        {
            std::lock_guard lock(srv->sessions_mu);
            callbacks = (*srv).*list;
        }
        for (auto& cb : callbacks) cb(*ss);
    };
    rpc.set_notification_interceptor([weak_server](std::string_view method, json::object& params,
                                                   const std::shared_ptr<const message_origin>& origin,
                                                   const std::function<void()>& deliver) {
        if (auto srv = weak_server.lock())
            srv->receive_notification(method, params, origin.get(), false, deliver);
    });
    rpc.set_notification_handler("notifications/initialized", [st, run_callbacks](const json::object&) {
        {
            std::lock_guard lock(st->mu);
            if (!st->initialize_done || st->initialized_notified) return;
            st->initialized_notified = true;
        }
        publish_snapshot(*st);
        run_callbacks(&impl::initialized_callbacks);
    });
    rpc.set_notification_handler("notifications/roots/list_changed", [run_callbacks](const json::object&) {
        run_callbacks(&impl::roots_changed_callbacks);
    });
}

json::value server::impl::serve_on_session(request_context& ctx, const method_entry& m,
                                           std::shared_ptr<server_session> peer) {
    detail::call_state call;
    {
        auto& st = peer->internal_state();
        std::lock_guard lock(st.mu);
        if (st.initialize_done) call.caller = st.caller;
    }
    if (call.caller) call.caller = forwarded_caller(call.caller, ctx);
    const bool stateless = !call.caller && is_stateless_request(ctx);
    return receive(ctx, stateless, [&]() -> json::value {
        if (!call.caller) {
            if (stateless) return serve_stateless(ctx);
            throw error(error_code::invalid_request,
                        "Invalid Request: " + std::string(m.name) +
                            " before initialize; send initialize first, or give the request "
                            "_meta[\"io.modelcontextprotocol/protocolVersion\"] (protocol revision "
                            "2026-07-28)");
        }
        if (!m.initialize_era)
            throw error(error_code::method_not_found, "Method not found: " + std::string(m.name));
        call.peer = std::move(peer);
        call.options = &opts;
        call.owner = this;
        return m.fn(*this, ctx, call);
    });
}

} // namespace mcp
