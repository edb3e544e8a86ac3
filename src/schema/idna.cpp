// schema/idna.cpp - Punycode and IDNA2008 label validation, written from RFC 3492 (Punycode),
// RFC 5891 (protocol), RFC 5892 (code points and contextual rules) and RFC 5893 (Bidi rule).
//
// What is not a full IDNA2008 implementation: the derived property of a code point (RFC 5892
// section 3) needs the whole Unicode database. We apply the explicit exceptions, the contextual
// rules and the Bidi rule exactly, and approximate the rest: letters, digits and marks are
// PVALID unless uppercase (unstable under case folding) or in a compatibility block (unstable
// under NFKC); everything else is DISALLOWED. Character classes come from the C.UTF-8 locale
// (glibc's Unicode tables), marks and bidirectional classes from unicode_tables.cpp.
#include "schema/idna.hpp"
#include "schema/unicode_tables.hpp"

#include <cstdint>
#include <limits>
#include <locale>
#include <stdexcept>

namespace mcp::schema::detail {

// ---------------------------------------------------------------- Punycode (RFC 3492)

namespace {

constexpr std::uint32_t base = 36, tmin = 1, tmax = 26, skew = 38, damp = 700, initial_bias = 72,
                        initial_n = 128;
constexpr std::uint32_t max_u32 = std::numeric_limits<std::uint32_t>::max();

std::uint32_t adapt(std::uint32_t delta, std::uint32_t points, bool first) noexcept {
    delta = first ? delta / damp : delta / 2;
    delta += delta / points;
    std::uint32_t k = 0;
    while (delta > ((base - tmin) * tmax) / 2) {
        delta /= base - tmin;
        k += base;
    }
    return k + (base - tmin + 1) * delta / (delta + skew);
}

std::uint32_t threshold(std::uint32_t k, std::uint32_t bias) noexcept {
    return k <= bias ? tmin : k >= bias + tmax ? tmax : k - bias;
}

int digit_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0' + 26;
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c >= 'A' && c <= 'Z') return c - 'A';
    return -1;
}

char digit_char(std::uint32_t d) noexcept {
    return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26));
}

bool is_scalar_value(std::uint32_t c) noexcept {
    return c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

} // namespace

std::optional<std::u32string> punycode_decode(std::string_view in) {
    std::u32string out;
    std::size_t pos = 0;
    if (auto dash = in.rfind('-'); dash != std::string_view::npos) {
        for (char c : in.substr(0, dash)) {
            if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
            out.push_back(static_cast<unsigned char>(c));
        }
        pos = dash + 1;
    }
    std::uint32_t n = initial_n, i = 0, bias = initial_bias;
    while (pos < in.size()) {
        const std::uint32_t old_i = i;
        std::uint32_t w = 1;
        for (std::uint32_t k = base;; k += base) {
            if (pos >= in.size()) return std::nullopt; // a truncated variable-length integer
            const int d = digit_value(in[pos++]);
            if (d < 0) return std::nullopt;
            const auto digit = static_cast<std::uint32_t>(d);
            if (digit > (max_u32 - i) / w) return std::nullopt;
            i += digit * w;
            const std::uint32_t t = threshold(k, bias);
            if (digit < t) break;
            if (w > max_u32 / (base - t)) return std::nullopt;
            w *= base - t;
        }
        const auto points = static_cast<std::uint32_t>(out.size() + 1);
        bias = adapt(i - old_i, points, old_i == 0);
        if (i / points > max_u32 - n) return std::nullopt;
        n += i / points;
        i %= points;
        if (!is_scalar_value(n)) return std::nullopt;
        out.insert(out.begin() + i, static_cast<char32_t>(n));
        ++i;
    }
    return out;
}

