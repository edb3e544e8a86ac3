// mcp::client: connecting, the initialize handshake, handlers for the server's requests and
// callbacks for its notifications.
#include <mcp/client/client.hpp>

#include "client/client_state.hpp"

namespace mcp {

client::client(client_options options) : impl_(std::make_shared<impl>()) {
    impl_->opts = std::move(options);
    if (impl_->opts.session.name.empty()) impl_->opts.session.name = impl_->opts.info.name;
    if (impl_->opts.revisions.empty()) impl_->opts.revisions.push_back(impl_->opts.protocol_version);
}

client::~client() { close(); }

// ------------------------------------------------------------------ handlers and callbacks

void client::set_sampling_handler(sampling_handler handler, bool supports_tools, bool supports_context) {
    std::lock_guard lock(impl_->mu);
    impl_->sampling = std::move(handler);
    impl_->sampling_tools = supports_tools;
    impl_->sampling_context = supports_context;
}

void client::set_elicitation_handler(elicitation_handler handler, bool form, bool url) {
    std::lock_guard lock(impl_->mu);
    impl_->elicitation = std::move(handler);
    impl_->elicitation_form = form;
    impl_->elicitation_url = url;
}

void client::set_roots_handler(roots_handler handler, bool list_changed) {
    roots_request_handler h;
    if (handler) h = [handler = std::move(handler)](request_context&) { return handler(); };
    set_roots_request_handler(std::move(h), list_changed);
}

void client::set_roots_request_handler(roots_request_handler handler, bool list_changed) {
    std::lock_guard lock(impl_->mu);
    impl_->roots = std::move(handler);
    impl_->roots_list_changed = list_changed;
}

void client::set_roots(std::vector<root> roots) {
    auto shared = std::make_shared<const std::vector<root>>(std::move(roots));
    set_roots_handler([shared] { return *shared; }, true);
}

void client::notify_roots_changed() {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        // Before the handshake ends there is nothing to tell: the server asks for roots after it.
        if (!impl_->roots_list_changed || !impl_->connected) return;
        s = impl_->rpc;
    }
    if (s && defines(protocol_version(), wire_field::roots_list_changed)) s->notify("notifications/roots/list_changed");
}

void client::on_tools_list_changed(std::function<void()> cb) { on_notification(tools_list_changed_method, [cb](const json::object&) { cb(); }); }
void client::on_resources_list_changed(std::function<void()> cb) { on_notification("notifications/resources/list_changed", [cb](const json::object&) { cb(); }); }
void client::on_prompts_list_changed(std::function<void()> cb) { on_notification("notifications/prompts/list_changed", [cb](const json::object&) { cb(); }); }

void client::on_resource_updated(std::function<void(const std::string&)> cb) {
    on_notification("notifications/resources/updated", [cb](const json::object& p) {
        if (auto uri = find_string(p, "uri")) cb(std::string(*uri));
    });
}

void client::on_log_message(std::function<void(const logging_message_notification&)> cb) {
    on_notification("notifications/message", [cb](const json::object& p) {
        try {
            cb(from_json<logging_message_notification>(p));
        } catch (const error&) {
            // A malformed log message is dropped: there is no one to answer.
        }
    });
}

void client::on_elicitation_complete(std::function<void(const std::string&)> cb) {
    on_notification("notifications/elicitation/complete", [cb](const json::object& p) {
        if (auto id = find_string(p, "elicitationId")) cb(std::string(*id));
    });
}

void client::on_notification(std::string method, std::function<void(const json::object&)> cb) {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        impl_->notification_callbacks[method].push_back(std::move(cb));
        s = impl_->rpc;
    }
    if (s) impl_->install_notification(*s, method);
}

void client::on_close(std::function<void()> cb) {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        impl_->close_callbacks.push_back(cb);
        s = impl_->rpc;
    }
    if (s) s->on_close(std::move(cb));
}

void client::impl::install_notification(session& s, const std::string& method) {
    std::weak_ptr<impl> weak = shared_from_this();
    const bool tools_changed = method == tools_list_changed_method;
    s.set_notification_handler(method, [weak, method, tools_changed](const json::object& params) {
        auto self = weak.lock();
        if (!self) return;
        // Before the callbacks run: one of them may list the tools again, and that listing's
        // schemas must be the ones that stay.
        if (tools_changed) self->forget_output_schemas();
        std::vector<std::function<void(const json::object&)>> callbacks;
        {
            std::lock_guard lock(self->mu);
            auto it = self->notification_callbacks.find(method);
            if (it == self->notification_callbacks.end()) return;
            callbacks = it->second;
        }
        for (auto& cb : callbacks) cb(params);
    });
}

// ------------------------------------------------------------------ capabilities

