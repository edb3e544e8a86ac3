// mcp::server: registries, connecting peers, the initialize handshake and lifecycle gating.
#include <mcp/server/server.hpp>

#include "protocol/header_annotations.hpp"
#include "server/request_state.hpp"
#include "server/server_state.hpp"

#include <mcp/json/text.hpp>

#include <cstring>
#include <stdexcept>
#include <thread>

namespace mcp {

namespace {
// A notification the server sends on its own (list_changed, updates, log), through the sending
// middleware.
void notify_peer(const server::impl& srv, server_session& s, const char* method, json::value params) {
    if (!srv.has_senders()) {
        s.rpc().notify(method, std::move(params));
        return;
    }
    outgoing_call call{method, params, false, {}};
    srv.send(call, [&s](outgoing_call& c) -> json::value {
        s.rpc().notify(std::string(c.method), std::move(c.params));
        return nullptr;
    });
}
} // namespace

server::server(server_options options) : impl_(std::make_shared<impl>()) {
    impl_->opts = std::move(options);
    if (impl_->opts.revisions.empty()) impl_->opts.revisions.push_back(latest_initialize_revision);
    if (impl_->opts.page_size == 0) impl_->opts.page_size = 100;
    if (impl_->opts.session.name.empty()) impl_->opts.session.name = impl_->opts.info.name;
    if (impl_->opts.max_input_rounds < 1) impl_->opts.max_input_rounds = 1;
    impl_->server_info_2026 = to_json(impl_->opts.info, revision::v2026_07_28);
    impl_->state_key = impl_->opts.request_state_secret.empty() ? detail::random_bytes(32)
                                                                : impl_->opts.request_state_secret;
    impl_->exec =
        impl_->opts.session.handler_executor ? impl_->opts.session.handler_executor : default_executor();
}

server::~server() {
    impl_->end_listeners();
    for (auto& s : impl_->live_sessions()) s->close();
}

void server::shutdown() {
    impl_->end_listeners();
    for (auto& s : impl_->live_sessions()) s->close();
}

void server::end_subscriptions() {
    impl_->end_listeners();
}

std::size_t server::listeners() const {
    std::lock_guard lock(impl_->listeners_mu);
    return impl_->listeners.size();
}

const server_options& server::options() const noexcept {
    return impl_->opts;
}

// ------------------------------------------------------------------ registries

void server::add_tool(tool definition, tool_handler handler) {
    register_tool(std::move(definition), std::move(handler), nullptr);
}

void server::register_tool(tool definition, tool_handler handler,
                           std::shared_ptr<const schema::validator> arguments) {
    if (definition.name.empty()) throw std::invalid_argument("mcp::server::add_tool: a tool needs a name");
    // An invalid x-mcp-header annotation makes the whole definition invalid (2026-07-28): clients
    // over HTTP must drop the tool, so publishing it would only hide it from them.
    if (auto headers = detail::read_header_annotations(definition.input_schema); !headers.error.empty())
        throw std::invalid_argument("mcp::server::add_tool: the inputSchema of tool \"" +
                                    printable(definition.name) +
                                    "\" has an invalid x-mcp-header annotation: " + headers.error);
    if (!impl_->opts.validate_tool_arguments)
        arguments.reset();
    else if (!arguments) {
        try {
            arguments = std::make_shared<const schema::validator>(
                schema::validator::compile(definition.input_schema));
        } catch (const schema::compile_error& e) {
            throw std::invalid_argument("mcp::server::add_tool: the inputSchema of tool \"" +
                                        definition.name + "\" is not a valid JSON Schema: " + e.what());
        }
    }
    {
        std::unique_lock lock(impl_->mu);
        auto name = definition.name;
        impl_->tools[name] = {std::make_shared<const tool>(std::move(definition)),
                              std::make_shared<const tool_handler>(std::move(handler)), std::move(arguments)};
    }
    impl_->broadcast_list_changed(impl::feature::tools);
}

std::shared_ptr<const tool> server::find_tool(const std::string& name) const {
    std::shared_lock lock(impl_->mu);
    auto it = impl_->tools.find(name);
    return it == impl_->tools.end() ? nullptr : it->second.definition;
}

bool server::remove_tool(const std::string& name) {
    {
        std::unique_lock lock(impl_->mu);
        if (!impl_->tools.erase(name)) return false;
    }
    impl_->broadcast_list_changed(impl::feature::tools);
    return true;
}

void server::add_resource(resource definition, resource_reader reader) {
    {
        std::unique_lock lock(impl_->mu);
        auto uri = definition.uri;
        impl_->resources[uri] = {std::move(definition),
                                 std::make_shared<const resource_reader>(std::move(reader))};
    }
    impl_->broadcast_list_changed(impl::feature::resources);
}

bool server::remove_resource(const std::string& uri) {
    {
        std::unique_lock lock(impl_->mu);
        if (!impl_->resources.erase(uri)) return false;
    }
    impl_->broadcast_list_changed(impl::feature::resources);
    return true;
}

void server::add_resource_template(resource_template definition, template_reader reader,
                                   std::map<std::string, completion_handler> completers) {
    // Compiled here, once, so that resources/read only matches; a bad template fails loudly at
    // registration instead of silently never matching.
    std::optional<uri_template> compiled;
    try {
        compiled.emplace(definition.uri_template);
    } catch (const uri_template_error& e) {
        throw std::invalid_argument("add_resource_template: " + std::string(e.what()));
    }
    {
        std::unique_lock lock(impl_->mu);
        auto key = definition.uri_template;
        impl_->templates.insert_or_assign(
            std::move(key), impl::template_entry{std::move(definition), std::move(*compiled),
                                                 std::make_shared<const template_reader>(std::move(reader)),
                                                 std::move(completers)});
    }
    impl_->broadcast_list_changed(impl::feature::resources);
}

bool server::remove_resource_template(const std::string& uri_template) {
    {
        std::unique_lock lock(impl_->mu);
        if (!impl_->templates.erase(uri_template)) return false;
    }
    impl_->broadcast_list_changed(impl::feature::resources);
    return true;
}

void server::add_prompt(prompt definition, prompt_handler handler,
                        std::map<std::string, completion_handler> completers) {
    {
        std::unique_lock lock(impl_->mu);
        auto name = definition.name;
        impl_->prompts[name] = {std::move(definition),
                                std::make_shared<const prompt_handler>(std::move(handler)),
                                std::move(completers)};
    }
    impl_->broadcast_list_changed(impl::feature::prompts);
}

bool server::remove_prompt(const std::string& name) {
    {
        std::unique_lock lock(impl_->mu);
        if (!impl_->prompts.erase(name)) return false;
    }
    impl_->broadcast_list_changed(impl::feature::prompts);
    return true;
}

void server::notify_resource_updated(const std::string& uri) {
    for (auto& s : impl_->live_sessions()) {
        if (!s->initialized() || !s->subscribed(uri)) continue;
        notify_peer(*impl_, *s, "notifications/resources/updated", json::object{{"uri", uri}});
    }
    impl_->notify_listeners_resource_updated(uri);
}

void server::log(logging_level level, json::value data, std::optional<std::string> logger) {
    for (auto& s : impl_->live_sessions())
        if (!s->initialized())
            continue;
        else if (auto params = s->log_params(level, data, logger))
            notify_peer(*impl_, *s, "notifications/message", std::move(*params));
}

void server::on_roots_list_changed(std::function<void(server_session&)> callback) {
    std::lock_guard lock(impl_->sessions_mu);
    impl_->roots_changed_callbacks.push_back(std::move(callback));
}

void server::on_initialized(std::function<void(server_session&)> callback) {
    std::lock_guard lock(impl_->sessions_mu);
    impl_->initialized_callbacks.push_back(std::move(callback));
}

std::vector<std::shared_ptr<server_session>> server::impl::live_sessions() const {
    std::lock_guard lock(sessions_mu);
    std::vector<std::shared_ptr<server_session>> out;
    out.reserve(sessions.size());
    for (auto& [k, s] : sessions) out.push_back(s);
    return out;
}

std::vector<std::shared_ptr<server_session>> server::sessions() const {
    return impl_->live_sessions();
}

void server::update(const std::function<void()>& changes) {
    {
        std::lock_guard lock(impl_->batch_mu);
        ++impl_->batch_depth;
    }
    unsigned pending = 0;
    auto finish = [&] {
        std::lock_guard lock(impl_->batch_mu);
        if (--impl_->batch_depth == 0) pending = std::exchange(impl_->pending_changes, 0u);
    };
    try {
        changes();
    } catch (...) {
        finish();
        for (auto f : {impl::feature::tools, impl::feature::resources, impl::feature::prompts})
            if (pending & (1u << static_cast<unsigned>(f))) impl_->broadcast_list_changed(f);
        throw;
    }
    finish();
    for (auto f : {impl::feature::tools, impl::feature::resources, impl::feature::prompts})
        if (pending & (1u << static_cast<unsigned>(f))) impl_->broadcast_list_changed(f);
}

void server::impl::broadcast_list_changed(feature f) {
    {
        std::lock_guard lock(batch_mu);
        if (batch_depth > 0) {
            pending_changes |= 1u << static_cast<unsigned>(f);
            return;
        }
    }
    const char* method = f == feature::tools       ? "notifications/tools/list_changed"
                         : f == feature::resources ? "notifications/resources/list_changed"
                                                   : "notifications/prompts/list_changed";
    for (auto& s : live_sessions()) {
        auto& st = s->internal_state();
        bool declared;
        {
            std::lock_guard lock(st.mu);
            if (!st.initialize_done) continue;
            declared = f == feature::tools       ? st.declared.tools
                       : f == feature::resources ? st.declared.resources
                                                 : st.declared.prompts;
        }
        if (declared) notify_peer(*this, *s, method, nullptr);
    }
    notify_listeners(f);
}

// ------------------------------------------------------------------ capabilities

// The *_locked helpers read the registries: the caller holds `mu` (shared is enough).
bool server::impl::offers_tools_locked() const {
    return !tools.empty() || opts.always_declare_tools;
}
bool server::impl::offers_resources_locked() const {
    return !resources.empty() || !templates.empty() || opts.always_declare_resources;
}
bool server::impl::offers_prompts_locked() const {
    return !prompts.empty() || opts.always_declare_prompts;
}
bool server::impl::offers_completions_locked() const {
    for (auto& [k, p] : prompts)
        if (!p.completers.empty()) return true;
    for (auto& [k, t] : templates)
        if (!t.completers.empty()) return true;
    return false;
}

declared_features server::impl::declared_now() const {
    declared_features d;
    std::shared_lock lock(mu);
    d.tools = offers_tools_locked();
    d.resources = offers_resources_locked();
    d.resources_subscribe = d.resources;
    d.prompts = offers_prompts_locked();
    d.logging = opts.declare_logging;
    d.completions = offers_completions_locked();
    d.experimental = opts.experimental;
    d.extensions = opts.extensions;
    return d;
}

bool server::impl::offers(std::string_view capability) const {
    if (capability == "logging") return opts.declare_logging;
    std::shared_lock lock(mu);
    if (capability == "tools") return offers_tools_locked();
    if (capability == "prompts") return offers_prompts_locked();
    // resources_subscribe is declared whenever resources are (declared_now above).
    if (capability == "resources" || capability == "resources.subscribe") return offers_resources_locked();
    if (capability == "completions") return offers_completions_locked();
    return true;
}

json::object capabilities_json(const declared_features& d, revision r) {
    json::object caps;
    if (!d.experimental.empty()) caps["experimental"] = d.experimental;
    if (d.logging) caps["logging"] = json::object();
    if (d.completions && defines(r, wire_field::completions_capability)) caps["completions"] = json::object();
    if (d.prompts) caps["prompts"] = json::object{{"listChanged", true}};
    if (d.resources)
        caps["resources"] = json::object{{"subscribe", d.resources_subscribe}, {"listChanged", true}};
    if (d.tools) caps["tools"] = json::object{{"listChanged", true}};
    if (!d.extensions.empty() && defines(r, wire_field::extensions)) caps["extensions"] = d.extensions;
    return caps;
}

server_capabilities to_server_capabilities(const declared_features& d) {
    server_capabilities c;
    if (!d.experimental.empty()) c.experimental = d.experimental;
    c.logging = d.logging;
    c.completions = d.completions;
    if (d.prompts) c.prompts = prompts_capability{true};
    if (d.resources) c.resources = resources_capability{d.resources_subscribe, true};
    if (d.tools) c.tools = tools_capability{true};
    if (!d.extensions.empty()) c.extensions = d.extensions;
    return c;
}

declared_features declared_from(const server_capabilities& c) {
    declared_features d;
    d.tools = c.tools.has_value();
    d.resources = c.resources.has_value();
    d.resources_subscribe = d.resources && c.resources->subscribe.value_or(false);
    d.prompts = c.prompts.has_value();
    d.logging = c.logging;
    d.completions = c.completions;
    d.experimental = c.experimental.value_or(json::object());
    d.extensions = c.extensions.value_or(json::object());
    return d;
}

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

