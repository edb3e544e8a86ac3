// mcp/protocol/logging.hpp - log levels (RFC 5424 severities), logging/setLevel and
// notifications/message.
#pragma once

#include <mcp/protocol/codec.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp {

/// The eight syslog severities, least severe first, so that `<` orders by severity.
enum class logging_level { debug, info, notice, warning, error, critical, alert, emergency };

/// "debug", "info", ... "emergency".
std::string_view to_string(logging_level l) noexcept;
/// The level named `s`, or nullopt.
std::optional<logging_level> parse_logging_level(std::string_view s) noexcept;
/// Whether a message at `message_level` passes a client's `threshold` (set by logging/setLevel).
constexpr bool admits(logging_level threshold, logging_level message_level) noexcept {
    return message_level >= threshold;
}
/// Throws invalid_params ("Invalid params: level must be one of debug, info, ...") otherwise.
template <> logging_level from_json<logging_level>(const json::value& v);

/// Params of logging/setLevel (2024-11-05 .. 2025-11-25).
struct set_level_request {
    logging_level level = logging_level::info;
    std::optional<json::object> meta;
    bool operator==(const set_level_request&) const = default;
};
json::object to_json(const set_level_request& x, revision r);
template <> set_level_request from_json<set_level_request>(const json::value& v);

/// Params of notifications/message.
struct logging_message_notification {
    logging_level level = logging_level::info;
    std::optional<std::string> logger;
    json::value data; ///< any JSON value (a message string, an object, ...)
    std::optional<json::object> meta;
    bool operator==(const logging_message_notification&) const = default;
};
json::object to_json(const logging_message_notification& x, revision r);
template <> logging_message_notification from_json<logging_message_notification>(const json::value& v);

} // namespace mcp
