// mcp::client: the typed client->server calls.
#include "client/client_state.hpp"

#include <set>

namespace mcp {

std::shared_ptr<session> client::impl::live(std::string_view method) const {
    std::lock_guard lock(mu);
    if (connected && rpc && !rpc->is_closed()) return rpc;
    const char* why = !ever_connected                  ? "the client is not connected (call connect() first)"
                      : rpc && !rpc->is_closed() ? "the initialize handshake has not finished"
                                                 : "the connection to the server is closed";
    throw error(error_code::connection_closed, "cannot call " + std::string(method) + ": " + why);
}

json::value client::impl::call(std::string_view method, json::value params, const call_options& options) const {
    auto s = live(method);
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
    return s->call(std::string(method), std::move(params), std::move(o));
}

namespace {

json::value cursor_params(const std::optional<std::string>& cursor) {
    if (!cursor) return nullptr;
    return json::object{{"cursor", *cursor}};
}

// Walks nextCursor until the last page; a server that repeats a cursor would loop forever.
template <class Page, class Item>
std::vector<Item> walk(const std::function<Page(std::optional<std::string>)>& fetch,
                       std::vector<Item> Page::*items, const char* what) {
    std::vector<Item> all;
    std::set<std::string> seen;
    std::optional<std::string> cursor;
    for (;;) {
        auto page = fetch(cursor);
        for (auto& i : page.*items) all.push_back(std::move(i));
        if (!page.next_cursor) return all;
        if (!seen.insert(*page.next_cursor).second)
            throw error(error_code::internal_error, std::string("server repeated a pagination cursor while listing ") + what);
        cursor = std::move(page.next_cursor);
    }
}

} // namespace

void client::ping(call_options options) { impl_->call("ping", nullptr, options); }

list_tools_result client::list_tools(std::optional<std::string> cursor, call_options options) {
    // Taken before asking, so that a list_changed arriving meanwhile voids this page's schemas.
    const auto epoch = impl_->output_schema_epoch();
    const bool first_page = !cursor;
    auto page = from_json<list_tools_result>(impl_->call("tools/list", cursor_params(cursor), options));
    if (impl_->opts.validate_structured_content) impl_->remember_output_schemas(page.tools, first_page, epoch);
    return page;
}

std::vector<tool> client::list_all_tools(call_options options) {
    return walk<list_tools_result, tool>([&](std::optional<std::string> c) { return list_tools(std::move(c), options); },
                                         &list_tools_result::tools, "tools");
}

call_tool_result client::call_tool(const std::string& name, json::object arguments, call_options options) {
    json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    auto raw = impl_->call("tools/call", std::move(params), options);
    auto result = from_json<call_tool_result>(raw);
    impl_->check_structured_content(name, result, raw);
    return result;
}

list_resources_result client::list_resources(std::optional<std::string> cursor, call_options options) {
    return from_json<list_resources_result>(impl_->call("resources/list", cursor_params(cursor), options));
}

std::vector<resource> client::list_all_resources(call_options options) {
    return walk<list_resources_result, resource>(
        [&](std::optional<std::string> c) { return list_resources(std::move(c), options); },
        &list_resources_result::resources, "resources");
}

list_resource_templates_result client::list_resource_templates(std::optional<std::string> cursor, call_options options) {
    return from_json<list_resource_templates_result>(impl_->call("resources/templates/list", cursor_params(cursor), options));
}

std::vector<resource_template> client::list_all_resource_templates(call_options options) {
    return walk<list_resource_templates_result, resource_template>(
        [&](std::optional<std::string> c) { return list_resource_templates(std::move(c), options); },
        &list_resource_templates_result::resource_templates, "resource templates");
}

read_resource_result client::read_resource(const std::string& uri, call_options options) {
    return from_json<read_resource_result>(impl_->call("resources/read", json::object{{"uri", uri}}, options));
}

void client::subscribe(const std::string& uri, call_options options) {
    impl_->call("resources/subscribe", json::object{{"uri", uri}}, options);
}

void client::unsubscribe(const std::string& uri, call_options options) {
    impl_->call("resources/unsubscribe", json::object{{"uri", uri}}, options);
}

list_prompts_result client::list_prompts(std::optional<std::string> cursor, call_options options) {
    return from_json<list_prompts_result>(impl_->call("prompts/list", cursor_params(cursor), options));
}

std::vector<prompt> client::list_all_prompts(call_options options) {
    return walk<list_prompts_result, prompt>([&](std::optional<std::string> c) { return list_prompts(std::move(c), options); },
                                             &list_prompts_result::prompts, "prompts");
}

get_prompt_result client::get_prompt(const std::string& name, std::map<std::string, std::string> arguments,
                                     call_options options) {
    get_prompt_request req{.name = name};
    if (!arguments.empty()) req.arguments = std::move(arguments);
    return from_json<get_prompt_result>(impl_->call("prompts/get", to_json(req, protocol_version()), options));
}

complete_result client::complete(const complete_request& request, call_options options) {
    return from_json<complete_result>(impl_->call("completion/complete", to_json(request, protocol_version()), options));
}

void client::set_logging_level(logging_level level, call_options options) {
    impl_->call("logging/setLevel", json::object{{"level", to_string(level)}}, options);
}

} // namespace mcp
