// schema/regex.hpp - regex compilation for pattern / patternProperties / format "regex".
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace mcp::schema::detail {

struct compiled_regex;

/// Compile an ECMA-262 pattern; throws std::regex_error when std::regex cannot compile it.
std::unique_ptr<compiled_regex> compile_regex(std::string_view source);
/// True when compile_regex would succeed.
bool is_valid_regex(std::string_view source);
/// UTF-8 -> UTF-32 (wchar_t is 32-bit on the platforms we build for); bad bytes pass through.
std::wstring utf8_to_wide(std::string_view s);

} // namespace mcp::schema::detail
