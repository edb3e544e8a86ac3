// schema/formats.cpp - the `format` checks applied when format assertion is on. Written from
// the RFCs each format names (3339 dates, 5321 email, 1123 hostnames, 2673/4291 IPs, 3986 URIs,
// 4122 UUIDs, 6901 JSON pointers, 6570 URI templates); deliberately lenient where the RFCs are
// baroque (quoted local parts, IDN tables).
#include <mcp/schema/validator.hpp>

#include "schema/regex.hpp"

#include <array>
#include <cctype>
#include <regex>

namespace mcp::schema {
namespace {

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_hex(char c) noexcept { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

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

bool check_duration(std::string_view s) {
    static const std::regex re(R"(^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|\d+W)$)");
    return std::regex_search(s.begin(), s.end(), re);
}

bool check_hostname(std::string_view s, bool allow_unicode) {
    if (s.empty() || s.size() > 253) return false;
    std::size_t start = 0;
    while (start <= s.size()) {
        auto dot = s.find('.', start);
        auto label = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (label.empty() || label.size() > 63) return false;
        if (label.front() == '-' || label.back() == '-') return false;
        if (label.size() >= 4 && label[2] == '-' && label[3] == '-' && !(label.substr(0, 2) == "xn"))
            return false; // RFC 5891: "??--" is reserved for A-labels
        for (char c : label) {
            auto u = static_cast<unsigned char>(c);
            if (!(std::isalnum(u) || c == '-' || (allow_unicode && u >= 0x80))) return false;
        }
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return true;
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

bool check_uri_reference(std::string_view s, bool iri) {
    if (!uri_chars_ok(s, iri)) return false;
    // '#' may appear once; '[' ']' only inside an authority (IP literal).
    auto hash = s.find('#');
    if (hash != std::string_view::npos && s.find('#', hash + 1) != std::string_view::npos) return false;
    auto head = s.substr(0, hash);
    if (auto auth = head.find("//"); auth != std::string_view::npos) {
        auto a = head.substr(auth + 2);
        a = a.substr(0, a.find_first_of("/?"));
        auto open = a.find('[');
        if (open != std::string_view::npos) {
            auto close = a.find(']');
            if (close == std::string_view::npos || close < open) return false;
            auto inner = a.substr(open + 1, close - open - 1);
            if (!check_ipv6(inner) && !(inner.size() > 1 && (inner[0] == 'v' || inner[0] == 'V'))) return false;
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
    auto colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0 || !is_alpha(s[0])) return false;
    for (char c : s.substr(0, colon))
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.')) return false;
    // a path segment before any '/' must not look like "\\" etc.; the char check covers it
    return check_uri_reference(s, iri);
}

bool check_uri_template(std::string_view s) {
    bool open = false;
    for (char c : s) {
        if (c == '{') {
            if (open) return false;
            open = true;
        } else if (c == '}') {
            if (!open) return false;
            open = false;
        }
    }
    return !open;
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
        if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos) return false;
        for (char c : local) {
            auto u = static_cast<unsigned char>(c);
            if (!(std::isalnum(u) || specials.find(c) != std::string_view::npos || (idn && u >= 0x80))) return false;
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
    static constexpr std::array<std::string_view, 19> known{
        "date", "time", "date-time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4",
        "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "regex",
        "json-pointer", "relative-json-pointer"};
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