    // Every MCP method of either era: one generic handler that picks the era and runs the
    // method (server_methods.cpp).
    for (std::string_view name :
         {"tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read",
          "resources/subscribe", "resources/unsubscribe", "prompts/list", "prompts/get",
          "completion/complete", "logging/setLevel", "server/discover", "subscriptions/listen"}) {
        rpc.set_request_handler(
            std::string(name),
            [weak_server, weak_session, st, name = std::string(name)](request_context& ctx) -> json::value {
                auto srv = weak_server.lock();
                auto peer = weak_session.lock();
                if (!srv || !peer) throw error(error_code::internal_error, "server is shutting down");
                detail::call_state call;
                {
                    std::lock_guard lock(st->mu);
                    if (st->initialize_done) call.caller = st->caller;
                }
                if (call.caller) call.caller = forwarded_caller(call.caller, ctx);
                const bool stateless = !call.caller && is_stateless_request(ctx);
                return srv->receive(ctx, stateless, [&]() -> json::value {
                    if (!call.caller) {
                        if (stateless) return srv->serve_stateless(ctx);
                        throw error(
                            error_code::invalid_request,
                            "Invalid Request: " + name +
                                " before initialize; send initialize first, or give the request "
                                "_meta[\"io.modelcontextprotocol/protocolVersion\"] (protocol revision "
                                "2026-07-28)");
                    }
                    auto fn = find_method(name, false);
                    if (!fn) throw error(error_code::method_not_found, "Method not found: " + name);
                    call.peer = std::move(peer);
                    call.options = &srv->opts;
                    call.owner = srv.get();
                    return fn(*srv, ctx, call);
                });
            });
    }

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

} // namespace mcp
