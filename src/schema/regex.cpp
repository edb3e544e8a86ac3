// schema/regex.cpp - ECMA-262 patterns (unicode mode, no flags) on PCRE2.
//
// PCRE2 compiles in UTF mode (code points, \p{..}) with the ECMAScript switches it has:
// ALT_BSUX (\uXXXX, \u{...}, \xHH), ALLOW_EMPTY_CLASS ([^]), DOLLAR_ENDONLY ($ only at
// the very end). Not UCP: it would make \d, \w and \b Unicode-aware, which ECMA-262 keeps ASCII.
// What PCRE2 reads differently is rewritten before compiling (ecma_to_pcre2): \s and \S are
// ECMA-262's Unicode white space, '.' excludes the four line terminators, a surrogate pair
// \uD83D\uDE00 is one code point. Syntax ECMA-262 refuses and PCRE2 would take (Perl escapes such
// as \a \z \Q, (?i), possessive a++) is refused here. docs/design.md lists what still differs.
//
// Matching: JIT code under a match limit. A pattern that backtracks too much on its input
// (^(a|a?)+$ on "aaa...!") or needs more JIT stack (a repeated group over 1 MB) falls back to
// PCRE2's DFA matcher, which keeps a set of states instead of backtracking: O(input x pattern),
// never exponential, so every answer is exact. It has no back-references, hence their refusal.
#include "schema/regex.hpp"

#include <mcp/json/utf8.hpp>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdio>
#include <vector>

