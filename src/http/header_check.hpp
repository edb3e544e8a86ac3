// The request headers of the stateless era (2026-07-28) that mirror the body, checked against
// it: MCP-Protocol-Version (= _meta protocolVersion), Mcp-Method (= method), Mcp-Name (=
// params.name or params.uri of tools/call, prompts/get, resources/read) and Mcp-Param-{Name}
// (= the tools/call argument a tool's inputSchema annotates with x-mcp-header). Any mismatch,
// missing required header or malformed value is rejected with 400 and -32020 (HeaderMismatch):
// intermediaries route on the headers, the server acts on the body, and the two must agree.
#pragma once

#include "http/core/request.hpp"
#include "protocol/header_annotations.hpp"

#include <mcp/json/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http::detail {

/// An Mcp-Name / Mcp-Param value as sent: surrounding spaces and tabs removed, the
/// `=?base64?...?=` form decoded (strictly: alphabet and padding). nullopt when the value is
/// malformed (bad base64, control characters, non-ASCII outside base64).
std::optional<std::string> decode_header_value(std::string_view raw);

/// The header parameters of tool `name` (null or empty when it has none), as
/// read_header_annotations (protocol/header_annotations.hpp) finds them in its inputSchema.
using header_param_lookup =
    std::function<std::shared_ptr<const std::vector<mcp::detail::header_parameter>>(const std::string& name)>;

/// Checks `http`'s headers against `message` (a request of the stateless era whose _meta
/// carries protocol version `meta_version`). nullopt when they agree; else the -32020 message.
std::optional<std::string> check_mirrored_headers(const core::request& http, const json::object& message,
                                                  std::string_view meta_version,
                                                  const header_param_lookup& lookup);

} // namespace mcp::http::detail
