// Codec of tools: Tool, ToolAnnotations, tools/call, tools/list.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

std::string_view to_string(task_support_level t) noexcept {
    switch (t) {
    case task_support_level::forbidden:
        return "forbidden";
    case task_support_level::optional:
        return "optional";
    case task_support_level::required:
        return "required";
    }
    return "";
}

json::object to_json(const tool_annotations& x, revision) {
    json::object o;
    put(o, "title", x.title);
    put(o, "readOnlyHint", x.read_only_hint);
    put(o, "destructiveHint", x.destructive_hint);
    put(o, "idempotentHint", x.idempotent_hint);
    put(o, "openWorldHint", x.open_world_hint);
    return o;
}

namespace {
tool_annotations read_tool_annotations(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    tool_annotations x;
    x.title = opt_string(o, "title", path);
    x.read_only_hint = opt_bool(o, "readOnlyHint", path);
    x.destructive_hint = opt_bool(o, "destructiveHint", path);
    x.idempotent_hint = opt_bool(o, "idempotentHint", path);
    x.open_world_hint = opt_bool(o, "openWorldHint", path);
    return x;
}
} // namespace

template <> tool_annotations from_json<tool_annotations>(const json::value& v) {
    return read_tool_annotations(v, "ToolAnnotations");
}

json::object to_json(const tool& x, revision r) {
    json::object o;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    put(o, "description", x.description);
    o["inputSchema"] = x.input_schema;
    if (defines(r, wire_field::tool_output_schema)) put(o, "outputSchema", x.output_schema);
    if (x.annotations && defines(r, wire_field::tool_annotations))
        o["annotations"] = to_json(*x.annotations, r);
    put_icons(o, x.icons, r);
    if (x.execution && defines(r, wire_field::tasks)) {
        json::object e;
        if (x.execution->task_support) e["taskSupport"] = to_string(*x.execution->task_support);
        o["execution"] = std::move(e);
    }
    put_meta(o, x.meta, defines(r, wire_field::entity_meta));
    return o;
}

tool wire::read_tool(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    tool x;
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.input_schema = req_object(o, "inputSchema", path);
    x.output_schema = opt_object(o, "outputSchema", path);
    if (const auto* a = member(o, "annotations"))
        x.annotations = read_tool_annotations(*a, join(path, "annotations"));
    x.icons = read_icons(o, path);
    if (auto e = opt_object(o, "execution", path)) {
        auto epath = join(path, "execution");
        tool_execution ex;
        if (auto t = opt_string(*e, "taskSupport", epath)) {
            if (*t == "forbidden")
                ex.task_support = task_support_level::forbidden;
            else if (*t == "optional")
                ex.task_support = task_support_level::optional;
            else if (*t == "required")
                ex.task_support = task_support_level::required;
            else
                fail(join(epath, "taskSupport"), "must be \"forbidden\", \"optional\" or \"required\"");
        }
        x.execution = ex;
    }
    x.meta = meta(o, path);
    return x;
}
template <> tool from_json<tool>(const json::value& v) {
    return read_tool(v, "Tool");
}

json::object to_json(const call_tool_request& x, revision r) {
    json::object o;
    o["name"] = x.name;
    put(o, "arguments", x.arguments);
    put_meta(o, x.meta, true);
    if (defines(r, wire_field::tasks)) put(o, "task", x.task);
    if (defines(r, wire_field::input_responses)) {
        put(o, "inputResponses", x.input_responses);
        put(o, "requestState", x.request_state);
    }
    return o;
}
template <> call_tool_request from_json<call_tool_request>(const json::value& v) {
    constexpr std::string_view path = "CallToolRequest.params";
    const auto& o = object(v, path);
    call_tool_request x;
    x.name = req_string(o, "name", path);
    x.arguments = opt_object(o, "arguments", path);
    x.meta = meta(o, path);
    x.task = opt_object(o, "task", path);
    x.input_responses = opt_object(o, "inputResponses", path);
    x.request_state = opt_string(o, "requestState", path);
    return x;
}

json::object to_json(const call_tool_result& x, revision r) {
    json::object o;
    json::array content = to_json(x.content, r);
    if (x.structured_content) {
        bool sendable = defines(r, wire_field::structured_content) &&
                        (x.structured_content->is_object() || defines(r, wire_field::structured_content_any));
        if (sendable)
            o["structuredContent"] = *x.structured_content;
        else if (x.content.empty())
            content.push_back(
                to_json(text_content{mcp::to_json(*x.structured_content), std::nullopt, std::nullopt}, r));
    }
    o["content"] = std::move(content);
    put(o, "isError", x.is_error);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> call_tool_result from_json<call_tool_result>(const json::value& v) {
    constexpr std::string_view path = "CallToolResult";
    const auto& o = object(v, path);
    call_tool_result x;
    x.content = read_content_blocks(req_array(o, "content", path), join(path, "content"));
    if (const auto* s = member(o, "structuredContent")) x.structured_content = *s;
    x.is_error = opt_bool(o, "isError", path);
    x.meta = meta(o, path);
    return x;
}

call_tool_result error_result(std::string message) {
    call_tool_result r;
    r.content.push_back(text(std::move(message)));
    r.is_error = true;
    return r;
}

json::object to_json(const list_tools_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.tools.size());
    for (const auto& t : x.tools) a.push_back(to_json(t, r));
    o["tools"] = std::move(a);
    put(o, "nextCursor", x.next_cursor);
    put_cacheable(o, x.ttl_ms, x.cache_scope, r);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> list_tools_result from_json<list_tools_result>(const json::value& v) {
    constexpr std::string_view path = "ListToolsResult";
    const auto& o = object(v, path);
    list_tools_result x;
    x.tools = each<tool>(req_array(o, "tools", path), join(path, "tools"), read_tool);
    x.next_cursor = opt_string(o, "nextCursor", path);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
