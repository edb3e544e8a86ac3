// mcp/protocol/sampling.hpp - sampling/createMessage: the server asks the client's model.
//
// Before 2025-11-25: `tools` and `toolChoice` are not sent, tool_use/tool_result blocks are sent
// as text (content.hpp), and a message with several blocks is sent as one block: the texts of all
// blocks joined by "\n" when every block is (or became) text, else the first block.
#pragma once

#include <mcp/protocol/content.hpp>
#include <mcp/protocol/tool.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A hint for model selection (ModelHint).
struct model_hint {
    std::optional<std::string> name;
    bool operator==(const model_hint&) const = default;
};
json::object to_json(const model_hint& x, revision r);
template <> model_hint from_json<model_hint>(const json::value& v);

/// The server's model preferences (ModelPreferences); priorities are 0..1.
struct model_preferences {
    std::vector<model_hint> hints;
    std::optional<double> cost_priority;
    std::optional<double> speed_priority;
    std::optional<double> intelligence_priority;
    bool operator==(const model_preferences&) const = default;
};
json::object to_json(const model_preferences& x, revision r);
template <> model_preferences from_json<model_preferences>(const json::value& v);

enum class include_context { none, this_server, all_servers };
std::string_view to_string(include_context c) noexcept;

enum class tool_choice_mode { auto_, required, none };
std::string_view to_string(tool_choice_mode m) noexcept;

/// How the model may use tools (ToolChoice, 2025-11-25+).
struct tool_choice {
    std::optional<tool_choice_mode> mode;
    bool operator==(const tool_choice&) const = default;
};
json::object to_json(const tool_choice& x, revision r);
template <> tool_choice from_json<tool_choice>(const json::value& v);

/// A message of a sampling conversation (SamplingMessage). One block is sent as an object,
/// several as an array (2025-11-25+).
struct sampling_message {
    mcp::role role = mcp::role::user;
    std::vector<sampling_content> content;
    std::optional<json::object> meta; ///< 2025-11-25+
    bool operator==(const sampling_message&) const = default;
};
json::object to_json(const sampling_message& x, revision r);
template <> sampling_message from_json<sampling_message>(const json::value& v);

/// Params of sampling/createMessage.
struct create_message_request {
    std::vector<sampling_message> messages;
    std::optional<mcp::model_preferences> model_preferences;
    std::optional<std::string> system_prompt;
    std::optional<mcp::include_context> include_context;
    std::optional<double> temperature;
    std::int64_t max_tokens = 0;
    std::optional<std::vector<std::string>> stop_sequences;
    std::optional<json::object> metadata;
    std::vector<tool> tools;                     ///< 2025-11-25+; empty = omitted
    std::optional<mcp::tool_choice> tool_choice; ///< 2025-11-25+
    std::optional<json::object> meta;            ///< not in 2026-07-28 (embedded input request)
    bool operator==(const create_message_request&) const = default;
};
json::object to_json(const create_message_request& x, revision r);
template <> create_message_request from_json<create_message_request>(const json::value& v);

/// Result of sampling/createMessage.
struct create_message_result {
    mcp::role role = mcp::role::assistant;
    std::vector<sampling_content> content; ///< one block is sent as an object
    std::string model;
    std::optional<std::string> stop_reason; ///< "endTurn", "stopSequence", "maxTokens", "toolUse", ...
    std::optional<json::object> meta;
    bool operator==(const create_message_result&) const = default;
};
json::object to_json(const create_message_result& x, revision r);
template <> create_message_result from_json<create_message_result>(const json::value& v);

} // namespace mcp
