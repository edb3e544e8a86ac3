// schema/regex.cpp - `pattern` / `patternProperties` on top of std::regex (ECMAScript grammar).
//
// Simple patterns (most of them) never reach std::regex: simple_regex.cpp matches them in linear
// time without allocating. For the others, why two automata: libstdc++'s std::regex works on
// code units. For ASCII input the byte regex is exact and fast; for other input we match a UTF-32
// copy with std::wregex so that '.', classes and quantifiers see code points (what ECMA-262 with
// the "u" flag does).
//
// Why __polynomial: libstdc++'s default (backtracking) executor recurses once per input
// character and overflows the stack on long strings, and takes exponential time on patterns such
// as ^(a|a?)+\1$ (12 characters of input: 2 s; 14: 36 s). The polynomial (Thompson) executor
// runs in O(input x pattern) with recursion bounded by the pattern size. It cannot do
// back-references, so a `pattern` with back-references is refused at compile time; the `regex`
// format check, which only compiles, still accepts them.
//
// Compiling recurses once per group nesting level (50,000 nested groups overflow the stack), so
// nesting is capped at max_group_depth.
#include "schema/regex.hpp"
#include "schema/node.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <locale>
#include <optional>
#include <vector>

static_assert(sizeof(wchar_t) == 4, "UTF-32 matching needs a 32-bit wchar_t");

namespace mcp::schema::detail {
namespace {

constexpr int max_group_depth = 128;

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
            if (name == "L" || name == "Letter" || name == "Alphabetic")
                cls = "alpha";
            else if (name == "Lu" || name == "Uppercase_Letter" || name == "Uppercase")
                cls = "upper";
            else if (name == "Ll" || name == "Lowercase_Letter" || name == "Lowercase")
                cls = "lower";
            else if (name == "N" || name == "Nd" || name == "Number" || name == "Decimal_Number" ||
                     name == "digit")
                cls = "digit";
            else if (name == "P" || name == "Punctuation")
                cls = "punct";
            else if (name == "White_Space" || name == "space")
                cls = "space";
            else
                throw std::regex_error(std::regex_constants::error_escape);
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
        if (c == '[' && !in_class)
            in_class = true;
        else if (c == ']' && in_class)
            in_class = false;
        out += c;
    }
    if (changed) pattern = std::move(out);
    return changed;
}

// ECMA-262 fixes what \d \w \s and '.' mean ([0-9], [A-Za-z0-9_], the Unicode white space and
// line terminators, anything but a line terminator) whatever the locale; std::wregex asks the
// locale (and lets '.' match U+2028). Spell them out as code point ranges in the wide pattern.
// The byte pattern needs none of this: it only ever sees ASCII input, where the meanings agree.
struct class_escape {
    wchar_t letter;
    const wchar_t* ranges;  // the set, as the inside of a bracket expression
    const wchar_t* negated; // its complement, same form (used inside a bracket)
};

// The complements end at U+10FFFF: utf8_to_wide never produces more.
constexpr class_escape class_escapes[] = {
    {L'd', L"0-9", L"\\u0000-\\u002F\\u003A-\U0010FFFF"},
    {L'w', L"A-Za-z0-9_", L"\\u0000-\\u002F\\u003A-\\u0040\\u005B-\\u005E\\u0060\\u007B-\U0010FFFF"},
    {L's', L"\\u0009-\\u000D\\u0020\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF",
     L"\\u0000-\\u0008\\u000E-\\u001F\\u0021-\\u009F\\u00A1-\\u167F\\u1681-\\u1FFF\\u200B-\\u2027"
     L"\\u202A-\\u202E\\u2030-\\u205E\\u2060-\\u2FFF\\u3001-\\uFEFE\\uFF00-\U0010FFFF"},
};

void spell_out_classes(std::wstring& pattern) {
    std::wstring out;
    out.reserve(pattern.size() * 2);
    bool in_class = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const wchar_t c = pattern[i];
        if (c == L'\\' && i + 1 < pattern.size()) {
            const wchar_t e = pattern[++i];
            const class_escape* found = nullptr;
            for (const auto& ce : class_escapes)
                if (e == ce.letter || e == ce.letter - (L'a' - L'A')) found = &ce;
            if (!found) {
                out += c;
                out += e;
                continue;
            }
            const bool negate = e != found->letter; // \D \W \S
            if (in_class) {
                out += negate ? found->negated : found->ranges;
            } else {
                out += negate ? L"[^" : L"[";
                out += found->ranges;
                out += L']';
            }
            continue;
        }
        if (in_class && c == L'[' && i + 1 < pattern.size() && pattern[i + 1] == L':') {
            // a POSIX class written by translate_properties: copy it whole
            auto close = pattern.find(L":]", i + 2);
            if (close != std::wstring::npos) {
                out.append(pattern, i, close + 2 - i);
                i = close + 1;
                continue;
            }
        }
        if (!in_class && c == L'.') {
            out += L"[^\\u000A\\u000D\\u2028\\u2029]";
            continue;
        }
        if (c == L'[' && !in_class)
            in_class = true;
        else if (c == L']' && in_class)
            in_class = false;
        out += c;
    }
    pattern = std::move(out);
}

