// mcp::server: what it serves - the registries of tools, resources, templates and prompts, the
// list_changed notifications their changes send, and the capabilities they declare. Connecting
// peers and initialize are in lifecycle.cpp.
#include <mcp/server/server.hpp>

#include "protocol/header_annotations.hpp"
#include "server/request_state.hpp"
#include "server/server_state.hpp"

#include <mcp/json/text.hpp>

#include <stdexcept>

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

} // namespace mcp
