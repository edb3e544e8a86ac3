// schema/simple_regex.hpp - a linear-time, allocation-free matcher for the patterns tool schemas
// actually use: a sequence of literals, classes and escapes, each with an optional quantifier,
// optionally anchored by ^ and $. Anything else (groups, alternation, assertions, back-references)
// is left to std::regex (regex.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::schema::detail {

class simple_regex {
public:
    /// The matcher for `pattern` (ECMA-262 syntax, unicode semantics), or nullopt when the
    /// pattern is outside the subset or longer than max_items atoms after expanding {n,m}.
    static std::optional<simple_regex> parse(std::string_view pattern);

    /// regex_search: does the pattern match somewhere in `text` (UTF-8, matched by code point)?
    bool search(std::string_view text) const noexcept;

    static constexpr std::size_t max_items = 255;

    /// A set of code points: a bitmap for ASCII, sorted disjoint ranges above it.
    struct char_set {
        std::array<std::uint64_t, 2> ascii{};
        std::vector<std::pair<char32_t, char32_t>> wide;
        bool contains(char32_t c) const noexcept;
    };

private:
    enum class repeat : std::uint8_t { one, optional, star };
    struct item {
        std::uint16_t set;
        repeat rep;
    };
    std::vector<char_set> sets_;
    std::vector<item> items_;
    bool anchored_start_ = false;
    bool anchored_end_ = false;

    // Fewer than 64 items (nearly always): the states fit one word, and each ASCII character has
    // a precomputed mask of the items it satisfies, so a step is a few bit operations.
    bool one_word_ = false;
    std::uint64_t star_mask_ = 0; // items that repeat in place
    std::uint64_t skip_mask_ = 0; // items that may be skipped (optional or starred)
    std::array<std::uint64_t, 128> ascii_mask_{};

    void prepare() noexcept;
    std::uint64_t mask_of(char32_t c) const noexcept;
    bool search_one_word(std::string_view text) const noexcept;

    friend class simple_regex_parser;
};

} // namespace mcp::schema::detail
