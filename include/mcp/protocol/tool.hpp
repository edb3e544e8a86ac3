// mcp/protocol/tool.hpp - tools: definitions (Tool, ToolAnnotations), tools/list, tools/call.
#pragma once

#include <mcp/protocol/content.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Hints describing a tool's behaviour (ToolAnnotations, 2025-03-26+). Untrusted on the client.
struct tool_annotations {
    std::optional<std::string> title;
    std::optional<bool> read_only_hint;   ///< default false
    std::optional<bool> destructive_hint; ///< default true (meaningful when not read-only)
    std::optional<bool> idempotent_hint;  ///< default false
    std::optional<bool> open_world_hint;  ///< default true
    bool operator==(const tool_annotations&) const = default;
};
json::object to_json(const tool_annotations& x, revision r);
template <> tool_annotations from_json<tool_annotations>(const json::value& v);

/// Whether a tool can run as a task (ToolExecution.taskSupport, 2025-11-25 only).
enum class task_support_level { forbidden, optional, required };
std::string_view to_string(task_support_level t) noexcept;

struct tool_execution {
    std::optional<task_support_level> task_support;
    bool operator==(const tool_execution&) const = default;
};
json::object to_json(const tool_execution& x, revision r);
template <> tool_execution from_json<tool_execution>(const json::value& v);

/// A tool the client can call (Tool).
struct tool {
    std::string name;
    std::optional<std::string> title; ///< 2025-06-18+
    std::optional<std::string> description;
    /// JSON Schema of the arguments (an object schema; never null on the wire).
    json::object input_schema{{"type", "object"}};
    std::optional<json::object> output_schema;   ///< 2025-06-18+
    std::optional<tool_annotations> annotations; ///< 2025-03-26+
    std::vector<icon> icons;                     ///< 2025-11-25+
    std::optional<tool_execution> execution;     ///< 2025-11-25 only
    std::optional<json::object> meta;            ///< 2025-06-18+
    bool operator==(const tool&) const = default;
};
json::object to_json(const tool& x, revision r);
template <> tool from_json<tool>(const json::value& v);

/// Params of tools/call.
struct call_tool_request {
    std::string name;
    std::optional<json::object> arguments;
    std::optional<json::object> meta;
    std::optional<json::object> task;            ///< TaskMetadata {ttl}, 2025-11-25 only
    std::optional<json::object> input_responses; ///< MRTR retry, 2026-07-28+
    std::optional<std::string> request_state;    ///< MRTR retry, 2026-07-28+
    bool operator==(const call_tool_request&) const = default;
};
json::object to_json(const call_tool_request& x, revision r);
template <> call_tool_request from_json<call_tool_request>(const json::value& v);

/// Result of tools/call (CallToolResult). Before 2025-06-18 `structured_content` is not sent;
/// if `content` is empty then, a text block with the serialized structured content is sent instead.
/// Before 2026-07-28 a structured content that is not a JSON object is sent only as that text.
struct call_tool_result {
    std::vector<content_block> content;
    std::optional<json::value> structured_content; ///< 2025-06-18+
    std::optional<bool> is_error;
    std::optional<json::object> meta;
    bool operator==(const call_tool_result&) const = default;
};
json::object to_json(const call_tool_result& x, revision r);
template <> call_tool_result from_json<call_tool_result>(const json::value& v);

/// A tool execution error the model can read: {content: [text(message)], isError: true}.
call_tool_result error_result(std::string message);

/// Result of tools/list.
struct list_tools_result {
    std::vector<tool> tools;
    std::optional<std::string> next_cursor;
    std::optional<std::int64_t> ttl_ms;     ///< 2026-07-28+ (required there; 0 when unset)
    std::optional<std::string> cache_scope; ///< "public" | "private", 2026-07-28+ ("private" when unset)
    std::optional<json::object> meta;
    bool operator==(const list_tools_result&) const = default;
};
json::object to_json(const list_tools_result& x, revision r);
template <> list_tools_result from_json<list_tools_result>(const json::value& v);

} // namespace mcp
