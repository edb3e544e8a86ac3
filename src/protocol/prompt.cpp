// Codec of prompts: Prompt, PromptArgument, PromptMessage, prompts/list, prompts/get.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

json::object to_json(const prompt_argument& x, revision r) {
    json::object o;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    put(o, "description", x.description);
    put(o, "required", x.required);
    return o;
}
namespace {
prompt_argument read_argument(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    prompt_argument x;
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.required = opt_bool(o, "required", path);
    return x;
}
prompt read_prompt(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    prompt x;
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    if (const auto* a = opt_array(o, "arguments", path))
        x.arguments = each<prompt_argument>(*a, join(path, "arguments"), read_argument);
    x.icons = read_icons(o, path);
    x.meta = meta(o, path);
    return x;
}
prompt_message read_message(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    prompt_message x;
    const auto* r = member(o, "role");
    if (!r) fail(join(path, "role"), "is required");
    x.role = read_role(*r, join(path, "role"));
    const auto* c = member(o, "content");
    if (!c) fail(join(path, "content"), "is required");
    x.content = read_content_block(*c, join(path, "content"));
    return x;
}
} // namespace
template <> prompt_argument from_json<prompt_argument>(const json::value& v) {
    return read_argument(v, "PromptArgument");
}

json::object to_json(const prompt& x, revision r) {
    json::object o;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    put(o, "description", x.description);
    if (!x.arguments.empty()) {
        json::array a;
        a.reserve(x.arguments.size());
        for (const auto& arg : x.arguments) a.push_back(to_json(arg, r));
        o["arguments"] = std::move(a);
    }
    put_icons(o, x.icons, r);
    put_meta(o, x.meta, defines(r, wire_field::entity_meta));
    return o;
}
template <> prompt from_json<prompt>(const json::value& v) {
    return read_prompt(v, "Prompt");
}

json::object to_json(const prompt_message& x, revision r) {
    json::object o;
    o["role"] = to_string(x.role);
    o["content"] = to_json(x.content, r);
    return o;
}
template <> prompt_message from_json<prompt_message>(const json::value& v) {
    return read_message(v, "PromptMessage");
}

json::object to_json(const get_prompt_request& x, revision r) {
    json::object o;
    o["name"] = x.name;
    if (x.arguments) {
        json::object a;
        for (const auto& [k, val] : *x.arguments) a[k] = val;
        o["arguments"] = std::move(a);
    }
    put_meta(o, x.meta, true);
    if (defines(r, wire_field::input_responses)) {
        put(o, "inputResponses", x.input_responses);
        put(o, "requestState", x.request_state);
    }
    return o;
}
template <> get_prompt_request from_json<get_prompt_request>(const json::value& v) {
    constexpr std::string_view path = "GetPromptRequest.params";
    const auto& o = object(v, path);
    get_prompt_request x;
    x.name = req_string(o, "name", path);
    if (auto a = opt_object(o, "arguments", path)) x.arguments = string_map(*a, join(path, "arguments"));
    x.meta = meta(o, path);
    x.input_responses = opt_object(o, "inputResponses", path);
    x.request_state = opt_string(o, "requestState", path);
    return x;
}

json::object to_json(const get_prompt_result& x, revision r) {
    json::object o;
    put(o, "description", x.description);
    json::array a;
    a.reserve(x.messages.size());
    for (const auto& m : x.messages) a.push_back(to_json(m, r));
    o["messages"] = std::move(a);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> get_prompt_result from_json<get_prompt_result>(const json::value& v) {
    constexpr std::string_view path = "GetPromptResult";
    const auto& o = object(v, path);
    get_prompt_result x;
    x.description = opt_string(o, "description", path);
    x.messages = each<prompt_message>(req_array(o, "messages", path), join(path, "messages"), read_message);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const list_prompts_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.prompts.size());
    for (const auto& p : x.prompts) a.push_back(to_json(p, r));
    o["prompts"] = std::move(a);
    put(o, "nextCursor", x.next_cursor);
    put_cacheable(o, x.ttl_ms, x.cache_scope, r);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> list_prompts_result from_json<list_prompts_result>(const json::value& v) {
    constexpr std::string_view path = "ListPromptsResult";
    const auto& o = object(v, path);
    list_prompts_result x;
    x.prompts = each<prompt>(req_array(o, "prompts", path), join(path, "prompts"), read_prompt);
    x.next_cursor = opt_string(o, "nextCursor", path);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
