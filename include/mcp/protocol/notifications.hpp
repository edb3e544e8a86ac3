// mcp/protocol/notifications.hpp - params of the utility notifications: progress, cancellation,
// list_changed (no params but `_meta`).
#pragma once

#include <mcp/jsonrpc/message.hpp>
#include <mcp/protocol/codec.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace mcp {

/// A request id (string or integer), as in JSON-RPC.
using request_id = jsonrpc::request_id;
/// A progress token (string or integer) chosen by the requester in `_meta.progressToken`.
using progress_token = std::variant<std::int64_t, std::string>;

json::value to_json(const progress_token& t);
/// Throws invalid_params unless `v` is a string or an integer.
template <> progress_token from_json<progress_token>(const json::value& v);

/// Params of notifications/progress.
struct progress_notification {
    progress_token token;
    double progress = 0;
    std::optional<double> total;
    std::optional<std::string> message; ///< 2025-03-26+
    std::optional<json::object> meta;
    bool operator==(const progress_notification&) const = default;
};
json::object to_json(const progress_notification& x, revision r);
template <> progress_notification from_json<progress_notification>(const json::value& v);

/// Params of notifications/cancelled.
struct cancelled_notification {
    mcp::request_id request_id;
    std::optional<std::string> reason;
    std::optional<json::object> meta;
    bool operator==(const cancelled_notification&) const = default;
};
json::object to_json(const cancelled_notification& x, revision r);
template <> cancelled_notification from_json<cancelled_notification>(const json::value& v);

} // namespace mcp
