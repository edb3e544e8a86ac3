// The Host and Origin header values, read as RFC 9110 7.2 and RFC 6454 7 define them. A value
// that does not parse is refused before it is compared with anything: a lenient reader that
// takes "localhost:@evil.example" or "http://localhost:80@evil.example" for localhost lets a
// rebinding page pass the check.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcp::http::detail {

/// uri-host [":" port], split. `host` keeps the brackets of an IP-literal ("[::1]") and its
/// case as sent; `port` is empty when absent (or sent empty, "localhost:", which RFC 3986
/// allows and means the default port).
struct host_and_port {
    enum class kind { name, ipv4, ipv6, ipvfuture } type = kind::name;
    std::string host;
    std::string port;
    /// localhost (any case), an address of 127.0.0.0/8, or ::1 (in any notation).
    bool loopback = false;
};

/// A Host field value (RFC 9110 7.2: uri-host [":" port]; uri-host is an IP-literal in
/// brackets, an IPv4 address or a reg-name; port is up to 5 digits, at most 65535). nullopt when
/// malformed: anything else, including user information ("a@b"), a port that is not digits
/// ("localhost:abc"), text after an IP-literal ("[::1]evil"), or an empty host.
std::optional<host_and_port> parse_host(std::string_view value);

/// A serialized origin (RFC 6454 7: scheme "://" host [":" port], nothing more; or "null").
struct origin {
    bool opaque = false; ///< "null"
    std::string scheme;  ///< lower case
    host_and_port authority;
};

/// nullopt when `value` is not one serialized origin: no user information, no path (not even
/// "/"), no query or fragment, a scheme made of RFC 3986 scheme characters.
std::optional<origin> parse_origin(std::string_view value);

} // namespace mcp::http::detail
