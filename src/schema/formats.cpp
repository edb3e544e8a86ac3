// schema/formats.cpp - the `format` checks applied when format assertion is on. Written from
// the RFCs each format names (3339 dates, 5321 email, 1123 hostnames, 2673/4291 IPs, 3986 URIs,
// 4122 UUIDs, 6901 JSON pointers, 6570 URI templates; 5890-5893 internationalized host names
// through libidn2); deliberately lenient where the RFCs are baroque (quoted local parts).
#include <mcp/schema/validator.hpp>

#include "schema/regex.hpp"

#include <mcp/json/utf8.hpp>

#include <idn2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace mcp::schema {
namespace {

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) noexcept {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_alpha(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Reads exactly n digits at s[pos] into out.
bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) noexcept {
    if (pos + n > s.size()) return false;
    out = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_digit(s[pos + i])) return false;
        out = out * 10 + (s[pos + i] - '0');
    }
    return true;
}

bool check_date(std::string_view s) {
    int y, m, d;
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    if (!digits(s, 0, 4, y) || !digits(s, 5, 2, m) || !digits(s, 8, 2, d)) return false;
    if (m < 1 || m > 12 || d < 1) return false;
    static constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= days[static_cast<std::size_t>(m - 1)] + (m == 2 && leap ? 1 : 0);
}

bool check_time(std::string_view s) {
    int h, m, sec;
    if (s.size() < 9 || s[2] != ':' || s[5] != ':') return false;
    if (!digits(s, 0, 2, h) || !digits(s, 3, 2, m) || !digits(s, 6, 2, sec)) return false;
    std::size_t i = 8;
    if (i < s.size() && s[i] == '.') {
        ++i;
        std::size_t start = i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i == start) return false;
    }
    if (i >= s.size()) return false; // RFC 3339 requires an offset
    int oh = 0, om = 0, sign = 0;
    if (s[i] == 'Z' || s[i] == 'z') {
        if (i + 1 != s.size()) return false;
    } else if (s[i] == '+' || s[i] == '-') {
        sign = s[i] == '+' ? 1 : -1;
        if (s.size() != i + 6 || s[i + 3] != ':') return false;
        if (!digits(s, i + 1, 2, oh) || !digits(s, i + 4, 2, om)) return false;
        if (oh > 23 || om > 59) return false;
    } else {
        return false;
    }
    if (h > 23 || m > 59 || sec > 60) return false;
    if (sec == 60) { // a leap second exists only at 23:59:60 UTC
        int minutes = h * 60 + m - sign * (oh * 60 + om);
        minutes = ((minutes % 1440) + 1440) % 1440;
        if (minutes != 23 * 60 + 59) return false;
    }
    return true;
}

bool check_date_time(std::string_view s) {
    if (s.size() < 11 || (s[10] != 'T' && s[10] != 't')) return false;
    return check_date(s.substr(0, 10)) && check_time(s.substr(11));
}

// RFC 3339 Appendix A, by hand (a std::regex here would recurse once per character of a hostile
// instance):  "P" (dur-date / dur-time / dur-week), where a unit may be skipped only from the
// start (P1M2D, PT1M2S) or the end (P1Y2M, PT1H2M), never in the middle (P1Y2D, PT1H2S).
bool check_duration(std::string_view s) {
    if (s.size() < 3 || s[0] != 'P') return false;
    std::size_t i = 1;
    // Reads "<digits><unit>" where unit is one of `units` at or after position `from`; returns
    // the unit's index, or -1 (nothing read) / -2 (malformed).
    auto component = [&](std::string_view units, std::size_t from) -> int {
        std::size_t start = i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i == start) return -1;
        if (i == s.size()) return -2;
        auto u = units.find(s[i], from);
        if (u == std::string_view::npos) return -2;
        ++i;
        return static_cast<int>(u);
    };
    // A run of components in `units` order with no unit skipped after the first one read.
    auto run = [&](std::string_view units) -> int { // number read, or -1 when malformed
        int count = 0;
        std::size_t next = 0;
        while (i < s.size() && is_digit(s[i])) {
            const std::size_t save = i;
            int u = component(units, next);
            if (u < 0) {
                i = save;
                return -1;
            }
            if (count > 0 && static_cast<std::size_t>(u) != next) return -1; // a unit was skipped
            next = static_cast<std::size_t>(u) + 1;
            ++count;
        }
        return count;
    };
    if (s[i] != 'T') {
        // dur-week stands alone
        std::size_t save = i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i > save && i + 1 == s.size() && s[i] == 'W') return true;
        i = save;
        int n = run("YMD");
        if (n <= 0) return false;
        if (i == s.size()) return true;
    }
    if (s[i] != 'T') return false;
    ++i;
    int n = run("HMS");
    return n > 0 && i == s.size();
}

