// schema_regex_test.cpp - the linear-time matcher for simple patterns (src/schema/simple_regex)
// against std::regex, which it replaces for those patterns: both must find the same strings.
// Random patterns from the subset, random ASCII inputs (where the two engines' ECMAScript
// semantics coincide); Unicode behaviour is covered by the suite and the differential test.
#include "schema/simple_regex.hpp"

#include <mcp/schema/validator.hpp>

#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>

using mcp::schema::detail::simple_regex;

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

TEST(SchemaSimpleRegex, AgreesWithStdRegexOnRandomPatterns) {
    std::mt19937 rng(20251125);
    int patterns = 0, checks = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::string p = random_pattern(rng);
        auto simple = simple_regex::parse(p);
        ASSERT_TRUE(simple) << "not in the simple subset: " << p;
        std::regex reference(p, std::regex_constants::ECMAScript | std::regex_constants::__polynomial);
        ++patterns;
        for (int k = 0; k < 40; ++k) {
            const std::string s = random_input(rng);
            ASSERT_EQ(simple->search(s), std::regex_search(s, reference))
                << "pattern /" << p << "/ on \"" << s << '"';
            ++checks;
        }
    }
    EXPECT_EQ(patterns, 3000);
    EXPECT_EQ(checks, 120000);
}

TEST(SchemaSimpleRegex, LongPatternsUseTheMultiWordPath) {
    // More than 63 items after expanding {n,m}: the general bitset path.
    for (const char* p : {"^[a-z]{1,100}$", "^a{70}b?$", "x{64,}"}) {
        auto simple = simple_regex::parse(p);
        ASSERT_TRUE(simple) << p;
        std::regex reference(p, std::regex_constants::ECMAScript);
        for (const std::string& s :
             {std::string(), std::string(50, 'q'), std::string(100, 'q'), std::string(101, 'q'),
              std::string(70, 'a'), std::string(70, 'a') + "b", std::string(70, 'a') + "bb",
              std::string(63, 'x'), "y" + std::string(64, 'x') + "y"})
            EXPECT_EQ(simple->search(s), std::regex_search(s, reference))
                << p << " on " << s.size() << " chars";
    }
    EXPECT_FALSE(simple_regex::parse("^a{300}$")); // beyond max_items: std::regex takes it
}

TEST(SchemaSimpleRegex, LeavesEverythingElseToStdRegex) {
    for (const char* p : {"(a)", "a|b", "a\\1", "\\bword", "(?=a)", "a{2,1}", "a**", "[\\d-z]", "[[:alpha:]]",
                          "\\p{L}", "x$y", "a{", "\\ud83d\\ude00", "\\k<n>", "]"})
        EXPECT_FALSE(simple_regex::parse(p)) << p;
}

TEST(SchemaSimpleRegex, MatchesByCodePoint) {
    auto dot = simple_regex::parse("^.{2}$");
    ASSERT_TRUE(dot);
    EXPECT_TRUE(dot->search("\xC3\xA9\xF0\x9F\x98\x80")); // e-acute and an emoji: two code points
    EXPECT_FALSE(dot->search("\xF0\x9F\x98\x80"));
    EXPECT_FALSE(dot->search("a\xE2\x80\xA8")); // U+2028 is a line terminator
    auto greek = simple_regex::parse("^[\xCE\xB1-\xCF\x89]+$");
    ASSERT_TRUE(greek);
    EXPECT_TRUE(greek->search("\xCE\xB1\xCE\xB2"));
    EXPECT_FALSE(greek->search("ab"));
    auto space = simple_regex::parse("^\\s\\S$");
    ASSERT_TRUE(space);
    EXPECT_TRUE(space->search("\xC2\xA0x")); // U+00A0 is white space in ECMA-262
    EXPECT_FALSE(space->search("x\xC2\xA0"));
}
