// The handlers of the server features: tools, resources, prompts, completion, logging.
#include "server/pagination.hpp"
#include "server/server_state.hpp"

namespace mcp {
namespace {

revision version_of(const server_session::state& st) {
    std::lock_guard lock(st.mu);
    return st.version;
}

std::string required_string(const json::object& p, std::string_view key, std::string_view method) {
    auto v = find_string(p, key);
    if (!v)
        throw error(error_code::invalid_params, "Invalid params: " + std::string(method) + " needs \"" +
                                                    std::string(key) + "\" (a string)");
    return std::string(*v);
}

// One page of a registry ordered by key: the entries after the cursor's key, and the next cursor.
template <class Map, class Emit>
json::object page_of(const Map& registry, std::shared_mutex& mu, const json::object& params, std::size_t page_size,
                     const char* list_name, Emit emit) {
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
// named as coming from the handler (the engine would otherwise hide it entirely).
template <class F>
auto guarded(std::string_view what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const error&) {
        throw;
    } catch (const std::exception& e) {
        throw error(error_code::internal_error, std::string(what) + " failed: " + e.what());
    }
}

} // namespace

void server::impl::install_feature_handlers(const std::shared_ptr<server_session>& ss) {
    auto& rpc = ss->rpc();
    auto self = shared_from_this();
    std::weak_ptr<impl> weak_server = self;
    std::weak_ptr<server_session> weak_session = ss;
    auto st = ss->state_ptr();

    // Every handler needs the server and the peer alive; this gives both or throws.
    auto lock_both = [weak_server, weak_session]() {
        auto srv = weak_server.lock();
        auto peer = weak_session.lock();
        if (!srv || !peer) throw error(error_code::internal_error, "server is shutting down");
        return std::make_pair(std::move(srv), std::move(peer));
    };

    // ---------------------------------------------------------------- tools
    rpc.set_request_handler("tools/list", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto r = version_of(*st);
        return page_of(srv->tools, srv->mu, ctx.params(), srv->opts.page_size, "tools",
                       [r](const tool_entry& e) { return json::value(to_json(e.definition, r)); });
    });

