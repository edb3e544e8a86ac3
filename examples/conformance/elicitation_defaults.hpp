// examples/conformance/elicitation_defaults.hpp - SEP-1034 on the client side: a form the user
// accepts without touching a field keeps that field's default.
//
//   client.set_elicitation_handler([](const mcp::elicit_request& r, mcp::request_context&) {
//       mcp::json::object answer = ask_the_user(r);              // may leave fields out
//       return mcp::elicit_result{.action = mcp::elicit_action::accept,
//                                 .content = conformance::with_schema_defaults(r.requested_schema, answer)};
//   });
#pragma once

#include <mcp/json/json.hpp>

namespace conformance {

/// `content` plus, for every property of the form schema `requested_schema` that has a
/// "default" and is absent from `content`, that default. Values already in `content` are kept
/// as they are; properties without a default stay absent.
mcp::json::object with_schema_defaults(const mcp::json::object& requested_schema, mcp::json::object content);

} // namespace conformance
