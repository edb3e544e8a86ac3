// Host / Origin validation (see origin_check.hpp).
#include "http/origin_check.hpp"

#include "http/request.hpp"

namespace mcp::http::detail {
namespace {

// "host:port" -> "host" (keeps the brackets of an IPv6 literal); "host" -> "host".
std::string_view strip_port(std::string_view h) {
    if (!h.empty() && h.front() == '[') {
        const auto close = h.find(']');
        return close == std::string_view::npos ? h : h.substr(0, close + 1);
    }
    const auto colon = h.rfind(':');
    if (colon != std::string_view::npos && h.find(':') == colon) return h.substr(0, colon);
    return h;
}

bool loopback_name(std::string_view host) {
    return core::iequals(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
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
    return loopback_name(strip_port(host_and_port));
}

bool origin_check::host_ok(std::string_view host) const {
    if (loopback_hosts_ && is_loopback_host(host)) return true;
    for (const auto& h : hosts_)
        if (core::iequals(h, host) || core::iequals(h, strip_port(host))) return true;
    return false;
}

bool origin_check::origin_ok(std::string_view origin) const {
    for (const auto& o : origins_)
        if (core::iequals(o, origin)) return true;
    if (!loopback_origins_) return false;
    // scheme://host[:port] with scheme http or https and a loopback host.
    std::string_view rest;
    if (origin.substr(0, 7) == "http://")
        rest = origin.substr(7);
    else if (origin.substr(0, 8) == "https://")
        rest = origin.substr(8);
    else
        return false;
    if (rest.find('/') != std::string_view::npos) return false;
    return is_loopback_host(rest);
}

std::optional<std::string> origin_check::check(std::optional<std::string_view> host,
                                               std::optional<std::string_view> origin) const {
    if (check_hosts_ && (!host || !host_ok(*host)))
        return "Forbidden: Host " + (host ? "'" + std::string(*host) + "'" : std::string("(none)")) +
               " is not allowed (DNS rebinding protection)";
    if (check_origins_ && origin && !origin_ok(*origin))
        return "Forbidden: Origin '" + std::string(*origin) + "' is not allowed (DNS rebinding protection)";
    return std::nullopt;
}

} // namespace mcp::http::detail
