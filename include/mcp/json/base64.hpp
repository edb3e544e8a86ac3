// mcp/json/base64.hpp - RFC 4648 base64 (standard alphabet, padded), used for blob resources,
// image and audio content.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcp::base64 {

std::string encode(std::string_view bytes);
/// Decode strict base64 (padding required, no whitespace). nullopt on any malformed input.
std::optional<std::string> decode(std::string_view text);
/// True if `text` is well-formed base64 (what decode would accept).
bool is_valid(std::string_view text) noexcept;

} // namespace mcp::base64
