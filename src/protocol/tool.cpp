// Codec of tools: Tool, ToolAnnotations, tools/call, tools/list.
#include "protocol/described.hpp"

namespace mcp {

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
namespace wire {
task_support_level parse(const json::value& v, std::string_view path, type<task_support_level>) {
    return read_enum(v, path, {task_support_level::forbidden, task_support_level::optional,
                               task_support_level::required});
}
} // namespace wire

MCP_WIRE_DESCRIBE(tool_annotations, "ToolAnnotations", (title), (read_only_hint), (destructive_hint),
                  (idempotent_hint), (open_world_hint))
MCP_WIRE_CODEC(tool_annotations)

MCP_WIRE_DESCRIBE(tool_execution, "ToolExecution", (task_support))
MCP_WIRE_CODEC(tool_execution)

MCP_WIRE_DESCRIBE(tool, "Tool", (name), (title, when(wire_field::title)), (description), (input_schema),
                  (output_schema, when(wire_field::tool_output_schema)),
                  (annotations, when(wire_field::tool_annotations)), (icons, when(wire_field::icons)),
                  (execution, when(wire_field::tasks)),
                  (meta, when(wire_field::entity_meta)))
MCP_WIRE_CODEC(tool)

MCP_WIRE_DESCRIBE(call_tool_request, "CallToolRequest.params", (name), (arguments),
                  (meta), (task, when(wire_field::tasks)),
                  (input_responses, when(wire_field::input_responses)),
                  (request_state, when(wire_field::input_responses)))
MCP_WIRE_CODEC(call_tool_request)

MCP_WIRE_DESCRIBE(call_tool_result, "CallToolResult", (structured_content, when(wire_field::structured_content)),
                  (content, field::required), (is_error), (meta))
MCP_WIRE_FROM_JSON(call_tool_result)
/// Hand-written for the fallback of old revisions: a structured content they cannot carry is sent
/// as a text block when there is no other content.
json::object to_json(const call_tool_result& x, revision r) {
    json::object o = wire::write_struct(x, r);
    if (x.structured_content && !x.structured_content->is_object() && !defines(r, wire_field::structured_content_any))
        o.erase("structuredContent");
    if (x.structured_content && !o.contains("structuredContent") && x.content.empty())
        o["content"].as_array().push_back(
            to_json(text_content{mcp::to_json(*x.structured_content), std::nullopt, std::nullopt}, r));
    wire::put_result_type(o, r);
    return o;
}

call_tool_result error_result(std::string message) {
    call_tool_result r;
    r.content.push_back(text(std::move(message)));
    r.is_error = true;
    return r;
}

MCP_WIRE_DESCRIBE(list_tools_result, "ListToolsResult", (tools, field::required), (next_cursor),
                  MCP_WIRE_CACHEABLE, (meta))
MCP_WIRE_RESULT_CODEC(list_tools_result)

} // namespace mcp
