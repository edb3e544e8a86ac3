// Media types in the request fields the MCP endpoint reads: Content-Type (one media type and its
// parameters, RFC 9110 8.3) and Accept (a list of media ranges with weights, RFC 9110 12.5.1).
#pragma once

#include "http/core/request.hpp"

#include <string_view>

namespace mcp::http::detail {

/// Whether one Content-Type field value names the media type `type` (e.g. "application/json"),
/// ASCII case-insensitively, whatever its parameters. A media range such as "*/*" or
/// "application/*" is no media type and never matches; neither does a list.
bool is_media_type(std::string_view content_type, std::string_view type);

/// Whether the Accept field value `accept` (every Accept line of the request combined, RFC 9110
/// 5.3) makes the media type `type` acceptable: the most specific media range that matches it
/// (type/subtype, then type/*, then */*) has a weight above 0 ("q=0" means "not acceptable").
/// Malformed elements are skipped.
bool accepts(std::string_view accept, std::string_view type);

/// Whether the request has a Content-Type and every Content-Type line of it names `type`.
bool body_is(const core::request& req, std::string_view type);

} // namespace mcp::http::detail
