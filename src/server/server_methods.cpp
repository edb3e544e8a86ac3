// The MCP methods a server answers, one function each, shared by both protocol eras: the caller
// (revision, capabilities) comes from the call_state, whether a session or the request's own
// _meta filled it. Lifecycle (initialize) is in server.cpp, the stateless era's own methods
// (server/discover, subscriptions/listen) here and in listen.cpp.
#include "server/pagination.hpp"
#include "server/server_state.hpp"

namespace mcp {
namespace {

using impl = server::impl;

std::string required_string(const json::object& p, std::string_view key, std::string_view method) {
    auto v = find_string(p, key);
    if (!v)
        throw error(error_code::invalid_params, "Invalid params: " + std::string(method) + " needs \"" +
                                                    std::string(key) + "\" (a string)");
    return std::string(*v);
}

revision version_of(const detail::call_state& call) {
    return call.caller->protocol_version;
}

// One page of a registry ordered by key: the entries after the cursor's key, and the next cursor.
template <class Map, class Emit>
json::object page_of(const Map& registry, std::shared_mutex& mu, const json::object& params,
                     std::size_t page_size, const char* list_name, Emit emit) {
    auto after = detail::parse_cursor(params);
    json::array items;
    std::optional<std::string> next;
    {
        std::shared_lock lock(mu);
        auto it = after ? registry.upper_bound(*after) : registry.begin();
        for (; it != registry.end() && items.size() < page_size; ++it) items.push_back(emit(it->second));
        if (it != registry.end() && !items.empty()) next = detail::make_cursor(std::prev(it)->first);
    }
    json::object result;
    result[list_name] = std::move(items);
    if (next) result["nextCursor"] = *next;
    return result;
}

// Runs a handler body, turning a handler's non-protocol exception into -32603 with its message
// named as coming from the handler (the engine would otherwise hide it entirely). input_required
// is not a std::exception and passes through to the stateless layer.
template <class F> auto guarded(std::string_view what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const error&) {
        throw;
    } catch (const std::exception& e) {
        throw error(error_code::internal_error, std::string(what) + " failed: " + e.what());
    }
}

// ------------------------------------------------------------------------------------ tools

json::value tools_list(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto r = version_of(call);
    return page_of(srv.tools, srv.mu, rpc.params(), srv.opts.page_size, "tools",
                   [r](const impl::tool_entry& e) { return json::value(to_json(*e.definition, r)); });
}

json::value tools_call(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto& p = rpc.params();
    auto name = required_string(p, "name", "tools/call");
    std::shared_ptr<const tool_handler> handler;
    std::shared_ptr<const schema::validator> validator;
    {
        std::shared_lock lock(srv.mu);
        auto it = srv.tools.find(name);
        if (it == srv.tools.end()) throw error(error_code::invalid_params, "Unknown tool: " + name);
        handler = it->second.handler;
        validator = it->second.arguments;
    }
    static const json::value no_arguments = json::object();
    const json::value* arguments = &no_arguments;
    if (const auto* a = p.if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object())
            throw error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
        arguments = a;
    }
    const json::object* args = &arguments->get_object();
    if (validator && !validator->is_valid(*arguments)) {
        // 2025-11-25: invalid arguments are a tool execution error the model can correct.
        return to_json(error_result("Invalid arguments for tool \"" + name +
                                    "\": " + schema::summarize(validator->validate(*arguments))),
                       version_of(call));
    }
    context hctx(rpc, call);
    call_tool_result result;
    try {
        result = (*handler)(*args, hctx);
    } catch (const error&) {
        throw; // a protocol error the tool chose to raise
    } catch (const std::exception& e) {
        // A failure inside the tool is reported to the model, which may act on it.
        result = error_result(e.what());
    }
    return to_json(result, version_of(call));
}

// -------------------------------------------------------------------------------- resources

json::value resources_list(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto r = version_of(call);
    return page_of(srv.resources, srv.mu, rpc.params(), srv.opts.page_size, "resources",
                   [r](const impl::resource_entry& e) { return json::value(to_json(e.definition, r)); });
}

json::value resource_templates_list(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto r = version_of(call);
    return page_of(srv.templates, srv.mu, rpc.params(), srv.opts.page_size, "resourceTemplates",
                   [r](const impl::template_entry& e) { return json::value(to_json(e.definition, r)); });
}

