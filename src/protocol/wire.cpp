// Member readers and writers of the protocol codec (see wire.hpp).
#include "protocol/described.hpp"

#include <cmath>
#include <limits>

namespace mcp::wire {

void fail(std::string_view path, std::string_view problem) {
    std::string m = "Invalid params: ";
    m.append(path).append(" ").append(problem);
    throw error(error_code::invalid_params, std::move(m));
}

std::string join(std::string_view path, std::string_view key) {
    std::string s(path);
    s.append(".").append(key);
    return s;
}

std::string index(std::string_view path, std::size_t i) {
    std::string s(path);
    s.append("[").append(std::to_string(i)).append("]");
    return s;
}

const json::object& object(const json::value& v, std::string_view path) {
    if (!v.is_object()) fail(path, "must be an object");
    return v.get_object();
}

const json::value* member(const json::object& o, std::string_view key) noexcept {
    const auto* v = o.if_contains(key);
    return (v && !v->is_null()) ? v : nullptr;
}

namespace {
const json::value& required(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) fail(join(path, key), "is required");
    return *v;
}

std::optional<std::int64_t> as_int(const json::value& v) noexcept {
    if (v.is_int64()) return v.get_int64();
    if (v.is_uint64()) {
        if (v.get_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return std::nullopt;
        return static_cast<std::int64_t>(v.get_uint64());
    }
    if (v.is_double()) {
        double d = v.get_double();
        if (std::isfinite(d) && std::trunc(d) == d && d >= -9.2e18 && d <= 9.2e18)
            return static_cast<std::int64_t>(d);
    }
    return std::nullopt;
}

std::string string_of(const json::value& v, std::string_view path) {
    if (!v.is_string()) fail(path, "must be a string");
    return std::string(v.get_string());
}
} // namespace

std::string read_string(const json::value& v, const place& at) {
    if (!v.is_string()) fail(at.str(), "must be a string");
    return std::string(v.get_string());
}
double read_number(const json::value& v, const place& at) {
    if (!v.is_number()) fail(at.str(), "must be a number");
    return v.to_number<double>();
}
std::int64_t read_int(const json::value& v, const place& at) {
    auto i = as_int(v);
    if (!i) fail(at.str(), "must be an integer");
    return *i;
}

std::string req_string(const json::object& o, std::string_view key, std::string_view path) {
    return string_of(required(o, key, path), join(path, key));
}
std::optional<std::string> opt_string(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    return string_of(*v, join(path, key));
}
std::optional<bool> opt_bool(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    if (!v->is_bool()) fail(join(path, key), "must be a boolean");
    return v->get_bool();
}
json::object req_object(const json::object& o, std::string_view key, std::string_view path) {
    return object(required(o, key, path), join(path, key));
}
std::optional<json::object> opt_object(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    return object(*v, join(path, key));
}
std::optional<json::object> meta(const json::object& o, std::string_view path) {
    return opt_object(o, "_meta", path);
}

void put_result_type(json::object& o, revision r) {
    if (defines(r, wire_field::result_type)) o["resultType"] = "complete";
}

} // namespace mcp::wire
