// http/client/mcp_headers.cpp - see mcp_headers.hpp.
#include "mcp_headers.hpp"

#include "errors.hpp" // printable

#include <mcp/json/base64.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>

namespace mcp::http::detail {

std::string encode_header_value(std::string_view v) {
    bool plain = !v.empty() && v.front() != ' ' && v.front() != '\t' && v.back() != ' ' && v.back() != '\t';
    for (std::size_t i = 0; plain && i < v.size(); ++i) {
        const auto c = static_cast<unsigned char>(v[i]);
        plain = c == '\t' || (c >= 0x20 && c <= 0x7E);
    }
    // A plain value that looks like an encoded one must be encoded, or it would be decoded.
    if (plain && v.size() >= 11 && v.substr(0, 9) == "=?base64?" && v.substr(v.size() - 2) == "?=")
        plain = false;
    if (plain) return std::string(v);
    // The empty string has no plain form (header whitespace trimming would make it absent):
    // it encodes to the sentinel around nothing.
    return "=?base64?" + base64::encode(v) + "?=";
}

namespace {

constexpr std::int64_t max_safe_integer = 9007199254740991; // 2^53 - 1

// An integer (or an integral double) outside -(2^53-1) .. 2^53-1.
bool unsafe_integer(const json::value& v) {
    switch (v.kind()) {
    case json::kind::int64:
        return v.get_int64() > max_safe_integer || v.get_int64() < -max_safe_integer;
    case json::kind::uint64:
        return v.get_uint64() > static_cast<std::uint64_t>(max_safe_integer);
    case json::kind::double_: {
        const double d = v.get_double();
        return std::isfinite(d) && std::trunc(d) == d && std::fabs(d) > static_cast<double>(max_safe_integer);
    }
    default:
        return false;
    }
}

const json::value* argument_at(const json::value& arguments, const std::vector<std::string>& path) {
    const json::value* v = &arguments;
    for (const auto& step : path) {
        if (!v->is_object()) return nullptr;
        v = v->get_object().if_contains(step);
        if (!v) return nullptr;
    }
    return v;
}

} // namespace

std::optional<std::string> header_text(const json::value& v) {
    if (unsafe_integer(v)) return std::nullopt;
    switch (v.kind()) {
    case json::kind::string:
        return std::string(v.get_string());
    case json::kind::int64:
        return std::to_string(v.get_int64());
    case json::kind::uint64:
        return std::to_string(v.get_uint64());
    case json::kind::bool_:
        return v.get_bool() ? "true" : "false";
    case json::kind::double_: {
        const double d = v.get_double();
        if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
        return std::to_string(static_cast<long long>(d));
    }
    default:
        return std::nullopt;
    }
}

std::string unmirrorable_argument(const std::vector<header_parameter>& params, const json::value& arguments) {
    for (const auto& p : params) {
        const json::value* v = argument_at(arguments, p.path);
        if (!v || !unsafe_integer(*v)) continue;
        std::string at;
        for (const auto& step : p.path) at += "/" + step;
        return "the argument " + printable(at) + " (" + to_json(*v) +
               ") is mirrored into the header Mcp-Param-" + printable(p.name) +
               ", and a header may carry only integers from -(2^53-1) to 2^53-1 (the 2026-07-28 Streamable "
               "HTTP transport, \"Custom Headers from Tool Parameters\")";
    }
    return {};
}

std::vector<std::pair<std::string, std::string>> param_headers(const std::vector<header_parameter>& params,
                                                               const json::value& arguments) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : params) {
        const json::value* v = argument_at(arguments, p.path);
        if (!v) continue; // absent: the header is omitted
        auto text = header_text(*v);
        if (!text) continue; // null (or not a primitive)
        out.emplace_back("Mcp-Param-" + p.name, encode_header_value(*text));
    }
    return out;
}

tools_filter filter_tools(json::object& result) {
    tools_filter f;
    auto* tools = result.if_contains("tools");
    if (!tools || !tools->is_array()) return f;
    auto& arr = tools->get_array();
    for (auto it = arr.begin(); it != arr.end();) {
        std::string name;
        const json::value* schema = nullptr;
        if (it->is_object()) {
            const auto& t = it->get_object();
            if (auto n = find_string(t, "name")) name = std::string(*n);
            schema = t.if_contains("inputSchema");
        }
        header_annotations a = schema ? read_header_annotations(*schema) : header_annotations{};
        if (!a.error.empty()) {
            f.dropped.emplace_back(name, std::move(a.error));
            it = arr.erase(it);
            continue;
        }
        if (!a.params.empty()) f.annotated.emplace(name, std::move(a.params));
        f.listed.push_back(std::move(name));
        ++it;
    }
    return f;
}

} // namespace mcp::http::detail
