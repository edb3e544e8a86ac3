// mcp::client: handlers for the server's requests, callbacks for its notifications and the
// capabilities they declare. (Connecting is in client_connect.cpp.)
#include <mcp/client/client.hpp>

#include "client/client_state.hpp"

namespace mcp {

client::client(client_options options) : impl_(std::make_shared<impl>()) {
    impl_->opts = std::move(options);
    if (impl_->opts.session.name.empty()) impl_->opts.session.name = impl_->opts.info.name;
    if (impl_->opts.revisions.empty()) impl_->opts.revisions.push_back(impl_->opts.protocol_version);
}

client::~client() {
    close();
}

// ------------------------------------------------------------------ handlers and callbacks

void client::set_sampling_handler(sampling_handler handler, sampling_support support) {
    std::lock_guard lock(impl_->mu);
    impl_->sampling = std::move(handler);
    impl_->sampling_tools = support.tools;
    impl_->sampling_context = support.context;
}

void client::set_elicitation_handler(elicitation_handler handler, elicitation_modes modes) {
    std::lock_guard lock(impl_->mu);
    impl_->elicitation = std::move(handler);
    impl_->elicitation_form = modes.form;
    impl_->elicitation_url = modes.url;
}

void client::set_roots_handler(roots_handler handler, roots_support support) {
    roots_request_handler h;
    if (handler) h = [handler = std::move(handler)](request_context&) { return handler(); };
    set_roots_request_handler(std::move(h), support);
}

void client::set_roots_request_handler(roots_request_handler handler, roots_support support) {
    std::lock_guard lock(impl_->mu);
    impl_->roots = std::move(handler);
    impl_->roots_list_changed = support.list_changed;
}

void client::set_roots(std::vector<root> roots) {
    auto shared = std::make_shared<const std::vector<root>>(std::move(roots));
    set_roots_handler([shared] { return *shared; });
}

void client::notify_roots_changed() {
    std::shared_ptr<session> s;
    {
        std::lock_guard lock(impl_->mu);
        // Before the handshake ends there is nothing to tell: the server asks for roots after it.
        // The stateless era has no such notification: a server asks for the roots each time.
        if (!impl_->roots_list_changed || !impl_->connected || impl_->stateless) return;
        s = impl_->rpc;
    }
    if (s && defines(protocol_version(), wire_field::roots_list_changed))
        s->notify("notifications/roots/list_changed");
}

void client::on_tools_list_changed(std::function<void()> cb) {
    on_notification(tools_list_changed_method, [cb](const json::object&) { cb(); });
}
void client::on_resources_list_changed(std::function<void()> cb) {
    on_notification("notifications/resources/list_changed", [cb](const json::object&) { cb(); });
}
void client::on_prompts_list_changed(std::function<void()> cb) {
    on_notification("notifications/prompts/list_changed", [cb](const json::object&) { cb(); });
}

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

void client::on_session_renewed(std::function<void()> cb) {
    std::lock_guard lock(impl_->mu);
    impl_->renewed_callbacks.push_back(std::move(cb));
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
        // A notification of a listen stream that was replaced (stateless era) is stale.
        if (!self->from_current_subscription(params)) return;
        // Before the callbacks run: one of them may list again, and that listing must be the
        // one that stays.
        self->invalidate_lists(method);
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

} // namespace mcp
