// The gateway's catalogue: what the manager's servers offer, under the gateway's names,
// published into its mcp::server (only the differences, in one update so that clients get one
// list_changed per kind), and the URI mapping between the two.
#include "host/gateway_state.hpp"
#include "protocol/header_annotations.hpp"

#include <mcp/host/catalogue.hpp>

namespace mcp::host {

namespace {

template <class Map, class Item>
bool same(const Map& published, const std::string& name, const gateway::route& to, const Item& definition) {
    auto it = published.find(name);
    return it != published.end() && it->second.to.server == to.server && it->second.to.name == to.name &&
           it->second.definition == definition;
}

} // namespace

std::string gateway::impl::outer_uri(const std::string& server, const std::string& uri) const {
    if (!opts.qualify_names) return uri;
    std::shared_lock lock(routes_mu);
    auto it = label_of.find(server);
    const std::string& label = it == label_of.end() ? server : it->second;
    return opts.uri_scheme + "://" + label + "/" + uri;
}

std::optional<gateway::route> gateway::impl::inner_uri(const std::string& outer) const {
    std::shared_lock lock(routes_mu);
    if (auto it = resources.find(outer); it != resources.end()) return it->second.to;
    if (opts.qualify_names) {
        // <scheme>://<label>/<the server's URI, verbatim>
        const std::string prefix = opts.uri_scheme + "://";
        if (outer.rfind(prefix, 0) != 0) return std::nullopt;
        const auto slash = outer.find('/', prefix.size());
        if (slash == std::string::npos) return std::nullopt;
        auto s = server_of.find(outer.substr(prefix.size(), slash - prefix.size()));
        if (s == server_of.end()) return std::nullopt;
        return route{s->second, outer.substr(slash + 1)};
    }
    for (const auto& [key, t] : templates)
        if (t.compiled && t.compiled->match(outer)) return route{t.to.server, outer};
    return std::nullopt;
}

void gateway::impl::sync() {
    std::lock_guard sync_lock(sync_mu);
    {
        std::lock_guard lock(sweeper_mu);
        if (closing) return;
    }
    const auto servers = mgr->servers(); // in the order they were added

    // ---- what the servers offer now, under the gateway's names ----
    std::map<std::string, published_tool> new_tools;
    std::map<std::string, published_prompt> new_prompts;
    std::map<std::string, published_resource> new_resources;
    std::map<std::string, published_template> new_templates;
    std::map<std::string, std::string> new_labels, new_servers;
    std::vector<json::object> hidden;
    auto hide = [&](const char* kind, const std::string& name, const std::string& server,
                    const std::string& kept) {
        hidden.push_back(json::object{
            {"event", "hidden"}, {"kind", kind}, {"name", name}, {"server", server}, {"kept", kept}});
    };

    // URI labels: the sanitised server name, made unique. Over every server, up or down, in
    // the order added: a label never moves (servers are added, never removed).
    for (const auto& s : servers) {
        std::string label = sanitize_name(s.name);
        for (int n = 2; new_servers.count(label); ++n)
            label = sanitize_name(s.name) + "_" + std::to_string(n);
        new_labels[s.name] = label;
        new_servers[label] = s.name;
    }
    auto outer = [&](const std::string& server, const std::string& uri) {
        return opts.qualify_names ? opts.uri_scheme + "://" + new_labels[server] + "/" + uri : uri;
    };

    for (auto& t : mgr->tools()) {
        std::string name = opts.qualify_names ? t.name : t.tool.name;
        if (new_tools.count(name)) {
            hide("tool", name, t.server, new_tools[name].to.server);
            continue;
        }
        // A tool whose x-mcp-header annotations are invalid is an invalid definition: an HTTP
        // client would drop it, and the gateway's server refuses to register it.
        if (auto headers = mcp::detail::read_header_annotations(t.tool.input_schema);
            !headers.error.empty()) {
            hide("tool", name, t.server, "(invalid x-mcp-header annotation: " + headers.error + ")");
            continue;
        }
        route to{t.server, t.tool.name};
        t.tool.name = name;
        new_tools.emplace(name, published_tool{std::move(to), std::move(t.tool)});
    }

    std::vector<std::pair<std::string, std::string>> prompt_pairs;
    std::vector<prompt> prompt_defs;
    std::map<std::string, bool> completes;
    for (const auto& s : servers) {
        if (s.state != server_state::ready) continue;
        try {
            completes[s.name] = mgr->client(s.name)->server().capabilities.completions;
        } catch (const std::exception&) {
            continue; // went away since: its lists are empty anyway
        }
        for (auto& p : mgr->prompts(s.name)) {
            prompt_pairs.emplace_back(s.name, p.name);
            prompt_defs.push_back(std::move(p));
        }
        for (auto& r : mgr->resources(s.name)) {
            auto uri = outer(s.name, r.uri);
            if (new_resources.count(uri)) {
                hide("resource", uri, s.name, new_resources[uri].to.server);
                continue;
            }
            route to{s.name, r.uri};
            r.uri = uri;
            new_resources.emplace(uri, published_resource{std::move(to), std::move(r)});
        }
        for (auto& t : mgr->resource_templates(s.name)) {
            auto text = outer(s.name, t.uri_template);
            if (new_templates.count(text)) {
                hide("resourceTemplate", text, s.name, new_templates[text].to.server);
                continue;
            }
            route to{s.name, t.uri_template};
            t.uri_template = text;
            published_template p{std::move(to), std::move(t), uri_template::try_parse(text),
                                 completes[s.name]};
            if (!p.compiled) {
                hide("resourceTemplate", text, s.name, "(not a valid URI template)");
                continue;
            }
            new_templates.emplace(text, std::move(p));
        }
    }
    // Qualified names as the manager gives tools theirs (catalogue_names): kept for good.
    const auto qualified_prompts =
        opts.qualify_names ? prompt_names.assign(prompt_pairs) : std::vector<std::string>{};
    for (std::size_t i = 0; i < prompt_defs.size(); ++i) {
        const auto& server = prompt_pairs[i].first;
        std::string name = opts.qualify_names ? qualified_prompts[i] : prompt_defs[i].name;
        if (new_prompts.count(name)) {
            hide("prompt", name, server, new_prompts[name].to.server);
            continue;
        }
        route to{server, prompt_defs[i].name};
        prompt_defs[i].name = name;
        new_prompts.emplace(name,
                            published_prompt{std::move(to), std::move(prompt_defs[i]), completes[server]});
    }

    // ---- publish the differences ----
    std::weak_ptr<impl> weak = weak_from_this();
    std::size_t changed = 0;
    srv->update([&] {
        for (const auto& [name, t] : tools)
            if (!new_tools.count(name)) changed += srv->remove_tool(name);
        for (const auto& [name, t] : new_tools) {
            if (same(tools, name, t.to, t.definition)) continue;
            ++changed;
            srv->add_tool(t.definition,
                          [weak, to = t.to](const json::object& args, context& ctx) -> call_tool_result {
                              auto self = weak.lock();
                              if (!self) throw error(error_code::internal_error, "the gateway is closing");
                              return self->call_tool(to, args, ctx);
                          });
        }
        for (const auto& [name, p] : prompts)
            if (!new_prompts.count(name)) changed += srv->remove_prompt(name);
        for (const auto& [name, p] : new_prompts) {
            if (same(prompts, name, p.to, p.definition) && prompts.at(name).completions == p.completions)
                continue;
            ++changed;
            std::map<std::string, completion_handler> completers;
            if (p.completions)
                for (const auto& a : p.definition.arguments)
                    completers[a.name] = [weak,
                                          to = p.to](const std::string& arg, const std::string& value,
                                                     const std::map<std::string, std::string>& context_args) {
                        auto self = weak.lock();
                        if (!self) return complete_result{};
                        return self->complete(to.server, prompt_reference{to.name, std::nullopt}, arg, value,
                                              context_args);
                    };
            srv->add_prompt(
                p.definition,
                [weak, to = p.to](const std::map<std::string, std::string>& args,
                                  context& ctx) -> get_prompt_result {
                    auto self = weak.lock();
                    if (!self) throw error(error_code::internal_error, "the gateway is closing");
                    return self->get_prompt(to, args, ctx);
                },
                std::move(completers));
        }
        for (const auto& [uri, r] : resources)
            if (!new_resources.count(uri)) changed += srv->remove_resource(uri);
        for (const auto& [uri, r] : new_resources) {
            if (same(resources, uri, r.to, r.definition)) continue;
            ++changed;
            srv->add_resource(r.definition,
                              [weak, to = r.to](const std::string&, context& ctx) -> read_resource_result {
                                  auto self = weak.lock();
                                  if (!self)
                                      throw error(error_code::internal_error, "the gateway is closing");
                                  return self->read_resource(to.server, to.name, ctx);
                              });
        }
        for (const auto& [text, t] : templates)
            if (!new_templates.count(text)) changed += srv->remove_resource_template(text);
        for (const auto& [text, t] : new_templates) {
            if (same(templates, text, t.to, t.definition) && templates.at(text).completions == t.completions)
                continue;
            ++changed;
            std::map<std::string, completion_handler> completers;
            if (t.completions)
                for (const auto& v : t.compiled->variable_names())
                    completers[v] = [weak,
                                     to = t.to](const std::string& arg, const std::string& value,
                                                const std::map<std::string, std::string>& context_args) {
                        auto self = weak.lock();
                        if (!self) return complete_result{};
                        return self->complete(to.server, resource_template_reference{to.name}, arg, value,
                                              context_args);
                    };
            const bool qualified = opts.qualify_names;
            const std::string prefix = outer(t.to.server, "");
            srv->add_resource_template(
                t.definition,
                [weak, server = t.to.server, qualified, prefix](const std::string& uri,
                                                                const std::map<std::string, std::string>&,
                                                                context& ctx) -> read_resource_result {
                    auto self = weak.lock();
                    if (!self) throw error(error_code::internal_error, "the gateway is closing");
                    // The published template is the server's behind a literal prefix: what
                    // follows the prefix is the URI the server's own template expands to. (A
                    // match may also spell the prefix percent-encoded: not ours to decode.)
                    if (qualified && uri.rfind(prefix, 0) != 0)
                        throw error(error_code::invalid_params,
                                    "Invalid params: the URI must start with " + prefix);
                    return self->read_resource(server, qualified ? uri.substr(prefix.size()) : uri, ctx);
                },
                std::move(completers));
        }
    });

    {
        std::unique_lock lock(routes_mu);
        tools = std::move(new_tools);
        prompts = std::move(new_prompts);
        resources = std::move(new_resources);
        templates = std::move(new_templates);
        label_of = std::move(new_labels);
        server_of = std::move(new_servers);
    }
    for (auto& h : hidden) event(std::move(h));
    if (changed) {
        std::shared_lock lock(routes_mu);
        event(json::object{{"event", "catalogue"},
                           {"tools", tools.size()},
                           {"prompts", prompts.size()},
                           {"resources", resources.size()},
                           {"resourceTemplates", templates.size()}});
    }
}

// --------------------------------------------------------------------------- URIs in results

namespace {

template <class F> void rewrite_contents(resource_contents& c, F&& outer) {
    std::visit([&](auto& x) { x.uri = outer(x.uri); }, c);
}

template <class F> void rewrite_block(content_block& b, F&& outer) {
    if (auto* l = std::get_if<resource_link>(&b)) l->uri = outer(l->uri);
    if (auto* e = std::get_if<embedded_resource>(&b)) rewrite_contents(e->resource, outer);
}

} // namespace

void gateway::impl::rewrite(const std::string& server, call_tool_result& r) const {
    for (auto& b : r.content) rewrite_block(b, [&](const std::string& u) { return outer_uri(server, u); });
}

void gateway::impl::rewrite(const std::string& server, get_prompt_result& r) const {
    for (auto& m : r.messages)
        rewrite_block(m.content, [&](const std::string& u) { return outer_uri(server, u); });
}

void gateway::impl::rewrite(const std::string& server, read_resource_result& r) const {
    for (auto& c : r.contents)
        rewrite_contents(c, [&](const std::string& u) { return outer_uri(server, u); });
}

} // namespace mcp::host
