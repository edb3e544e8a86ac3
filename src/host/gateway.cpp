// mcp::host::gateway: the manager's servers served as one mcp::server (see gateway.hpp). This
// file wires the two together: the manager's hooks (input requests, logs, catalogue changes,
// resource updates), subscriptions made at the servers, health, labels, closing.
#include "host/gateway_state.hpp"

#include <mcp/session/executor.hpp>

namespace mcp::host {

namespace {

/// Sampling requests of the servers: asked of the client whose call they serve.
class routed_sampling final : public sampling_provider {
public:
    routed_sampling(std::weak_ptr<gateway::impl> gw, std::shared_ptr<sampling_provider> outside)
        : gw_(std::move(gw)), outside_(std::move(outside)) {}
    create_message_result create_message(const std::string& server, const create_message_request& request,
                                         const request_control& control) override {
        const auto* meta = request.meta ? &*request.meta : nullptr;
        if (auto gw = gw_.lock())
            if (auto r = gw->route_input(gw->call_of(server, meta), request, meta, control))
                return std::get<create_message_result>(std::move(*r));
        if (outside_) return outside_->create_message(server, request, control);
        throw error(error_code::invalid_request,
                    "the gateway forwards sampling only to the client whose call this server is serving, and "
                    "cannot tell which call this request belongs to");
    }
    /// Tools may come: whether the client can take them is its own declaration's business.
    bool supports_tools() const override { return true; }

private:
    std::weak_ptr<gateway::impl> gw_;
    std::shared_ptr<sampling_provider> outside_;
};

/// Elicitation requests of the servers: likewise.
class routed_elicitation final : public elicitation_responder {
public:
    routed_elicitation(std::weak_ptr<gateway::impl> gw, std::shared_ptr<elicitation_responder> outside)
        : gw_(std::move(gw)), outside_(std::move(outside)) {}
    elicit_result elicit(const std::string& server, const elicit_request& request,
                         const request_control& control) override {
        const auto* meta = request.meta ? &*request.meta : nullptr;
        if (auto gw = gw_.lock())
            if (auto r = gw->route_input(gw->call_of(server, meta), request, meta, control))
                return std::get<elicit_result>(std::move(*r));
        if (outside_) return outside_->elicit(server, request, control);
        throw error(
            error_code::invalid_request,
            "the gateway forwards elicitation only to the client whose call this server is serving, and "
            "cannot tell which call this request belongs to");
    }
    bool supports_url() const override { return true; } // the client decides (its capabilities)

private:
    std::weak_ptr<gateway::impl> gw_;
    std::shared_ptr<elicitation_responder> outside_;
};

json::object status_json(const server_status& s) {
    json::object o{{"name", s.name},           {"state", to_string(s.state)},
                   {"restarts", s.restarts},   {"tools", s.tools},
                   {"resources", s.resources}, {"resourceTemplates", s.resource_templates},
                   {"prompts", s.prompts}};
    if (!s.error.empty()) o["error"] = s.error;
    if (s.pid) o["pid"] = *s.pid;
    if (s.protocol_version) o["protocolVersion"] = to_string(*s.protocol_version);
    return o;
}

} // namespace

gateway::gateway(gateway_options options) : impl_(std::make_shared<impl>()) {
    auto& o = impl_->opts;
    o = std::move(options);
    server_options so = o.server;
    // Servers come and go: the features are declared from the start, and their own lists say
    // what is there. The servers validate their arguments themselves.
    so.always_declare_tools = so.always_declare_resources = so.always_declare_prompts = true;
    so.validate_tool_arguments = false;
    // Handlers here wait for the servers behind; the servers' notifications (progress, logs)
    // and their results with progress are delivered on the default pool. A pool of their own
    // keeps the waiting handlers from holding the threads that would wake them.
    if (!so.session.handler_executor) so.session.handler_executor = std::make_shared<thread_pool>();
    impl_->exec = so.session.handler_executor;
    if (!so.accept_subscription)
        so.accept_subscription = [weak = std::weak_ptr<impl>(impl_)](const std::string& uri) {
            auto self = weak.lock();
            return self && self->inner_uri(uri).has_value();
        };
    impl_->srv = std::make_unique<mcp::server>(std::move(so));

    std::weak_ptr<impl> weak = impl_;
    manager_options mo = o.manager;
    mo.sampling = std::make_shared<routed_sampling>(weak, o.manager.sampling);
    mo.elicitation = std::make_shared<routed_elicitation>(weak, o.manager.elicitation);
    // Roots (see gateway.hpp): within a call the caller's (the manager's when it declares
    // none), outside one the connected clients'.
    mo.roots_provider = [weak, user = o.manager.roots_provider](
                            const std::string& server,
                            request_context& request) -> std::optional<std::vector<root>> {
        auto self = weak.lock();
        if (!self) return user ? user(server, request) : std::nullopt;
        const auto* meta = request.meta();
        if (auto call = self->call_of(server, meta)) {
            const request_control control{.cancellation = request.cancellation()};
            if (auto r = self->route_input(call, roots_request{}, meta, control))
                return std::get<list_roots_result>(std::move(*r)).roots;
            return user ? user(server, request) : std::nullopt;
        }
        if (user)
            if (auto r = user(server, request)) return r;
        return self->roots_outside_calls();
    };
    mo.on_log = [weak, user = o.manager.on_log](const std::string& server,
                                                const logging_message_notification& m) {
        if (user) user(server, m);
        if (auto self = weak.lock()) self->route_log(server, m);
    };
    mo.on_catalogue_changed = [weak, user = o.manager.on_catalogue_changed](const std::string& server) {
        if (user) user(server);
        auto self = weak.lock();
        if (!self) return;
        try {
            auto st = self->mgr->status(server);
            json::object e{{"event", "server_state"}, {"server", server}, {"state", to_string(st.state)}};
            if (!st.error.empty()) e["error"] = st.error;
            if (st.restarts) e["restarts"] = st.restarts;
            self->event(std::move(e));
        } catch (const std::exception&) {
        }
        self->sync();
        self->resubscribe(server);
    };
    mo.on_resource_updated = [weak, user = o.manager.on_resource_updated](const std::string& server,
                                                                          const std::string& uri) {
        if (user) user(server, uri);
        if (auto self = weak.lock()) self->srv->notify_resource_updated(self->outer_uri(server, uri));
    };
    if (!mo.server_log_level) mo.server_log_level = o.server_log_level;
    // The initialize era: the session carries what the servers send on their own (see
    // docs/design.md, "The servers are spoken to in the initialize era").
    if (!mo.protocol_version) mo.protocol_version = revision::v2025_11_25;
    // A call's log messages go on the call's own stream: they must be handled before its result
    // ends the call.
    mo.ordered_responses = true;
    impl_->mgr = std::make_unique<manager>(std::move(mo));

    impl_->watch_client_roots();
    impl_->sweeper = std::thread([self = impl_.get()] { self->sweep_loop(); });
}

gateway::~gateway() {
    close();
}

void gateway::add_server(server_config config) {
    impl_->mgr->add_server(std::move(config));
}

void gateway::start() {
    std::call_once(impl_->middleware_once, [&] { impl_->install_middleware(); });
    impl_->mgr->connect_all();
    {
        // Closed while the servers were starting (a stop signal): nothing to report or publish.
        std::lock_guard lock(impl_->sweeper_mu);
        if (impl_->closing) return;
    }
    for (const auto& s : impl_->mgr->servers())
        if (s.state != server_state::ready) {
            json::object e{{"event", "server_state"}, {"server", s.name}, {"state", to_string(s.state)}};
            if (!s.error.empty()) e["error"] = s.error;
            impl_->event(std::move(e));
        }
    impl_->sync();
}

mcp::server& gateway::server() noexcept {
    return *impl_->srv;
}
manager& gateway::servers() noexcept {
    return *impl_->mgr;
}

std::optional<gateway::route> gateway::tool_route(const std::string& name) const {
    std::shared_lock lock(impl_->routes_mu);
    auto it = impl_->tools.find(name);
    if (it == impl_->tools.end()) return std::nullopt;
    return it->second.to;
}

std::optional<gateway::route> gateway::prompt_route(const std::string& name) const {
    std::shared_lock lock(impl_->routes_mu);
    auto it = impl_->prompts.find(name);
    if (it == impl_->prompts.end()) return std::nullopt;
    return it->second.to;
}

std::optional<gateway::route> gateway::resource_route(const std::string& uri) const {
    return impl_->inner_uri(uri);
}

std::optional<gateway::route> gateway::template_route(const std::string& uri_template) const {
    std::shared_lock lock(impl_->routes_mu);
    auto it = impl_->templates.find(uri_template);
    if (it == impl_->templates.end()) return std::nullopt;
    return it->second.to;
}

std::vector<std::string> gateway::names_of(const std::string& server) const {
    std::vector<std::string> out;
    std::shared_lock lock(impl_->routes_mu);
    for (const auto& [name, t] : impl_->tools)
        if (t.to.server == server) out.push_back(name);
    for (const auto& [name, p] : impl_->prompts)
        if (p.to.server == server) out.push_back(name);
    return out;
}

metric_labels gateway::labels(const incoming_call& call) const {
    const auto m = call.method();
    std::optional<route> to;
    if (m == "tools/call") {
        to = tool_route(std::string(call.target()));
        // Only names of the catalogue become labels: a client cannot add series by calling
        // made-up names.
        if (!to) return {{}, "(unknown)"};
        return {to->server, to->name};
    }
    if (m == "prompts/get")
        to = prompt_route(std::string(call.target()));
    else if (m == "resources/read")
        to = resource_route(std::string(call.target()));
    return to ? metric_labels{to->server, {}} : metric_labels{};
}

json::object gateway::health() const {
    json::array servers;
    std::size_t ready = 0, total = 0;
    for (const auto& s : impl_->mgr->servers()) {
        ++total;
        if (s.state == server_state::ready) ++ready;
        servers.push_back(status_json(s));
    }
    const char* status = ready == total ? "ok" : ready == 0 ? "down" : "degraded";
    return json::object{
        {"status", status}, {"servers", std::move(servers)}, {"waitingCalls", waiting_calls()}};
}

std::size_t gateway::waiting_calls() const {
    return impl_->calls.parked();
}

void gateway::close() {
    if (!impl_) return;
    {
        std::lock_guard lock(impl_->sweeper_mu);
        if (impl_->closing) return;
        impl_->closing = true;
    }
    impl_->sweeper_cv.notify_all();
    if (impl_->sweeper.joinable()) impl_->sweeper.join();
    impl_->srv->shutdown();
    const error gone(error_code::connection_closed, "the gateway is closing");
    for (auto& call : impl_->calls.take_all()) {
        call->cancel.cancel(gone.what());
        call->fail_inputs(gone);
    }
    impl_->mgr->close();
}

namespace {

/// A tools/call result with isError: true, as the caller's revision writes it (the server's
/// own decoration is not applied to what middleware answer).
json::value tool_error_result(const incoming_call& call, std::string message) {
    const auto r = call.stateless() ? revision::v2026_07_28
                                    : call.rpc().protocol_revision().value_or(latest_initialize_revision);
    json::value result = to_json(error_result(std::move(message)), r);
    if (call.stateless()) result.as_object()["resultType"] = "complete";
    return result;
}

} // namespace

void gateway::impl::install_middleware() {
    // A name the catalogue gave a server's tool or prompt stays that item's, even while the
    // server is down and the item is not listed: a call by that name says the server is not
    // available (as a call that finds it down does), and never reaches another server's item.
    srv->use([weak = weak_from_this()](incoming_call& call, const receive_next& next) -> json::value {
        const auto m = call.method();
        auto self = weak.lock();
        if (!self || !self->opts.qualify_names || (m != "tools/call" && m != "prompts/get"))
            return next(call);
        const bool tool = m == "tools/call";
        const std::string name(call.target());
        {
            std::shared_lock lock(self->routes_mu);
            if (tool ? self->tools.count(name) != 0 : self->prompts.count(name) != 0)
                return next(call); // published: its handler serves it
        }
        const auto owner = tool ? self->mgr->tool_name_owner(name) : self->prompt_names.owner(name);
        if (!owner) return next(call); // never ours: the server's "unknown" error
        const auto st = self->mgr->status(owner->first);
        if (st.state == server_state::ready) return next(call); // its server no longer lists it
        const std::string why = not_ready_reason(st.name, st.state, st.error);
        if (!tool)
            throw error(error_code::connection_closed,
                        "The server behind this prompt is not available: " + why);
        return tool_error_result(call, "The server behind this tool is not available: " + why);
    });
    // Subscribing through the gateway subscribes at the server behind (once per URI).
    srv->use([weak = weak_from_this()](incoming_call& call, const receive_next& next) -> json::value {
        const auto m = call.method();
        if (m == "resources/subscribe") {
            if (auto self = weak.lock())
                if (auto uri = find_string(call.params(), "uri")) self->subscribe(std::string(*uri));
        } else if (m == "subscriptions/listen") {
            auto self = weak.lock();
            const auto* filter = find_object(call.params(), "notifications");
            const auto* uris = filter ? filter->if_contains("resourceSubscriptions") : nullptr;
            if (self && uris && uris->is_array())
                for (const auto& u : uris->get_array()) {
                    if (!u.is_string()) continue;
                    try {
                        self->subscribe(std::string(u.get_string()));
                    } catch (const std::exception&) {
                        // The listen stream still gets the gateway's own notifications.
                    }
                }
        }
        return next(call);
    });
}

// --------------------------------------------------------------------------- parked calls

void gateway::impl::wake_sweeper() {
    sweeper_cv.notify_all();
}

void gateway::impl::sweep_loop() {
    std::unique_lock lock(sweeper_mu);
    while (!closing) {
        lock.unlock();
        auto next = std::chrono::steady_clock::time_point::max();
        for (auto& call : calls.take_expired(std::chrono::steady_clock::now(), next)) {
            const error why(error_code::request_timeout,
                            "the client did not come back with its answers within " +
                                std::to_string(opts.input_wait.count()) + " ms");
            call->cancel.cancel(why.what());
            call->fail_inputs(why);
            event(json::object{{"event", "input_expired"}, {"server", call->server}});
        }
        lock.lock();
        if (closing) break;
        // Woken by a new parked call (its deadline may be the next one) or by closing.
        if (next == std::chrono::steady_clock::time_point::max())
            sweeper_cv.wait_for(lock, std::chrono::seconds(60));
        else
            sweeper_cv.wait_until(lock, next);
    }
}

// ------------------------------------------------------------------- resource subscriptions

void gateway::impl::subscribe(const std::string& outer) {
    auto to = inner_uri(outer);
    if (!to) return; // not one of ours: the gateway's server records it and nothing will come
    auto client = mgr->client(to->server);
    const auto key = std::make_pair(to->server, to->name);
    {
        std::lock_guard lock(subs_mu);
        auto it = subscriptions.find(key);
        if (it != subscriptions.end() && it->second.lock() == client) return;
    }
    client->subscribe(to->name);
    std::lock_guard lock(subs_mu);
    subscriptions[key] = client;
}

void gateway::impl::resubscribe(const std::string& server) {
    std::vector<std::string> uris;
    {
        std::lock_guard lock(subs_mu);
        for (const auto& [key, client] : subscriptions)
            if (key.first == server && client.expired()) uris.push_back(key.second);
    }
    if (uris.empty()) return;
    std::shared_ptr<mcp::client> client;
    try {
        client = mgr->client(server);
    } catch (const std::exception&) {
        return; // not back yet: the next change tries again
    }
    for (const auto& uri : uris) {
        try {
            client->subscribe(uri);
            std::lock_guard lock(subs_mu);
            subscriptions[{server, uri}] = client;
        } catch (const std::exception&) {
        }
    }
}

} // namespace mcp::host
