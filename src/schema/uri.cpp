// schema/uri.cpp - RFC 3986 reference resolution and JSON pointer helpers for $ref / $id.
#include "schema/uri.hpp"

#include <mcp/json/type_codec.hpp>

#include <cctype>

namespace mcp::schema::detail {
namespace {

struct uri_parts {
    std::optional<std::string_view> scheme, authority, query, fragment;
    std::string_view path;
};

// RFC 3986 appendix B, written out by hand (no regex: this runs for every $ref at compile time).
uri_parts parse(std::string_view s) {
    uri_parts p;
    if (auto hash = s.find('#'); hash != std::string_view::npos) {
        p.fragment = s.substr(hash + 1);
        s = s.substr(0, hash);
    }
    if (auto q = s.find('?'); q != std::string_view::npos) {
        p.query = s.substr(q + 1);
        s = s.substr(0, q);
    }
    // A scheme is letters/digits/+-. before the first ':' that precedes any '/'.
    auto colon = s.find(':');
    auto slash = s.find('/');
    if (colon != std::string_view::npos && colon > 0 && (slash == std::string_view::npos || colon < slash)) {
        bool ok = true;
        for (char c : s.substr(0, colon))
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'))
                ok = false;
        if (ok && std::isalpha(static_cast<unsigned char>(s[0]))) {
            p.scheme = s.substr(0, colon);
            s = s.substr(colon + 1);
        }
    }
    if (s.substr(0, 2) == "//") {
        s = s.substr(2);
        auto end = s.find('/');
        p.authority = s.substr(0, end);
        s = end == std::string_view::npos ? std::string_view{} : s.substr(end);
    }
    p.path = s;
    return p;
}

std::string remove_dot_segments(std::string_view in) {
    std::string out;
    std::string input(in);
    std::size_t i = 0;
    while (i < input.size()) {
        std::string_view rest(input.data() + i, input.size() - i);
        if (rest.substr(0, 3) == "../")
            i += 3;
        else if (rest.substr(0, 2) == "./")
            i += 2;
        else if (rest.substr(0, 3) == "/./")
            i += 2;
        else if (rest == "/.") {
            input.replace(i, 2, "/");
        } else if (rest.substr(0, 4) == "/../" || rest == "/..") {
            if (rest == "/..")
                input.replace(i, 3, "/");
            else
                i += 3;
            auto last = out.rfind('/');
            out.erase(last == std::string::npos ? 0 : last);
        } else if (rest == "." || rest == "..")
            i = input.size();
        else {
            auto next = input.find('/', i + (input[i] == '/' ? 1 : 0));
            if (next == std::string::npos) next = input.size();
            out.append(input, i, next - i);
            i = next;
        }
    }
    return out;
}

std::string merge(const uri_parts& base, std::string_view ref_path) {
    if (base.authority && base.path.empty()) return "/" + std::string(ref_path);
    auto last = base.path.rfind('/');
    if (last == std::string_view::npos) return std::string(ref_path);
    return std::string(base.path.substr(0, last + 1)) + std::string(ref_path);
}

} // namespace

std::string resolve_uri(std::string_view base_s, std::string_view ref_s) {
    uri_parts r = parse(ref_s), b = parse(base_s), t;
    std::string path;
    if (r.scheme) {
        t.scheme = r.scheme;
        t.authority = r.authority;
        path = remove_dot_segments(r.path);
        t.query = r.query;
    } else {
        if (r.authority) {
            t.authority = r.authority;
            path = remove_dot_segments(r.path);
            t.query = r.query;
        } else {
            if (r.path.empty()) {
                path = std::string(b.path);
                t.query = r.query ? r.query : b.query;
            } else {
                if (r.path.front() == '/')
                    path = remove_dot_segments(r.path);
                else
                    path = remove_dot_segments(merge(b, r.path));
                t.query = r.query;
            }
            t.authority = b.authority;
        }
        t.scheme = b.scheme;
    }
    t.fragment = r.fragment;
    std::string out;
    if (t.scheme) {
        out += *t.scheme;
        out += ':';
    }
    if (t.authority) {
        out += "//";
        out += *t.authority;
    }
    out += path;
    if (t.query) {
        out += '?';
        out += *t.query;
    }
    if (t.fragment) {
        out += '#';
        out += *t.fragment;
    }
    return out;
}

std::pair<std::string_view, std::string_view> split_fragment(std::string_view uri) noexcept {
    auto hash = uri.find('#');
    if (hash == std::string_view::npos) return {uri, {}};
    return {uri.substr(0, hash), uri.substr(hash + 1)};
}

std::optional<std::string> percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size()) return std::nullopt;
        int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

std::optional<std::vector<std::string>> parse_json_pointer(std::string_view ptr) {
    std::vector<std::string> tokens;
    if (ptr.empty()) return tokens;
    if (ptr.front() != '/') return std::nullopt;
    std::size_t i = 1;
    std::string cur;
    for (; i <= ptr.size(); ++i) {
        if (i == ptr.size() || ptr[i] == '/') {
            tokens.push_back(std::move(cur));
            cur.clear();
            continue;
        }
        if (ptr[i] == '~') {
            if (i + 1 >= ptr.size()) return std::nullopt;
            if (ptr[i + 1] == '0')
                cur += '~';
            else if (ptr[i + 1] == '1')
                cur += '/';
            else
                return std::nullopt;
            ++i;
        } else {
            cur += ptr[i];
        }
    }
    return tokens;
}

void append_pointer_token(std::string& out, std::string_view token) {
    out += mcp::detail::pointer_escape(token);
}

} // namespace mcp::schema::detail
