// Compact JSON serialization with shortest round-trip doubles.
#include <mcp/json/json.hpp>

#include <charconv>
#include <cmath>

namespace mcp {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

// Characters that need escaping in a JSON string: '"', '\\' and control characters.
constexpr bool needs_escape(unsigned char c) noexcept {
    return c < 0x20 || c == '"' || c == '\\';
}

void append_double(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
    (void)ec;
    std::string_view s(buf, static_cast<std::size_t>(end - buf));
    out += s;
    // Keep the value a JSON number of "double" flavour so it parses back as a double:
    // "3" would come back as an integer. Integral doubles get ".0" unless in exponent form.
    if (s.find_first_of(".eE") == std::string_view::npos && s != "-0")
        out += ".0";
    else if (s == "-0")
        out += ".0";
}

} // namespace

void append_json_string(std::string& out, std::string_view s) {
    out.push_back('"');
    std::size_t run = 0; // start of the current run of characters that need no escaping
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (!needs_escape(c)) continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            out += "\\u00";
            out.push_back(hex_digits[c >> 4]);
            out.push_back(hex_digits[c & 0xF]);
        }
    }
    out.append(s.data() + run, s.size() - run);
    out.push_back('"');
}

void append_json(std::string& out, const json::value& v) {
    switch (v.kind()) {
    case json::kind::null:
        out += "null";
        break;
    case json::kind::bool_:
        out += v.get_bool() ? "true" : "false";
        break;
    case json::kind::int64: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_int64());
        out.append(buf, r.ptr);
        break;
    }
    case json::kind::uint64: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v.get_uint64());
        out.append(buf, r.ptr);
        break;
    }
    case json::kind::double_:
        append_double(out, v.get_double());
        break;
    case json::kind::string: {
        const auto& s = v.get_string();
        append_json_string(out, std::string_view(s.data(), s.size()));
        break;
    }
    case json::kind::array: {
        out.push_back('[');
        bool first = true;
        for (const auto& e : v.get_array()) {
            if (!first) out.push_back(',');
            first = false;
            append_json(out, e);
        }
        out.push_back(']');
        break;
    }
    case json::kind::object: {
        out.push_back('{');
        bool first = true;
        for (const auto& kv : v.get_object()) {
            if (!first) out.push_back(',');
            first = false;
            append_json_string(out, std::string_view(kv.key().data(), kv.key().size()));
            out.push_back(':');
            append_json(out, kv.value());
        }
        out.push_back('}');
        break;
    }
    }
}

std::string to_json(const json::value& v) {
    std::string out;
    out.reserve(128);
    append_json(out, v);
    return out;
}

std::optional<json::value> parse_json(std::string_view text, boost::system::error_code& ec) {
    json::parse_options opts;
    opts.max_depth = 64;
    json::value v = json::parse(text, ec, json::storage_ptr(), opts);
    if (ec) return std::nullopt;
    return v;
}

const json::value* find_member(const json::object& o, std::string_view key) noexcept {
    return o.if_contains(key);
}
const json::object* find_object(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    return v ? v->if_object() : nullptr;
}
const json::array* find_array(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    return v ? v->if_array() : nullptr;
}
std::optional<std::string_view> find_string(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    if (!v || !v->is_string()) return std::nullopt;
    const auto& s = v->get_string();
    return std::string_view(s.data(), s.size());
}
std::optional<bool> find_bool(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    if (!v || !v->is_bool()) return std::nullopt;
    return v->get_bool();
}
std::optional<double> find_number(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    if (!v) return std::nullopt;
    switch (v->kind()) {
    case json::kind::int64:
        return static_cast<double>(v->get_int64());
    case json::kind::uint64:
        return static_cast<double>(v->get_uint64());
    case json::kind::double_:
        return v->get_double();
    default:
        return std::nullopt;
    }
}
std::optional<std::int64_t> find_int(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    if (!v) return std::nullopt;
    switch (v->kind()) {
    case json::kind::int64:
        return v->get_int64();
    case json::kind::uint64:
        if (v->get_uint64() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<std::int64_t>(v->get_uint64());
    case json::kind::double_: {
        double d = v->get_double();
        if (std::floor(d) != d || d < -9.2e18 || d > 9.2e18) return std::nullopt;
        return static_cast<std::int64_t>(d);
    }
    default:
        return std::nullopt;
    }
}

} // namespace mcp
