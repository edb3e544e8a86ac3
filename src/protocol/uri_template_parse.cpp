// Parsing an RFC 6570 template (§2) once into literals, expressions and a matching plan.
#include <mcp/protocol/uri_template.hpp>

#include "protocol/uri_template_chars.hpp"

#include <algorithm>

namespace mcp {

using namespace uri_template_detail;

uri_template_error::uri_template_error(const std::string& message, std::size_t offset)
    : std::runtime_error(message), offset_(offset) {}

namespace {

// ASCII characters a literal may hold (RFC 6570 §2.1 "literals"), plus the apostrophe: the RFC's
// ABNF leaves it out, yet it is a URI sub-delimiter and the RFC's own examples use it.
constexpr bool is_literal_ascii(char c) noexcept {
    const auto b = static_cast<unsigned char>(c);
    if (b <= 0x20 || b == 0x7F) return false; // controls and space
    switch (c) {
    case '"':
    case '<':
    case '>':
    case '\\':
    case '^':
    case '`':
    case '{':
    case '|':
    case '}':
    case '%':
        return false;
    default:
        return true;
    }
}

constexpr bool is_varchar_start(std::string_view s, std::size_t i) noexcept {
    return i < s.size() && (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '_' || is_triplet(s, i));
}

std::string describe(char c) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7F) return std::string("'") + c + "'";
    static constexpr char digits[] = "0123456789ABCDEF";
    return std::string("byte 0x") + digits[b >> 4] + digits[b & 0xF];
}

} // namespace

class uri_template::parser {
public:
    explicit parser(uri_template& t) : t_(t), s_(t.text_) {}

    void run() {
        std::size_t literal_start = 0;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '{') {
                add_literal(literal_start, i_);
                expression();
                literal_start = i_;
            } else if (c == '}') {
                fail("'}' without a matching '{'", i_);
            } else if (c == '%') {
                if (!is_triplet(s_, i_)) fail("'%' not followed by two hex digits", i_);
                i_ += 3;
            } else if (static_cast<unsigned char>(c) < 0x80 && !is_literal_ascii(c)) {
                fail(describe(c) + " cannot appear in a URI template literal (percent-encode it)", i_);
            } else {
                ++i_;
            }
        }
        add_literal(literal_start, i_);
        plan_matching();
    }

