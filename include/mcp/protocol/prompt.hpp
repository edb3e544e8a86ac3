// mcp/protocol/prompt.hpp - prompts: Prompt, PromptArgument, PromptMessage, prompts/list,
// prompts/get.
#pragma once

#include <mcp/protocol/content.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// An argument a prompt accepts (PromptArgument).
struct prompt_argument {
    std::string name;
    std::optional<std::string> title; ///< 2025-06-18+
    std::optional<std::string> description;
    std::optional<bool> required;
    bool operator==(const prompt_argument&) const = default;
};
json::object to_json(const prompt_argument& x, revision r);
template <> prompt_argument from_json<prompt_argument>(const json::value& v);

/// A prompt or prompt template the server offers (Prompt).
struct prompt {
    std::string name;
    std::optional<std::string> title; ///< 2025-06-18+
    std::optional<std::string> description;
    std::vector<prompt_argument> arguments; ///< empty = omitted
    std::vector<icon> icons;                ///< 2025-11-25+
    std::optional<json::object> meta;       ///< 2025-06-18+
    bool operator==(const prompt&) const = default;
};
json::object to_json(const prompt& x, revision r);
template <> prompt from_json<prompt>(const json::value& v);

/// One message of a prompt (PromptMessage). Content types the revision lacks are downgraded
/// as described in content.hpp.
struct prompt_message {
    mcp::role role = mcp::role::user;
    content_block content;
    bool operator==(const prompt_message&) const = default;
};
json::object to_json(const prompt_message& x, revision r);
template <> prompt_message from_json<prompt_message>(const json::value& v);

/// Params of prompts/get.
struct get_prompt_request {
    std::string name;
    std::optional<std::map<std::string, std::string>> arguments;
    std::optional<json::object> meta;
    std::optional<json::object> input_responses; ///< 2026-07-28+
    std::optional<std::string> request_state;    ///< 2026-07-28+
    bool operator==(const get_prompt_request&) const = default;
};
json::object to_json(const get_prompt_request& x, revision r);
/// Argument values must be strings (invalid_params naming the argument otherwise).
template <> get_prompt_request from_json<get_prompt_request>(const json::value& v);

/// Result of prompts/get.
struct get_prompt_result {
    std::optional<std::string> description;
    std::vector<prompt_message> messages;
    std::optional<json::object> meta;
    bool operator==(const get_prompt_result&) const = default;
};
json::object to_json(const get_prompt_result& x, revision r);
template <> get_prompt_result from_json<get_prompt_result>(const json::value& v);

/// Result of prompts/list.
struct list_prompts_result {
    std::vector<prompt> prompts;
    std::optional<std::string> next_cursor;
    std::optional<std::int64_t> ttl_ms;     ///< 2026-07-28+ (0 when unset)
    std::optional<std::string> cache_scope; ///< 2026-07-28+ ("private" when unset)
    std::optional<json::object> meta;
    bool operator==(const list_prompts_result&) const = default;
};
json::object to_json(const list_prompts_result& x, revision r);
template <> list_prompts_result from_json<list_prompts_result>(const json::value& v);

} // namespace mcp
