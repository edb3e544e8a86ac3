// mcp::client: the typed client->server calls, in both eras, and the listings kept by the
// server's caching hints (stateless era).
#include "client/client_state.hpp"
#include "client/listing_walk.hpp"

#include <set>

namespace mcp {

std::shared_ptr<session> client::impl::live(std::string_view method) const {
    std::lock_guard lock(mu);
    if (connected && rpc && !rpc->is_closed()) return rpc;
    const char* why = !ever_connected            ? "the client is not connected (call connect() first)"
                      : rpc && !rpc->is_closed() ? "the initialize handshake has not finished"
                                                 : "the connection to the server is closed";
    throw error(error_code::connection_closed, "cannot call " + std::string(method) + ": " + why);
}

namespace {

// An expired session (HTTP 404 for the Mcp-Session-Id; see http::client_transport): whether
// the error says so, and whether the request itself was refused (so it never ran).
struct session_expiry {
    bool expired = false;
    bool refused = false;
};
session_expiry expiry_of(const error& e) {
    session_expiry x;
    if (e.code() != error_code::http_error) return x;
    const auto* d = e.data().if_object();
    if (!d) return x;
    const auto* expired = d->if_contains("sessionExpired");
    x.expired = expired && expired->is_bool() && expired->get_bool();
    const auto* refused = d->if_contains("requestRefused");
    x.refused = x.expired && refused && refused->is_bool() && refused->get_bool();
    return x;
}

} // namespace

json::value client::impl::call(std::string_view method, json::value params, const call_options& options) {
    auto s = live(method);
    if (is_stateless()) return call_stateless(s, method, std::move(params), options);
    if (!options.meta.empty()) {
        if (!params.is_object()) params = json::object();
        auto& meta = params.get_object()["_meta"];
        if (!meta.is_object()) meta = json::object();
        for (const auto& kv : options.meta) meta.get_object()[kv.key()] = kv.value();
    }
    request_options o;
    o.timeout = options.timeout.value_or(opts.timeout);
    o.on_progress = options.on_progress;
    o.cancel = options.cancel;
    std::uint64_t generation;
    {
        std::lock_guard lock(mu);
        generation = session_generation;
    }
    json::value again = params; // for the one retry in a new session
    try {
        return s->call(std::string(method), std::move(params), o);
    } catch (const error& e) {
        const auto x = expiry_of(e);
        if (!x.expired) throw;
        // The server forgot the session: start a new one (2025-11-25 basic/transports.mdx,
        // "Session Management": the client MUST send a new InitializeRequest without a session
        // id). The request goes again only if it never ran.
        renew_session(s, generation, e);
        if (!x.refused) throw;
    }
    return s->call(std::string(method), std::move(again), o);
}

void client::impl::renew_session(const std::shared_ptr<session>& s, std::uint64_t seen, const error& cause) {
    std::vector<std::function<void()>> callbacks;
    {
        std::lock_guard renewing(renew_mu);
        {
            std::lock_guard lock(mu);
            if (session_generation != seen) return; // another call started the new session
        }
        std::set<std::string> uris;
        std::optional<logging_level> level;
        revision asked;
        {
            std::lock_guard lock(mu);
            uris = session_subscriptions;
            level = log_level;
            asked = initialize_asked;
        }
        try {
            initialize(s, asked);
        } catch (const error& e) {
            // No new session: this connection is of no more use. Closing it tells the owner
            // (on_close), which may connect afresh.
            s->close();
            {
                std::lock_guard lock(mu);
                connected = false;
            }
            throw error(cause.code(),
                        std::string(cause.what()) + "; starting a new session failed: " + e.what(),
                        cause.data());
        }
        // Restore what the old session held on the server for this client. A refusal now is
        // not the caller's failure: the subscription stays asked for, and the next renewal
        // tries again.
        request_options o;
        o.timeout = opts.timeout;
        if (level) {
            try {
                s->call("logging/setLevel", json::object{{"level", to_string(*level)}}, o);
            } catch (const error&) {
            }
        }
        for (const auto& uri : uris) {
            try {
                s->call("resources/subscribe", json::object{{"uri", uri}}, o);
            } catch (const error&) {
            }
        }
        // The server may be another one now: nothing listed before holds.
        forget_output_schemas();
        std::lock_guard lock(mu);
        ++session_generation;
        list_cache.clear();
        ++list_epoch;
        callbacks = renewed_callbacks;
    }
    for (auto& cb : callbacks) cb();
}

namespace {

json::value cursor_params(const std::optional<std::string>& cursor) {
    if (!cursor) return nullptr;
    return json::object{{"cursor", *cursor}};
}

// Walks nextCursor until the last page, within client_options::listing (listing_walk): a
// server that repeats a cursor, or sends a fresh one with every page, would go on forever.
// `fetch` asks for one page and hands its result to the walk before converting it.
template <class Page, class Item>
std::vector<Item> walk(const std::function<Page(std::optional<std::string>, detail::listing_walk&)>& fetch,
                       std::vector<Item> Page::*items, detail::listing_walk& bounds) {
    std::vector<Item> all;
    std::optional<std::string> cursor;
    for (;;) {
        auto page = fetch(cursor, bounds);
        for (auto& i : page.*items) all.push_back(std::move(i));
        if (!page.next_cursor) return all;
        cursor = std::move(page.next_cursor);
    }
}

// Every page of a list, or (stateless era, client_options::use_cache_hints) the previous
// complete listing while each of its pages is fresh by its ttlMs. A list_changed notification
// bumps list_epoch and erases the entry: a walk that began before it keeps nothing.
template <class Page, class Item>
std::vector<Item> walk_cached(client::impl& d, const char* method,
                              const std::function<Page(std::optional<std::string>, detail::listing_walk&)>& fetch,
                              std::vector<Item> Page::*items, const char* what, const char* items_key) {
    using clock = std::chrono::steady_clock;
    std::uint64_t epoch = 0;
    const bool use_cache = d.opts.use_cache_hints && d.is_stateless();
    if (use_cache) {
        std::lock_guard lock(d.mu);
        if (auto it = d.list_cache.find(method); it != d.list_cache.end()) {
            if (clock::now() < it->second.fresh_until)
                return std::any_cast<const std::vector<Item>&>(it->second.items);
            d.list_cache.erase(it);
        }
        epoch = d.list_epoch;
    }
    std::optional<clock::time_point> fresh_until;
    bool cacheable = use_cache;
    detail::listing_walk bounds(d.opts.listing, what, items_key);
    auto all = walk<Page, Item>(
        [&](std::optional<std::string> c, detail::listing_walk& b) {
            auto page = fetch(std::move(c), b);
            // A ttlMs that is absent, zero or negative: stale at once (server/utilities/caching.mdx).
            const auto ttl = page.ttl_ms.value_or(0);
            if (ttl <= 0) cacheable = false;
            const auto until = clock::now() + std::chrono::milliseconds(ttl);
            if (!fresh_until || until < *fresh_until) fresh_until = until;
            return page;
        },
        items, bounds);
    if (cacheable && fresh_until) {
        std::lock_guard lock(d.mu);
        if (d.list_epoch == epoch)
            d.list_cache[method] = cached_listing{.items = all, .fresh_until = *fresh_until};
    }
    return all;
}

/// One page of `method`, counted by `bounds` (when walking) before it is converted.
template <class Page>
Page fetch_page(client::impl& d, const char* method, const std::optional<std::string>& cursor,
                const call_options& options, detail::listing_walk* bounds) {
    auto result = d.call(method, cursor_params(cursor), options);
    if (bounds) bounds->count(result);
    return from_json<Page>(result);
}

} // namespace

void client::impl::invalidate_lists(std::string_view notification) {
    const bool tools = notification == tools_list_changed_method;
    const bool prompts = notification == prompts_list_changed_method;
    const bool resources = notification == resources_list_changed_method;
    if (!tools && !prompts && !resources) return;
    if (tools) forget_output_schemas();
    std::lock_guard lock(mu);
    ++list_epoch;
    if (tools) list_cache.erase("tools/list");
    if (prompts) list_cache.erase("prompts/list");
    if (resources) {
        list_cache.erase("resources/list");
        list_cache.erase("resources/templates/list");
    }
}

void client::ping(call_options options) {
    // The stateless era has no ping; server/discover is the cheapest request every server of
    // that era answers.
    impl_->call(impl_->is_stateless() ? "server/discover" : "ping", nullptr, options);
}

list_tools_result client::impl::list_tools_page(const std::optional<std::string>& cursor,
                                                const call_options& options, detail::listing_walk* bounds) {
    // Taken before asking, so that a list_changed arriving meanwhile voids this page's schemas.
    const auto epoch = output_schema_epoch();
    auto page = fetch_page<list_tools_result>(*this, "tools/list", cursor, options, bounds);
    if (opts.validate_structured_content) remember_output_schemas(page.tools, !cursor, epoch);
    return page;
}

list_tools_result client::list_tools(std::optional<std::string> cursor, call_options options) {
    return impl_->list_tools_page(cursor, options, nullptr);
}

std::vector<tool> client::list_all_tools(call_options options) {
    return walk_cached<list_tools_result, tool>(
        *impl_, "tools/list",
        [&](std::optional<std::string> c, detail::listing_walk& b) { return impl_->list_tools_page(c, options, &b); },
        &list_tools_result::tools, "tools", "tools");
}

call_tool_result client::call_tool(const std::string& name, json::object arguments, call_options options) {
    json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    auto raw = impl_->call("tools/call", std::move(params), options);
    auto result = from_json<call_tool_result>(raw);
    impl_->check_structured_content(name, result, raw);
    return result;
}

list_resources_result client::list_resources(std::optional<std::string> cursor, call_options options) {
    return fetch_page<list_resources_result>(*impl_, "resources/list", cursor, options, nullptr);
}

std::vector<resource> client::list_all_resources(call_options options) {
    return walk_cached<list_resources_result, resource>(
        *impl_, "resources/list",
        [&](std::optional<std::string> c, detail::listing_walk& b) {
            return fetch_page<list_resources_result>(*impl_, "resources/list", c, options, &b);
        },
        &list_resources_result::resources, "resources", "resources");
}

list_resource_templates_result client::list_resource_templates(std::optional<std::string> cursor,
                                                               call_options options) {
    return fetch_page<list_resource_templates_result>(*impl_, "resources/templates/list", cursor, options, nullptr);
}

std::vector<resource_template> client::list_all_resource_templates(call_options options) {
    return walk_cached<list_resource_templates_result, resource_template>(
        *impl_, "resources/templates/list",
        [&](std::optional<std::string> c, detail::listing_walk& b) {
            return fetch_page<list_resource_templates_result>(*impl_, "resources/templates/list", c, options, &b);
        },
        &list_resource_templates_result::resource_templates, "resource templates", "resourceTemplates");
}

read_resource_result client::read_resource(const std::string& uri, call_options options) {
    return from_json<read_resource_result>(
        impl_->call("resources/read", json::object{{"uri", uri}}, options));
}

void client::subscribe(const std::string& uri, call_options options) {
    if (!impl_->is_stateless()) {
        impl_->call("resources/subscribe", json::object{{"uri", uri}}, options);
        std::lock_guard lock(impl_->mu);
        impl_->session_subscriptions.insert(uri); // subscribed again in a new session
        return;
    }
    // 2026-07-28: resources/subscribe is gone; the URI joins the listen stream's filter.
    auto& d = *impl_;
    d.live("resources/subscribe");
    {
        std::lock_guard lock(d.mu);
        const auto& caps = d.init.capabilities;
        if (!caps.resources || !caps.resources->subscribe.value_or(false))
            throw error(error_code::method_not_found,
                        "cannot subscribe to " + uri +
                            ": the server does not offer resource subscriptions "
                            "(its capabilities have no resources.subscribe)");
    }
    if (!d.opts.listen)
        throw error(error_code::invalid_request,
                    "cannot subscribe to " + uri +
                        ": client_options::listen is off, and protocol revision 2026-07-28 "
                        "delivers resource updates only on a subscriptions/listen stream");
    bool added = false;
    {
        std::lock_guard lock(d.listen_mu);
        added = d.subscribed.insert(uri).second;
    }
    auto forget = [&] {
        if (!added) return;
        {
            std::lock_guard lock(d.listen_mu);
            d.subscribed.erase(uri);
        }
        d.relisten(false);
    };
    listen_filter granted;
    try {
        auto a = d.relisten(false);
        if (!a) throw error(error_code::internal_error, "no subscriptions/listen stream could be opened");
        granted = d.await_listen(a, options.timeout.value_or(d.opts.timeout));
    } catch (...) {
        forget();
        throw;
    }
    if (!granted.uris.count(uri)) {
        forget();
        throw error(error_code::invalid_params,
                    "the server did not agree to send updates of " + uri +
                        " (its acknowledgement of subscriptions/listen leaves the resource out)");
    }
}

void client::unsubscribe(const std::string& uri, call_options options) {
    if (!impl_->is_stateless()) {
        {
            std::lock_guard lock(impl_->mu);
            impl_->session_subscriptions.erase(uri);
        }
        impl_->call("resources/unsubscribe", json::object{{"uri", uri}}, options);
        return;
    }
    auto& d = *impl_;
    d.live("resources/unsubscribe");
    {
        std::lock_guard lock(d.listen_mu);
        if (!d.subscribed.erase(uri)) return;
    }
    if (auto a = d.relisten(false)) d.await_listen(a, options.timeout.value_or(d.opts.timeout));
}

list_prompts_result client::list_prompts(std::optional<std::string> cursor, call_options options) {
    return fetch_page<list_prompts_result>(*impl_, "prompts/list", cursor, options, nullptr);
}

std::vector<prompt> client::list_all_prompts(call_options options) {
    return walk_cached<list_prompts_result, prompt>(
        *impl_, "prompts/list",
        [&](std::optional<std::string> c, detail::listing_walk& b) {
            return fetch_page<list_prompts_result>(*impl_, "prompts/list", c, options, &b);
        },
        &list_prompts_result::prompts, "prompts", "prompts");
}

get_prompt_result client::get_prompt(const std::string& name, std::map<std::string, std::string> arguments,
                                     call_options options) {
    get_prompt_request req{.name = name};
    if (!arguments.empty()) req.arguments = std::move(arguments);
    return from_json<get_prompt_result>(
        impl_->call("prompts/get", to_json(req, protocol_version()), options));
}

complete_result client::complete(const complete_request& request, call_options options) {
    return from_json<complete_result>(
        impl_->call("completion/complete", to_json(request, protocol_version()), options));
}

void client::set_logging_level(logging_level level, call_options options) {
    if (impl_->is_stateless()) {
        impl_->live("logging/setLevel");
        std::lock_guard lock(impl_->mu);
        impl_->log_level = level; // sent in the _meta of every later request
        return;
    }
    impl_->call("logging/setLevel", json::object{{"level", to_string(level)}}, options);
    std::lock_guard lock(impl_->mu);
    impl_->log_level = level; // set again in a new session
}

} // namespace mcp