std::optional<std::string> punycode_encode(std::u32string_view in) {
    std::string out;
    for (char32_t c : in)
        if (c < 0x80) out.push_back(static_cast<char>(c));
    const auto basic = static_cast<std::uint32_t>(out.size());
    std::uint32_t handled = basic;
    if (basic > 0) out.push_back('-');
    std::uint32_t n = initial_n, delta = 0, bias = initial_bias;
    while (handled < in.size()) {
        std::uint32_t m = max_u32;
        for (char32_t c : in)
            if (c >= n && c < m) m = c;
        if (m - n > (max_u32 - delta) / (handled + 1)) return std::nullopt;
        delta += (m - n) * (handled + 1);
        n = m;
        for (char32_t c : in) {
            if (c < n && ++delta == 0) return std::nullopt;
            if (c != n) continue;
            std::uint32_t q = delta;
            for (std::uint32_t k = base;; k += base) {
                const std::uint32_t t = threshold(k, bias);
                if (q < t) break;
                out.push_back(digit_char(t + (q - t) % (base - t)));
                q = (q - t) / (base - t);
            }
            out.push_back(digit_char(q));
            bias = adapt(delta, handled + 1, handled == basic);
            delta = 0;
            ++handled;
        }
        ++delta;
        ++n;
    }
    return out;
}

// ---------------------------------------------------------------- code points (RFC 5892)