// One label as libidn2 checks it (IDNA2008 without UTS #46 mapping: RFC 5891 5.4 - NFC, no
// "--" in positions 3-4, no leading combining mark, PVALID or CONTEXTJ / CONTEXTO with its
// rule - and the RFC 5893 Bidi rule): its A-label, or nullopt when it is not a valid U-label.
std::optional<std::string> a_label_of(const std::string& u_label) {
    std::uint8_t* out = nullptr;
    if (u_label.find('\0') != std::string::npos ||
        idn2_register_u8(reinterpret_cast<const std::uint8_t*>(u_label.c_str()), nullptr, &out, IDN2_NFC_INPUT) !=
            IDN2_OK)
        return std::nullopt;
    std::string a_label(reinterpret_cast<const char*>(out));
    idn2_free(out);
    return a_label;
}

// An A-label ("xn--" and Punycode, any case) decodes to a U-label with a non-ASCII character
// ("xn--abc-" hides an all-ASCII one) that is valid and encodes back to itself: that U-label.
std::optional<std::string> u_label_of(std::string label) {
    for (char& c : label) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    char* decoded = nullptr;
    if (idn2_to_unicode_8z8z(label.c_str(), &decoded, 0) != IDN2_OK) return std::nullopt;
    std::string u_label(decoded);
    idn2_free(decoded);
    const bool any_unicode = std::any_of(u_label.begin(), u_label.end(), [](char c) { return c & 0x80; });
    if (!any_unicode || a_label_of(u_label) != label) return std::nullopt;
    return u_label;
}

// RFC 5893: once a label has a right-to-left character (R, AL, AN), every label must satisfy
// the Bidi rule; libidn2 checks only the labels that have one, and not rule 4 (EN and AN never
// together). Bidi classes from PCRE2's Unicode tables.
bool satisfies_bidi_rule(const std::vector<std::string>& labels) {
    using detail::compiled_regex;
    static const compiled_regex right_to_left("[\\p{bc=R}\\p{bc=AL}\\p{bc=AN}]");
    static const compiled_regex rtl_label( // rules 1-4
        "^(?!.*\\p{bc=EN}.*\\p{bc=AN})(?!.*\\p{bc=AN}.*\\p{bc=EN})[\\p{bc=R}\\p{bc=AL}]"
        "[\\p{bc=R}\\p{bc=AL}\\p{bc=AN}\\p{bc=EN}\\p{bc=ES}\\p{bc=CS}\\p{bc=ET}\\p{bc=ON}\\p{bc=BN}\\p{bc=NSM}]*"
        "(?<=[\\p{bc=R}\\p{bc=AL}\\p{bc=EN}\\p{bc=AN}])\\p{bc=NSM}*$");
    static const compiled_regex ltr_label( // rules 1, 5, 6
        "^\\p{bc=L}[\\p{bc=L}\\p{bc=EN}\\p{bc=ES}\\p{bc=CS}\\p{bc=ET}\\p{bc=ON}\\p{bc=BN}\\p{bc=NSM}]*"
        "(?<=[\\p{bc=L}\\p{bc=EN}])\\p{bc=NSM}*$");
    if (std::none_of(labels.begin(), labels.end(), [](const auto& l) { return right_to_left.search(l); }))
        return true;
    return std::all_of(labels.begin(), labels.end(),
                       [](const auto& l) { return rtl_label.search(l) || ltr_label.search(l); });
}