namespace mcp::schema::detail {
namespace {

constexpr int max_group_depth = 128;
constexpr std::uint32_t backtrack_limit = 200'000; // then the DFA matcher answers
constexpr int dfa_workspace_ints = 8192;

// ECMA-262 WhiteSpace and LineTerminator, as the inside of a class, and its complement.
constexpr std::string_view space_ranges =
    "\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
constexpr std::string_view non_space_ranges =
    "\\u0000-\\u0008\\u000e-\\u001f\\u0021-\\u009f\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027"
    "\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\u{10ffff}";

int hex4(std::string_view p, std::size_t i) noexcept { // p[i..i+4) as hex, or -1
    if (i + 4 > p.size()) return -1;
    int v = 0;
    for (std::size_t k = i; k < i + 4; ++k) {
        const char c = p[k];
        const int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

// ECMA-262 spells general categories long (\p{Letter}, \p{gc=Lu}); PCRE2 10.42 knows the short
// names, scripts (sc=Greek) and binary properties (Alphabetic) as ECMA-262 writes them.
std::string_view short_category(std::string_view name) noexcept {
    for (std::string_view prefix : {"General_Category=", "gc="})
        if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    static constexpr std::string_view names[][2] = {
        {"Letter", "L"}, {"Cased_Letter", "L&"}, {"LC", "L&"}, {"Uppercase_Letter", "Lu"},
        {"Lowercase_Letter", "Ll"}, {"Titlecase_Letter", "Lt"}, {"Modifier_Letter", "Lm"},
        {"Other_Letter", "Lo"}, {"Mark", "M"}, {"Combining_Mark", "M"}, {"Nonspacing_Mark", "Mn"},
        {"Spacing_Mark", "Mc"}, {"Enclosing_Mark", "Me"}, {"Number", "N"}, {"Decimal_Number", "Nd"},
        {"digit", "Nd"}, {"Letter_Number", "Nl"}, {"Other_Number", "No"}, {"Punctuation", "P"},
        {"punct", "P"}, {"Connector_Punctuation", "Pc"}, {"Dash_Punctuation", "Pd"},
        {"Open_Punctuation", "Ps"}, {"Close_Punctuation", "Pe"}, {"Initial_Punctuation", "Pi"},
        {"Final_Punctuation", "Pf"}, {"Other_Punctuation", "Po"}, {"Symbol", "S"}, {"Math_Symbol", "Sm"},
        {"Currency_Symbol", "Sc"}, {"Modifier_Symbol", "Sk"}, {"Other_Symbol", "So"}, {"Separator", "Z"},
        {"Space_Separator", "Zs"}, {"Line_Separator", "Zl"}, {"Paragraph_Separator", "Zp"}, {"Other", "C"},
        {"Control", "Cc"}, {"cntrl", "Cc"}, {"Format", "Cf"}, {"Surrogate", "Cs"}, {"Private_Use", "Co"},
        {"Unassigned", "Cn"}};
    for (const auto& [full, abbreviation] : names)
        if (name == full) return abbreviation;
    return name;
}

[[noreturn]] void refuse(std::string_view what) {
    throw regex_error("is not ECMA-262: " + std::string(what));
}

// Capturing groups in `p`: ECMA-262 refuses a back-reference \N to a group that does not exist
// (PCRE2 would read \9 as a literal '9', \123 as octal).
std::size_t count_groups(std::string_view p) noexcept {
    std::size_t groups = 0;
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\')
            ++i;
        else if (in_class)
            in_class = p[i] != ']';
        else if (p[i] == '[')
            in_class = true;
        else if (p[i] == '(' && (p.substr(i + 1, 1) != "?" || (p.substr(i + 1, 2) == "?<" && p.substr(i + 3, 1) != "=" &&
                                                               p.substr(i + 3, 1) != "!")))
            ++groups;
    }
    return groups;
}

// The ECMA-262 pattern `p` in PCRE2's syntax (see the top of the file). The `regex` format
// (syntax_check) reads a lookbehind as a plain group: ECMA-262 allows variable-width ones,
// PCRE2 10.42 only fixed-width ones.
std::string ecma_to_pcre2(std::string_view p, regex_use use) {
    const std::size_t groups = count_groups(p);
    constexpr std::string_view letter_escapes = "bBdDfnrsStvwWcxukpP";
    std::string out;
    out.reserve(p.size() + 16);
    bool in_class = false, after_quantifier = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        const bool was_quantifier = after_quantifier;
        after_quantifier = false;
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[++i];
            const bool letter = (e | 0x20) >= 'a' && (e | 0x20) <= 'z';
            if (letter && letter_escapes.find(e) == std::string_view::npos)
                refuse(std::string("\\") + e + " is not an escape");
            if (e >= '1' && e <= '9') {
                std::size_t n = 0, j = i;
                for (; j < p.size() && p[j] >= '0' && p[j] <= '9' && n <= groups; ++j) n = n * 10 + (p[j] - '0');
                if (n > groups) refuse("\\" + std::string(p.substr(i, j - i)) + " names no group");
            }
            if (e == 's' || e == 'S') {
                const auto set = in_class ? (e == 's' ? space_ranges : non_space_ranges) : space_ranges;
                if (!in_class) out += e == 's' ? "[" : "[^";
                out += set;
                if (!in_class) out += ']';
                continue;
            }
            const int high = e == 'u' ? hex4(p, i + 1) : -1;
            if (high >= 0xD800 && high <= 0xDBFF && p.substr(i + 5, 2) == "\\u") {
                const int low = hex4(p, i + 7);
                if (low >= 0xDC00 && low <= 0xDFFF) { // a surrogate pair is one code point
                    char buf[16];
                    std::snprintf(buf, sizeof buf, "\\u{%x}", 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                    out += buf;
                    i += 10;
                    continue;
                }
            }
            out += '\\';
            out += e;
            const char open = e == 'k' ? '<' : '{';
            if ((e == 'p' || e == 'P' || e == 'u' || e == 'k') && p.substr(i + 1, 1) == std::string_view(&open, 1)) {
                const auto close = p.find(open == '<' ? '>' : '}', i + 1); // \p{L}, \u{1F600}, \k<name>
                if (close == std::string_view::npos) refuse("unterminated \\" + std::string(1, e) + open);
                std::string_view inside = p.substr(i + 2, close - i - 2);
                if (e == 'p' || e == 'P') inside = short_category(inside);
                out += open;
                out += inside;
                out += open == '<' ? '>' : '}';
                i = close;
            }
            continue;
        }
        if (in_class) {
            in_class = c != ']';
        } else if (p.substr(i, 2) == "[]") { // PCRE2 10.42 fails a[]?b on "ab": spell "nothing" else
            out += "(?:(?!))";
            ++i;
            continue;
        } else if (c == '[') {
            in_class = true;
        } else if (c == '.') {
            out += "[^\\n\\r\\u2028\\u2029]";
            continue;
        } else if (use == regex_use::syntax_check && (p.substr(i, 4) == "(?<=" || p.substr(i, 4) == "(?<!")) {
            out += "(?:";
            i += 3;
            continue;
        } else if (c == '(' && p.substr(i, 2) == "(?") {
            const std::string_view next = p.substr(i + 2, 2);
            const bool ecma = !next.empty() && (next[0] == ':' || next[0] == '=' || next[0] == '!' ||
                                                (next[0] == '<' && next.size() == 2 && next[1] != '>'));
            if (!ecma) refuse("(?" + std::string(next.substr(0, 1)) + " is not a group ECMA-262 has");
        } else if (c == '*' || c == '+' || c == '?' || c == '}') {
            if (c == '+' && was_quantifier) refuse("possessive quantifiers do not exist");
            after_quantifier = !(c == '?' && was_quantifier); // a lazy '?' ends the quantifier
        }
        out += c;
    }
    return out;
}

struct contexts {
    pcre2_compile_context* compile = pcre2_compile_context_create(nullptr);
    pcre2_match_context* match = pcre2_match_context_create(nullptr);
    pcre2_match_context* dfa = pcre2_match_context_create(nullptr);
    contexts() {
        pcre2_set_parens_nest_limit(compile, max_group_depth);
        pcre2_set_compile_extra_options(compile, PCRE2_EXTRA_ALT_BSUX);
        pcre2_set_match_limit(match, backtrack_limit);
        pcre2_set_depth_limit(dfa, 1000); // the DFA matcher recurses on the stack for assertions
    }
};
const contexts& ctx() {
    static const contexts c;
    return c;
}

// Per thread: PCRE2 match data (one ovector pair: we only ask whether it matches) and the DFA
// matcher's workspace.
struct scratch {
    pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
    std::vector<int> workspace;
    ~scratch() { pcre2_match_data_free(data); }
};
scratch& thread_scratch() {
    thread_local scratch s;
    return s;
}

constexpr std::uint32_t compile_options =
    PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_ALLOW_EMPTY_CLASS | PCRE2_DOLLAR_ENDONLY;

std::string refusal(int code, PCRE2_SIZE offset) {
    if (code == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP) return "nests groups more than 128 deep";
    if (code == PCRE2_ERROR_QUANTIFIER_TOO_BIG || code == PCRE2_ERROR_PATTERN_TOO_LARGE)
        return "is too big: a repetition count over 65535, or a compiled pattern over PCRE2's size limit";
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof message);
    return "is not a valid regular expression: " + std::string(reinterpret_cast<const char*>(message)) +
           " at offset " + std::to_string(offset);
}

pcre2_code* compile(std::string_view source, regex_use use) {
    const std::string translated = ecma_to_pcre2(source, use);
    int code = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                                   compile_options, &code, &offset, ctx().compile);
    if (!re) throw regex_error(refusal(code, offset));
    return re;
}

