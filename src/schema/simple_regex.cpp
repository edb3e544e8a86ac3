// schema/simple_regex.cpp - the linear-time matcher for simple patterns (see simple_regex.hpp).
//
// Why: std::regex_search costs ~4,000 instructions and several allocations even for
// ^[a-z0-9-]+$ on a ten-character string, which alone would spend half of the 1 us budget of a
// tools/call validation. The patterns tool schemas use are nearly always a chain of atoms
// (literal, class, escape, '.') with quantifiers; for those the NFA is a line of states, and a
// Thompson simulation over a bitset of at most 256 states matches in O(text x pattern) with no
// allocation and no recursion.
//
// Semantics are ECMA-262's with the unicode flag, as for the std::regex path: the text is read by
// code point, '.' excludes line terminators, \d \w are ASCII and \s is Unicode white space.
// Syntax the subset does not cover makes parse() return nullopt, and the caller uses std::regex.
#include "schema/simple_regex.hpp"

#include <algorithm>
#include <bit>

namespace mcp::schema::detail {
namespace {

using range = std::pair<char32_t, char32_t>;
constexpr char32_t max_code_point = 0x10FFFF;
constexpr std::size_t unbounded = static_cast<std::size_t>(-1);
constexpr std::size_t max_count = 1000; // in {n,m}; larger counts go to std::regex

// UTF-8 with the tolerance of utf8_to_wide (regex.cpp): a byte that starts no complete sequence
// stands for itself, so both matchers read the same code points.
char32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    auto cont = [&](std::size_t k) {
        return static_cast<char32_t>(static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    };
    char32_t cp = c;
    std::size_t len = 1;
    if (c >= 0xF0 && i + 3 < s.size()) {
        cp = ((c & 0x07u) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
        len = 4;
    } else if (c >= 0xE0 && i + 2 < s.size()) {
        cp = ((c & 0x0Fu) << 12) | (cont(1) << 6) | cont(2);
        len = 3;
    } else if (c >= 0xC0 && i + 1 < s.size()) {
        cp = ((c & 0x1Fu) << 6) | cont(1);
        len = 2;
    }
    i += len;
    return cp > max_code_point ? 0xFFFD : cp;
}

std::vector<range> normalized(std::vector<range> r) {
    std::sort(r.begin(), r.end());
    std::vector<range> out;
    for (const auto& x : r) {
        if (!out.empty() && x.first <= out.back().second + 1)
            out.back().second = std::max(out.back().second, x.second);
        else
            out.push_back(x);
    }
    return out;
}

std::vector<range> complement(const std::vector<range>& r) { // r normalized
    std::vector<range> out;
    char32_t next = 0;
    for (const auto& x : r) {
        if (x.first > next) out.push_back({next, x.first - 1});
        next = x.second + 1;
    }
    if (next <= max_code_point) out.push_back({next, max_code_point});
    return out;
}

const std::vector<range> digits{{'0', '9'}};
const std::vector<range> word{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const std::vector<range> white_space{{0x09, 0x0D},     {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680},
                                     {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
                                     {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
const std::vector<range> line_terminators{{0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}};

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool is_ascii_alnum(char c) noexcept {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

} // namespace

bool simple_regex::char_set::contains(char32_t c) const noexcept {
    if (c < 128) return (ascii[c >> 6] >> (c & 63)) & 1u;
    auto it =
        std::upper_bound(wide.begin(), wide.end(), c, [](char32_t v, const auto& r) { return v < r.first; });
    return it != wide.begin() && c <= std::prev(it)->second;
}

class simple_regex_parser {
public:
    explicit simple_regex_parser(std::string_view p) : p_(p) {}

    std::optional<simple_regex> run() {
        if (!p_.empty() && p_[0] == '^') {
            out_.anchored_start_ = true;
            ++i_;
        }
        while (i_ < p_.size()) {
            const char c = p_[i_];
            if (c == '$') {
                if (i_ + 1 != p_.size()) return std::nullopt; // '$' mid-pattern: leave it to std::regex
                out_.anchored_end_ = true;
                break;
            }
            atom a;
            switch (c) {
            case '(':
            case ')':
            case '|':
            case '^':
            case '*':
            case '+':
            case '?':
            case '{':
            case '}':
            case ']':
                return std::nullopt;
            case '.':
                ++i_;
                a.ranges = complement(line_terminators);
                break;
            case '[': {
                ++i_;
                auto set = parse_class();
                if (!set) return std::nullopt;
                a.ranges = std::move(*set);
                break;
            }
            case '\\': {
                ++i_;
                auto e = parse_escape(false);
                if (!e) return std::nullopt;
                a = std::move(*e);
                break;
            }
            default: {
                char32_t cp = next_code_point(p_, i_);
                a.ranges = {{cp, cp}};
            }
            }
            std::size_t min = 1, max = 1;
            if (!parse_quantifier(min, max)) return std::nullopt;
            if (!emit(std::move(a.ranges), min, max)) return std::nullopt;
        }
        return std::move(out_);
    }

private:
    struct atom {
        std::vector<range> ranges; // a single code point is {cp, cp}
        bool is_class = false;     // \d \w \s and their negations
    };

    std::string_view p_;
    std::size_t i_ = 0;
    simple_regex out_;

    // After the backslash. In a class, \b is a backspace and '-' may be escaped.
    std::optional<atom> parse_escape(bool in_class) {
        if (i_ >= p_.size()) return std::nullopt;
        const char c = p_[i_++];
        atom a;
        auto single = [&](char32_t cp) {
            a.ranges = {{cp, cp}};
            return a;
        };
        auto set = [&](const std::vector<range>& r, bool negate) {
            a.ranges = negate ? complement(r) : r;
            a.is_class = true;
            return a;
        };
        switch (c) {
        case 'd':
            return set(digits, false);
        case 'D':
            return set(digits, true);
        case 'w':
            return set(word, false);
        case 'W':
            return set(word, true);
        case 's':
            return set(white_space, false);
        case 'S':
            return set(white_space, true);
        case 't':
            return single(0x09);
        case 'n':
            return single(0x0A);
        case 'v':
            return single(0x0B);
        case 'f':
            return single(0x0C);
        case 'r':
            return single(0x0D);
        case 'b':
            if (in_class) return single(0x08);
            return std::nullopt; // a word boundary
        case '0':
            if (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') return std::nullopt;
            return single(0);
        case 'c':
            if (i_ < p_.size() && ((p_[i_] >= 'a' && p_[i_] <= 'z') || (p_[i_] >= 'A' && p_[i_] <= 'Z')))
                return single(static_cast<char32_t>(p_[i_++] % 32));
            return std::nullopt;
        case 'x':
        case 'u': {
            const std::size_t n = c == 'x' ? 2 : 4;
            if (i_ + n > p_.size()) return std::nullopt;
            char32_t cp = 0;
            for (std::size_t k = 0; k < n; ++k) {
                int h = hex_value(p_[i_ + k]);
                if (h < 0) return std::nullopt;
                cp = cp * 16 + static_cast<char32_t>(h);
            }
            i_ += n;
            if (cp >= 0xD800 && cp <= 0xDFFF) return std::nullopt; // surrogate pairs: std::regex's business
            return single(cp);
        }
        default:
            if (is_ascii_alnum(c)) return std::nullopt; // back-references, \b \B \k \p ...: not simple
            --i_;
            return single(next_code_point(p_, i_)); // an identity escape: \. \/ \- \\ ...
        }
    }

    // After the '['.
    std::optional<std::vector<range>> parse_class() {
        bool negate = false;
        if (i_ < p_.size() && p_[i_] == '^') {
            negate = true;
            ++i_;
        }
        std::vector<range> r;
        for (;;) {
            if (i_ >= p_.size()) return std::nullopt;
            if (p_[i_] == ']') {
                ++i_;
                break;
            }
            auto lo = member();
            if (!lo) return std::nullopt;
            const bool dash = i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']';
            if (lo->is_class) {
                if (dash) return std::nullopt; // [\d-z]
                r.insert(r.end(), lo->ranges.begin(), lo->ranges.end());
                continue;
            }
            if (!dash) {
                r.push_back(lo->ranges[0]);
                continue;
            }
            ++i_;
            auto hi = member();
            if (!hi || hi->is_class || hi->ranges[0].first < lo->ranges[0].first) return std::nullopt;
            r.push_back({lo->ranges[0].first, hi->ranges[0].first});
        }
        r = normalized(std::move(r));
        return negate ? complement(r) : r;
    }

    std::optional<atom> member() {
        if (p_[i_] == '\\') {
            ++i_;
            return parse_escape(true);
        }
        if (p_[i_] == '[' && i_ + 1 < p_.size() &&
            (p_[i_ + 1] == ':' || p_[i_ + 1] == '.' || p_[i_ + 1] == '='))
            return std::nullopt; // POSIX bracket syntax: std::regex reads it its own way
        atom a;
        const char32_t cp = next_code_point(p_, i_);
        a.ranges = {{cp, cp}};
        return a;
    }

    bool parse_count(std::size_t& n) {
        const std::size_t start = i_;
        n = 0;
        while (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') {
            n = n * 10 + static_cast<std::size_t>(p_[i_++] - '0');
            if (n > max_count) return false;
        }
        return i_ > start;
    }

    bool parse_quantifier(std::size_t& min, std::size_t& max) {
        if (i_ >= p_.size()) return true;
        switch (p_[i_]) {
        case '*':
            min = 0, max = unbounded;
            ++i_;
            break;
        case '+':
            min = 1, max = unbounded;
            ++i_;
            break;
        case '?':
            min = 0, max = 1;
            ++i_;
            break;
        case '{':
            ++i_;
            if (!parse_count(min)) return false;
            max = min;
            if (i_ < p_.size() && p_[i_] == ',') {
                ++i_;
                max = unbounded;
                if (i_ < p_.size() && p_[i_] != '}' && (!parse_count(max) || max < min)) return false;
            }
            if (i_ >= p_.size() || p_[i_] != '}') return false;
            ++i_;
            break;
        default:
            return true;
        }
        if (i_ < p_.size() && p_[i_] == '?') ++i_; // lazy: the same strings match
        return i_ >= p_.size() || (p_[i_] != '*' && p_[i_] != '+' && p_[i_] != '?' && p_[i_] != '{');
    }

    bool emit(std::vector<range> ranges, std::size_t min, std::size_t max) {
        const std::size_t count = min + (max == unbounded ? 1 : max - min);
        if (out_.items_.size() + count > simple_regex::max_items) return false;
        simple_regex::char_set set;
        for (const auto& [lo, hi] : ranges) {
            for (char32_t c = lo; c <= std::min<char32_t>(hi, 127); ++c)
                set.ascii[c >> 6] |= std::uint64_t{1} << (c & 63);
            if (hi >= 128) set.wide.push_back({std::max<char32_t>(lo, 128), hi});
        }
        const auto id = static_cast<std::uint16_t>(out_.sets_.size());
        out_.sets_.push_back(std::move(set));
        using rep = simple_regex::repeat;
        for (std::size_t k = 0; k < min; ++k) out_.items_.push_back({id, rep::one});
        if (max == unbounded)
            out_.items_.push_back({id, rep::star});
        else
            for (std::size_t k = min; k < max; ++k) out_.items_.push_back({id, rep::optional});
        return true;
    }
};

std::optional<simple_regex> simple_regex::parse(std::string_view pattern) {
    auto r = simple_regex_parser(pattern).run();
    if (r) r->prepare();
    return r;
}

void simple_regex::prepare() noexcept {
    one_word_ = items_.size() < 64;
    if (!one_word_) return;
    for (std::size_t i = 0; i < items_.size(); ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (items_[i].rep == repeat::star) star_mask_ |= bit;
        if (items_[i].rep != repeat::one) skip_mask_ |= bit;
        for (char32_t c = 0; c < 128; ++c)
            if (sets_[items_[i].set].contains(c)) ascii_mask_[c] |= bit;
    }
}

std::uint64_t simple_regex::mask_of(char32_t c) const noexcept {
    if (c < 128) return ascii_mask_[c];
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < items_.size(); ++i)
        if (sets_[items_[i].set].contains(c)) m |= std::uint64_t{1} << i;
    return m;
}

bool simple_regex::search_one_word(std::string_view text) const noexcept {
    const std::uint64_t accept = std::uint64_t{1} << items_.size();
    auto close = [this](std::uint64_t b) { // optional and starred items may be skipped
        for (;;) {
            const std::uint64_t wider = b | ((b & skip_mask_) << 1);
            if (wider == b) return b;
            b = wider;
        }
    };
    std::uint64_t cur = close(1);
    if ((cur & accept) && !anchored_end_) return true;
    for (std::size_t pos = 0; pos < text.size();) {
        const auto byte = static_cast<unsigned char>(text[pos]);
        const char32_t c = byte < 0x80 ? (++pos, byte) : next_code_point(text, pos);
        const std::uint64_t hit = cur & mask_of(c);
        std::uint64_t next = ((hit & ~star_mask_) << 1) | (hit & star_mask_);
        if (!anchored_start_)
            next |= 1; // a match may also start after c
        else if (next == 0)
            return false;
        cur = close(next);
        if ((cur & accept) && !anchored_end_) return true;
    }
    return (cur & accept) != 0;
}

bool simple_regex::search(std::string_view text) const noexcept {
    if (one_word_) return search_one_word(text);
    // State i: "the first i items are matched". State k = items_.size() accepts.
    using bits = std::array<std::uint64_t, (max_items + 1 + 63) / 64>;
    const std::size_t k = items_.size();
    auto set = [](bits& b, std::size_t i) { b[i >> 6] |= std::uint64_t{1} << (i & 63); };
    auto test = [](const bits& b, std::size_t i) { return (b[i >> 6] >> (i & 63)) & 1u; };
    auto close = [&](bits& b) { // optional and starred items may be skipped
        for (std::size_t i = 0; i < k; ++i)
            if (items_[i].rep != repeat::one && test(b, i)) set(b, i + 1);
    };
    bits cur{};
    set(cur, 0);
    close(cur);
    if (test(cur, k) && !anchored_end_) return true;
    for (std::size_t pos = 0; pos < text.size();) {
        const char32_t c = next_code_point(text, pos);
        bits next{};
        bool any = false;
        for (std::size_t w = 0; w < cur.size(); ++w) {
            for (std::uint64_t m = cur[w]; m != 0; m &= m - 1) {
                const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(m));
                if (i >= k || !sets_[items_[i].set].contains(c)) continue;
                set(next, items_[i].rep == repeat::star ? i : i + 1);
                any = true;
            }
        }
        if (!anchored_start_)
            set(next, 0); // a match may also start after c
        else if (!any)
            return false;
        close(next);
        cur = next;
        if (test(cur, k) && !anchored_end_) return true;
    }
    return test(cur, k);
}

} // namespace mcp::schema::detail