private:
    [[noreturn]] void fail(const std::string& problem, std::size_t at) const {
        // Quote the template, shortened so that a huge input does not make a huge message.
        constexpr std::size_t max_quote = 120;
        std::string quoted(s_.substr(0, max_quote));
        if (s_.size() > max_quote) quoted += "...";
        throw uri_template_error(
            "invalid URI template \"" + quoted + "\": " + problem + " at offset " + std::to_string(at), at);
    }

    void add_literal(std::size_t from, std::size_t to) {
        if (from == to) return;
        part p;
        p.offset = from;
        p.raw_len = to - from;
        p.enc_pos = t_.encoded_.size();
        append_encoded(t_.encoded_, s_.substr(from, to - from), true);
        p.enc_len = t_.encoded_.size() - p.enc_pos;
        t_.parts_.push_back(p);
    }

    // At '{': parse up to and including the matching '}'.
    void expression() {
        const std::size_t open = i_++;
        auto unclosed = [&] { fail("unclosed expression: '{' has no matching '}'", open); };
        part p;
        p.expression = true;
        p.offset = open;
        p.first_var = t_.vars_.size();
        if (i_ == s_.size()) unclosed();
        if (is_operator(s_[i_])) {
            p.op = s_[i_++];
        } else if (s_[i_] == '=' || s_[i_] == ',' || s_[i_] == '!' || s_[i_] == '@' || s_[i_] == '|') {
            fail("operator '" + std::string(1, s_[i_]) + "' is reserved for future extensions", i_);
        }
        for (;;) {
            varspec v = variable(unclosed);
            if (i_ == s_.size()) unclosed();
            if (s_[i_] == ':') {
                v.prefix = prefix_length(unclosed);
                if (i_ == s_.size()) unclosed();
                if (s_[i_] == '*')
                    fail("a variable cannot have both a prefix (:N) and an explode (*) modifier", i_);
            } else if (s_[i_] == '*') {
                v.explode = true;
                if (++i_ == s_.size()) unclosed();
            }
            t_.vars_.push_back(v);
            const char c = s_[i_];
            if (c == '}') break;
            if (c != ',') {
                fail("unexpected " + describe(c) +
                         " in expression (expected ',', '}', ':N' or '*' after a variable)",
                     i_);
            }
            ++i_;
        }
        ++i_; // '}'
        p.end_var = t_.vars_.size();
        t_.parts_.push_back(p);
    }

    // varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
    template <class Unclosed> varspec variable(Unclosed unclosed) {
        const std::size_t start = i_;
        if (i_ == s_.size()) unclosed();
        if (!is_varchar_start(s_, i_)) {
            if (s_[i_] == '%') fail("'%' not followed by two hex digits in a variable name", i_);
            fail("expected a variable name, found " + describe(s_[i_]), i_);
        }
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (is_alpha(c) || is_digit(c) || c == '_') {
                ++i_;
            } else if (c == '%') {
                if (!is_triplet(s_, i_)) fail("'%' not followed by two hex digits in a variable name", i_);
                i_ += 3;
            } else if (c == '.') {
                // A dot only between two varchars: not first (checked above), not last, not doubled.
                if (!is_varchar_start(s_, i_ + 1)) {
                    fail(i_ + 1 < s_.size() && s_[i_ + 1] == '.' ? "'..' in a variable name"
                                                                 : "a variable name cannot end with '.'",
                         i_);
                }
                ++i_;
            } else {
                break;
            }
        }
        if (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ':' && s_[i_] != '*')
            fail("invalid character " + describe(s_[i_]) + " in variable name '" +
                     std::string(s_.substr(start, i_ - start)) + "'",
                 i_);
        varspec v;
        v.name_pos = start;
        v.name_len = i_ - start;
        return v;
    }

    // At ':': max-length = %x31-39 0*3DIGIT, so 1..9999 without a leading zero.
    template <class Unclosed> std::uint16_t prefix_length(Unclosed unclosed) {
        const std::size_t colon = i_++;
        if (i_ == s_.size()) unclosed();
        if (!is_digit(s_[i_])) fail("expected a prefix length (1-9999) after ':'", i_);
        if (s_[i_] == '0') fail("a prefix length must be 1-9999 without leading zeros", i_);
        std::size_t value = 0, digits = 0;
        while (i_ < s_.size() && is_digit(s_[i_])) {
            if (++digits > 4) fail("prefix length exceeds 9999", colon + 1);
            value = value * 10 + static_cast<std::size_t>(s_[i_++] - '0');
        }
        return static_cast<std::uint16_t>(value);
    }

    // Matching works on units: adjacent {?..}{&..}.. or {;..}{;..}.. expressions are one unit, so
    // that their name=value pairs may appear in any order.
    void plan_matching() {
        auto& parts = t_.parts_;
        for (std::size_t i = 0; i < parts.size();) {
            match_unit u;
            u.part = i;
            if (!parts[i].expression) {
                u.literal = true;
                ++i;
            } else {
                u.op = parts[i].op;
                u.first_var = parts[i].first_var;
                u.end_var = parts[i].end_var;
                const char follower = (u.op == '?' || u.op == '&') ? '&' : u.op == ';' ? ';' : 0;
                ++i;
                while (follower && i < parts.size() && parts[i].expression && parts[i].op == follower) {
                    u.end_var = parts[i].end_var;
                    if (u.op == '?') u.alt_first = '&'; // with {?..} all undefined, "&.." starts the pairs
                    ++i;
                }
            }
            t_.units_.push_back(u);
        }
    }

    uri_template& t_;
    std::string_view s_;
    std::size_t i_ = 0;
};

uri_template::uri_template(std::string_view text) : text_(text) {
    parser(*this).run();
}

std::optional<uri_template> uri_template::try_parse(std::string_view text) noexcept {
    try {
        return uri_template(text);
    } catch (...) {
        return std::nullopt;
    }
}

std::vector<std::string> uri_template::variable_names() const {
    std::vector<std::string> names;
    for (const auto& v : vars_) {
        auto n = name_of(v);
        if (std::find(names.begin(), names.end(), n) == names.end()) names.emplace_back(n);
    }
    return names;
}

} // namespace mcp
