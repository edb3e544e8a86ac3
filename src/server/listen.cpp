// subscriptions/listen (2026-07-28): a long-lived request whose stream carries the change
// notifications the client opted in to. Its first message is notifications/subscriptions/
// acknowledged (what the server agreed to); every notification on it carries the listen
// request's id as _meta["io.modelcontextprotocol/subscriptionId"]. It ends when the client
// cancels it (closing the HTTP stream, or notifications/cancelled on stdio: no response then) or
// when the server shuts down (a normal result).
#include "server/server_state.hpp"

namespace mcp {
namespace {

constexpr std::string_view subscription_key = "io.modelcontextprotocol/subscriptionId";

json::object with_subscription(json::object params, const json::value& id) {
    auto& meta = params["_meta"];
    if (!meta.is_object()) meta = json::object();
    meta.get_object()[subscription_key] = id;
    return params;
}

} // namespace

json::value server::impl::listen(request_context& rpc, detail::call_state&) {
    const auto* filter = find_object(rpc.params(), "notifications");
    if (!filter)
        throw error(error_code::invalid_params, "Invalid params: subscriptions/listen needs "
                                                "\"notifications\" (an object naming what to receive)");
    const auto declared = declared_now();
    auto l = std::make_shared<listener>();
    l->subscription_id = jsonrpc::id_to_json(rpc.id());
    l->tools = find_bool(*filter, "toolsListChanged").value_or(false) && declared.tools;
    l->prompts = find_bool(*filter, "promptsListChanged").value_or(false) && declared.prompts;
    l->resources = find_bool(*filter, "resourcesListChanged").value_or(false) && declared.resources;
    if (const auto* uris = filter->if_contains("resourceSubscriptions"); uris && !uris->is_null()) {
        if (!uris->is_array())
            throw error(error_code::invalid_params,
                        "Invalid params: \"resourceSubscriptions\" must be an array of URIs");
        for (const auto& u : uris->get_array()) {
            if (!u.is_string())
                throw error(error_code::invalid_params,
                            "Invalid params: \"resourceSubscriptions\" must hold strings");
            const std::string uri(u.get_string());
            if (declared.resources && declared.resources_subscribe && subscription_accepted(uri))
                l->resource_uris.insert(uri);
        }
    }

    // What the server agreed to: only what it can deliver.
    json::object granted;
    if (l->tools) granted["toolsListChanged"] = true;
    if (l->prompts) granted["promptsListChanged"] = true;
    if (l->resources) granted["resourcesListChanged"] = true;
    if (!l->resource_uris.empty()) {
        json::array a;
        for (const auto& u : l->resource_uris) a.emplace_back(u);
        granted["resourceSubscriptions"] = std::move(a);
    }

    auto notify = rpc.notifier();
    const impl* self = this; // listeners never outlive the server (end_listeners in its destructor)
    // The principal of the client listening: sending middleware may filter by it.
    std::string principal = rpc.origin() ? rpc.origin()->principal : std::string();
    l->send = [notify, self, id = l->subscription_id, principal = std::move(principal)](std::string method,
                                                                                        json::object params) {
        json::value p = with_subscription(std::move(params), id);
        outgoing_call call{method, p, false, principal};
        self->send(call, [&notify](outgoing_call& c) -> json::value {
            notify(std::string(c.method), std::move(c.params));
            return nullptr;
        });
    };
    l->reply = rpc.defer();
    l->cancel = rpc.cancellation();

    std::uint64_t key;
    {
        // The acknowledgement goes out before the listener is visible to broadcasts, under the
        // lock they take: nothing can precede it on this subscription.
        std::lock_guard lock(listeners_mu);
        l->send("notifications/subscriptions/acknowledged",
                json::object{{"notifications", std::move(granted)}});
        key = next_listener++;
        listeners.emplace(key, l);
    }
    std::weak_ptr<impl> weak = shared_from_this();
    l->cancel_registration = l->cancel.on_cancel([weak, key] {
        auto srv = weak.lock();
        if (!srv) return;
        std::shared_ptr<listener> gone;
        {
            std::lock_guard lock(srv->listeners_mu);
            auto it = srv->listeners.find(key);
            if (it == srv->listeners.end()) return;
            gone = std::move(it->second);
            srv->listeners.erase(it);
        }
        // The client stopped listening: no response is due. Dropping the deferred reply lets the
        // transport forget the request (a cancelled request's answer is never sent).
    });
    return nullptr;
}

bool server::impl::subscription_accepted(const std::string& uri) const {
    if (!opts.accept_subscription) return true;
    try {
        return opts.accept_subscription(uri);
    } catch (const error&) {
        return false; // a refusal with reasons; listen's acknowledgement only leaves the URI out
    }
}

void server::impl::notify_listeners(feature f) {
    std::vector<std::shared_ptr<listener>> targets;
    {
        std::lock_guard lock(listeners_mu);
        for (auto& [key, l] : listeners)
            if ((f == feature::tools && l->tools) || (f == feature::prompts && l->prompts) ||
                (f == feature::resources && l->resources))
                targets.push_back(l);
    }
    const char* method = f == feature::tools       ? "notifications/tools/list_changed"
                         : f == feature::resources ? "notifications/resources/list_changed"
                                                   : "notifications/prompts/list_changed";
    for (auto& l : targets) l->send(method, json::object());
}

void server::impl::notify_listeners_resource_updated(const std::string& uri) {
    std::vector<std::shared_ptr<listener>> targets;
    {
        std::lock_guard lock(listeners_mu);
        for (auto& [key, l] : listeners)
            if (l->resource_uris.count(uri)) targets.push_back(l);
    }
    for (auto& l : targets) l->send("notifications/resources/updated", json::object{{"uri", uri}});
}

void server::impl::end_listeners() {
    std::map<std::uint64_t, std::shared_ptr<listener>> all;
    {
        std::lock_guard lock(listeners_mu);
        all.swap(listeners);
    }
    for (auto& [key, l] : all) {
        l->cancel.remove_callback(l->cancel_registration);
        json::object meta{{std::string(subscription_key), l->subscription_id},
                          {"io.modelcontextprotocol/serverInfo", server_info_2026}};
        l->reply->resolve(json::object{{"resultType", "complete"}, {"_meta", std::move(meta)}});
    }
}

} // namespace mcp
