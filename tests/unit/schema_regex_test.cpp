// schema_regex_test.cpp - `pattern` on PCRE2 (src/schema/regex) against std::regex, which it
// replaced: on random patterns of literals, classes, escapes and quantifiers and random ASCII
// inputs (where the two engines' ECMAScript semantics coincide) both must find the same strings.
// Then what ECMA-262 wants beyond ASCII, and hostile patterns and inputs.
#include "schema/regex.hpp"

#include <mcp/schema/validator.hpp>

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>

using mcp::schema::detail::compiled_regex;
using mcp::schema::detail::regex_error;

namespace {

std::string random_pattern(std::mt19937& rng) {
    static const char* const atoms[] = {"a",     "b",    "-",      "\\.",    ".",     "[ab]",    "[^a]",
                                        "[a-c]", "[-a]", "[a-]",   "\\d",    "\\D",   "\\w",     "\\W",
                                        "\\s",   "\\S",  "[\\d_]", "[^\\s]", "\\x41", "\\u0062", "[]",
                                        "[^]",   "\\/",  "1",      " ",      "\\t"};
    static const char* const quantifiers[] = {"",    "",      "",     "*",  "+",      "?",
                                              "{2}", "{1,3}", "{0,}", "+?", "{0,2}?", "{3,}"};
    std::uniform_int_distribution<int> atom(0, std::size(atoms) - 1), quant(0, std::size(quantifiers) - 1),
        count(1, 6), coin(0, 3);
    std::string p;
    if (coin(rng) == 0) p += '^';
    for (int i = 0, n = count(rng); i < n; ++i) {
        p += atoms[atom(rng)];
        p += quantifiers[quant(rng)];
    }
    if (coin(rng) == 0) p += '$';
    return p;
}

std::string random_input(std::mt19937& rng) {
    static const char alphabet[] = "ab-.1_ A/\t\n";
    std::uniform_int_distribution<int> len(0, 8), ch(0, sizeof alphabet - 2);
    std::string s;
    for (int i = 0, n = len(rng); i < n; ++i) s += alphabet[ch(rng)];
    return s;
}

} // namespace

TEST(SchemaRegex, AgreesWithStdRegexOnRandomPatterns) {
    std::mt19937 rng(20251125);
    int patterns = 0, checks = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::string p = random_pattern(rng);
        const compiled_regex re(p);
        std::regex reference(p, std::regex_constants::ECMAScript | std::regex_constants::__polynomial);
        ++patterns;
        for (int k = 0; k < 40; ++k) {
            const std::string s = random_input(rng);
            ASSERT_EQ(re.search(s), std::regex_search(s, reference))
                << "pattern /" << p << "/ on \"" << s << '"';
            ++checks;
        }
    }
    EXPECT_EQ(patterns, 3000);
    EXPECT_EQ(checks, 120000);
}

TEST(SchemaRegex, LongRepetitionsAgreeWithStdRegex) {
    for (const char* p : {"^[a-z]{1,100}$", "^a{70}b?$", "x{64,}", "^a{300}$"}) {
        const compiled_regex re(p);
        std::regex reference(p, std::regex_constants::ECMAScript);
        for (const std::string& s :
             {std::string(), std::string(50, 'q'), std::string(100, 'q'), std::string(101, 'q'),
              std::string(70, 'a'), std::string(70, 'a') + "b", std::string(70, 'a') + "bb",
              std::string(63, 'x'), "y" + std::string(64, 'x') + "y"})
            EXPECT_EQ(re.search(s), std::regex_search(s, reference))
                << p << " on " << s.size() << " chars";
    }
}

