// mcp::client: the subscriptions/listen stream of the stateless era (2026-07-28
// basic/patterns/subscriptions.mdx). One listen request at a time carries every notification
// the client wants: the list_changed notifications the server declares (listChanged) and the
// resources subscribe() names. The set changes -> a new stream is opened with the new filter,
// and the old one is cancelled once the new one is acknowledged (no gap). Notifications are
// matched to the current stream by _meta["io.modelcontextprotocol/subscriptionId"] (the listen
// request's id), so a late one of a replaced stream is dropped. A stream that ends without the
// client asking (the server shut down, the HTTP stream broke) is opened again with back-off;
// what changed meanwhile is unknown, so its acknowledgement voids the caches and runs the
// callbacks (client.hpp, "notification callbacks").
#include "client/client_state.hpp"

#include "session/timer_service.hpp"

namespace mcp {

namespace {

// A listen stream has no timeout of its own: it lasts until one side ends it.
constexpr std::chrono::milliseconds forever = std::chrono::hours(24 * 365);
constexpr std::chrono::milliseconds first_back_off{500};
constexpr std::chrono::milliseconds max_back_off{30000};

std::optional<jsonrpc::request_id> subscription_of(const json::object& params) {
    const auto* meta = find_object(params, "_meta");
    if (!meta) return std::nullopt;
    const auto* v = meta->if_contains(meta_subscription_id);
    if (!v) return std::nullopt;
    if (auto id = jsonrpc::read_id(*v)) return id;
    return jsonrpc::request_id(std::string("<unreadable>"));
}

// Errors after which opening the stream again may work: the stream broke, or the HTTP
// exchange failed (a restarting server). A JSON-RPC error from the server is its answer.
bool worth_retrying(const error& e) {
    return e.code() == error_code::http_error || e.code() == error_code::request_cancelled;
}

} // namespace

json::object listen_filter::to_json() const {
    json::object o;
    if (tools) o["toolsListChanged"] = true;
    if (prompts) o["promptsListChanged"] = true;
    if (resources) o["resourcesListChanged"] = true;
    if (!uris.empty()) {
        json::array a;
        for (const auto& u : uris) a.emplace_back(u);
        o["resourceSubscriptions"] = std::move(a);
    }
    return o;
}

listen_filter listen_filter::from_json(const json::object& o) {
    listen_filter f;
    f.tools = find_bool(o, "toolsListChanged").value_or(false);
    f.prompts = find_bool(o, "promptsListChanged").value_or(false);
    f.resources = find_bool(o, "resourcesListChanged").value_or(false);
    if (const auto* a = o.if_contains("resourceSubscriptions"); a && a->is_array())
        for (const auto& u : a->get_array())
            if (u.is_string()) f.uris.emplace(u.get_string());
    return f;
}

// Called with listen_mu held.
listen_filter client::impl::wanted_filter() const {
    listen_filter f;
    std::lock_guard lock(mu);
    if (!stateless || !connected || !opts.listen) return f;
    const auto& caps = init.capabilities;
    f.tools = caps.tools && caps.tools->list_changed.value_or(false);
    f.prompts = caps.prompts && caps.prompts->list_changed.value_or(false);
    f.resources = caps.resources && caps.resources->list_changed.value_or(false);
    if (caps.resources && caps.resources->subscribe.value_or(false)) f.uris = subscribed;
    return f;
}

std::shared_ptr<listen_attempt> client::impl::relisten(bool after_break) {
    std::vector<std::shared_ptr<listen_attempt>> to_cancel;
    std::shared_ptr<listen_attempt> a;
    {
        std::lock_guard lock(listen_mu);
        if (listen_timer) {
            detail::timer_service::instance().cancel(listen_timer);
            listen_timer = 0;
        }
        const auto filter = wanted_filter();
        std::shared_ptr<session> s;
        {
            std::lock_guard l(mu);
            s = rpc;
        }
        if (filter.empty() || !s) {
            // Nothing to listen for: end what is open.
            for (auto& [seq, open] : listen_attempts) to_cancel.push_back(open);
            listen_current.reset();
            listen_cv.notify_all();
        } else {
            // The newest stream (acknowledged or not) already asks for exactly this.
            std::shared_ptr<listen_attempt> newest = listen_current;
            if (!listen_attempts.empty() && (!newest || listen_attempts.rbegin()->second->seq > newest->seq))
                newest = listen_attempts.rbegin()->second;
            if (newest && !newest->finished && newest->asked == filter && !after_break) return newest;
            a = std::make_shared<listen_attempt>();
            a->seq = ++listen_seq;
            a->asked = filter;
            a->after_break = after_break;
            listen_attempts.emplace(a->seq, a);
            json::object params{{"notifications", filter.to_json()}, {"_meta", request_meta(negotiated())}};
            request_options o;
            o.timeout = forever;
            o.max_total_timeout = forever;
            o.reset_timeout_on_progress = false;
            o.cancel = a->cancel.token();
            std::weak_ptr<impl> weak = shared_from_this();
            const auto gen = connection_gen;
            // Sent under listen_mu: its acknowledgement (on the notification thread) waits until
            // the id is recorded. A session that is already closed completes it right here, on
            // this thread, which the recursive mutex allows.
            auto id = s->async_request("subscriptions/listen", std::move(params), std::move(o),
                                       [weak, a, gen](response_outcome out) {
                                           if (auto self = weak.lock())
                                               self->on_listen_done(a, gen, std::move(out));
                                       });
            if (!a->finished) a->id = id;
        }
    }
    for (auto& c : to_cancel) c->cancel.cancel("the client no longer listens");
    return a;
}

listen_filter client::impl::await_listen(const std::shared_ptr<listen_attempt>& a,
                                         std::chrono::milliseconds timeout) {
    std::unique_lock lock(listen_mu);
    std::optional<listen_filter> granted;
    std::optional<mcp::error> failure;
    auto settled = [&] {
        if (listen_current && listen_current->seq >= a->seq) {
            granted = listen_current->granted;
            return true;
        }
        if (!a->finished) return false;
        // Ended before its acknowledgement: a newer stream may still take over.
        if (!listen_attempts.empty() && listen_attempts.rbegin()->first > a->seq) return false;
        failure = a->failure.value_or(error(error_code::internal_error, "the stream ended"));
        return true;
    };
    if (!listen_cv.wait_for(lock, timeout, settled))
        throw error(error_code::request_timeout,
                    "the server did not acknowledge subscriptions/listen within " +
                        std::to_string(timeout.count()) + " ms");
    if (granted) return *granted;
    throw error(failure->code(), std::string("subscriptions/listen failed: ") + failure->what(),
                failure->data());
}

void client::impl::on_acknowledged(const json::object& params) {
    const auto id = subscription_of(params);
    if (!id) return;
    listen_filter granted;
    if (const auto* n = find_object(params, "notifications")) granted = listen_filter::from_json(*n);
    std::vector<std::shared_ptr<listen_attempt>> to_cancel;
    std::shared_ptr<listen_attempt> fresh_after_break;
    {
        std::lock_guard lock(listen_mu);
        std::shared_ptr<listen_attempt> a;
        for (auto& [seq, open] : listen_attempts)
            if (open->id && *open->id == *id) a = open;
        if (!a || a->acked) return;
        a->acked = true;
        a->acked_at = std::chrono::steady_clock::now();
        a->granted = std::move(granted);
        if (!listen_current || a->seq > listen_current->seq) {
            listen_current = a;
            // Every older stream, acknowledged or not, is superseded.
            for (auto& [seq, open] : listen_attempts)
                if (seq < a->seq) to_cancel.push_back(open);
            if (a->after_break) fresh_after_break = a;
        } else {
            to_cancel.push_back(a); // a newer stream is already current
        }
        listen_cv.notify_all();
    }
    for (auto& c : to_cancel) c->cancel.cancel("superseded by a newer subscriptions/listen");
    if (!fresh_after_break) return;
    // What changed while no stream was open is unknown: everything it covers may have.
    const auto& g = fresh_after_break->granted;
    auto run = [this](const std::string& method, const json::object& p) {
        invalidate_lists(method);
        std::vector<std::function<void(const json::object&)>> callbacks;
        {
            std::lock_guard lock(mu);
            if (auto it = notification_callbacks.find(method); it != notification_callbacks.end())
                callbacks = it->second;
        }
        for (auto& cb : callbacks) cb(p);
    };
    if (g.tools) run(tools_list_changed_method, {});
    if (g.prompts) run(prompts_list_changed_method, {});
    if (g.resources) run(resources_list_changed_method, {});
    for (const auto& uri : g.uris) run(resource_updated_method, json::object{{"uri", uri}});
}

void client::impl::on_listen_done(const std::shared_ptr<listen_attempt>& a, std::uint64_t gen,
                                  response_outcome outcome) {
    std::lock_guard lock(listen_mu);
    const bool failed = outcome.error.has_value();
    a->finished = true;
    listen_attempts.erase(a->seq);
    if (listen_current == a) listen_current.reset();
    if (failed)
        a->failure = std::move(outcome.error);
    else
        a->failure = error(error_code::connection_closed, "the server ended the subscriptions/listen stream");
    listen_cv.notify_all();
    if (gen != connection_gen || a->cancel.is_cancelled()) return; // ours: superseded, or closed
    // A newer stream is on its way: it takes over.
    if (!listen_attempts.empty() && listen_attempts.rbegin()->first > a->seq) return;
    {
        std::lock_guard l(mu);
        if (!connected || !rpc || rpc->is_closed()) return;
    }
    // Before its acknowledgement, only a broken exchange is worth another try: an error (or a
    // result) from the server is its answer to this filter.
    if (!a->acked && !(failed && worth_retrying(*a->failure))) return;
    // The server ended the stream, or it broke: open it again, with back-off (reset once a
    // stream has lasted a while, so that a server that keeps ending streams at once is not
    // asked again and again).
    if (a->acked && std::chrono::steady_clock::now() - a->acked_at > max_back_off) listen_failures = 0;
    const int n = std::min(listen_failures, 6);
    ++listen_failures;
    const auto delay = std::min(max_back_off, first_back_off * (1 << n));
    const bool after_break = a->acked || a->after_break;
    std::weak_ptr<impl> weak = shared_from_this();
    if (listen_timer) detail::timer_service::instance().cancel(listen_timer);
    listen_timer = detail::timer_service::instance().schedule(detail::timer_service::clock::now() + delay,
                                                              [weak, gen, after_break] {
                                                                  auto self = weak.lock();
                                                                  if (!self) return;
                                                                  {
                                                                      std::lock_guard l(self->listen_mu);
                                                                      if (gen != self->connection_gen) return;
                                                                      self->listen_timer = 0;
                                                                  }
                                                                  self->relisten(after_break);
                                                              });
}

bool client::impl::from_current_subscription(const json::object& params) const {
    const auto id = subscription_of(params);
    if (!id) return true;
    std::lock_guard lock(listen_mu);
    return listen_current && listen_current->id && *listen_current->id == *id;
}

void client::impl::stop_listening() {
    std::vector<std::shared_ptr<listen_attempt>> all;
    {
        std::lock_guard lock(listen_mu);
        ++connection_gen;
        if (listen_timer) detail::timer_service::instance().cancel(listen_timer);
        listen_timer = 0;
        for (auto& [seq, a] : listen_attempts) all.push_back(a);
        listen_attempts.clear();
        listen_current.reset();
        listen_failures = 0;
        subscribed.clear();
        listen_cv.notify_all();
    }
    for (auto& a : all) a->cancel.cancel("the client closed the connection");
}

} // namespace mcp
