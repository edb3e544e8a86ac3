// schema/values.cpp - JSON value helpers of the evaluator: JSON Schema's notion of types,
// numeric comparison (exact for integers), multipleOf, equality and Unicode length.
#include "schema/values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <system_error>

namespace mcp::schema::detail {

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
    case json::kind::null:
        return t_null;
    case json::kind::bool_:
        return t_boolean;
    case json::kind::int64:
    case json::kind::uint64:
        return t_integer | t_number;
    case json::kind::double_:
        return is_integral(v) ? (t_integer | t_number) : t_number;
    case json::kind::string:
        return t_string;
    case json::kind::array:
        return t_array;
    case json::kind::object:
        return t_object;
    }
    return 0;
}

namespace {

int sign(bool less, bool greater) noexcept {
    return less ? -1 : greater ? 1 : 0;
}

// An integer against a double, exactly: converting the integer to double would round (2^53 + 1
// compares equal to 2^53.0, 2^64 - 1 equal to 2^64.0). Doubles in range are split into an
// integral part, which converts exactly, and a fraction that breaks ties.
int compare_int_double(std::int64_t i, double d) noexcept {
    if (std::isnan(d)) return 0;
    if (d >= 9223372036854775808.0) return -1; // 2^63
    if (d < -9223372036854775808.0) return 1;
    const double t = std::trunc(d);
    const auto ti = static_cast<std::int64_t>(t);
    if (i != ti) return sign(i<ti, i> ti);
    return sign(d > t, d < t);
}

int compare_uint_double(std::uint64_t u, double d) noexcept {
    if (std::isnan(d)) return 0;
    if (d >= 18446744073709551616.0) return -1; // 2^64
    if (d < 0) return 1;
    const double t = std::trunc(d);
    const auto tu = static_cast<std::uint64_t>(t);
    if (u != tu) return sign(u<tu, u> tu);
    return d > t ? -1 : 0;
}

} // namespace

/// -1, 0, 1; exact for every pair of int64, uint64 and double.
int compare_numbers(const json::value& a, const json::value& b) noexcept {
    switch (a.kind()) {
    case json::kind::int64: {
        const std::int64_t x = a.get_int64();
        if (b.is_int64()) return sign(x<b.get_int64(), x> b.get_int64());
        if (b.is_uint64())
            return x < 0 ? -1
                         : sign(static_cast<std::uint64_t>(x) < b.get_uint64(),
                                static_cast<std::uint64_t>(x) > b.get_uint64());
        return compare_int_double(x, b.to_number<double>());
    }
    case json::kind::uint64: {
        const std::uint64_t x = a.get_uint64();
        if (b.is_uint64()) return sign(x<b.get_uint64(), x> b.get_uint64());
        if (b.is_int64()) return -compare_numbers(b, a);
        return compare_uint_double(x, b.to_number<double>());
    }
    default: {
        if (!b.is_double()) return -compare_numbers(b, a);
        const double x = a.to_number<double>(), y = b.get_double();
        return sign(x<y, x> y);
    }
    }
}

namespace {

__extension__ typedef unsigned __int128 uint128; // GCC/Clang builtin; silences -Wpedantic

/// |v| = digits * 10^exponent with `digits` not a multiple of 10 (unless 0). Doubles are taken in
/// their shortest round-trip decimal form: the number as the JSON text most likely wrote it.
struct decimal {
    std::uint64_t digits = 0;
    int exponent = 0;
};

std::optional<decimal> to_decimal(const json::value& v) noexcept {
    decimal d;
    if (v.is_int64()) {
        const std::int64_t i = v.get_int64();
        d.digits = i < 0 ? ~static_cast<std::uint64_t>(i) + 1 : static_cast<std::uint64_t>(i);
    } else if (v.is_uint64()) {
        d.digits = v.get_uint64();
    } else {
        const double x = std::fabs(v.get_double());
        if (!std::isfinite(x)) return std::nullopt;
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific); // "1.999e+01"
        if (r.ec != std::errc()) return std::nullopt;
        const char* p = buf;
        int fraction_digits = 0;
        bool in_fraction = false;
        for (; p != r.ptr && *p != 'e'; ++p) {
            if (*p == '.') {
                in_fraction = true;
                continue;
            }
            d.digits = d.digits * 10 + static_cast<std::uint64_t>(*p - '0'); // at most 17 digits
            fraction_digits += in_fraction;
        }
        int e = 0;
        if (p != r.ptr) std::from_chars(p + (p[1] == '+' ? 2 : 1), r.ptr, e);
        d.exponent = e - fraction_digits;
    }
    if (d.digits == 0) return d;
    while (d.digits % 10 == 0) {
        d.digits /= 10;
        ++d.exponent;
    }
    return d;
}

} // namespace

bool is_multiple_of(const json::value& x, const json::value& m) noexcept {
    if (x.is_int64() && m.is_int64() && m.get_int64() > 0) return x.get_int64() % m.get_int64() == 0;
    // JSON numbers are decimal: 19.99 is a multiple of 0.01 although the binary doubles divide to
    // 1998.9999999999998, and 1e20 is not a multiple of 3 although 1e20 / 3.0 is a whole double.
    // So compare the decimal digits exactly: x = a * 10^p, m = b * 10^q.
    const auto dx = to_decimal(x), dm = to_decimal(m);
    if (!dx || !dm || dm->digits == 0) return false;
    if (dx->digits == 0) return true;
    // p < q: x / m = a / (b * 10^(q-p)) needs 10 | a, but a has no trailing zero.
    if (dx->exponent < dm->exponent) return false;
    // p >= q: is a * 10^(p-q) divisible by b? Reduce modulo b as we go (r * 10 < 2^68).
    const std::uint64_t b = dm->digits;
    std::uint64_t r = dx->digits % b;
    for (int k = dx->exponent - dm->exponent; k > 0 && r != 0; --k)
        r = static_cast<std::uint64_t>((static_cast<uint128>(r) * 10) % b);
    return r == 0;
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
    case json::kind::null:
        return true;
    case json::kind::bool_:
        return a.get_bool() == b.get_bool();
    case json::kind::string:
        return a.get_string() == b.get_string();
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
    default:
        return false;
    }
}
} // namespace

bool json_equal(const json::value& a, const json::value& b) noexcept {
    return json_equal_at(a, b, 0);
}

} // namespace mcp::schema::detail
