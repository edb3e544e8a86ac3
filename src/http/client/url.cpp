// http/client/url.cpp - URL parsing and reference resolution with Boost.URL.
#include "url.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::http::detail {

namespace urls = boost::urls;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

std::optional<url_parts> parse_url(std::string_view text, std::string* why) {
    auto fail = [&](std::string reason) -> std::optional<url_parts> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    auto r = urls::parse_uri(text); // absolute, a fragment allowed (and ignored)
    if (!r) return fail("not a valid URL");
    const urls::url_view& u = *r;
    url_parts p;
    const std::string scheme = lower(u.scheme());
    if (scheme == "https")
        p.tls = true;
    else if (scheme != "http")
        return fail("not an http:// or https:// URL");
    if (!u.has_authority()) return fail("the URL has no host");

    std::string host_text;
    switch (u.host_type()) {
    case urls::host_type::ipv4:
        p.host = u.host_address();
        p.host_is_ip = true;
        host_text = p.host;
        break;
    case urls::host_type::ipv6:
        p.host = u.host_address(); // without brackets
        p.host_is_ip = true;
        host_text = "[" + p.host + "]";
        break;
    case urls::host_type::name:
        p.host = lower(u.host_name()); // decoded: percent-encoded names are rare and still work
        host_text = p.host;
        break;
    default:
        return fail("the URL's host is not supported");
    }
    if (p.host.empty()) return fail("the URL has no host");

    const std::string default_port = p.tls ? "443" : "80";
    p.port = u.has_port() && !u.port().empty() ? std::string(u.port()) : default_port;
    if (u.has_port()) {
        const auto n = u.port_number();
        if (n == 0) return fail("the URL's port is not valid");
        p.port = std::to_string(n);
    }
    const bool explicit_port = p.port != default_port;
    p.host_header = explicit_port ? host_text + ":" + p.port : host_text;
    p.origin = scheme + "://" + p.host_header;

    std::string path(u.encoded_path());
    if (path.empty()) path = "/";
    p.target = path;
    if (u.has_query()) p.target += "?" + std::string(u.encoded_query());
    p.display = p.origin + path;
    return p;
}

std::optional<std::string> resolve_reference(std::string_view base, std::string_view reference) {
    auto b = urls::parse_uri(base);
    if (!b) return std::nullopt;
    auto ref = urls::parse_uri_reference(reference);
    if (!ref) return std::nullopt;
    urls::url out;
    if (auto r = urls::resolve(*b, *ref, out); !r) return std::nullopt;
    return std::string(out.buffer());
}

} // namespace mcp::http::detail
