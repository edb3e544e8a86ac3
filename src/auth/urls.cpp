// The URL arithmetic of the OAuth client, over Boost.URL.
#include "auth/urls.hpp"

#include <mcp/auth/client_authorizer.hpp>

#include <boost/algorithm/string/case_conv.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <boost/url/url.hpp>

#include <locale>
#include <stdexcept>

namespace mcp::auth {

namespace urls = boost::urls;

namespace {

std::string lower(std::string_view s) {
    return boost::algorithm::to_lower_copy(std::string(s), std::locale::classic());
}

urls::url parse_http(std::string_view text) {
    auto r = urls::parse_uri(text);
    if (!r) throw std::invalid_argument("not a valid URL");
    urls::url u(*r);
    const std::string scheme = lower(u.scheme());
    if (scheme != "http" && scheme != "https") throw std::invalid_argument("not an http:// or https:// URL");
    if (!u.has_authority() || u.host().empty()) throw std::invalid_argument("the URL has no host");
    // Boost.URL 1.81 reads "http://127.0.0.1.evil.com/x" as host 127.0.0.1 and path
    // ".evil.com/x"; after an authority a path must start with '/'.
    if (!u.encoded_path().empty() && u.encoded_path().front() != '/')
        throw std::invalid_argument("the URL's host is not valid");
    u.set_scheme(scheme);
    if (u.host_type() == urls::host_type::name) u.set_host(lower(u.host()));
    if ((scheme == "http" && u.port() == "80") || (scheme == "https" && u.port() == "443")) u.remove_port();
    if (u.has_port() && u.port().empty()) u.remove_port();
    u.remove_userinfo();
    return u;
}

std::string origin(const urls::url& u) {
    return std::string(u.scheme()) + "://" + std::string(u.encoded_host_and_port());
}

// The path without a trailing slash ("" for "/" or none).
std::string trimmed_path(const urls::url& u) {
    std::string p(u.encoded_path());
    while (!p.empty() && p.back() == '/') p.pop_back();
    return p;
}

bool loopback_host(const urls::url& u) {
    switch (u.host_type()) {
    case urls::host_type::ipv4:
        return u.host_address().rfind("127.", 0) == 0;
    case urls::host_type::ipv6:
        return u.host_address() == "::1";
    case urls::host_type::name:
        return lower(u.host()) == "localhost";
    default:
        return false;
    }
}

} // namespace

std::string canonical_resource_uri(std::string_view url) {
    urls::url u = parse_http(url);
    u.remove_fragment();
    std::string out = origin(u) + trimmed_path(u);
    if (u.has_query()) out += "?" + std::string(u.encoded_query());
    return out;
}

namespace detail {

std::string origin_of(std::string_view url) {
    return origin(parse_http(url));
}

std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url) {
    const urls::url u = parse_http(server_url);
    const std::string base = origin(u) + "/.well-known/oauth-protected-resource";
    const std::string path = trimmed_path(u);
    if (path.empty()) return {base};
    return {base + path, base};
}

std::vector<std::string> authorization_metadata_urls(std::string_view issuer) {
    const urls::url u = parse_http(issuer);
    const std::string o = origin(u);
    const std::string path = trimmed_path(u);
    if (path.empty())
        return {o + "/.well-known/oauth-authorization-server", o + "/.well-known/openid-configuration"};
    return {o + "/.well-known/oauth-authorization-server" + path, o + "/.well-known/openid-configuration" + path,
            o + path + "/.well-known/openid-configuration"};
}

bool resource_matches(std::string_view resource, std::string_view server_url) {
    try {
        const urls::url r = parse_http(resource);
        const urls::url s = parse_http(server_url);
        if (origin(r) != origin(s)) return false;
        const std::string rp = trimmed_path(r);
        const std::string sp = trimmed_path(s);
        if (rp.empty() || rp == sp) return true;
        return sp.size() > rp.size() && sp.compare(0, rp.size(), rp) == 0 && sp[rp.size()] == '/';
    } catch (const std::invalid_argument&) {
        return false;
    }
}

std::string with_query(std::string_view url, const param_list& params) {
    auto r = urls::parse_uri(url);
    if (!r) throw std::invalid_argument("not a valid URL");
    urls::url u(*r);
    for (const auto& [k, v] : params) u.params().append({k, v});
    return std::string(u.buffer());
}

std::map<std::string, std::string> query_params(std::string_view url) {
    auto r = urls::parse_uri_reference(url);
    if (!r) throw std::invalid_argument("not a valid URL");
    std::map<std::string, std::string> out;
    for (auto p : r->params()) out.emplace(std::string(p.key), p.has_value ? std::string(p.value) : std::string());
    return out;
}

std::string form_encode(const param_list& params) {
    std::string out;
    for (const auto& [k, v] : params) {
        if (!out.empty()) out += '&';
        out += urls::encode(k, urls::unreserved_chars);
        out += '=';
        out += urls::encode(v, urls::unreserved_chars);
    }
    return out;
}

bool acceptable_redirect_uri(std::string_view uri) {
    try {
        const urls::url u = parse_http(uri);
        if (u.has_fragment()) return false;
        return u.scheme() == "https" || loopback_host(u);
    } catch (const std::invalid_argument&) {
        return false;
    }
}

bool acceptable_endpoint(std::string_view url) {
    return acceptable_redirect_uri(url);
}

std::string display_url(std::string_view url) {
    try {
        const urls::url u = parse_http(url);
        return origin(u) + std::string(u.encoded_path());
    } catch (const std::invalid_argument&) {
        return "(an invalid URL)";
    }
}

} // namespace detail

} // namespace mcp::auth
