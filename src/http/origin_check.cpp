// Host / Origin validation (see origin_check.hpp).
#include "http/origin_check.hpp"

#include "http/authority.hpp"
#include "http/core/request.hpp"

namespace mcp::http::detail {
namespace {

// A header value as it may appear in a message: control characters shown as '?', long values cut.
std::string shown(std::string_view v) {
    std::string out;
    for (char c : v.substr(0, 100))
        out.push_back(static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f ? '?'
                                                                                                    : c);
    if (v.size() > 100) out += "...";
    return out;
}

} // namespace

origin_check::origin_check(std::vector<std::string> hosts, std::vector<std::string> origins,
                           bool bound_to_loopback)
    : hosts_(std::move(hosts)), origins_(std::move(origins)) {
    for (const auto& h : hosts_)
        if (h == "*") check_hosts_ = false;
    for (const auto& o : origins_)
        if (o == "*") check_origins_ = false;
    if (hosts_.empty()) {
        // Bound to a loopback address, only loopback names can legitimately reach us; bound
        // elsewhere, the names are the operator's to list.
        if (bound_to_loopback)
            loopback_hosts_ = true;
        else
            check_hosts_ = false;
    }
    if (origins_.empty()) loopback_origins_ = true;
}

bool origin_check::is_loopback_host(std::string_view host_and_port) {
    const auto h = parse_host(host_and_port);
    return h && h->loopback;
}

bool origin_check::host_ok(std::string_view value, const host_and_port& host) const {
    if (loopback_hosts_ && host.loopback) return true;
    for (const auto& h : hosts_)
        if (core::iequals(h, value) || core::iequals(h, host.host)) return true;
    return false;
}

bool origin_check::origin_ok(std::string_view value, const origin& o) const {
    for (const auto& allowed : origins_)
        if (core::iequals(allowed, value)) return true;
    if (!loopback_origins_ || o.opaque) return false;
    return (o.scheme == "http" || o.scheme == "https") && o.authority.loopback;
}

std::optional<origin_check::refusal> origin_check::check(std::optional<std::string_view> host,
                                                         std::optional<std::string_view> origin_value) const {
    // Malformed values are refused whatever the configuration: RFC 9112 3.2 asks for 400 for an
    // invalid Host, and an Origin that does not parse cannot be compared with anything.
    std::optional<host_and_port> parsed_host;
    if (host && !host->empty()) {
        parsed_host = parse_host(*host);
        if (!parsed_host)
            return refusal{400, "Bad Request: Host '" + shown(*host) +
                                    "' is malformed (expected host[:port], RFC 9110 7.2: a name, an IPv4 "
                                    "address or a bracketed IPv6 address, then an optional port of digits)"};
    }
    std::optional<origin> parsed_origin;
    if (origin_value) {
        parsed_origin = parse_origin(*origin_value);
        if (!parsed_origin)
            return refusal{403, "Forbidden: Origin '" + shown(*origin_value) +
                                    "' is malformed (expected scheme://host[:port] or null, RFC 6454 7)"};
    }
    if (check_hosts_ && (!parsed_host || !host_ok(*host, *parsed_host)))
        return refusal{403, "Forbidden: Host " + (host ? "'" + shown(*host) + "'" : std::string("(none)")) +
                                " is not allowed (DNS rebinding protection)"};
    if (check_origins_ && parsed_origin && !origin_ok(*origin_value, *parsed_origin))
        return refusal{403, "Forbidden: Origin '" + shown(*origin_value) +
                                "' is not allowed (DNS rebinding protection)"};
    return std::nullopt;
}

} // namespace mcp::http::detail