// hostname: RFC 1123 labels of letters, digits and hyphens; a label starting "??--" must be an
// A-label. idn-hostname (RFC 5890): labels may also be U-labels, and U+3002, U+FF0E, U+FF61
// separate labels like '.'. Lengths (63 per label, 253 in all) count the A-label form.
bool check_hostname(std::string_view s, bool idn) {
    if (s.empty()) return false;
    std::vector<std::string> labels(1); // UTF-8
    for (std::size_t i = 0; i < s.size();) {
        const auto d = utf8::decode(s, i);
        if (!d.valid || (d.code_point >= 0x80 && !idn)) return false;
        const char32_t cp = d.code_point;
        if (cp == '.' || (idn && (cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61)))
            labels.emplace_back();
        else
            labels.back().append(s.substr(i, d.length));
        i += d.length;
    }
    std::size_t total = labels.size() - 1; // the dots
    for (auto& label : labels) {
        if (label.empty()) return false;
        std::size_t length = label.size();
        if (std::all_of(label.begin(), label.end(), [](char c) { return !(c & 0x80); })) {
            for (char c : label)
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
            if (label.front() == '-' || label.back() == '-') return false;
            // "??--" is reserved for A-labels (RFC 5891 4.2.3.1)
            if (label.size() >= 4 && label.compare(2, 2, "--") == 0) {
                auto u_label = u_label_of(label);
                if (!u_label) return false;
                label = std::move(*u_label); // for the Bidi rule
            }
        } else {
            const auto a_label = a_label_of(label);
            if (!a_label) return false;
            length = a_label->size();
        }
        if (length > 63) return false;
        total += length;
    }
    return total <= 253 && satisfies_bidi_rule(labels);
}

bool check_ipv4(std::string_view s) {
    int parts = 0;
    std::size_t i = 0;
    while (true) {
        std::size_t start = i;
        int v = 0;
        while (i < s.size() && is_digit(s[i]) && i - start < 3) v = v * 10 + (s[i++] - '0');
        if (i == start || v > 255 || (i - start > 1 && s[start] == '0')) return false;
        ++parts;
        if (i == s.size()) break;
        if (s[i] != '.' || parts == 4) return false;
        ++i;
    }
    return parts == 4;
}

bool check_ipv6(std::string_view s) {
    if (s.empty() || s.size() > 45) return false;
    int groups = 0;
    bool compressed = false;
    std::size_t i = 0;
    if (s.substr(0, 2) == "::") {
        compressed = true;
        i = 2;
        if (i == s.size()) return true;
    } else if (s[0] == ':') {
        return false;
    }
    while (i < s.size()) {
        std::size_t start = i;
        while (i < s.size() && is_hex(s[i])) ++i;
        if (i < s.size() && s[i] == '.') { // embedded IPv4 must be last and count as two groups
            if (!check_ipv4(s.substr(start))) return false;
            groups += 2;
            i = s.size();
            break;
        }
        if (i == start || i - start > 4) return false;
        ++groups;
        if (i == s.size()) break;
        if (s[i] != ':') return false;
        ++i;
        if (i < s.size() && s[i] == ':') {
            if (compressed) return false;
            compressed = true;
            ++i;
            if (i == s.size()) break;
        } else if (i == s.size()) {
            return false; // trailing single ':'
        }
    }
    return compressed ? groups < 8 : groups == 8;
}

bool check_uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') return false;
        } else if (!is_hex(s[i])) {
            return false;
        }
    }
    return true;
}

bool check_json_pointer(std::string_view s) {
    if (s.empty()) return true;
    if (s[0] != '/') return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '~' && (i + 1 >= s.size() || (s[i + 1] != '0' && s[i + 1] != '1'))) return false;
    return true;
}