TEST(SchemaRegex, MatchesByCodePointAsEcma262) {
    const compiled_regex dot("^.{2}$");
    EXPECT_TRUE(dot.search("\xC3\xA9\xF0\x9F\x98\x80")); // e-acute and an emoji: two code points
    EXPECT_FALSE(dot.search("\xF0\x9F\x98\x80"));
    EXPECT_FALSE(dot.search("a\xE2\x80\xA8")); // U+2028 is a line terminator
    EXPECT_FALSE(dot.search("a\r"));
    EXPECT_TRUE(dot.search("a\x0B")); // VT and NEL are not
    EXPECT_TRUE(dot.search("a\xC2\x85"));
    const compiled_regex greek("^[\xCE\xB1-\xCF\x89]+$");
    EXPECT_TRUE(greek.search("\xCE\xB1\xCE\xB2"));
    EXPECT_FALSE(greek.search("ab"));
    const compiled_regex space("^\\s\\S$");
    EXPECT_TRUE(space.search("\xC2\xA0x")); // U+00A0 and U+FEFF are white space in ECMA-262
    EXPECT_TRUE(space.search("\xEF\xBB\xBFx"));
    EXPECT_FALSE(space.search("x\xC2\xA0"));
    EXPECT_FALSE(space.search("\xC2\x85x")); // NEL is not
    const compiled_regex in_class("^[\\S]+$");
    EXPECT_TRUE(in_class.search("ab\xF0\x9F\x98\x80"));
    EXPECT_FALSE(in_class.search("a\xE3\x80\x80")); // U+3000
    // \d and \w stay ASCII; \p{..} is Unicode.
    EXPECT_FALSE(compiled_regex("^\\d$").search("\xD9\xA3")); // ARABIC-INDIC DIGIT THREE
    EXPECT_FALSE(compiled_regex("^\\w$").search("\xC3\xA9"));
    EXPECT_TRUE(compiled_regex("^\\p{L}\\p{Nd}$").search("\xC3\xA9\xD9\xA3"));
    EXPECT_TRUE(compiled_regex("^\\p{Letter}+$").search("\xC3\xA9l\xC3\xA8ve"));
    // $ is the end of input only; [] matches nothing and [^] anything.
    EXPECT_FALSE(compiled_regex("^a$").search("a\n"));
    EXPECT_FALSE(compiled_regex("a[]").search("a"));
    EXPECT_TRUE(compiled_regex("^[^]$").search("\n"));
    // \u escapes, surrogate pairs as one code point, \u{...}, \cX, named groups.
    EXPECT_TRUE(compiled_regex("^\\u00e9$").search("\xC3\xA9"));
    EXPECT_TRUE(compiled_regex("^\\ud83d\\ude00$").search("\xF0\x9F\x98\x80"));
    EXPECT_TRUE(compiled_regex("^\\u{1F600}$").search("\xF0\x9F\x98\x80"));
    EXPECT_TRUE(compiled_regex("^\\cJ$").search("\n"));
    EXPECT_TRUE(compiled_regex("^(?<year>\\d{4})-(?:\\d\\d)$").search("2025-11"));
    // Invalid UTF-8 (a json::value may hold any bytes) matches as U+FFFD.
    EXPECT_TRUE(compiled_regex("^a.b$").search("a\xFF" "b"));
}

TEST(SchemaRegex, RefusesWhatEcma262Refuses) {
    for (const char* p : {"\\a", "\\z", "\\Qa\\E", "(?i)a", "(?>a)", "a++", "a{2}+", "(?P<n>a)", "("})
        EXPECT_THROW(compiled_regex{p}, regex_error) << p;
    for (const char* p : {"a+?", "a{2}?", "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(?<n>a)", "\\/", "a|b"})
        EXPECT_NO_THROW(compiled_regex{p}) << p;
}

TEST(SchemaRegex, HostileInputsFinishAndAnswerExactly) {
    // Exponential for a backtracking matcher: past the backtrack limit the DFA matcher answers.
    const compiled_regex nested("^(a|a?)+$");
    std::string s(100000, 'a');
    EXPECT_TRUE(nested.search(s));
    s += '!';
    EXPECT_FALSE(nested.search(s));
    const compiled_regex evil("^(\\w+\\s?)*$");
    const std::string words = std::string(5000, 'x') + " y";
    EXPECT_TRUE(evil.search(words));
    EXPECT_FALSE(evil.search(words + "!"));
    const compiled_regex classic("^(a+)+$"), star_star("(a*)*b"), lookahead("^(?:(?=a)a)*$");
    EXPECT_FALSE(classic.search(std::string(40, 'a') + "!"));
    EXPECT_FALSE(star_star.search(std::string(100000, 'a')));
    EXPECT_TRUE(lookahead.search(std::string(100000, 'a')));
    EXPECT_FALSE(lookahead.search(std::string(100000, 'a') + "b"));
    // A repeated group over 1 MB needs more JIT stack than there is: the DFA matcher again.
    const compiled_regex groups("^(ab|c)+$");
    std::string big;
    for (int i = 0; i < 200000; ++i) big += "abc";
    EXPECT_TRUE(groups.search(big));
    big += 'd';
    EXPECT_FALSE(groups.search(big));
}
