// schema/regex.cpp - `pattern` / `patternProperties` on top of std::regex (ECMAScript grammar).
//
// Why two automata: libstdc++'s std::regex works on code units. For ASCII input the byte regex is
// exact and fast; for other input we match a UTF-32 copy with std::wregex so that '.', classes
// and quantifiers see code points (what ECMA-262 with the "u" flag does).
//
// Why __polynomial: libstdc++'s default (backtracking) executor recurses once per input
// character and overflows the stack on long strings; the polynomial (Thompson) executor's
// recursion is bounded by the pattern size. It cannot do back-references, so those patterns use
// the backtracking executor on bounded input only.
#include "schema/node.hpp"
#include "schema/regex.hpp"

#include <locale>

static_assert(sizeof(wchar_t) == 4, "UTF-32 matching needs a 32-bit wchar_t");

namespace mcp::schema::detail {
namespace {

constexpr std::size_t backtracking_input_limit = 2048;

bool is_ascii(std::string_view s) noexcept {
    for (unsigned char c : s)
        if (c >= 0x80) return false;
    return true;
}

// std::regex has no \p{...}. Rewrite the common general categories to POSIX classes, which the
// wide automaton evaluates with the C.UTF-8 locale's Unicode tables (iswalpha etc.).
// Returns false when the pattern had no property escape (then nothing is imbued, keeping \w
// and friends ASCII as ECMA-262 wants).
bool translate_properties(std::string& pattern) {
    bool changed = false;
    std::string out;
    bool in_class = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size() && (pattern[i + 1] == 'p' || pattern[i + 1] == 'P') &&
            i + 2 < pattern.size() && pattern[i + 2] == '{') {
            auto close = pattern.find('}', i + 3);
            if (close == std::string::npos) throw std::regex_error(std::regex_constants::error_brace);
            std::string name = pattern.substr(i + 3, close - i - 3);
            const char* cls = nullptr;
            if (name == "L" || name == "Letter" || name == "Alphabetic") cls = "alpha";
            else if (name == "Lu" || name == "Uppercase_Letter" || name == "Uppercase") cls = "upper";
            else if (name == "Ll" || name == "Lowercase_Letter" || name == "Lowercase") cls = "lower";
            else if (name == "N" || name == "Nd" || name == "Number" || name == "Decimal_Number" || name == "digit") cls = "digit";
            else if (name == "P" || name == "Punctuation") cls = "punct";
            else if (name == "White_Space" || name == "space") cls = "space";
            else throw std::regex_error(std::regex_constants::error_escape);
            bool negate = pattern[i + 1] == 'P';
            if (in_class) {
                if (negate) throw std::regex_error(std::regex_constants::error_escape);
                out += std::string("[:") + cls + ":]";
            } else {
                out += std::string(negate ? "[^[:" : "[[:") + cls + ":]]";
            }
            i = close;
            changed = true;
            continue;
        }
        if (c == '\\' && i + 1 < pattern.size()) {
            out += c;
            out += pattern[++i];
            continue;
        }
        if (c == '[' && !in_class) in_class = true;
        else if (c == ']' && in_class) in_class = false;
        out += c;
    }
    if (changed) pattern = std::move(out);
    return changed;
}

} // namespace

std::wstring utf8_to_wide(std::string_view s) {
    std::wstring out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        auto c = static_cast<unsigned char>(s[i]);
        std::uint32_t cp = c;
        std::size_t len = 1;
        if (c >= 0xF0 && i + 3 < s.size()) {
            cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
                 ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) | (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
            len = 4;
        } else if (c >= 0xE0 && i + 2 < s.size()) {
            cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            len = 3;
        } else if (c >= 0xC0 && i + 1 < s.size()) {
            cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
            len = 2;
        }
        out.push_back(static_cast<wchar_t>(cp));
        i += len;
    }
    return out;
}

std::unique_ptr<compiled_regex> compile_regex(std::string_view source) {
    auto r = std::make_unique<compiled_regex>();
    r->source = std::string(source);
    const auto base = std::regex_constants::ECMAScript;
    std::string translated(source);
    if (translate_properties(translated)) {
        static const std::locale unicode_locale = [] {
            try {
                return std::locale("C.UTF-8");
            } catch (const std::runtime_error&) {
                return std::locale::classic();
            }
        }();
        r->wide.imbue(unicode_locale);
    }
    std::wstring wide_src = utf8_to_wide(translated);
    try {
        r->wide.assign(wide_src, base | std::regex_constants::__polynomial);
    } catch (const std::regex_error&) {
        // Either a back-reference (only the backtracking executor has them) or invalid.
        r->wide.assign(wide_src, base); // throws std::regex_error when truly invalid
        r->has_backrefs = true;
    }
    try {
        auto flags = r->has_backrefs ? base : (base | std::regex_constants::__polynomial);
        r->narrow.assign(translated, flags);
        r->narrow_ok = true;
    } catch (const std::regex_error&) {
        r->narrow_ok = false; // e.g. \u escapes beyond a char: use the wide automaton for everything
    }
    return r;
}

bool compiled_regex::search(std::string_view s) const {
    if (has_backrefs && s.size() > backtracking_input_limit) return false;
    try {
        if (narrow_ok && is_ascii(s)) return std::regex_search(s.begin(), s.end(), narrow);
        std::wstring w = utf8_to_wide(s);
        return std::regex_search(w, wide);
    } catch (const std::regex_error&) {
        return false; // error_complexity / error_stack: treat as no match rather than crash
    }
}

bool is_valid_regex(std::string_view source) {
    try {
        (void)compile_regex(source);
        return true;
    } catch (const std::regex_error&) {
        return false;
    }
}

} // namespace mcp::schema::detail