client_capabilities client::impl::declared_capabilities(revision r) const {
    client_capabilities caps;
    std::lock_guard lock(mu);
    if (!opts.experimental.empty()) caps.experimental = opts.experimental;
    if (roots) caps.roots = roots_capability{.list_changed = roots_list_changed};
    if (sampling) caps.sampling = sampling_capability{.context = sampling_context, .tools = sampling_tools};
    // An empty elicitation capability means form mode, so a client that takes no form-mode
    // requests declares nothing where modes cannot be named (before 2025-11-25).
    if (elicitation && (elicitation_form || (elicitation_url && defines(r, wire_field::elicitation_modes))))
        caps.elicitation = elicitation_capability{.form = elicitation_form, .url = elicitation_url};
    return caps;
}

// ------------------------------------------------------------------ connecting

const initialize_result& client::connect(transport_ptr transport) {
    const revision asked = impl_->opts.protocol_version;
    if (!transport) throw error(error_code::invalid_params, "client::connect: the transport is null");
    if (!is_initialize_era(asked))
        throw error(error_code::invalid_params, "client::connect: protocol version " + std::string(to_string(asked)) +
                                                    " has no initialize handshake; ask for 2025-11-25 or older");
    // A live session (connected, or still in its handshake) must be closed first. Checked before
    // the transport is touched, so a refused transport stays usable; checked again below for a
    // connect() racing with this one.
    auto already = [this] { return impl_->rpc && !impl_->rpc->is_closed(); };
    {
        std::lock_guard lock(impl_->mu);
        if (already()) throw error(error_code::invalid_request, "client is already connected; close() it first");
    }
    auto rpc = session::create(std::move(transport), impl_->opts.session);
    impl_->install_request_handlers(*rpc);
    {
        std::lock_guard lock(impl_->mu);
        if (already()) throw error(error_code::invalid_request, "client is already connected; close() it first");
        impl_->rpc = rpc;
        impl_->ever_connected = true;
        impl_->connected = false;
        // Until the server answers, requests it sends (ping, logging) are read in the revision asked for.
        impl_->version = asked;
        // A new connection may reach another server: nothing listed before holds.
        impl_->output_checks.clear();
        ++impl_->tools_epoch;
        for (auto& cb : impl_->close_callbacks) rpc->on_close(cb);
    }
    std::vector<std::string> methods;
    {
        std::lock_guard lock(impl_->mu);
        for (auto& [m, cbs] : impl_->notification_callbacks) methods.push_back(m);
        // Always watched: it voids the outputSchemas remembered from tools/list.
        if (!impl_->notification_callbacks.contains(tools_list_changed_method)) methods.emplace_back(tools_list_changed_method);
    }
    for (auto& m : methods) impl_->install_notification(*rpc, m);
    rpc->start();

    initialize_request req{.protocol_version = std::string(to_string(asked)),
                           .capabilities = impl_->declared_capabilities(asked),
                           .client_info = impl_->opts.info};
    request_options o;
    o.timeout = impl_->opts.timeout;
    initialize_result init;
    try {
        auto result = rpc->call("initialize", to_json(req, asked), o);
        try {
            init = from_json<initialize_result>(result);
        } catch (const error& e) {
            throw error(e.code(), std::string("the server's initialize result is malformed: ") + e.what(), e.data());
        }
    } catch (...) {
        rpc->close();
        throw;
    }
    auto offered = parse_revision(init.protocol_version);
    bool accepted = offered && is_initialize_era(*offered);
    if (accepted) {
        accepted = false;
        for (auto r : impl_->opts.revisions) accepted = accepted || r == *offered;
    }
    if (!accepted) {
        rpc->close();
        std::string supported;
        for (auto r : impl_->opts.revisions) supported += (supported.empty() ? "" : ", ") + std::string(to_string(r));
        throw error(error_code::invalid_request,
                    "server answered initialize with protocol version '" + init.protocol_version +
                        "', which this client does not speak (it asked for " + std::string(to_string(asked)) +
                        "; it accepts " + supported + "); connection closed",
                    json::object{{"requested", to_string(asked)}, {"offered", init.protocol_version}});
    }
    rpc->set_protocol_revision(*offered);
    {
        std::lock_guard lock(impl_->mu);
        impl_->init = std::move(init);
        impl_->version = *offered;
        impl_->connected = true;
    }
    rpc->notify("notifications/initialized");
    return impl_->init;
}

void client::close() {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        s = impl_->rpc;
        impl_->connected = false;
    }
    if (s) s->close();
}

bool client::connected() const {
    std::lock_guard lock(impl_->mu);
    return impl_->connected && impl_->rpc && !impl_->rpc->is_closed();
}

const initialize_result& client::server() const {
    std::lock_guard lock(impl_->mu);
    if (!impl_->connected) throw error(error_code::connection_closed, "client::server(): the client is not connected");
    return impl_->init;
}

revision client::protocol_version() const { return impl_->negotiated(); }

session& client::rpc() const {
    std::lock_guard lock(impl_->mu);
    if (!impl_->rpc) throw error(error_code::connection_closed, "client::rpc(): the client was never connected");
    return *impl_->rpc;
}

revision client::impl::negotiated() const {
    std::lock_guard lock(mu);
    return version;
}

} // namespace mcp