// ECMA-262 (2018) named groups: std::regex numbers its groups only. (?<name>...) becomes a plain
// group and \k<name> its number, wrapped as (?:\N) so that a digit after it stays a digit. An
// unknown or repeated name is an error, as in ECMA-262.
std::string rewrite_named_groups(std::string_view p) {
    std::vector<std::string> names; // per capturing group, in order; "" when unnamed
    bool named = false;
    auto name_at = [&](std::size_t i, std::string& out) -> std::size_t { // p[i] is after '<'
        auto close = p.find('>', i);
        if (close == std::string_view::npos || close == i)
            throw std::regex_error(std::regex_constants::error_paren);
        out.assign(p.substr(i, close - i));
        for (std::size_t k = 0; k < out.size(); ++k) {
            auto c = static_cast<unsigned char>(out[k]);
            bool ok = c >= 0x80 || c == '_' || c == '$' || std::isalpha(c) || (k > 0 && std::isdigit(c));
            if (!ok) throw std::regex_error(std::regex_constants::error_paren);
        }
        return close + 1;
    };
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\') {
            ++i;
        } else if (in_class) {
            in_class = p[i] != ']';
        } else if (p[i] == '[') {
            in_class = true;
        } else if (p[i] == '(') {
            if (i + 1 < p.size() && p[i + 1] != '?') {
                names.emplace_back();
            } else if (p.substr(i, 3) == "(?<" && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!') {
                std::string name;
                name_at(i + 3, name);
                if (std::find(names.begin(), names.end(), name) != names.end())
                    throw std::regex_error(std::regex_constants::error_paren);
                names.push_back(std::move(name));
                named = true;
            }
        }
    }
    if (!named) return std::string(p);
    std::string out;
    in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            if (!in_class && p[i + 1] == 'k' && i + 2 < p.size() && p[i + 2] == '<') {
                std::string name;
                std::size_t next = name_at(i + 3, name);
                auto it = std::find(names.begin(), names.end(), name);
                if (name.empty() || it == names.end())
                    throw std::regex_error(std::regex_constants::error_backref);
                out += "(?:\\" + std::to_string(it - names.begin() + 1) + ")";
                i = next - 1;
                continue;
            }
            out += c;
            out += p[++i];
            continue;
        }
        if (in_class) {
            in_class = c != ']';
        } else if (c == '[') {
            in_class = true;
        } else if (c == '(' && p.substr(i, 3) == "(?<" && i + 3 < p.size() && p[i + 3] != '=' &&
                   p[i + 3] != '!') {
            std::string name;
            i = name_at(i + 3, name) - 1;
            out += '(';
            continue;
        }
        out += c;
    }
    return out;
}

void check_group_depth(std::string_view p) {
    int depth = 0;
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\')
            ++i;
        else if (in_class)
            in_class = c != ']';
        else if (c == '[')
            in_class = true;
        else if (c == '(' && ++depth > max_group_depth)
            throw std::regex_error(std::regex_constants::error_complexity);
        else if (c == ')')
            --depth;
    }
}

// libstdc++ reads the number of a back-reference (\N) and the counts of a {n,m} repetition into
// a long without checking for overflow (undefined behaviour from 19 digits on) and then truncates
// it to int: \4294967297 named group 1, a{4294967297} matched "a", and \9999999999999999999
// became a negative group number that the `regex` format check accepted. No usable number comes
// near max_regex_number (libstdc++ refuses automata of more than 100,000 states anyway), so
// larger ones are refused before std::regex reads them.
constexpr std::uint64_t max_regex_number = 100000;

// The decimal number at p[i] (i is left after its digits), saturated above max_regex_number.
std::uint64_t read_number(std::string_view p, std::size_t& i) noexcept {
    std::uint64_t n = 0;
    for (; i < p.size() && p[i] >= '0' && p[i] <= '9'; ++i)
        n = std::min<std::uint64_t>(n * 10 + static_cast<std::uint64_t>(p[i] - '0'), max_regex_number + 1);
    return n;
}

