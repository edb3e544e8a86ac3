// schema/uri.cpp - RFC 3986 reference resolution (Boost.URL) and JSON pointer helpers for
// $ref / $id.
#include "schema/uri.hpp"

#include <mcp/json/type_codec.hpp>

#include <boost/url/parse.hpp>
#include <boost/url/pct_string_view.hpp>
#include <boost/url/url.hpp>

namespace mcp::schema::detail {

// Boost.URL resolves against an absolute URI only; a base without a scheme ("", "dir/a.json":
// a schema given no $id, or a relative $id) gets a stand-in scheme, taken off again after.
std::string resolve_uri(std::string_view base, std::string_view ref) {
    constexpr std::string_view stand_in = "x-mcpxx-base:";
    auto r = boost::urls::parse_uri_reference(ref);
    if (!r) return std::string(ref); // not a URI reference: nothing to resolve, and nothing will match
    auto b = boost::urls::parse_uri(base);
    std::string with_scheme;
    if (!b) {
        with_scheme = std::string(stand_in) + std::string(base);
        b = boost::urls::parse_uri(with_scheme);
        if (!b) return std::string(ref);
    }
    boost::urls::url target;
    if (!boost::urls::resolve(*b, *r, target)) return std::string(ref);
    std::string out(target.buffer());
    if (!with_scheme.empty() && out.compare(0, stand_in.size(), stand_in) == 0) out.erase(0, stand_in.size());
    return out;
}

std::pair<std::string_view, std::string_view> split_fragment(std::string_view uri) noexcept {
    auto hash = uri.find('#');
    if (hash == std::string_view::npos) return {uri, {}};
    return {uri.substr(0, hash), uri.substr(hash + 1)};
}

std::optional<std::string> percent_decode(std::string_view s) {
    auto escaped = boost::urls::make_pct_string_view(s);
    if (!escaped) return std::nullopt;
    return std::string(escaped->decode());
}

// By hand rather than Boost.JSON's find_pointer: walk_pointer (compile.cpp) needs every node on
// the way, to know the schema resource that encloses the target.
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
