// Codec of logging: levels, logging/setLevel, notifications/message.
#include "protocol/described.hpp"

#include <array>

namespace mcp {

namespace {
constexpr std::array<std::string_view, 8> level_names = {"debug", "info",     "notice", "warning",
                                                         "error", "critical", "alert",  "emergency"};
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

namespace wire {
logging_level parse(const json::value& v, std::string_view path, type<logging_level>) {
    if (v.is_string())
        if (auto l = parse_logging_level(v.get_string())) return *l;
    fail(path, "must be one of debug, info, notice, warning, error, critical, alert, emergency");
}
} // namespace wire

template <> logging_level from_json<logging_level>(const json::value& v) {
    return wire::parse(v, "level", wire::type<logging_level>{});
}

MCP_WIRE_DESCRIBE(set_level_request, "SetLevelRequest.params", (level), (meta))
MCP_WIRE_CODEC(set_level_request)

MCP_WIRE_DESCRIBE(logging_message_notification, "LoggingMessageNotification.params", (level), (logger), (data),
                  (meta))
MCP_WIRE_CODEC(logging_message_notification)

} // namespace mcp
