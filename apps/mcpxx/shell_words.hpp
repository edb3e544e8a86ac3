// Splitting a shell line into words: blanks separate words, "double" and 'single' quotes keep
// blanks (and each other) inside a word, a backslash outside single quotes takes the next
// character as it is. Used to run a line and, leniently, to complete one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpxx_cli {

struct shell_word {
    std::string text;      ///< with quotes and escapes removed
    std::size_t begin = 0; ///< where it starts in the line (at its first quote, if quoted)
    std::size_t end = 0;   ///< one past its last character in the line
};

/// The words of `line`. Throws input_error on an unterminated quote, unless `lenient` (for
/// completion, where the last word is still being typed).
std::vector<shell_word> split_words(std::string_view line, bool lenient = false);

/// `word` as it must be typed to come back as one word: as is when it has nothing special,
/// else in double quotes with ", \ escaped.
std::string quote_word(std::string_view word);

/// "key=value" -> {key, value}; nullopt without '=' or with an empty key.
std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view word);

} // namespace mcpxx_cli
