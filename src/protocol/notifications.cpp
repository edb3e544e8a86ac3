// Codec of the utility notifications: progress and cancellation.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

namespace {
std::variant<std::int64_t, std::string> read_id(const json::value& v, std::string_view path) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_int64()) return v.get_int64();
    if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(v.get_uint64());
    fail(path, "must be a string or an integer");
}
json::value id_json(const std::variant<std::int64_t, std::string>& id) {
    if (const auto* i = std::get_if<std::int64_t>(&id)) return *i;
    return json::value(std::get<std::string>(id));
}
} // namespace

json::value to_json(const progress_token& t) {
    return id_json(t);
}
template <> progress_token from_json<progress_token>(const json::value& v) {
    return read_id(v, "progressToken");
}

json::object to_json(const progress_notification& x, revision r) {
    json::object o;
    o["progressToken"] = id_json(x.token);
    o["progress"] = x.progress;
    put(o, "total", x.total);
    if (defines(r, wire_field::progress_message)) put(o, "message", x.message);
    put_meta(o, x.meta, true);
    return o;
}
template <> progress_notification from_json<progress_notification>(const json::value& v) {
    constexpr std::string_view path = "ProgressNotification.params";
    const auto& o = object(v, path);
    progress_notification x;
    const auto* t = member(o, "progressToken");
    if (!t) fail(join(path, "progressToken"), "is required");
    x.token = read_id(*t, join(path, "progressToken"));
    x.progress = req_number(o, "progress", path);
    x.total = opt_number(o, "total", path);
    x.message = opt_string(o, "message", path);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const cancelled_notification& x, revision) {
    json::object o;
    o["requestId"] = id_json(x.request_id);
    put(o, "reason", x.reason);
    put_meta(o, x.meta, true);
    return o;
}
template <> cancelled_notification from_json<cancelled_notification>(const json::value& v) {
    constexpr std::string_view path = "CancelledNotification.params";
    const auto& o = object(v, path);
    cancelled_notification x;
    const auto* id = member(o, "requestId");
    if (!id) fail(join(path, "requestId"), "is required");
    x.request_id = read_id(*id, join(path, "requestId"));
    x.reason = opt_string(o, "reason", path);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
