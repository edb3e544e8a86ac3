// Splitting shell lines into words (apps/mcpxx/shell_words.cpp): quotes, escapes, positions
// (completion relies on them), and quoting a completion back.
#include "read_file.hpp"
#include "shell_words.hpp"

#include <gtest/gtest.h>

namespace {

using mcpxx_cli::split_words;

std::vector<std::string> texts(std::string_view line, bool lenient = false) {
    std::vector<std::string> out;
    for (const auto& w : split_words(line, lenient)) out.push_back(w.text);
    return out;
}

TEST(shell_words, blanks_quotes_and_escapes) {
    EXPECT_EQ(texts(""), std::vector<std::string>{});
    EXPECT_EQ(texts("  \t "), std::vector<std::string>{});
    EXPECT_EQ(texts("call  x__y a=1"), (std::vector<std::string>{"call", "x__y", "a=1"}));
    EXPECT_EQ(texts(R"(text="two words" b='it''s' c=a\ b)"),
              (std::vector<std::string>{"text=two words", "b=its", "c=a b"}));
    EXPECT_EQ(texts(R"("say \"hi\"" 'a\b' "back\\slash" "keep\n")"),
              (std::vector<std::string>{R"(say "hi")", R"(a\b)", R"(back\slash)", R"(keep\n)"}));
    EXPECT_EQ(texts(R"("" '')"), (std::vector<std::string>{"", ""}));
    EXPECT_EQ(texts("héllo wörld"), (std::vector<std::string>{"héllo", "wörld"}));
    EXPECT_THROW(split_words(R"(a "open)"), mcpxx_cli::input_error);
    EXPECT_THROW(split_words("a 'open"), mcpxx_cli::input_error);
    EXPECT_EQ(texts(R"(a "open wo)", true), (std::vector<std::string>{"a", "open wo"}));
}

TEST(shell_words, positions) {
    const auto w = split_words(R"(/p  style="fo)", true);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].begin, 0u);
    EXPECT_EQ(w[0].end, 2u);
    EXPECT_EQ(w[1].begin, 4u);
    EXPECT_EQ(w[1].end, 13u); // the end of the line: the word is still being typed
    EXPECT_EQ(w[1].text, "style=fo");
}

TEST(shell_words, quoting_round_trips) {
    for (const std::string s :
         {"plain", "two words", R"(a "quote")", R"(back\slash)", "it's", "", "tab\there"}) {
        const auto q = mcpxx_cli::quote_word(s);
        const auto w = split_words(q);
        ASSERT_EQ(w.size(), 1u) << q;
        EXPECT_EQ(w[0].text, s) << q;
    }
    EXPECT_EQ(mcpxx_cli::quote_word("style=formal"), "style=formal");
    EXPECT_EQ(mcpxx_cli::quote_word("t=a b"), R"("t=a b")");
}

TEST(shell_words, key_values) {
    EXPECT_EQ(mcpxx_cli::split_key_value("a=1"), (std::pair<std::string, std::string>{"a", "1"}));
    EXPECT_EQ(mcpxx_cli::split_key_value("a=b=c"), (std::pair<std::string, std::string>{"a", "b=c"}));
    EXPECT_EQ(mcpxx_cli::split_key_value("a="), (std::pair<std::string, std::string>{"a", ""}));
    EXPECT_FALSE(mcpxx_cli::split_key_value("=1"));
    EXPECT_FALSE(mcpxx_cli::split_key_value("a"));
}

} // namespace
