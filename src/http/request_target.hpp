// The request-target of a request to the MCP endpoint, in the forms an origin server takes
// (RFC 9112 3.2): origin-form ("/mcp?x=1") and absolute-form ("http://127.0.0.1:8080/mcp?x=1"),
// which a server MUST accept (3.2.2) and whose authority then stands for the Host field.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcp::http::detail {

struct request_target {
    std::string origin_form;              ///< path and query: "/mcp?x=1"
    std::optional<std::string> authority; ///< absolute-form only: "host[:port]", in place of Host
    std::optional<std::string> error;     ///< set when the target is unusable (answer 400)
};

/// Reads `target`. An absolute-form target must use the http or https scheme and name a host
/// without user information (RFC 9110 4.2.1, 4.2.4); its empty path is "/". Any other target
/// (origin-form, "*") is returned as it is.
request_target read_request_target(std::string_view target);

} // namespace mcp::http::detail