void check_numbers(std::string_view p) {
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') {
            std::size_t j = i + 1;
            if (read_number(p, j) > max_regex_number)
                throw std::regex_error(std::regex_constants::error_backref);
            i = j > i + 1 ? j - 1 : i + 1; // after the digits, or after the escaped character
        } else if (in_class) {
            in_class = c != ']';
        } else if (c == '[') {
            in_class = true;
        } else if (c == '{') {
            std::size_t j = i + 1;
            bool too_big = read_number(p, j) > max_regex_number;
            if (j < p.size() && p[j] == ',') too_big |= read_number(p, ++j) > max_regex_number;
            if (too_big) throw std::regex_error(std::regex_constants::error_space);
            i = j - 1;
        }
    }
}

// ECMA-262 \cX (X a letter) is the control character X % 32; std::regex does not know it.
void rewrite_control_escapes(std::string& p) {
    if (p.find("\\c") == std::string::npos) return;
    std::string out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\' && i + 1 < p.size()) {
            if (p[i + 1] == 'c' && i + 2 < p.size() && std::isalpha(static_cast<unsigned char>(p[i + 2]))) {
                static constexpr char hex[] = "0123456789ABCDEF";
                const int code = p[i + 2] % 32;
                out += "\\x";
                out += hex[code / 16];
                out += hex[code % 16];
                i += 2;
                continue;
            }
            out += p[i];
            out += p[++i];
            continue;
        }
        out += p[i];
    }
    p = std::move(out);
}

// What the `regex` format check adds to "std::regex compiles it": ECMA-262 syntax that
// std::regex lacks is accepted (lookbehind, checked as a plain group), and escapes ECMA-262 does
// not define (\a, \e, \z, ...: Perl and Python meanings, an error in ECMA-262's unicode mode)
// are refused.
std::optional<std::string> ecma_syntax_for_check(std::string_view p) {
    std::string out;
    out.reserve(p.size());
    constexpr std::string_view letter_escapes = "bBdDfnrsStvwWcxukpP";
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            if (std::isalpha(static_cast<unsigned char>(e)) &&
                letter_escapes.find(e) == std::string_view::npos)
                return std::nullopt;
            out += p[i];
            out += p[++i];
        } else if (p.substr(i, 4) == "(?<=" || p.substr(i, 4) == "(?<!") {
            out += "(?:";
            i += 3;
        } else {
            out += p[i];
        }
    }
    return out;
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
                 ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
            len = 4;
        } else if (c >= 0xE0 && i + 2 < s.size()) {
            cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                 (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
            len = 3;
        } else if (c >= 0xC0 && i + 1 < s.size()) {
            cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
            len = 2;
        }
        if (cp > 0x10FFFF) cp = 0xFFFD; // malformed: keep every value a code point
        out.push_back(static_cast<wchar_t>(cp));
        i += len;
    }
    return out;
}

std::unique_ptr<compiled_regex> compile_regex(std::string_view source, regex_use use) {
    check_group_depth(source);
    check_numbers(source);
    auto r = std::make_unique<compiled_regex>();
    r->source = std::string(source);
    if (use == regex_use::matching) {
        r->simple = simple_regex::parse(source);
        if (r->simple) return r; // no std::regex needed at all
    }
    const auto base = std::regex_constants::ECMAScript;
    std::string translated = rewrite_named_groups(source);
    rewrite_control_escapes(translated);
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
    spell_out_classes(wide_src);
    try {
        r->wide.assign(wide_src, base | std::regex_constants::__polynomial);
    } catch (const std::regex_error&) {
        // Either a back-reference (only the backtracking executor has them) or invalid.
        std::wregex backtracking(wide_src, base); // throws std::regex_error when truly invalid
        if (use == regex_use::syntax_check) return r;
        throw std::regex_error(std::regex_constants::error_backref);
    }
    if (use == regex_use::syntax_check) return r;
    // The byte automaton serves ASCII input only, and only patterns that are ASCII themselves: in
    // "^\u00e9?x$" written as UTF-8, '?' would bind to the last byte of the 'e acute'.
    r->narrow_ok = is_ascii(translated);
    if (r->narrow_ok) {
        try {
            r->narrow.assign(translated, base | std::regex_constants::__polynomial);
        } catch (const std::regex_error&) {
            r->narrow_ok = false; // e.g. \u escapes beyond a char: use the wide automaton for everything
        }
    }
    return r;
}

bool compiled_regex::search(std::string_view s) const {
    if (simple) return simple->search(s);
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
        auto checked = ecma_syntax_for_check(source);
        if (!checked) return false;
        (void)compile_regex(*checked, regex_use::syntax_check);
        return true;
    } catch (const std::regex_error&) {
        return false;
    }
}

} // namespace mcp::schema::detail