bool check_relative_json_pointer(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == 0 || (i > 1 && s[0] == '0')) return false;
    auto rest = s.substr(i);
    return rest == "#" || check_json_pointer(rest);
}

// RFC 3986 characters; `iri` also admits any non-ASCII (RFC 3987 ucschar, approximately).
bool uri_chars_ok(std::string_view s, bool iri) {
    static constexpr std::string_view allowed = "-._~:/?#[]@!$&'()*+,;=";
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto u = static_cast<unsigned char>(s[i]);
        if (s[i] == '%') {
            if (i + 2 >= s.size() || !is_hex(s[i + 1]) || !is_hex(s[i + 2])) return false;
            i += 2;
        } else if (u >= 0x80) {
            if (!iri) return false;
        } else if (!(std::isalnum(u) || allowed.find(s[i]) != std::string_view::npos)) {
            return false;
        }
    }
    return true;
}

// scheme ":" at the start (RFC 3986 3.1).
bool has_scheme(std::string_view s) noexcept {
    auto colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0 || !is_alpha(s[0])) return false;
    for (char c : s.substr(0, colon))
        if (!(is_alpha(c) || is_digit(c) || c == '+' || c == '-' || c == '.')) return false;
    return true;
}

bool check_uri_reference(std::string_view s, bool iri) {
    if (!uri_chars_ok(s, iri)) return false;
    // '#' may appear once; '[' ']' only inside an authority (IP literal).
    auto hash = s.find('#');
    if (hash != std::string_view::npos && s.find('#', hash + 1) != std::string_view::npos) return false;
    auto head = s.substr(0, hash);
    // RFC 3986 4.2: without a scheme, a relative path's first segment must not contain ':'
    // ("1:b" would read as scheme "1"); check_uri has already vetted a scheme when there is one.
    if (!has_scheme(s)) {
        auto first = s.substr(0, s.find_first_of("/?#"));
        if (first.find(':') != std::string_view::npos) return false;
    }
    if (auto auth = head.find("//"); auth != std::string_view::npos) {
        auto a = head.substr(auth + 2);
        a = a.substr(0, a.find_first_of("/?"));
        if (a.find('@') != a.rfind('@')) return false; // userinfo has no '@'

        auto open = a.find('[');
        if (open != std::string_view::npos) {
            auto close = a.find(']');
            if (close == std::string_view::npos || close < open) return false;
            auto inner = a.substr(open + 1, close - open - 1);
            if (!check_ipv6(inner) && !(inner.size() > 1 && (inner[0] == 'v' || inner[0] == 'V')))
                return false;
        } else if (a.find(']') != std::string_view::npos) {
            return false;
        }
        // a port must be digits
        auto at = a.rfind('@');
        auto hostport = at == std::string_view::npos ? a : a.substr(at + 1);
        auto close = hostport.rfind(']');
        auto colon = hostport.find(':', close == std::string_view::npos ? 0 : close);
        if (colon != std::string_view::npos)
            for (char c : hostport.substr(colon + 1))
                if (!is_digit(c)) return false;
    } else if (head.find_first_of("[]") != std::string_view::npos) {
        return false;
    }
    return true;
}

bool check_uri(std::string_view s, bool iri) {
    return has_scheme(s) && check_uri_reference(s, iri);
}

