// Shell-style name patterns for search_files.
//
//   *      any run of characters except '/'
//   **     any run of characters, '/' included ("**/" also matches nothing: "a/**/b" matches "a/b")
//   ?      one character except '/'
//   [abc] [a-z] [!x] [^x]   one character of (or not of) a set, never '/'
//   \c     the character c itself
// Matching is linear in the text for each pattern element (no backtracking blow-up on
// patterns such as "*a*a*a*a*b"). Bytes are compared as bytes; case folding is ASCII only.
#pragma once

#include <string_view>

namespace mcp::files {

/// Whether `pattern` uses any of * ? [ (otherwise search_files treats it as a substring).
bool is_glob(std::string_view pattern);

/// Whether the whole of `text` matches `pattern`.
bool glob_match(std::string_view pattern, std::string_view text, bool case_insensitive = false);

} // namespace mcp::files
