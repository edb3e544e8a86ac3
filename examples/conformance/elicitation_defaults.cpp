// SEP-1034 defaults of a form-mode elicitation, applied by the client (see the header).
#include "elicitation_defaults.hpp"

namespace conformance {

mcp::json::object with_schema_defaults(const mcp::json::object& requested_schema, mcp::json::object content) {
    const mcp::json::object* properties = mcp::find_object(requested_schema, "properties");
    if (!properties) return content;
    for (const auto& property : *properties) {
        if (!property.value().is_object() || content.contains(property.key())) continue;
        if (const mcp::json::value* d = mcp::find_member(property.value().get_object(), "default"))
            content[property.key()] = *d;
    }
    return content;
}

} // namespace conformance
