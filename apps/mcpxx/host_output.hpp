// Printing MCP results for people (text first, binary summarised) and as JSON.
#pragma once

#include <mcp/protocol/types.hpp>

#include <iostream>
#include <string>

namespace mcpxx_cli {

/// A content block for a person: text as is (a body: the caller passes it through
/// content_body), other kinds as one summary line, escaped (see terminal.hpp).
std::string describe(const mcp::content_block& block);
std::string describe(const mcp::resource_contents& contents);
/// `v` as JSON text in which DEL and the C1 controls are \uXXXX escapes too (to_json escapes C0):
/// the same value, with no byte a terminal acts on.
std::string terminal_safe_json(const mcp::json::value& v);
/// terminal_safe_json(v) and a newline on stdout.
void print_json(const mcp::json::value& v);
/// Left-aligned column padding (by bytes; names are ASCII in practice).
std::string pad(const std::string& s, std::size_t width);
/// "1 tool", "2 tools": a count and its noun, in the singular for one. `plural` defaults to
/// `singular` + "s".
std::string counted(std::size_t n, const std::string& singular, const std::string& plural = {});
/// A tool's result for a person: its content on stdout (on stderr, after "tool error: ", when
/// isError), or its structuredContent when it has no content; escaped unless --raw (content_body).
void print_call_result(const mcp::call_tool_result& result);
/// A prompt's description and messages ("user: ...") on stdout.
void print_prompt_result(const mcp::get_prompt_result& result);

} // namespace mcpxx_cli
