// mcp/host/catalogue.hpp - one list of tools from many servers, under names model APIs accept.
//
// Model APIs want tool names of [A-Za-z0-9_-], at most 64 characters (OpenAI, Anthropic and
// Gemini agree on that much), and two servers may well both have a `search` tool. A tool is
// therefore named `server__tool`, every other character becomes `_`, a name too long is cut and
// ends in a hash of the original pair, and a name already taken (two pairs that sanitise to the
// same string) gets `_2`, `_3`, ... Pairs are named in sorted order, so the names do not depend
// on the order servers happened to connect in.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::host {

inline constexpr std::size_t max_tool_name_length = 64;

/// `s` with every character outside [A-Za-z0-9_-] replaced by `_` ("_" for an empty string).
std::string sanitize_name(std::string_view s);

/// Qualified names for (server, tool) pairs, in the order given. Unique, sanitised, <= 64 chars.
std::vector<std::string>
qualify_tool_names(const std::vector<std::pair<std::string, std::string>>& server_tool);

} // namespace mcp::host
