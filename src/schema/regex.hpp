// schema/regex.hpp - regex compilation for pattern / patternProperties / format "regex".
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace mcp::schema::detail {

struct compiled_regex;

enum class regex_use {
    matching,    ///< `pattern`, `patternProperties`: back-references refused (error_backref)
    syntax_check ///< the `regex` format: compile only, never match
};

/// Compile an ECMA-262 pattern; throws std::regex_error when std::regex cannot compile it, when
/// groups nest deeper than 128 (error_complexity), or, for matching, on back-references.
std::unique_ptr<compiled_regex> compile_regex(std::string_view source, regex_use use = regex_use::matching);
/// The `regex` format: a valid ECMA-262 pattern (lookbehind accepted, undefined escapes such as
/// \a refused), as far as std::regex can tell.
bool is_valid_regex(std::string_view source);
/// UTF-8 -> UTF-32 (wchar_t is 32-bit on the platforms we build for); bad bytes pass through.
std::wstring utf8_to_wide(std::string_view s);

} // namespace mcp::schema::detail
