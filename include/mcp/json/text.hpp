// mcp/json/text.hpp - text a peer wrote, made safe to store in JSON or to show to a person.
//
// Anything a server or client sends (a tool name, an error message, a line on a child's
// stderr, a tool's output) may hold invalid UTF-8 or control characters: a carriage return that
// rewrites a log line, ESC sequences that move a terminal's cursor or change its title, bidi
// overrides that make text read differently than it is. These functions repair and escape it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mcp {

/// At most `max` bytes of `bytes` as valid UTF-8: cut at a character boundary, invalid
/// sequences replaced by U+FFFD (a body may be anything; a JSON string must be UTF-8).
std::string utf8_prefix(std::string_view bytes, std::size_t max);

/// `text` made safe for one line of a log or a terminal: valid UTF-8 (see utf8_prefix) with
/// every control character - C0 (CR, LF, ESC...), DEL, C1, the line and paragraph separators
/// U+2028/U+2029 and the bidirectional overrides, embeddings, isolates and marks - written as an
/// escape ("\r", "\n", "\t", "\x1b", "\u2028"). The result is one line. Idempotent.
std::string printable(std::string_view text);

/// As printable, but line feeds and tabs stay as they are: multi-line text (a tool's output,
/// a resource, a prompt message) shown on a terminal keeps its layout and nothing else.
std::string printable_lines(std::string_view text);

} // namespace mcp
