// Member readers and writers of the protocol codec (see wire.hpp).
#include "protocol/wire.hpp"

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
double number_of(const json::value& v, std::string_view path) {
    if (v.is_double()) return v.get_double();
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    fail(path, "must be a number");
}
std::int64_t int_of(const json::value& v, std::string_view path) {
    auto i = as_int(v);
    if (!i) fail(path, "must be an integer");
    return *i;
}
} // namespace

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
double req_number(const json::object& o, std::string_view key, std::string_view path) {
    return number_of(required(o, key, path), join(path, key));
}
std::optional<double> opt_number(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    return number_of(*v, join(path, key));
}
std::int64_t req_int(const json::object& o, std::string_view key, std::string_view path) {
    return int_of(required(o, key, path), join(path, key));
}
std::optional<std::int64_t> opt_int(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    return int_of(*v, join(path, key));
}
json::object req_object(const json::object& o, std::string_view key, std::string_view path) {
    return object(required(o, key, path), join(path, key));
}
std::optional<json::object> opt_object(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return std::nullopt;
    return object(*v, join(path, key));
}
const json::array& req_array(const json::object& o, std::string_view key, std::string_view path) {
    const auto& v = required(o, key, path);
    if (!v.is_array()) fail(join(path, key), "must be an array");
    return v.get_array();
}
const json::array* opt_array(const json::object& o, std::string_view key, std::string_view path) {
    const auto* v = member(o, key);
    if (!v) return nullptr;
    if (!v->is_array()) fail(join(path, key), "must be an array");
    return &v->get_array();
}
std::vector<std::string> string_array(const json::array& a, std::string_view path) {
    return each<std::string>(a, path,
                             [](const json::value& v, std::string_view p) { return string_of(v, p); });
}
std::map<std::string, std::string> string_map(const json::object& o, std::string_view path) {
    std::map<std::string, std::string> out;
    for (const auto& kv : o) out.emplace(std::string(kv.key()), string_of(kv.value(), join(path, kv.key())));
    return out;
}
std::optional<json::object> meta(const json::object& o, std::string_view path) {
    return opt_object(o, "_meta", path);
}

void put_icons(json::object& o, const std::vector<icon>& icons, revision r) {
    if (icons.empty() || !defines(r, wire_field::icons)) return;
    json::array a;
    a.reserve(icons.size());
    for (const auto& i : icons) a.push_back(to_json(i, r));
    o["icons"] = std::move(a);
}

void put_annotations(json::object& o, const std::optional<annotations>& a, revision r) {
    if (!a) return;
    o["annotations"] = to_json(*a, r);
}

void put_result_type(json::object& o, revision r) {
    if (defines(r, wire_field::result_type)) o["resultType"] = "complete";
}

void put_cacheable(json::object& o, const std::optional<std::int64_t>& ttl_ms,
                   const std::optional<std::string>& cache_scope, revision r) {
    if (!defines(r, wire_field::cacheable_result)) return;
    o["ttlMs"] = ttl_ms.value_or(0);
    o["cacheScope"] = cache_scope.value_or("private");
}

void read_cacheable(const json::object& o, std::string_view path, std::optional<std::int64_t>& ttl_ms,
                    std::optional<std::string>& cache_scope) {
    ttl_ms = opt_int(o, "ttlMs", path);
    cache_scope = opt_string(o, "cacheScope", path);
}

} // namespace mcp::wire
