// Host and Origin values (see authority.hpp): RFC 3986 3.2.2's host grammar, with Boost.URL
// for the IP addresses. Not Boost.URL's whole authority parser: it reads "127.0.0.1.evil.com"
// as an IPv4 address followed by garbage and refuses a valid name (RFC 3986 takes the name
// when the whole host is not an address).
#include "http/authority.hpp"

#include "http/core/request.hpp"

#include <boost/url/ipv4_address.hpp>
#include <boost/url/ipv6_address.hpp>

#include <cctype>

namespace mcp::http::detail {
namespace {

bool valid_port(std::string_view p) {
    if (p.size() > 5) return false;
    unsigned long n = 0;
    for (char c : p) {
        if (c < '0' || c > '9') return false;
        n = n * 10 + static_cast<unsigned long>(c - '0');
    }
    return n <= 65535;
}

// RFC 3986 unreserved / sub-delims.
bool unreserved_or_sub_delim(char c) {
    constexpr std::string_view punctuation = "-._~!$&'()*+,;="; // unreserved's, then sub-delims
    return std::isalnum(static_cast<unsigned char>(c)) || punctuation.find(c) != std::string_view::npos;
}

bool scheme_char(char c, bool first) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (first) return alpha;
    return alpha || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

} // namespace

std::optional<host_and_port> parse_host(std::string_view value) {
    host_and_port out;
    std::string_view rest;
    if (!value.empty() && value.front() == '[') { // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
        const auto close = value.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const auto inside = value.substr(1, close - 1);
        if (!inside.empty() && (inside.front() == 'v' || inside.front() == 'V')) {
            // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            const auto dot = inside.find('.');
            if (dot == std::string_view::npos || dot < 2 || dot + 1 == inside.size()) return std::nullopt;
            for (char c : inside.substr(1, dot - 1))
                if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
            for (char c : inside.substr(dot + 1))
                if (!unreserved_or_sub_delim(c) && c != ':') return std::nullopt;
            out.type = host_and_port::kind::ipvfuture;
        } else {
            auto v6 = boost::urls::parse_ipv6_address(boost::urls::string_view(inside.data(), inside.size()));
            if (!v6) return std::nullopt;
            out.type = host_and_port::kind::ipv6;
            out.loopback = v6->is_loopback();
        }
        out.host = std::string(value.substr(0, close + 1));
        rest = value.substr(close + 1);
    } else { // IPv4address / reg-name = *( unreserved / pct-encoded / sub-delims )
        const auto colon = value.find(':');
        const auto host = value.substr(0, colon);
        if (host.empty()) return std::nullopt;
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host[i] == '%') {
                if (i + 2 >= host.size() || !std::isxdigit(static_cast<unsigned char>(host[i + 1])) ||
                    !std::isxdigit(static_cast<unsigned char>(host[i + 2])))
                    return std::nullopt;
                i += 2;
            } else if (!unreserved_or_sub_delim(host[i])) {
                return std::nullopt;
            }
        }
        // The whole name an IPv4 address: one ("1.2.3.4.nip.io" is a name).
        if (auto v4 = boost::urls::parse_ipv4_address(boost::urls::string_view(host.data(), host.size()))) {
            out.type = host_and_port::kind::ipv4;
            out.loopback = v4->is_loopback();
        } else {
            out.type = host_and_port::kind::name;
            out.loopback = core::iequals(host, "localhost");
        }
        out.host = std::string(host);
        rest = colon == std::string_view::npos ? std::string_view() : value.substr(colon);
    }
    if (rest.empty()) return out;
    if (rest.front() != ':' || !valid_port(rest.substr(1))) return std::nullopt;
    out.port = std::string(rest.substr(1));
    return out;
}

std::optional<origin> parse_origin(std::string_view value) {
    if (value == "null") return origin{.opaque = true};
    const auto sep = value.find("://");
    if (sep == std::string_view::npos || sep == 0) return std::nullopt;
    origin out;
    for (std::size_t i = 0; i < sep; ++i) {
        if (!scheme_char(value[i], i == 0)) return std::nullopt;
        out.scheme.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(value[i]))));
    }
    const auto rest = value.substr(sep + 3);
    // An origin ends with its authority: a path ("/"), a query or a fragment make it a URL.
    if (rest.find_first_of("/?#") != std::string_view::npos) return std::nullopt;
    auto authority = parse_host(rest);
    if (!authority) return std::nullopt;
    out.authority = std::move(*authority);
    return out;
}

} // namespace mcp::http::detail