json::value resources_read(impl& srv, request_context& rpc, detail::call_state& call) {
    auto uri = required_string(rpc.params(), "uri", "resources/read");
    std::shared_ptr<const resource_reader> reader;
    std::shared_ptr<const template_reader> treader;
    std::map<std::string, std::string> vars;
    {
        std::shared_lock lock(srv.mu);
        if (auto it = srv.resources.find(uri); it != srv.resources.end()) {
            reader = it->second.reader;
        } else {
            for (auto& [key, t] : srv.templates) {
                if (auto m = t.compiled.match(uri)) {
                    treader = t.reader;
                    vars = std::move(*m);
                    break;
                }
            }
        }
    }
    if (!reader && !treader) {
        // 2026-07-28 made "not found" an invalid-params error; before, MCP had its own code.
        const int code = version_of(call) >= revision::v2026_07_28 ? error_code::invalid_params
                                                                   : error_code::resource_not_found;
        throw error(code, "Resource not found: " + uri, json::object{{"uri", uri}});
    }
    context hctx(rpc, call);
    auto result = guarded("reading " + uri,
                          [&] { return reader ? (*reader)(uri, hctx) : (*treader)(uri, vars, hctx); });
    if (result.contents.empty() && version_of(call) >= revision::v2026_07_28)
        throw error(error_code::invalid_params, "Resource not found: " + uri, json::object{{"uri", uri}});
    if (!result.ttl_ms) result.ttl_ms = srv.opts.read_cache.ttl_ms;
    if (!result.cache_scope) result.cache_scope = srv.opts.read_cache.scope;
    return to_json(result, version_of(call));
}

// What one client can make the server keep is bounded (issue 17): a session's subscriptions
// live in its memory and in its session record, which every request of it may have to read.
constexpr std::size_t max_subscriptions_per_session = 1000;

json::value resources_subscribe(impl& srv, request_context& rpc, detail::call_state& call) {
    auto uri = required_string(rpc.params(), "uri", "resources/subscribe");
    if (srv.opts.accept_subscription && !srv.opts.accept_subscription(uri))
        throw error(version_of(call) >= revision::v2026_07_28 ? error_code::invalid_params
                                                              : error_code::resource_not_found,
                    "Resource not found: " + uri + " (this server does not let you subscribe to it)",
                    json::object{{"uri", uri}});
    auto& st = call.peer->internal_state();
    {
        std::lock_guard lock(st.mu);
        if (st.subscriptions.size() >= max_subscriptions_per_session && !st.subscriptions.count(uri))
            throw error(error_code::invalid_params,
                        "Invalid params: this session has " + std::to_string(max_subscriptions_per_session) +
                            " resource subscriptions (the limit); unsubscribe from one first",
                        json::object{{"uri", uri}});
        st.subscriptions.insert(std::move(uri));
    }
    publish_snapshot(st);
    return json::object();
}

json::value resources_unsubscribe(impl&, request_context& rpc, detail::call_state& call) {
    auto uri = required_string(rpc.params(), "uri", "resources/unsubscribe");
    auto& st = call.peer->internal_state();
    {
        std::lock_guard lock(st.mu);
        st.subscriptions.erase(uri);
    }
    publish_snapshot(st);
    return json::object();
}

// ---------------------------------------------------------------------------------- prompts

json::value prompts_list(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto r = version_of(call);
    return page_of(srv.prompts, srv.mu, rpc.params(), srv.opts.page_size, "prompts",
                   [r](const impl::prompt_entry& e) { return json::value(to_json(e.definition, r)); });
}

json::value prompts_get(impl& srv, request_context& rpc, detail::call_state& call) {
    const auto& p = rpc.params();
    auto name = required_string(p, "name", "prompts/get");
    std::shared_ptr<const prompt_handler> handler;
    std::vector<prompt_argument> declared;
    {
        std::shared_lock lock(srv.mu);
        auto it = srv.prompts.find(name);
        if (it == srv.prompts.end()) throw error(error_code::invalid_params, "Unknown prompt: " + name);
        handler = it->second.handler;
        declared = it->second.definition.arguments;
    }
    std::map<std::string, std::string> args;
    if (const auto* a = p.if_contains("arguments"); a && !a->is_null()) {
        if (!a->is_object())
            throw error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
        for (const auto& kv : a->get_object()) {
            if (!kv.value().is_string())
                throw error(error_code::invalid_params, "Invalid params: prompt argument '" +
                                                            std::string(kv.key()) + "' must be a string");
            args.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
        }
    }
    for (const auto& d : declared)
        if (d.required.value_or(false) && !args.count(d.name))
            throw error(error_code::invalid_params, "Invalid params: missing required argument '" + d.name +
                                                        "' for prompt '" + name + "'");
    context hctx(rpc, call);
    auto result = guarded("prompt " + name, [&] { return (*handler)(args, hctx); });
    return to_json(result, version_of(call));
}

// ------------------------------------------------------------------------------- completion