    rpc.set_request_handler("tools/call", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto& p = ctx.params();
        auto name = required_string(p, "name", "tools/call");
        std::shared_ptr<const tool_handler> handler;
        std::shared_ptr<const schema::validator> validator;
        {
            std::shared_lock lock(srv->mu);
            auto it = srv->tools.find(name);
            if (it == srv->tools.end()) throw error(error_code::invalid_params, "Unknown tool: " + name);
            handler = it->second.handler;
            validator = it->second.arguments;
        }
        static const json::value no_arguments = json::object();
        const json::value* arguments = &no_arguments;
        if (const auto* a = p.if_contains("arguments"); a && !a->is_null()) {
            if (!a->is_object()) throw error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
            arguments = a;
        }
        const json::object* args = &arguments->get_object();
        if (validator && !validator->is_valid(*arguments)) {
            // 2025-11-25: invalid arguments are a tool execution error the model can correct.
            return to_json(error_result("Invalid arguments for tool \"" + name +
                                        "\": " + schema::summarize(validator->validate(*arguments))),
                           version_of(*st));
        }
        context hctx(ctx, peer);
        call_tool_result result;
        try {
            result = (*handler)(*args, hctx);
        } catch (const error&) {
            throw; // a protocol error the tool chose to raise
        } catch (const std::exception& e) {
            // A failure inside the tool is reported to the model, which may act on it.
            result = error_result(e.what());
        }
        return to_json(result, version_of(*st));
    });

    // ---------------------------------------------------------------- resources
    rpc.set_request_handler("resources/list", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto r = version_of(*st);
        return page_of(srv->resources, srv->mu, ctx.params(), srv->opts.page_size, "resources",
                       [r](const resource_entry& e) { return json::value(to_json(e.definition, r)); });
    });

    rpc.set_request_handler("resources/templates/list", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto r = version_of(*st);
        return page_of(srv->templates, srv->mu, ctx.params(), srv->opts.page_size, "resourceTemplates",
                       [r](const template_entry& e) { return json::value(to_json(e.definition, r)); });
    });

    rpc.set_request_handler("resources/read", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        auto uri = required_string(ctx.params(), "uri", "resources/read");
        std::shared_ptr<const resource_reader> reader;
        std::shared_ptr<const template_reader> treader;
        std::map<std::string, std::string> vars;
        {
            std::shared_lock lock(srv->mu);
            if (auto it = srv->resources.find(uri); it != srv->resources.end()) {
                reader = it->second.reader;
            } else {
                for (auto& [key, t] : srv->templates) {
                    if (auto m = t.compiled.match(uri)) {
                        treader = t.reader;
                        vars = std::move(*m);
                        break;
                    }
                }
            }
        }
        if (!reader && !treader)
            throw error(error_code::resource_not_found, "Resource not found: " + uri, json::object{{"uri", uri}});
        context hctx(ctx, peer);
        auto result = guarded("reading " + uri, [&] { return reader ? (*reader)(uri, hctx) : (*treader)(uri, vars, hctx); });
        return to_json(result, version_of(*st));
    });

    rpc.set_request_handler("resources/subscribe", [st](request_context& ctx) -> json::value {
        auto uri = required_string(ctx.params(), "uri", "resources/subscribe");
        std::lock_guard lock(st->mu);
        st->subscriptions.insert(std::move(uri));
        return json::object();
    });

    rpc.set_request_handler("resources/unsubscribe", [st](request_context& ctx) -> json::value {
        auto uri = required_string(ctx.params(), "uri", "resources/unsubscribe");
        std::lock_guard lock(st->mu);
        st->subscriptions.erase(uri);
        return json::object();
    });

    // ---------------------------------------------------------------- prompts
    rpc.set_request_handler("prompts/list", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto r = version_of(*st);
        return page_of(srv->prompts, srv->mu, ctx.params(), srv->opts.page_size, "prompts",
                       [r](const prompt_entry& e) { return json::value(to_json(e.definition, r)); });
    });

    rpc.set_request_handler("prompts/get", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        const auto& p = ctx.params();
        auto name = required_string(p, "name", "prompts/get");
        std::shared_ptr<const prompt_handler> handler;
        std::vector<prompt_argument> declared;
        {
            std::shared_lock lock(srv->mu);
            auto it = srv->prompts.find(name);
            if (it == srv->prompts.end()) throw error(error_code::invalid_params, "Unknown prompt: " + name);
            handler = it->second.handler;
            declared = it->second.definition.arguments;
        }
        std::map<std::string, std::string> args;
        if (const auto* a = p.if_contains("arguments"); a && !a->is_null()) {
            if (!a->is_object()) throw error(error_code::invalid_params, "Invalid params: \"arguments\" must be an object");
            for (const auto& kv : a->get_object()) {
                if (!kv.value().is_string())
                    throw error(error_code::invalid_params, "Invalid params: prompt argument '" +
                                                                std::string(kv.key()) + "' must be a string");
                args.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
            }
        }
        for (const auto& d : declared)
            if (d.required.value_or(false) && !args.count(d.name))
                throw error(error_code::invalid_params,
                            "Invalid params: missing required argument '" + d.name + "' for prompt '" + name + "'");
        context hctx(ctx, peer);
        auto result = guarded("prompt " + name, [&] { return (*handler)(args, hctx); });
        return to_json(result, version_of(*st));
    });

    // ---------------------------------------------------------------- completion
    rpc.set_request_handler("completion/complete", [lock_both, st](request_context& ctx) -> json::value {
        auto [srv, peer] = lock_both();
        auto req = from_json<complete_request>(json::value(ctx.params()));
        completion_handler completer;
        const std::string& argument = req.argument.name;
        {
            std::shared_lock lock(srv->mu);
            if (const auto* pr = std::get_if<prompt_reference>(&req.ref)) {
                auto it = srv->prompts.find(pr->name);
                if (it == srv->prompts.end()) throw error(error_code::invalid_params, "Unknown prompt: " + pr->name);
                if (auto c = it->second.completers.find(argument); c != it->second.completers.end())
                    completer = c->second;
            } else {
                const auto& uri = std::get<resource_template_reference>(req.ref).uri;
                auto it = srv->templates.find(uri);
                if (it == srv->templates.end())
                    throw error(error_code::invalid_params, "Unknown resource template: " + uri);
                if (auto c = it->second.completers.find(argument); c != it->second.completers.end())
                    completer = c->second;
            }
        }
        complete_result result;
        if (completer) {
            const auto context_args = req.context_arguments.value_or(std::map<std::string, std::string>{});
            result = guarded("completion", [&] { return completer(req.argument.name, req.argument.value, context_args); });
        }
        // At most 100 values go on the wire; the rest is announced through total / hasMore.
        if (result.values.size() > max_completion_values) {
            if (!result.total) result.total = static_cast<std::int64_t>(result.values.size());
            result.values.resize(max_completion_values);
            result.has_more = true;
        }
        return to_json(result, version_of(*st));
    });

    // ---------------------------------------------------------------- logging
    rpc.set_request_handler("logging/setLevel", [st](request_context& ctx) -> json::value {
        const auto* level = ctx.params().if_contains("level");
        if (!level) throw error(error_code::invalid_params, "Invalid params: logging/setLevel needs \"level\"");
        auto parsed = from_json<logging_level>(*level);
        std::lock_guard lock(st->mu);
        st->level = parsed;
        return json::object();
    });
}

} // namespace mcp
