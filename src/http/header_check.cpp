// Checks of the stateless era's mirrored headers (see header_check.hpp).
#include "http/header_check.hpp"

#include <mcp/json/base64.hpp>

#include <charconv>
#include <cmath>

namespace mcp::http::detail {
namespace {

std::string_view trim_ows(std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    return v;
}

const json::value* at_path(const json::object& arguments, const std::vector<std::string>& path) {
    const json::object* o = &arguments;
    const json::value* v = nullptr;
    for (std::size_t i = 0; i < path.size(); ++i) {
        v = o->if_contains(path[i]);
        if (!v) return nullptr;
        if (i + 1 < path.size()) {
            o = v->if_object();
            if (!o) return nullptr;
        }
    }
    return v;
}

/// A decimal number exactly as written: sign, significant digits, and the power of ten of the
/// last digit ("-4.20" -> {true, "42", -1}; zero is {false, "", 0}).
struct decimal {
    bool negative = false;
    std::string digits;
    long exponent = 0;
    bool operator==(const decimal&) const = default;
};

/// Reads a JSON-style number ("42", "-7", "42.0", "4.2e1"); nullopt when `s` is not one. The
/// exponent is bounded so that no value costs more than a few hundred digits.
std::optional<decimal> read_decimal(std::string_view s) {
    decimal d;
    std::size_t i = 0;
    if (i < s.size() && s[i] == '-') d.negative = true, ++i;
    auto digit = [&](std::size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
    if (!digit(i)) return std::nullopt;
    long fraction_digits = 0;
    for (; digit(i); ++i) d.digits.push_back(s[i]);
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digit(i)) return std::nullopt;
        for (; digit(i); ++i, ++fraction_digits) d.digits.push_back(s[i]);
    }
    long exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool negative = false;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
        if (!digit(i)) return std::nullopt;
        for (; digit(i); ++i) {
            exponent = exponent * 10 + (s[i] - '0');
            if (exponent > 400) return std::nullopt;
        }
        if (negative) exponent = -exponent;
    }
    if (i != s.size()) return std::nullopt;
    d.exponent = exponent - fraction_digits;
    // Canonical: no leading or trailing zeros in the digits.
    const auto first = d.digits.find_first_not_of('0');
    if (first == std::string::npos) return decimal{};
    d.digits.erase(0, first);
    while (d.digits.back() == '0') d.digits.pop_back(), ++d.exponent;
    return d;
}

/// A JSON number of the body as an exact decimal. Integers are exact as they are; a double is
/// exact in its shortest round-trip form (what a client printing it would write), except a
/// whole number, which is exact in full ("1e20" is 100000000000000000000).
std::optional<decimal> body_decimal(const json::value& body) {
    char buf[400];
    std::to_chars_result r{};
    if (body.is_int64())
        r = std::to_chars(buf, buf + sizeof buf, body.get_int64());
    else if (body.is_uint64())
        r = std::to_chars(buf, buf + sizeof buf, body.get_uint64());
    else if (body.is_double()) {
        const double v = body.get_double();
        if (!std::isfinite(v)) return std::nullopt;
        if (std::trunc(v) == v)
            r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0);
        else
            r = std::to_chars(buf, buf + sizeof buf, v);
    } else
        return std::nullopt;
    if (r.ec != std::errc()) return std::nullopt;
    return read_decimal(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

// Does the decoded header value say the same as the body value? Numbers are compared by value,
// exactly ("42.0" and 42 agree; 9007199254740993 and 9007199254740992 do not).
bool same_value(const std::string& header, const json::value& body) {
    if (body.is_string()) return header == body.get_string();
    if (body.is_bool()) return header == (body.get_bool() ? "true" : "false");
    if (body.is_number()) {
        const auto h = read_decimal(header);
        const auto b = body_decimal(body);
        return h && b && *h == *b;
    }
    return false; // objects, arrays: never mirrored
}

std::string quoted(std::string_view s) {
    std::string out = "'";
    for (char c : s.substr(0, 80)) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
    if (s.size() > 80) out += "...";
    return out + "'";
}

} // namespace

