// http/client/mcp_headers.hpp - the request metadata headers of Streamable HTTP in 2026-07-28:
// value encoding (plain or =?base64?...?=), the Mcp-Param-* headers of a call from the
// x-mcp-header annotations of its tool, and the filtering of tools/list results that the
// spec requires of HTTP clients (tools with invalid annotations are excluded).
#pragma once

#include "protocol/header_annotations.hpp"

#include <mcp/json/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::http::detail {

/// The header form of a value: as it is when it consists of visible ASCII, space and tab,
/// has no leading or trailing whitespace, is not empty... and does not look like the sentinel;
/// otherwise "=?base64?" + base64(UTF-8 bytes) + "?=".
std::string encode_header_value(std::string_view value);

/// The string form of an argument value for a header: a string as it is, an integer in
/// decimal (a double with no fraction too), a boolean as true/false. nullopt for null and for
/// anything else (the header is then omitted, and the server's validation judges the call),
/// and for an integer outside -(2^53-1) .. 2^53-1, which no header may carry (see
/// unmirrorable_argument).
std::optional<std::string> header_text(const json::value& v);

// The annotations themselves are read by the reader mcp::server and the HTTP server share
// (protocol/header_annotations.hpp).
using mcp::detail::header_annotations;
using mcp::detail::header_parameter;
using mcp::detail::read_header_annotations;

/// Why a tools/call with these arguments cannot be sent, or "" when it can: an annotated
/// argument that is an integer outside the JavaScript safe range. The spec requires integer
/// values of x-mcp-header parameters to be within -(2^53-1) .. 2^53-1 (2026-07-28
/// basic/transports/streamable-http.mdx, "Schema Extension"), and a client that omits the
/// header while the value is in the body is non-conforming and MUST be refused by the server
/// ("Client Behavior" table): neither sending the header nor leaving it out is allowed, so the
/// call fails in the client with a message naming the argument.
std::string unmirrorable_argument(const std::vector<header_parameter>& params, const json::value& arguments);

/// The Mcp-Param-* headers (name, encoded value) of a tools/call with these arguments.
std::vector<std::pair<std::string, std::string>> param_headers(const std::vector<header_parameter>& params,
                                                               const json::value& arguments);

/// Apply read_header_annotations to every tool of a tools/list result: invalid tools are removed in
/// place, reported in `dropped` (name, reason); valid tools with annotations are returned.
struct tools_filter {
    std::vector<std::pair<std::string, std::string>> dropped;
    std::map<std::string, std::vector<header_parameter>> annotated;
    std::vector<std::string> listed; ///< every valid tool name
};
tools_filter filter_tools(json::object& result);

} // namespace mcp::http::detail
