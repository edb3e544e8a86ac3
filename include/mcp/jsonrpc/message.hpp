// mcp/jsonrpc/message.hpp - the JSON-RPC 2.0 message model: request, notification, response
// (result or error), how to classify a parsed JSON value as one of them, and how to write them.
#pragma once

#include <mcp/json/json.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace mcp::jsonrpc {

/// A request id: a string or an integer, never null (MCP forbids null ids).
using request_id = std::variant<std::int64_t, std::string>;

json::value id_to_json(const request_id& id);
std::string id_to_string(const request_id& id); ///< for logs and maps: 42 or "abc" (quoted)

struct request {
    request_id id;
    std::string method;
    json::value params; ///< an object, or null when absent
};

struct notification {
    std::string method;
    json::value params; ///< an object, or null when absent
};

struct response {
    request_id id;
    json::value result;
};

struct error_response {
    std::optional<request_id> id; ///< absent when the request's id could not be read
    mcp::error err;
};

using message = std::variant<request, notification, response, error_response>;

/// How an error reply to a message whose id could not be read is written: without `id`
/// (2025-11-25 and later, and before any revision is negotiated) or with `"id": null`
/// (JSON-RPC 2.0, for sessions on 2024-11-05 .. 2025-06-18 whose schema requires the member).
enum class unknown_id_style { omit, null };

/// Result of classifying one JSON value (already parsed) as a message.
struct classify_result {
    std::optional<message> msg;    ///< set on success
    std::optional<mcp::error> err; ///< set when the value is not a valid message
    std::optional<request_id> id;  ///< the id, when it could be read despite the error
};

/// Classify `v` (one element, not a batch). Checks "jsonrpc":"2.0", id kind, method kind,
/// params kind (object; arrays are not used by MCP and are rejected as invalid params).
classify_result classify(json::value&& v);
/// The error classify() would give `v`, without taking it apart: nullopt for a valid message.
/// `id` (when given) receives the message's id when it could be read.
std::optional<mcp::error> check(const json::value& v, std::optional<request_id>* id = nullptr);

/// Serialize a message as one compact JSON text (no trailing newline).
std::string serialize(const message& m, unknown_id_style style = unknown_id_style::omit);
void serialize_request(std::string& out, const request_id& id, std::string_view method,
                       const json::value& params);
void serialize_notification(std::string& out, std::string_view method, const json::value& params);
void serialize_result(std::string& out, const request_id& id, const json::value& result);
void serialize_error(std::string& out, const std::optional<request_id>& id, const mcp::error& e,
                     unknown_id_style style = unknown_id_style::omit);

} // namespace mcp::jsonrpc
