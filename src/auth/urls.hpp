// auth/urls.hpp - the URLs of the OAuth flow: well-known metadata locations (RFC 9728 section
// 3.1, RFC 8414 section 3.1, OpenID Connect discovery), query strings and form bodies.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::auth::detail {

using param_list = std::vector<std::pair<std::string, std::string>>;

/// scheme://host[:port] of an absolute URL (lowercased scheme and host, default port dropped).
/// Throws std::invalid_argument for a URL that is not http(s) with a host.
std::string origin_of(std::string_view url);

/// Where to look for the Protected Resource Metadata of `server_url` when the challenge names
/// none: the path-suffixed well-known URI, then the root one.
std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url);

/// Where to look for the metadata of the authorization server `issuer`, in the spec's order.
std::vector<std::string> authorization_metadata_urls(std::string_view issuer);

/// Does the PRM's `resource` name the server at `server_url`? Same origin, and its path is
/// the server's path or a parent of it on a segment boundary.
bool resource_matches(std::string_view resource, std::string_view server_url);

/// `url` with `params` appended to its query, percent-encoded.
std::string with_query(std::string_view url, const param_list& params);

/// The decoded query parameters of an absolute URL (the first value of each name).
/// Throws std::invalid_argument for a URL that does not parse.
std::map<std::string, std::string> query_params(std::string_view url);

/// application/x-www-form-urlencoded body.
std::string form_encode(const param_list& params);

/// A redirect URI a native client may use (RFC 8252): http on a loopback host (127.0.0.0/8,
/// [::1], localhost), or https.
bool acceptable_redirect_uri(std::string_view uri);

/// http on a loopback host, or https: where an authorization server's endpoints may be.
bool acceptable_endpoint(std::string_view url);

/// scheme://host[:port]/path of a URL (no query, user info or fragment), for messages.
std::string display_url(std::string_view url);

} // namespace mcp::auth::detail
