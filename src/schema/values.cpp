// schema/values.cpp - JSON value helpers of the evaluator: JSON Schema's notion of types,
// numeric comparison (exact for integers), multipleOf, equality and Unicode length.
#include "schema/values.hpp"

#include <algorithm>
#include <cmath>

namespace mcp::schema::detail {

const char* kind_name(const json::value& v) noexcept {
    switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return "boolean";
    case json::kind::int64:
    case json::kind::uint64: return "integer";
    case json::kind::double_: return "number";
    case json::kind::string: return "string";
    case json::kind::array: return "array";
    case json::kind::object: return "object";
    }
    return "value";
}

bool is_integral(const json::value& v) noexcept {
    if (v.is_int64() || v.is_uint64()) return true;
    if (v.is_double()) {
        double d = v.get_double();
        return std::isfinite(d) && std::floor(d) == d;
    }
    return false;
}

std::uint8_t type_bits_of(const json::value& v) noexcept {
    switch (v.kind()) {
    case json::kind::null: return t_null;
    case json::kind::bool_: return t_boolean;
    case json::kind::int64:
    case json::kind::uint64: return t_integer | t_number;
    case json::kind::double_: return is_integral(v) ? (t_integer | t_number) : t_number;
    case json::kind::string: return t_string;
    case json::kind::array: return t_array;
    case json::kind::object: return t_object;
    }
    return 0;
}

/// -1, 0, 1; exact when both are integers, else through double.
int compare_numbers(const json::value& a, const json::value& b) noexcept {
    if (a.is_int64() && b.is_int64()) return a.get_int64() < b.get_int64() ? -1 : a.get_int64() > b.get_int64();
    if (a.is_uint64() && b.is_uint64()) return a.get_uint64() < b.get_uint64() ? -1 : a.get_uint64() > b.get_uint64();
    if (a.is_int64() && b.is_uint64()) return a.get_int64() < 0 || static_cast<std::uint64_t>(a.get_int64()) < b.get_uint64() ? -1 : static_cast<std::uint64_t>(a.get_int64()) > b.get_uint64();
    if (a.is_uint64() && b.is_int64()) return -compare_numbers(b, a);
    double x = a.to_number<double>(), y = b.to_number<double>();
    return x < y ? -1 : x > y;
}

bool is_multiple_of(const json::value& x, const json::value& m) noexcept {
    if (x.is_int64() && m.is_int64() && m.get_int64() > 0) return x.get_int64() % m.get_int64() == 0;
    double a = x.to_number<double>(), b = m.to_number<double>();
    double q = a / b;
    if (!std::isfinite(q)) return false;
    return std::fabs(q - std::round(q)) <= 1e-9 * std::max(1.0, std::fabs(q));
}

std::string type_list(std::uint8_t bits) {
    static constexpr std::pair<std::uint8_t, const char*> names[] = {
        {t_null, "null"},     {t_boolean, "boolean"}, {t_integer, "integer"}, {t_number, "number"},
        {t_string, "string"}, {t_array, "array"},     {t_object, "object"}};
    std::string out;
    for (auto [b, n] : names) {
        if (!(bits & b)) continue;
        if (!out.empty()) out += " or ";
        out += n;
    }
    return out.empty() ? "nothing" : out;
}

namespace {
// Recursion is bounded so that comparing two hostile, deeply nested instances (uniqueItems)
// cannot overflow the stack; values nested deeper than this compare unequal.
bool json_equal_at(const json::value& a, const json::value& b, unsigned depth) noexcept {
    if (depth > 1000) return false;
    if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
    case json::kind::null: return true;
    case json::kind::bool_: return a.get_bool() == b.get_bool();
    case json::kind::string: return a.get_string() == b.get_string();
    case json::kind::array: {
        const auto &x = a.get_array(), &y = b.get_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!json_equal_at(x[i], y[i], depth + 1)) return false;
        return true;
    }
    case json::kind::object: {
        const auto &x = a.get_object(), &y = b.get_object();
        if (x.size() != y.size()) return false;
        for (const auto& [k, val] : x) {
            auto it = y.find(k);
            if (it == y.end() || !json_equal_at(val, it->value(), depth + 1)) return false;
        }
        return true;
    }
    default: return false;
    }
}
} // namespace

bool json_equal(const json::value& a, const json::value& b) noexcept { return json_equal_at(a, b, 0); }

std::size_t utf8_length(std::string_view s) noexcept {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80; // count every byte that starts a code point
    return n;
}

} // namespace mcp::schema::detail
