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
        if (!impl_->roots_list_changed) return;
        s = impl_->rpc;
    }
    if (s && defines(protocol_version(), field::roots_list_changed)) s->notify("notifications/roots/list_changed");
}

void client::on_tools_list_changed(std::function<void()> cb) { on_notification("notifications/tools/list_changed", [cb](const json::object&) { cb(); }); }
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
    s.set_notification_handler(method, [weak, method](const json::object& params) {
        auto self = weak.lock();
        if (!self) return;
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

client_capabilities client::impl::declared_capabilities() const {
    client_capabilities caps;
    std::lock_guard lock(mu);
    if (!opts.experimental.empty()) caps.experimental = opts.experimental;
    if (roots) caps.roots = roots_capability{.list_changed = roots_list_changed};
    if (sampling) caps.sampling = sampling_capability{.context = sampling_context, .tools = sampling_tools};
    if (elicitation) caps.elicitation = elicitation_capability{.form = elicitation_form, .url = elicitation_url};
    return caps;
}

// ------------------------------------------------------------------ connecting

const initialize_result& client::connect(transport_ptr transport) {
    if (connected()) throw error(error_code::invalid_request, "client is already connected; close() it first");
    auto rpc = session::create(std::move(transport), impl_->opts.session);
    std::weak_ptr<impl> weak = impl_;

    rpc->set_request_handler("roots/list", [weak](request_context&) -> json::value {
        auto self = weak.lock();
        roots_handler h;
        if (self) {
            std::lock_guard lock(self->mu);
            h = self->roots;
        }
        if (!h) throw error(error_code::method_not_found, "Method not found: roots/list (this client offers no roots)");
        list_roots_result r{.roots = h()};
        return to_json(r, self->negotiated());
    });
    rpc->set_request_handler("sampling/createMessage", [weak](request_context& ctx) -> json::value {
        auto self = weak.lock();
        sampling_handler h;
        if (self) {
            std::lock_guard lock(self->mu);
            h = self->sampling;
        }
        if (!h) throw error(error_code::method_not_found, "Method not found: sampling/createMessage (this client does not sample)");
        auto req = from_json<create_message_request>(json::value(ctx.params()));
        return to_json(h(req, ctx), self->negotiated());
    });
    rpc->set_request_handler("elicitation/create", [weak](request_context& ctx) -> json::value {
        auto self = weak.lock();
        elicitation_handler h;
        bool form = false, url = false;
        if (self) {
            std::lock_guard lock(self->mu);
            h = self->elicitation;
            form = self->elicitation_form;
            url = self->elicitation_url;
        }
        if (!h) throw error(error_code::method_not_found, "Method not found: elicitation/create (this client does not elicit)");
        auto req = from_json<elicit_request>(json::value(ctx.params()));
        if ((req.mode == elicitation_mode::url && !url) || (req.mode == elicitation_mode::form && !form))
            throw error(error_code::invalid_params, std::string("Invalid params: this client does not support ") +
                                                        std::string(to_string(req.mode)) + "-mode elicitation");
        return to_json(h(req, ctx), self->negotiated());
    });
    {
        std::lock_guard lock(impl_->mu);
        impl_->rpc = rpc;
        for (auto& cb : impl_->close_callbacks) rpc->on_close(cb);
    }
    std::vector<std::string> methods;
    {
        std::lock_guard lock(impl_->mu);
        for (auto& [m, cbs] : impl_->notification_callbacks) methods.push_back(m);
    }
    for (auto& m : methods) impl_->install_notification(*rpc, m);
    rpc->start();

    const revision asked = impl_->opts.protocol_version;
    initialize_request req{.protocol_version = std::string(to_string(asked)),
                           .capabilities = impl_->declared_capabilities(),
                           .client_info = impl_->opts.info};
    request_options o;
    o.timeout = impl_->opts.timeout;
    json::value result;
    try {
        result = rpc->call("initialize", to_json(req, asked), o);
    } catch (...) {
        close();
        throw;
    }
    auto init = from_json<initialize_result>(result);
    auto offered = parse_revision(init.protocol_version);
    bool accepted = offered && is_initialize_era(*offered);
    if (accepted) {
        accepted = false;
        for (auto r : impl_->opts.revisions) accepted = accepted || r == *offered;
    }
    if (!accepted) {
        close();
        throw error(error_code::invalid_request, "server answered with protocol version " + init.protocol_version +
                                                     ", which this client does not speak (it asked for " +
                                                     std::string(to_string(asked)) + ")");
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
    if (!impl_->connected) throw error(error_code::connection_closed, "client is not connected");
    return impl_->init;
}

revision client::protocol_version() const { return impl_->negotiated(); }

session& client::rpc() const {
    std::lock_guard lock(impl_->mu);
    if (!impl_->rpc) throw error(error_code::connection_closed, "client is not connected");
    return *impl_->rpc;
}

revision client::impl::negotiated() const {
    std::lock_guard lock(mu);
    return version;
}

} // namespace mcp
