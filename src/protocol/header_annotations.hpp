// The x-mcp-header annotations of a tool's inputSchema (2026-07-28, basic/transports/
// streamable-http.mdx, "Custom Headers from Tool Parameters"): which arguments of a tools/call
// over Streamable HTTP are mirrored into `Mcp-Param-{name}` headers, and whether the
// annotations are valid at all (an invalid one makes the whole tool definition invalid).
//
// One reader for every side, so that they never disagree: mcp::server refuses to register a
// tool whose annotations are invalid, the gateway leaves such a tool of a server out, the HTTP
// client drops it from tools/list results (as the spec requires of clients) and mirrors the
// arguments of the others, and the HTTP server checks the mirrored headers against the body.
#pragma once

#include <mcp/json/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

/// RFC 9110 token (1*tchar): what a field name, and so an x-mcp-header value, may be.
bool is_token(std::string_view s) noexcept;

/// One annotated argument.
struct header_parameter {
    std::string name;              ///< the x-mcp-header value: the header is Mcp-Param-{name}
    std::vector<std::string> path; ///< property names leading to the value from the arguments' root
};

struct header_annotations {
    std::vector<header_parameter> params; ///< in schema order; empty when `error` is set
    /// Non-empty when the annotations are invalid: the first problem found, naming the
    /// annotation's place in the schema as a JSON pointer ("/properties/tags/items/x-mcp-header").
    /// Names from the schema are escaped (mcp::printable): the text is one safe line.
    std::string error;
};

/// Read and check the annotations of `input_schema`. Valid annotations sit on properties reached
/// from the root through `properties` alone (nested objects allowed), whose `type` is string,
/// integer or boolean (a list of types may add "null"), with a value that is an RFC 9110 token,
/// unique ignoring case. An annotation anywhere else - under items, prefixItems, contains,
/// additionalProperties, patternProperties, anyOf/oneOf/allOf/not, if/then/else, $defs or
/// definitions (which a $ref would lead to), dependentSchemas... in 2020-12 and draft-07
/// spellings - is invalid. Data keywords (const, default, enum, examples) are not searched.
header_annotations read_header_annotations(const json::value& input_schema);
header_annotations read_header_annotations(const json::object& input_schema);

} // namespace mcp::detail
