// Codec of prompts: Prompt, PromptArgument, PromptMessage, prompts/list, prompts/get.
#include "protocol/described.hpp"

namespace mcp {

MCP_WIRE_DESCRIBE(prompt_argument, "PromptArgument", (name), (title, when(wire_field::title)), (description),
                  (required))
MCP_WIRE_CODEC(prompt_argument)

MCP_WIRE_DESCRIBE(prompt, "Prompt", (name), (title, when(wire_field::title)), (description), (arguments),
                  (icons, when(wire_field::icons)), (meta, when(wire_field::entity_meta)))
MCP_WIRE_CODEC(prompt)

MCP_WIRE_DESCRIBE(prompt_message, "PromptMessage", (role), (content))
MCP_WIRE_CODEC(prompt_message)

MCP_WIRE_DESCRIBE(get_prompt_request, "GetPromptRequest.params", (name), (arguments),
                  (meta), (input_responses, when(wire_field::input_responses)),
                  (request_state, when(wire_field::input_responses)))
MCP_WIRE_CODEC(get_prompt_request)

MCP_WIRE_DESCRIBE(get_prompt_result, "GetPromptResult", (description), (messages, field::required),
                  (meta))
MCP_WIRE_RESULT_CODEC(get_prompt_result)

MCP_WIRE_DESCRIBE(list_prompts_result, "ListPromptsResult", (prompts, field::required), (next_cursor),
                  MCP_WIRE_CACHEABLE, (meta))
MCP_WIRE_RESULT_CODEC(list_prompts_result)

} // namespace mcp
