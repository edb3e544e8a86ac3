#include "glob.hpp"

#include <string>
#include <vector>

namespace mcp::files {
namespace {

char fold(char c, bool ci) {
    return ci && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

struct token {
    enum kind_t { literal, one, star, globstar, globstar_dir, set } kind;
    char c = 0;
    bool negated = false;
    std::string ranges; // pairs lo,hi
};

std::vector<token> tokenize(std::string_view p, bool ci) {
    std::vector<token> out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            out.push_back({token::literal, fold(p[++i], ci)});
        } else if (c == '?') {
            out.push_back({token::one});
        } else if (c == '*') {
            if (i + 1 < p.size() && p[i + 1] == '*') {
                ++i;
                while (i + 1 < p.size() && p[i + 1] == '*') ++i; // "***" is "**"
                if (i + 1 < p.size() && p[i + 1] == '/') {
                    ++i;
                    out.push_back({token::globstar_dir});
                } else {
                    out.push_back({token::globstar});
                }
            } else {
                out.push_back({token::star});
            }
        } else if (c == '[') {
            std::size_t j = i + 1;
            token t{token::set};
            if (j < p.size() && (p[j] == '!' || p[j] == '^')) t.negated = true, ++j;
            const std::size_t first = j;
            bool closed = false;
            for (; j < p.size(); ++j) {
                if (p[j] == ']' && j > first) {
                    closed = true;
                    break;
                }
                char lo = p[j];
                if (lo == '\\' && j + 1 < p.size()) lo = p[++j];
                char hi = lo;
                if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
                    hi = p[j + 2];
                    if (hi == '\\' && j + 3 < p.size()) hi = p[++j + 2];
                    j += 2;
                }
                t.ranges.push_back(fold(lo, ci));
                t.ranges.push_back(fold(hi, ci));
            }
            if (!closed) {
                out.push_back({token::literal, '['}); // an unclosed '[' is itself
            } else {
                out.push_back(std::move(t));
                i = j;
            }
        } else {
            out.push_back({token::literal, fold(c, ci)});
        }
    }
    return out;
}

// `c` and the ranges are folded alike, so case-insensitive sets need nothing more.
bool in_set(const token& t, char c) {
    bool hit = false;
    for (std::size_t k = 0; k + 1 < t.ranges.size() && !hit; k += 2)
        hit = c >= t.ranges[k] && c <= t.ranges[k + 1];
    return hit != t.negated;
}

} // namespace

bool is_glob(std::string_view pattern) {
    return pattern.find_first_of("*?[") != std::string_view::npos;
}

bool glob_match(std::string_view pattern, std::string_view text, bool ci) {
    const std::vector<token> tokens = tokenize(pattern, ci);
    const std::size_t m = text.size();
    // next[j]: tokens i+1.. match text[j..]; cur[j]: tokens i.. match text[j..]. Built from the
    // last token backwards, one row per token: O(tokens x text) time, O(text) memory.
    std::vector<char> next(m + 1, 0), cur(m + 1, 0);
    next[m] = 1;
    for (std::size_t i = tokens.size(); i-- > 0;) {
        const token& t = tokens[i];
        cur[m] =
            t.kind == token::star || t.kind == token::globstar || t.kind == token::globstar_dir ? next[m] : 0;
        bool slash_then_rest = false; // some k >= j with text[k] == '/' and next[k+1]
        for (std::size_t j = m; j-- > 0;) {
            const char c = fold(text[j], ci);
            switch (t.kind) {
            case token::literal:
                cur[j] = c == t.c && next[j + 1];
                break;
            case token::one:
                cur[j] = c != '/' && next[j + 1];
                break;
            case token::set:
                cur[j] = c != '/' && in_set(t, c) && next[j + 1];
                break;
            case token::star:
                cur[j] = next[j] || (c != '/' && cur[j + 1]);
                break;
            case token::globstar:
                cur[j] = next[j] || cur[j + 1];
                break;
            case token::globstar_dir:
                slash_then_rest = slash_then_rest || (c == '/' && next[j + 1]);
                cur[j] = next[j] || slash_then_rest;
                break;
            }
        }
        std::swap(cur, next);
    }
    return next[0] != 0;
}

} // namespace mcp::files
