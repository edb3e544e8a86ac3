#include "shell_words.hpp"
#include "read_file.hpp"

namespace mcpxx_cli {
namespace {

bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

} // namespace

std::vector<shell_word> split_words(std::string_view line, bool lenient) {
    std::vector<shell_word> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && blank(line[i])) ++i;
        if (i == line.size()) break;
        shell_word w;
        w.begin = i;
        char quote = 0;
        for (; i < line.size(); ++i) {
            const char c = line[i];
            if (quote == '\'') {
                if (c == '\'')
                    quote = 0;
                else
                    w.text += c;
            } else if (c == '\\' && i + 1 < line.size() &&
                       (quote == 0 || line[i + 1] == '"' || line[i + 1] == '\\')) {
                w.text += line[++i];
            } else if (quote == '"') {
                if (c == '"')
                    quote = 0;
                else
                    w.text += c;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (blank(c)) {
                break;
            } else {
                w.text += c;
            }
        }
        if (quote && !lenient)
            throw input_error(std::string("unterminated ") + (quote == '"' ? "\"" : "'") + " quote");
        w.end = i;
        words.push_back(std::move(w));
    }
    return words;
}

std::string quote_word(std::string_view word) {
    const bool plain = !word.empty() && word.find_first_of(" \t\r\n\"'\\") == std::string_view::npos;
    if (plain) return std::string(word);
    std::string out = "\"";
    for (const char c : word) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::optional<std::pair<std::string, std::string>> split_key_value(std::string_view word) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    return std::pair{std::string(word.substr(0, eq)), std::string(word.substr(eq + 1))};
}

} // namespace mcpxx_cli
