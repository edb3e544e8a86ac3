#include "server/uri_match.hpp"

namespace mcp::detail {
namespace {

struct part {
    bool literal = true;
    std::string text;               // literal text
    char op = 0;                    // expression operator: 0, '+', '#', '/', '.', ';', '?', '&'
    std::vector<std::string> names; // expression variables (modifiers stripped)
};

std::optional<std::vector<part>> parse(std::string_view t) {
    std::vector<part> parts;
    std::size_t i = 0;
    while (i < t.size()) {
        if (t[i] == '{') {
            auto close = t.find('}', i);
            if (close == std::string_view::npos) return std::nullopt;
            std::string_view body = t.substr(i + 1, close - i - 1);
            part p;
            p.literal = false;
            if (!body.empty() && std::string_view("+#./;?&").find(body[0]) != std::string_view::npos) {
                p.op = body[0];
                body.remove_prefix(1);
            }
            while (!body.empty()) {
                auto comma = body.find(',');
                std::string_view name = body.substr(0, comma);
                if (auto colon = name.find(':'); colon != std::string_view::npos) name = name.substr(0, colon);
                if (!name.empty() && name.back() == '*') name.remove_suffix(1);
                if (name.empty()) return std::nullopt;
                p.names.emplace_back(name);
                if (comma == std::string_view::npos) break;
                body.remove_prefix(comma + 1);
            }
            if (p.names.empty()) return std::nullopt;
            parts.push_back(std::move(p));
            i = close + 1;
        } else {
            auto open = t.find('{', i);
            if (open == std::string_view::npos) open = t.size();
            parts.push_back({true, std::string(t.substr(i, open - i)), 0, {}});
            i = open;
        }
    }
    return parts;
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

// Characters an expression's value may contain.
bool allowed(char op, char c) {
    switch (op) {
    case '+':
    case '#': return true;
    case '/': return c != '?' && c != '#';
    case '?':
    case '&': return c != '#';
    default: return c != '/' && c != '?' && c != '#' && c != '&';
    }
}

void assign(const part& p, std::string_view value, uri_variables& vars) {
    if (p.op == '?' || p.op == '&') {
        // value is "a=1&b=2" (without the leading ? or &)
        std::size_t i = 0;
        while (i <= value.size()) {
            auto amp = value.find('&', i);
            if (amp == std::string_view::npos) amp = value.size();
            auto kv = value.substr(i, amp - i);
            auto eq = kv.find('=');
            std::string key(kv.substr(0, eq));
            for (const auto& n : p.names)
                if (n == key) vars[n] = eq == std::string_view::npos ? "" : decode(kv.substr(eq + 1));
            i = amp + 1;
        }
        return;
    }
    if (p.op == '/' || p.op == '.') value.remove_prefix(value.empty() ? 0 : 1);
    if (p.names.size() == 1) {
        vars[p.names[0]] = decode(value);
        return;
    }
    const char sep = p.op == '/' ? '/' : p.op == '.' ? '.' : ',';
    std::size_t idx = 0, i = 0;
    while (idx < p.names.size() && i <= value.size()) {
        auto next = value.find(sep, i);
        if (next == std::string_view::npos || idx + 1 == p.names.size()) next = value.size();
        vars[p.names[idx++]] = decode(value.substr(i, next - i));
        i = next + 1;
    }
}

bool match_from(const std::vector<part>& parts, std::size_t pi, std::string_view uri, std::size_t ui,
                uri_variables& vars) {
    if (pi == parts.size()) return ui == uri.size();
    const part& p = parts[pi];
    if (p.literal) {
        if (uri.substr(ui, p.text.size()) != p.text) return false;
        return match_from(parts, pi + 1, uri, ui + p.text.size(), vars);
    }
    std::size_t start = ui;
    if (p.op == '?' || p.op == '&' || p.op == '/' || p.op == '.' || p.op == '#') {
        // Optional prefix character: the expression may expand to nothing.
        const char prefix = p.op;
        if (ui < uri.size() && uri[ui] == prefix) start = ui + 1;
        else return match_from(parts, pi + 1, uri, ui, vars);
    }
    // Try the longest value first, then shorter ones (backtracking on what follows).
    std::size_t end = start;
    while (end < uri.size() && allowed(p.op, uri[end])) ++end;
    for (std::size_t e = end + 1; e-- > start;) {
        uri_variables attempt = vars;
        assign(p, uri.substr(p.op == '/' || p.op == '.' ? start - 1 : start, e - (p.op == '/' || p.op == '.' ? start - 1 : start)), attempt);
        if (match_from(parts, pi + 1, uri, e, attempt)) {
            vars = std::move(attempt);
            return true;
        }
    }
    return false;
}

} // namespace

std::optional<uri_variables> match_uri_template(std::string_view uri_template, std::string_view uri) {
    auto parts = parse(uri_template);
    if (!parts) return std::nullopt;
    uri_variables vars;
    if (!match_from(*parts, 0, uri, 0, vars)) return std::nullopt;
    return vars;
}

std::vector<std::string> template_variable_names(std::string_view uri_template) {
    std::vector<std::string> names;
    if (auto parts = parse(uri_template))
        for (const auto& p : *parts)
            for (const auto& n : p.names) names.push_back(n);
    return names;
}

} // namespace mcp::detail
