// schema::summarize - validation errors as one line (tool error results, elicitation answers).
#include <mcp/schema/from_type.hpp>

namespace mcp::schema {

std::string summarize(const std::vector<validation_error>& errors, std::size_t max_errors) {
    std::string out;
    std::size_t shown = 0;
    for (const auto& e : errors) {
        if (shown == max_errors) {
            out += "; and " + std::to_string(errors.size() - shown) + " more";
            break;
        }
        if (shown++) out += "; ";
        out += e.instance_location.empty() ? std::string("(root)") : e.instance_location;
        out += ": ";
        out += e.message;
    }
    return out;
}

} // namespace mcp::schema