namespace {

enum class idna_property { pvalid, contextj, contexto, disallowed };

bool between(char32_t c, char32_t lo, char32_t hi) noexcept {
    return c >= lo && c <= hi;
}

// Blocks whose characters NFKC maps to something else (RFC 5892 2.2, Unstable): superscripts,
// letterlike, number forms, enclosed and CJK compatibility forms, presentation forms, fullwidth
// and halfwidth forms.
bool in_compatibility_block(char32_t c) noexcept {
    if (between(c, 0xF900, 0xFAFF)) { // CJK compatibility ideographs, except the twelve unified ones
        switch (c) {
        case 0xFA0E:
        case 0xFA0F:
        case 0xFA11:
        case 0xFA13:
        case 0xFA14:
        case 0xFA1F:
        case 0xFA21:
        case 0xFA23:
        case 0xFA24:
        case 0xFA27:
        case 0xFA28:
        case 0xFA29:
            return false;
        default:
            return true;
        }
    }
    return between(c, 0x2070, 0x218F) || between(c, 0x2460, 0x24FF) || between(c, 0x2F00, 0x2FDF) ||
           between(c, 0x3131, 0x318F) || between(c, 0x3200, 0x33FF) || between(c, 0xFB00, 0xFDFF) ||
           between(c, 0xFE10, 0xFE6F) || between(c, 0xFE70, 0xFEFF) || between(c, 0xFF00, 0xFFEF);
}

const std::ctype<wchar_t>* unicode_ctype() {
    static const std::ctype<wchar_t>* facet = []() -> const std::ctype<wchar_t>* {
        try {
            static const std::locale loc("C.UTF-8");
            return &std::use_facet<std::ctype<wchar_t>>(loc);
        } catch (const std::runtime_error&) {
            return nullptr; // no C.UTF-8: the general rule below admits every letter-like code point
        }
    }();
    return facet;
}

idna_property property_of(char32_t c) {
    if (c < 0x80)
        return (between(c, 'a', 'z') || between(c, '0', '9') || c == '-') ? idna_property::pvalid
                                                                          : idna_property::disallowed;
    switch (c) { // RFC 5892 2.6, Exceptions
    case 0x00DF:
    case 0x03C2:
    case 0x06FD:
    case 0x06FE:
    case 0x0F0B:
    case 0x3007:
        return idna_property::pvalid;
    case 0x00B7:
    case 0x0375:
    case 0x05F3:
    case 0x05F4:
    case 0x30FB:
        return idna_property::contexto;
    case 0x0640:
    case 0x07FA:
    case 0x302E:
    case 0x302F:
    case 0x3031:
    case 0x3032:
    case 0x3033:
    case 0x3034:
    case 0x3035:
    case 0x303B:
        return idna_property::disallowed;
    case 0x200C:
    case 0x200D:
        return idna_property::contextj; // RFC 5892 2.8, JoinControl
    default:
        break;
    }
    if (between(c, 0x0660, 0x0669) || between(c, 0x06F0, 0x06F9)) return idna_property::contexto;
    if (!is_scalar_value(c) || in_compatibility_block(c)) return idna_property::disallowed;
    if (is_nonspacing_mark(c) || is_spacing_mark(c)) return idna_property::pvalid;
    const auto* ct = unicode_ctype();
    if (!ct) return idna_property::pvalid;
    const auto w = static_cast<wchar_t>(c);
    const bool letter_or_digit = ct->is(std::ctype_base::alpha, w) || ct->is(std::ctype_base::digit, w);
    return letter_or_digit && !ct->is(std::ctype_base::upper, w) ? idna_property::pvalid
                                                                 : idna_property::disallowed;
}

// Scripts the contextual rules ask about, by block.
bool is_greek(char32_t c) noexcept {
    return (between(c, 0x0370, 0x03FF) && c != 0x0375 && c != 0x037E && c != 0x0385 && c != 0x0387) ||
           between(c, 0x1F00, 0x1FFF) || between(c, 0x10140, 0x1018F);
}
bool is_hebrew(char32_t c) noexcept {
    return between(c, 0x0591, 0x05F4) || between(c, 0xFB1D, 0xFB4F);
}
bool is_hiragana_katakana_han(char32_t c) noexcept {
    return (between(c, 0x3041, 0x30FF) && c != 0x30FB && c != 0x30A0) || between(c, 0x31F0, 0x31FF) ||
           between(c, 0x3400, 0x4DBF) || between(c, 0x4E00, 0x9FFF) || between(c, 0xF900, 0xFAFF) ||
           between(c, 0x20000, 0x3134F) || between(c, 0x1B000, 0x1B16F) || c == 0x3005 || c == 0x3007 ||
           between(c, 0x3021, 0x3029) || between(c, 0x3038, 0x303B);
}

// Joining_Type for the ZERO WIDTH NON-JOINER rule. Kept to the Arabic and Syriac letters (the
// scripts where ZWNJ matters in practice): transparent marks, right-joining letters, the two
// non-joining ones, and dual-joining for the other letters of those blocks.
enum class joining { none, transparent, right, dual };

joining joining_type(char32_t c) noexcept {
    if (is_nonspacing_mark(c)) return joining::transparent;
    const bool arabic_letter = between(c, 0x0620, 0x064A) || between(c, 0x066E, 0x06D3) || c == 0x06D5 ||
                               between(c, 0x06EE, 0x06EF) || between(c, 0x06FA, 0x06FC) || c == 0x06FF ||
                               between(c, 0x0710, 0x072F) || between(c, 0x074D, 0x077F) ||
                               between(c, 0x08A0, 0x08C9);
    if (!arabic_letter) return joining::none;
    if (c == 0x0621 || c == 0x0674) return joining::none;
    const bool right =
        between(c, 0x0622, 0x0625) || c == 0x0627 || c == 0x0629 || between(c, 0x062F, 0x0632) ||
        c == 0x0648 || between(c, 0x0671, 0x0673) || between(c, 0x0675, 0x0677) ||
        between(c, 0x0688, 0x0699) || c == 0x06C0 || between(c, 0x06C3, 0x06CB) || c == 0x06CD ||
        c == 0x06CF || between(c, 0x06D2, 0x06D3) || c == 0x06D5 || between(c, 0x06EE, 0x06EF) ||
        c == 0x0710 || between(c, 0x0715, 0x0719) || c == 0x071E || c == 0x0728 || c == 0x072A ||
        c == 0x072C || c == 0x072F || c == 0x074D || between(c, 0x0759, 0x075B) ||
        between(c, 0x076B, 0x076C) || c == 0x0771 || between(c, 0x0773, 0x0774) || between(c, 0x0778, 0x0779);
    return right ? joining::right : joining::dual;
}

// RFC 5892 A.1: (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
bool zwnj_joins(std::u32string_view l, std::size_t at) noexcept {
    std::size_t i = at;
    joining before = joining::none;
    while (i > 0) {
        joining j = joining_type(l[--i]);
        if (j == joining::transparent) continue;
        before = j;
        break;
    }
    if (before != joining::dual) return false; // no left-joining letters in these scripts
    joining after = joining::none;
    for (std::size_t k = at + 1; k < l.size(); ++k) {
        joining j = joining_type(l[k]);
        if (j == joining::transparent) continue;
        after = j;
        break;
    }
    return after == joining::right || after == joining::dual;
}

bool context_rule_holds(std::u32string_view l, std::size_t i) {
    const char32_t c = l[i];
    const char32_t before = i > 0 ? l[i - 1] : 0, after = i + 1 < l.size() ? l[i + 1] : 0;
    switch (c) {
    case 0x200C:
        return is_virama(before) || zwnj_joins(l, i); // A.1 ZERO WIDTH NON-JOINER
    case 0x200D:
        return is_virama(before); // A.2 ZERO WIDTH JOINER
    case 0x00B7:
        return before == 'l' && after == 'l'; // A.3 MIDDLE DOT
    case 0x0375:
        return is_greek(after); // A.4 GREEK LOWER NUMERAL SIGN
    case 0x05F3:                // A.5 HEBREW PUNCTUATION GERESH
    case 0x05F4:
        return is_hebrew(before); // A.6 HEBREW PUNCTUATION GERSHAYIM
    case 0x30FB:                  // A.7 KATAKANA MIDDLE DOT
        for (char32_t x : l)
            if (is_hiragana_katakana_han(x)) return true;
        return false;
    default:
        break;
    }
    if (between(c, 0x0660, 0x0669)) { // A.8 ARABIC-INDIC DIGITS
        for (char32_t x : l)
            if (between(x, 0x06F0, 0x06F9)) return false;
        return true;
    }
    if (between(c, 0x06F0, 0x06F9)) { // A.9 EXTENDED ARABIC-INDIC DIGITS
        for (char32_t x : l)
            if (between(x, 0x0660, 0x0669)) return false;
        return true;
    }
    return false;
}

} // namespace

