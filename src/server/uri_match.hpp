// Matching a concrete URI against an RFC 6570 template, to route resources/read to a template
// resource and to know its variables. Supports the expression forms resource templates use:
// {var} (no '/', '?', '#'), {+var} and {#var} (anything), {/var} (path segments) and {?a,b} /
// {&a} (query parameters, in any order). Percent-encoded values are decoded.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

using uri_variables = std::map<std::string, std::string>;

std::optional<uri_variables> match_uri_template(std::string_view uri_template, std::string_view uri);
/// Names of the variables of a template, in order of appearance.
std::vector<std::string> template_variable_names(std::string_view uri_template);

} // namespace mcp::detail
