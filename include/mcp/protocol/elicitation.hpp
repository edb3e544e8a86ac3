// mcp/protocol/elicitation.hpp - elicitation/create (2025-06-18+): the server asks the user,
// through the client, for structured input (form mode) or to visit a URL (URL mode, 2025-11-25+).
#pragma once

#include <mcp/protocol/codec.hpp>

#include <optional>
#include <string>

namespace mcp {

enum class elicitation_mode { form, url };
std::string_view to_string(elicitation_mode m) noexcept;

/// Params of elicitation/create. Form mode uses `requested_schema` (a flat object schema of
/// primitives); URL mode uses `url` and `elicitation_id`.
/// Encoding for 2025-06-18 (form only, no `mode`): to_json throws mcp::error(invalid_params) for
/// a URL-mode request, which that revision cannot express. `elicitationId` is sent only to
/// 2025-11-25.
struct elicit_request {
    elicitation_mode mode = elicitation_mode::form;
    std::string message;
    json::object requested_schema{{"type", "object"}, {"properties", json::object{}}}; ///< form mode
    std::optional<std::string> url;                                                    ///< URL mode
    std::optional<std::string> elicitation_id; ///< URL mode (2025-11-25)
    std::optional<json::object> meta;          ///< not in 2026-07-28
    bool operator==(const elicit_request&) const = default;
};
json::object to_json(const elicit_request& x, revision r);
template <> elicit_request from_json<elicit_request>(const json::value& v);

/// A form-mode request.
elicit_request form_elicitation(std::string message, json::object requested_schema);
/// A URL-mode request (2025-11-25+).
elicit_request url_elicitation(std::string message, std::string url, std::string elicitation_id);

enum class elicit_action { accept, decline, cancel };
std::string_view to_string(elicit_action a) noexcept;

/// Result of elicitation/create. `content` only with accept in form mode: values are strings,
/// numbers, booleans, or (2025-11-25+) arrays of strings; arrays are not sent to 2025-06-18.
struct elicit_result {
    elicit_action action = elicit_action::cancel;
    std::optional<json::object> content;
    std::optional<json::object> meta; ///< 2025-06-18 .. 2025-11-25
    bool operator==(const elicit_result&) const = default;
};
json::object to_json(const elicit_result& x, revision r);
template <> elicit_result from_json<elicit_result>(const json::value& v);

/// Params of notifications/elicitation/complete (2025-11-25 only).
struct elicitation_complete_notification {
    std::string elicitation_id;
    std::optional<json::object> meta;
    bool operator==(const elicitation_complete_notification&) const = default;
};
json::object to_json(const elicitation_complete_notification& x, revision r);
template <>
elicitation_complete_notification from_json<elicitation_complete_notification>(const json::value& v);

} // namespace mcp