bool is_valid_u_label(std::u32string_view l) {
    if (l.empty()) return false;
    if (l.size() >= 4 && l[2] == '-' && l[3] == '-') return false;
    if (l.front() == '-' || l.back() == '-') return false;
    if (is_nonspacing_mark(l.front()) || is_spacing_mark(l.front())) return false; // RFC 5891 4.2.3.2
    for (std::size_t i = 0; i < l.size(); ++i) {
        switch (property_of(l[i])) {
        case idna_property::pvalid:
            break;
        case idna_property::disallowed:
            return false;
        case idna_property::contextj:
        case idna_property::contexto:
            if (!context_rule_holds(l, i)) return false;
            break;
        }
    }
    return true;
}

// ---------------------------------------------------------------- Bidi rule (RFC 5893 section 2)

namespace {

bool label_satisfies_bidi_rule(std::u32string_view l) {
    if (l.empty()) return false;
    const bidi_class first = bidi_class_of(l.front());
    if (first != bidi_class::left_to_right && first != bidi_class::right_to_left) return false; // rule 1
    const bool rtl = first == bidi_class::right_to_left;
    bool has_en = false, has_an = false;
    bidi_class last = first;
    for (char32_t c : l) {
        const bidi_class b = bidi_class_of(c);
        if (rtl && b == bidi_class::left_to_right) return false; // rule 2
        if (!rtl && (b == bidi_class::right_to_left || b == bidi_class::arabic_number))
            return false; // rule 5
        has_en |= b == bidi_class::european_number;
        has_an |= b == bidi_class::arabic_number;
        if (b != bidi_class::nonspacing_mark) last = b;
    }
    if (rtl) {
        if (has_en && has_an) return false; // rule 4
        return last == bidi_class::right_to_left || last == bidi_class::european_number ||
               last == bidi_class::arabic_number; // rule 3
    }
    return last == bidi_class::left_to_right || last == bidi_class::european_number; // rule 6
}

} // namespace

bool satisfies_bidi_rule(const std::vector<std::u32string>& labels) {
    bool bidi_domain = false;
    for (const auto& l : labels)
        for (char32_t c : l) {
            const bidi_class b = bidi_class_of(c);
            bidi_domain |= b == bidi_class::right_to_left || b == bidi_class::arabic_number;
        }
    if (!bidi_domain) return true;
    for (const auto& l : labels)
        if (!label_satisfies_bidi_rule(l)) return false;
    return true;
}

} // namespace mcp::schema::detail
