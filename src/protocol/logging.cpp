// Codec of logging: levels, logging/setLevel, notifications/message.
#include "protocol/wire.hpp"

#include <array>

namespace mcp {

using namespace wire;

namespace {
constexpr std::array<std::string_view, 8> level_names = {"debug", "info",     "notice", "warning",
                                                         "error", "critical", "alert",  "emergency"};
logging_level read_level(const json::value& v, std::string_view path) {
    if (v.is_string())
        if (auto l = parse_logging_level(v.get_string())) return *l;
    fail(path, "must be one of debug, info, notice, warning, error, critical, alert, emergency");
}
} // namespace

std::string_view to_string(logging_level l) noexcept {
    auto i = static_cast<std::size_t>(l);
    return i < level_names.size() ? level_names[i] : "";
}

std::optional<logging_level> parse_logging_level(std::string_view s) noexcept {
    for (std::size_t i = 0; i < level_names.size(); ++i)
        if (level_names[i] == s) return static_cast<logging_level>(i);
    return std::nullopt;
}

template <> logging_level from_json<logging_level>(const json::value& v) {
    return read_level(v, "level");
}

json::object to_json(const set_level_request& x, revision) {
    json::object o;
    o["level"] = to_string(x.level);
    put_meta(o, x.meta, true);
    return o;
}
template <> set_level_request from_json<set_level_request>(const json::value& v) {
    constexpr std::string_view path = "SetLevelRequest.params";
    const auto& o = object(v, path);
    const auto* l = member(o, "level");
    if (!l) fail(join(path, "level"), "is required");
    return {read_level(*l, join(path, "level")), meta(o, path)};
}

json::object to_json(const logging_message_notification& x, revision) {
    json::object o;
    o["level"] = to_string(x.level);
    put(o, "logger", x.logger);
    o["data"] = x.data;
    put_meta(o, x.meta, true);
    return o;
}
template <> logging_message_notification from_json<logging_message_notification>(const json::value& v) {
    constexpr std::string_view path = "LoggingMessageNotification.params";
    const auto& o = object(v, path);
    logging_message_notification x;
    const auto* l = member(o, "level");
    if (!l) fail(join(path, "level"), "is required");
    x.level = read_level(*l, join(path, "level"));
    x.logger = opt_string(o, "logger", path);
    const auto* d = o.if_contains("data"); // null is a valid datum
    if (!d) fail(join(path, "data"), "is required");
    x.data = *d;
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
