// Content-Type and Accept matching (see media_type.hpp).
#include "http/media_type.hpp"

#include "http/core/request.hpp"

#include <algorithm>
#include <optional>

namespace mcp::http::detail {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool is_tchar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!is_tchar(c)) return false;
    return true;
}

/// Calls `f` with each element of `list` split at `separator` outside quoted strings, trimmed.
template <class F> void for_each_part(std::string_view list, char separator, F&& f) {
    std::size_t start = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const char c = list[i];
        if (quoted) {
            if (c == '\\' && i + 1 < list.size())
                ++i;
            else if (c == '"')
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == separator) {
            f(trim(list.substr(start, i - start)));
            start = i + 1;
        }
    }
    f(trim(list.substr(start)));
}

struct media_type {
    std::string_view type, subtype;
};

/// "type/subtype" (both tokens), the part before any parameter.
std::optional<media_type> parse_type(std::string_view s) {
    const auto slash = s.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    media_type m{trim(s.substr(0, slash)), trim(s.substr(slash + 1))};
    // No space around the slash (RFC 9110 8.3.1).
    if (m.type.size() != slash || m.subtype.size() != s.size() - slash - 1) return std::nullopt;
    if (!is_token(m.type) || !is_token(m.subtype)) return std::nullopt;
    return m;
}

/// A qvalue (RFC 9110 12.4.2) in thousandths: "0" .. "0.999", "1", "1.000".
std::optional<int> parse_weight(std::string_view v) {
    if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
    int whole = v[0] - '0';
    if (v.size() == 1) return whole * 1000;
    if (v[1] != '.' || v.size() > 5) return std::nullopt;
    int fraction = 0, scale = 100;
    for (char c : v.substr(2)) {
        if (c < '0' || c > '9') return std::nullopt;
        fraction += (c - '0') * scale;
        scale /= 10;
    }
    if (whole == 1 && fraction != 0) return std::nullopt;
    return whole * 1000 + fraction;
}

struct media_range {
    media_type range;
    int weight = 1000;
};

std::optional<media_range> parse_range(std::string_view element) {
    std::optional<media_range> out;
    bool first = true, bad = false;
    for_each_part(element, ';', [&](std::string_view part) {
        if (bad) return;
        if (first) {
            first = false;
            auto m = parse_type(part);
            if (!m || (m->type == "*" && m->subtype != "*")) {
                bad = true;
                return;
            }
            out = media_range{*m};
            return;
        }
        if (part.empty()) return; // "a/b;;q=1"
        const auto eq = part.find('=');
        if (eq == std::string_view::npos) {
            bad = true;
            return;
        }
        if (core::iequals(trim(part.substr(0, eq)), "q")) {
            auto w = parse_weight(trim(part.substr(eq + 1)));
            if (!w) {
                bad = true;
                return;
            }
            out->weight = *w;
        }
    });
    if (bad) return std::nullopt;
    return out;
}

} // namespace

bool is_media_type(std::string_view content_type, std::string_view type) {
    const auto want = parse_type(type);
    if (!want) return false;
    const auto semi = content_type.find(';');
    const auto have = parse_type(trim(content_type.substr(0, semi)));
    return have && core::iequals(have->type, want->type) && core::iequals(have->subtype, want->subtype);
}

bool accepts(std::string_view accept, std::string_view type) {
    const auto want = parse_type(type);
    if (!want) return false;
    int best = -1;  // specificity of the best match so far: 0 */*, 1 type/*, 2 type/subtype
    int weight = 0; // its weight
    for_each_part(accept, ',', [&](std::string_view element) {
        if (element.empty()) return; // "a/b, , c/d" (RFC 9110 5.6.1)
        const auto r = parse_range(element);
        if (!r) return;
        int level = -1;
        if (r->range.type == "*")
            level = 0;
        else if (core::iequals(r->range.type, want->type))
            level = r->range.subtype == "*" ? 1 : core::iequals(r->range.subtype, want->subtype) ? 2 : -1;
        if (level < 0 || level < best) return;
        // The same range twice: the higher weight (the client accepts it in one of its words).
        weight = level > best ? r->weight : std::max(weight, r->weight);
        best = level;
    });
    return best >= 0 && weight > 0;
}

bool body_is(const core::request& req, std::string_view type) {
    bool any = false;
    for (const auto& [name, value] : req.headers) {
        if (!core::iequals(name, "Content-Type")) continue;
        if (!is_media_type(value, type)) return false;
        any = true;
    }
    return any;
}

} // namespace mcp::http::detail