std::optional<std::string> decode_header_value(std::string_view raw) {
    const auto v = trim_ows(raw);
    constexpr std::string_view prefix = "=?base64?", suffix = "?=";
    if (v.size() >= prefix.size() + suffix.size() && v.substr(0, prefix.size()) == prefix &&
        v.substr(v.size() - suffix.size()) == suffix) {
        auto decoded = base64::decode(v.substr(prefix.size(), v.size() - prefix.size() - suffix.size()));
        if (!decoded) return std::nullopt;
        return decoded;
    }
    for (char c : v) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f || u >= 0x80) return std::nullopt;
    }
    return std::string(v);
}

std::optional<std::string> check_mirrored_headers(const core::request& http, const json::object& message,
                                                  std::string_view meta_version,
                                                  const header_param_lookup& lookup) {
    // A mirrored header sent on several lines means their values joined by commas (RFC 9110
    // 5.3), which is never what the body says; intermediaries may read one line or another.
    const auto repeated = [&](std::string_view name) -> std::optional<std::string> {
        const auto n = http.header_count(name);
        if (n < 2) return std::nullopt;
        return "Header mismatch: the " + std::string(name) + " header is repeated (" + std::to_string(n) +
               " lines); send it once";
    };
    if (auto r = repeated("MCP-Protocol-Version")) return r;
    const auto version = http.header("MCP-Protocol-Version");
    if (!version) return "Header mismatch: the MCP-Protocol-Version header is required";
    if (trim_ows(*version) != meta_version)
        return "Header mismatch: MCP-Protocol-Version header value " + quoted(*version) +
               " does not match _meta protocolVersion " + quoted(meta_version);
    const std::string_view method = message.at("method").get_string();
    if (auto r = repeated("Mcp-Method")) return r;
    const auto mcp_method = http.header("Mcp-Method");
    if (!mcp_method) return "Header mismatch: the Mcp-Method header is required";
    if (trim_ows(*mcp_method) != method)
        return "Header mismatch: Mcp-Method header value " + quoted(*mcp_method) +
               " does not match body method " + quoted(method);

    if (auto r = repeated("Mcp-Name")) return r;
    const json::object* params = find_object(message, "params");
    const bool named = method == "tools/call" || method == "prompts/get" || method == "resources/read";
    if (named && params) {
        const char* key = method == "resources/read" ? "uri" : "name";
        if (auto body_name = find_string(*params, key)) {
            const auto header = http.header("Mcp-Name");
            if (!header) return "Header mismatch: the Mcp-Name header is required for " + std::string(method);
            auto decoded = decode_header_value(*header);
            if (!decoded) return "Header mismatch: the Mcp-Name header value is malformed";
            if (*decoded != *body_name)
                return "Header mismatch: Mcp-Name header value " + quoted(*decoded) +
                       " does not match body " + std::string(key) + " " + quoted(*body_name);
        }
    }
    if (method != "tools/call" || !params || !lookup) return std::nullopt;
    auto name = find_string(*params, "name");
    if (!name) return std::nullopt;
    auto annotated = lookup(std::string(*name));
    if (!annotated || annotated->empty()) return std::nullopt;
    static const json::object no_arguments;
    const json::object* arguments = find_object(*params, "arguments");
    if (!arguments) arguments = &no_arguments;
    for (const auto& p : *annotated) {
        const std::string header_name = "Mcp-Param-" + p.name;
        if (auto r = repeated(header_name)) return r;
        const json::value* value = at_path(*arguments, p.path);
        const auto header = http.header(header_name);
        if (!value || value->is_null()) {
            // Nothing to mirror: the header must not come either (it would say what the body does not).
            if (header)
                return "Header mismatch: the " + header_name +
                       " header is sent but the argument is not in the body";
            continue;
        }
        if (!header)
            return "Header mismatch: the " + header_name +
                   " header is required (the argument is in the body)";
        auto decoded = decode_header_value(*header);
        if (!decoded) return "Header mismatch: the " + header_name + " header value is malformed";
        if (!same_value(*decoded, *value))
            return "Header mismatch: " + header_name + " header value " + quoted(*decoded) +
                   " does not match the argument in the body";
    }
    return std::nullopt;
}

} // namespace mcp::http::detail
