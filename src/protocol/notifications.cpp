// Codec of the utility notifications: progress and cancellation.
#include "protocol/described.hpp"

namespace mcp {

progress_token wire::parse(const json::value& v, std::string_view path, type<progress_token>) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_int64()) return v.get_int64();
    if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(v.get_uint64());
    fail(path, "must be a string or an integer");
}

json::value to_json(const progress_token& t) {
    return wire::write_value(t, latest_revision);
}
template <> progress_token from_json<progress_token>(const json::value& v) {
    return wire::parse(v, "progressToken", wire::type<progress_token>{});
}

MCP_WIRE_DESCRIBE(progress_notification, "ProgressNotification.params", (token, field::wire_name("progressToken")),
                  (progress), (total), (message, when(wire_field::progress_message)),
                  (meta))
MCP_WIRE_CODEC(progress_notification)

MCP_WIRE_DESCRIBE(cancelled_notification, "CancelledNotification.params", (request_id), (reason),
                  (meta))
MCP_WIRE_CODEC(cancelled_notification)

} // namespace mcp
