// http/client/url.hpp - the parts of an http(s) URL that the client needs, read once.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcp::http::detail {

struct url_parts {
    bool tls = false;
    std::string host;        ///< to connect to: a name, an IPv4 literal or an IPv6 literal without brackets
    std::string port;        ///< "80" / "443" when the URL has none
    std::string target;      ///< path and query as sent in the request line ("/" when empty)
    std::string host_header; ///< the Host field: host, brackets for IPv6, port unless the default
    std::string origin;      ///< scheme://host[:port], lower-case scheme and host
    /// scheme://host[:port]/path - no user info, query or fragment, which may hold secrets:
    /// this is the form used in error messages and logs.
    std::string display;
    bool host_is_ip = false;
};

/// Parse an absolute http:// or https:// URL. On failure returns nullopt and sets `why`.
std::optional<url_parts> parse_url(std::string_view url, std::string* why = nullptr);

/// Resolve a URI reference (absolute, or relative such as "/messages?sessionId=1") against an
/// absolute base URL (RFC 3986 section 5). nullopt if either does not parse.
std::optional<std::string> resolve_reference(std::string_view base, std::string_view reference);

} // namespace mcp::http::detail
