// Request-target forms (see request_target.hpp).
#include "http/request_target.hpp"

#include "http/core/request.hpp"

namespace mcp::http::detail {
namespace {

/// RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), followed by ':'.
std::size_t scheme_length(std::string_view t) {
    std::size_t i = 0;
    auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    if (t.empty() || !alpha(t[0])) return 0;
    while (i < t.size() &&
           (alpha(t[i]) || (t[i] >= '0' && t[i] <= '9') || t[i] == '+' || t[i] == '-' || t[i] == '.'))
        ++i;
    return i < t.size() && t[i] == ':' ? i : 0;
}

std::string shown(std::string_view target) {
    std::string out(target.substr(0, 100));
    if (target.size() > 100) out += "...";
    return out;
}

} // namespace

request_target read_request_target(std::string_view target) {
    request_target out;
    const auto scheme = scheme_length(target);
    if (scheme == 0) { // origin-form, asterisk-form, or something the router will not find
        out.origin_form = std::string(target);
        return out;
    }
    const auto bad = [&](std::string why) {
        out.error = "Bad Request: request-target '" + shown(target) + "' " + why;
        return out;
    };
    const auto name = target.substr(0, scheme);
    if (!core::iequals(name, "http") && !core::iequals(name, "https"))
        return bad("uses scheme '" + std::string(name) + "' (this server speaks http and https)");
    auto rest = target.substr(scheme + 1);
    if (rest.substr(0, 2) != "//")
        return bad("has no authority (expected " + std::string(name) + "://host/path)");
    rest.remove_prefix(2);
    const auto end = rest.find_first_of("/?#");
    const auto authority = rest.substr(0, end);
    if (authority.find('@') != std::string_view::npos)
        return bad("carries user information, which http(s) URIs must not");
    const auto colon = authority.rfind(':');
    const bool bracketed = !authority.empty() && authority.front() == '[';
    const auto host = colon != std::string_view::npos && (!bracketed || authority.find(']') < colon)
                          ? authority.substr(0, colon)
                          : authority;
    if (host.empty()) return bad("has an empty host");
    for (char c : authority)
        if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return bad("has a malformed authority");
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    if (rest.find('#') != std::string_view::npos) return bad("carries a fragment");
    out.authority = std::string(authority);
    out.origin_form = rest.empty() || rest.front() != '/' ? "/" + std::string(rest) : std::string(rest);
    return out;
}

} // namespace mcp::http::detail