// RFC 6570 section 2: literals and level-4 expressions. The reserved operators "=,!@|" are
// refused (no processor can expand them). The apostrophe is accepted in literals: the ABNF's
// %x28 boundary leaves it out, but it is an RFC 3986 sub-delim and the prose intends it.
bool check_uri_template(std::string_view s) {
    auto pct = [&](std::size_t i) {
        return i + 2 < s.size() && s[i] == '%' && is_hex(s[i + 1]) && is_hex(s[i + 2]);
    };
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '{') {
            ++i;
            if (i < s.size() && std::string_view("+#./;?&").find(s[i]) != std::string_view::npos) ++i;
            while (true) { // varspec
                bool dot_ok = false;
                std::size_t start = i;
                while (i < s.size()) {
                    if (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '_') {
                        ++i;
                        dot_ok = true;
                    } else if (pct(i)) {
                        i += 3;
                        dot_ok = true;
                    } else if (s[i] == '.' && dot_ok && i > start) {
                        ++i;
                        dot_ok = false; // a dot must be followed by a varchar
                    } else {
                        break;
                    }
                }
                if (i == start || !dot_ok) return false;
                if (i < s.size() && s[i] == '*') {
                    ++i;
                } else if (i < s.size() && s[i] == ':') {
                    ++i;
                    std::size_t d = i;
                    while (i < s.size() && is_digit(s[i])) ++i;
                    if (i == d || i - d > 4 || s[d] == '0') return false;
                }
                if (i >= s.size()) return false;
                if (s[i] == ',') {
                    ++i;
                    continue;
                }
                if (s[i] != '}') return false;
                ++i;
                break;
            }
        } else if (c == '%') {
            if (!pct(i)) return false;
            i += 3;
        } else if (c <= 0x20 || c == 0x7F ||
                   std::string_view("\"<>\\^`|}").find(s[i]) != std::string_view::npos) {
            return false;
        } else {
            ++i;
        }
    }
    return true;
}

bool check_email(std::string_view s, bool idn) {
    auto at = s.rfind('@');
    if (at == std::string_view::npos || at == 0 || at + 1 == s.size()) return false;
    auto local = s.substr(0, at), domain = s.substr(at + 1);
    if (local.size() > 64) return false;
    if (local.front() == '"') {
        if (local.size() < 2 || local.back() != '"') return false;
    } else {
        static constexpr std::string_view specials = "!#$%&'*+-/=?^_`{|}~.";
        if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos)
            return false;
        for (char c : local) {
            auto u = static_cast<unsigned char>(c);
            if (!(std::isalnum(u) || specials.find(c) != std::string_view::npos || (idn && u >= 0x80)))
                return false;
        }
    }
    if (domain.front() == '[') {
        if (domain.back() != ']') return false;
        auto lit = domain.substr(1, domain.size() - 2);
        if (lit.substr(0, 5) == "IPv6:") return check_ipv6(lit.substr(5));
        return check_ipv4(lit);
    }
    return check_hostname(domain, idn);
}

} // namespace

bool is_known_format(std::string_view f) noexcept {
    static constexpr std::array<std::string_view, 19> known{"date",
                                                            "time",
                                                            "date-time",
                                                            "duration",
                                                            "email",
                                                            "idn-email",
                                                            "hostname",
                                                            "idn-hostname",
                                                            "ipv4",
                                                            "ipv6",
                                                            "uri",
                                                            "uri-reference",
                                                            "iri",
                                                            "iri-reference",
                                                            "uri-template",
                                                            "uuid",
                                                            "regex",
                                                            "json-pointer",
                                                            "relative-json-pointer"};
    for (auto k : known)
        if (k == f) return true;
    return false;
}

bool check_format(std::string_view f, std::string_view v) {
    if (f == "date") return check_date(v);
    if (f == "time") return check_time(v);
    if (f == "date-time") return check_date_time(v);
    if (f == "duration") return check_duration(v);
    if (f == "email") return check_email(v, false);
    if (f == "idn-email") return check_email(v, true);
    if (f == "hostname") return check_hostname(v, false);
    if (f == "idn-hostname") return check_hostname(v, true);
    if (f == "ipv4") return check_ipv4(v);
    if (f == "ipv6") return check_ipv6(v);
    if (f == "uri") return check_uri(v, false);
    if (f == "iri") return check_uri(v, true);
    if (f == "uri-reference") return check_uri_reference(v, false);
    if (f == "iri-reference") return check_uri_reference(v, true);
    if (f == "uri-template") return check_uri_template(v);
    if (f == "uuid") return check_uuid(v);
    if (f == "regex") return detail::is_valid_regex(v);
    if (f == "json-pointer") return check_json_pointer(v);
    if (f == "relative-json-pointer") return check_relative_json_pointer(v);
    return true;
}

} // namespace mcp::schema