bool is_limit(int rc) noexcept {
    return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
           rc == PCRE2_ERROR_HEAPLIMIT;
}

// Invalid bytes (a json::value may be built from any std::string) become U+FFFD.
std::string repaired(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size();) {
        const auto d = utf8::decode(s, i);
        out.append(d.valid ? s.substr(i, d.length) : std::string_view("\xEF\xBF\xBD"));
        i += d.length;
    }
    return out;
}

} // namespace

compiled_regex::compiled_regex(std::string_view source_text, regex_use use)
    : source(source_text), code_(compile(source_text, use)) {
    if (use == regex_use::syntax_check) return;
    std::uint32_t backrefs = 0;
    pcre2_pattern_info(code_, PCRE2_INFO_BACKREFMAX, &backrefs);
    if (backrefs > 0) {
        pcre2_code_free(code_);
        throw regex_error("uses back-references, which mcpxx refuses: only a backtracking matcher has them, "
                          "and hostile input makes that exponential");
    }
    (void)pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE); // without JIT, pcre2_match interprets
}

compiled_regex::~compiled_regex() {
    pcre2_code_free(code_);
}

bool compiled_regex::search(std::string_view text) const {
    auto& s = thread_scratch();
    const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    int rc = pcre2_match(code_, subject, text.size(), 0, 0, s.data, ctx().match);
    if (rc >= PCRE2_ERROR_UTF8_ERR21 && rc <= PCRE2_ERROR_UTF8_ERR1) return search(repaired(text));
    if (!is_limit(rc)) return rc >= 0; // 0: matched, the ovector too small for the groups
    if (s.workspace.empty()) s.workspace.resize(dfa_workspace_ints);
    rc = pcre2_dfa_match(code_, subject, text.size(), 0, PCRE2_DFA_SHORTEST, s.data, ctx().dfa,
                         s.workspace.data(), s.workspace.size());
    return rc >= 0; // a limit here too (a pathological pattern): no match, as a refusal would be
}

bool is_valid_regex(std::string_view source) {
    try {
        compiled_regex checked(source, regex_use::syntax_check);
        return true;
    } catch (const regex_error&) {
        return false;
    }
}

} // namespace mcp::schema::detail