json::value completion_complete(impl& srv, request_context& rpc, detail::call_state& call) {
    auto req = from_json<complete_request>(json::value(rpc.params()));
    completion_handler completer;
    const std::string& argument = req.argument.name;
    {
        std::shared_lock lock(srv.mu);
        if (const auto* pr = std::get_if<prompt_reference>(&req.ref)) {
            auto it = srv.prompts.find(pr->name);
            if (it == srv.prompts.end())
                throw error(error_code::invalid_params, "Unknown prompt: " + pr->name);
            if (auto c = it->second.completers.find(argument); c != it->second.completers.end())
                completer = c->second;
        } else {
            const auto& uri = std::get<resource_template_reference>(req.ref).uri;
            auto it = srv.templates.find(uri);
            if (it == srv.templates.end())
                throw error(error_code::invalid_params, "Unknown resource template: " + uri);
            if (auto c = it->second.completers.find(argument); c != it->second.completers.end())
                completer = c->second;
        }
    }
    complete_result result;
    if (completer) {
        const auto context_args = req.context_arguments.value_or(std::map<std::string, std::string>{});
        result = guarded("completion",
                         [&] { return completer(req.argument.name, req.argument.value, context_args); });
    }
    // At most 100 values go on the wire; the rest is announced through total / hasMore.
    if (result.values.size() > max_completion_values) {
        if (!result.total) result.total = static_cast<std::int64_t>(result.values.size());
        result.values.resize(max_completion_values);
        result.has_more = true;
    }
    return to_json(result, version_of(call));
}

// ---------------------------------------------------------------------------------- logging

json::value logging_set_level(impl&, request_context& rpc, detail::call_state& call) {
    const auto* level = rpc.params().if_contains("level");
    if (!level) throw error(error_code::invalid_params, "Invalid params: logging/setLevel needs \"level\"");
    auto parsed = from_json<logging_level>(*level);
    auto& st = call.peer->internal_state();
    {
        std::lock_guard lock(st.mu);
        st.level = parsed;
    }
    publish_snapshot(st);
    return json::object();
}

// ----------------------------------------------------------------- server/discover (stateless)

json::value server_discover(impl& srv, request_context&, detail::call_state& call) {
    discover_result d;
    for (auto r : srv.opts.revisions) d.supported_versions.emplace_back(to_string(r));
    d.capabilities = from_json<server_capabilities>(capabilities_json(srv.declared_now(), version_of(call)));
    d.instructions = srv.opts.instructions;
    d.ttl_ms = srv.opts.list_cache.ttl_ms;
    d.cache_scope = srv.opts.list_cache.scope;
    return to_json(d, version_of(call));
}

json::value subscriptions_listen(impl& srv, request_context& rpc, detail::call_state& call) {
    return srv.listen(rpc, call);
}

constexpr impl::method_entry method_table[] = {
    {"tools/list", tools_list, true, true},
    {"tools/call", tools_call, true, true},
    {"resources/list", resources_list, true, true},
    {"resources/templates/list", resource_templates_list, true, true},
    {"resources/read", resources_read, true, true},
    {"resources/subscribe", resources_subscribe, true, false},
    {"resources/unsubscribe", resources_unsubscribe, true, false},
    {"prompts/list", prompts_list, true, true},
    {"prompts/get", prompts_get, true, true},
    {"completion/complete", completion_complete, true, true},
    {"logging/setLevel", logging_set_level, true, false},
    {"server/discover", server_discover, false, true},
    {"subscriptions/listen", subscriptions_listen, false, true},
};

} // namespace

std::span<const server::impl::method_entry> server::impl::methods() {
    return method_table;
}

const server::impl::method_entry* server::impl::find_method(std::string_view name, bool stateless) {
    for (const auto& m : method_table)
        if (m.name == name && (stateless ? m.stateless_era : m.initialize_era)) return &m;
    return nullptr;
}

const char* server::impl::capability_needed(std::string_view method) {
    if (method.rfind("tools/", 0) == 0) return "tools";
    if (method == "resources/subscribe" || method == "resources/unsubscribe") return "resources.subscribe";
    if (method.rfind("resources/", 0) == 0) return "resources";
    if (method.rfind("prompts/", 0) == 0) return "prompts";
    if (method == "logging/setLevel") return "logging";
    if (method == "completion/complete") return "completions";
    return nullptr;
}

bool server::impl::declares(const declared_features& c, std::string_view cap) {
    if (cap == "tools") return c.tools;
    if (cap == "resources") return c.resources;
    if (cap == "resources.subscribe") return c.resources && c.resources_subscribe;
    if (cap == "prompts") return c.prompts;
    if (cap == "logging") return c.logging;
    if (cap == "completions") return c.completions;
    return true;
}

} // namespace mcp
