// Codec of the shared small types: role, icon, annotations, implementation, pagination params.
#include "protocol/described.hpp"

namespace mcp {

std::string_view to_string(role r) noexcept {
    return r == role::user ? "user" : "assistant";
}
std::string_view to_string(icon_theme t) noexcept {
    return t == icon_theme::light ? "light" : "dark";
}

role wire::parse(const json::value& v, std::string_view path, type<role>) {
    return read_enum(v, path, {role::user, role::assistant});
}
template <> role from_json<role>(const json::value& v) {
    return wire::parse(v, "Role", wire::type<role>{});
}
namespace wire {
icon_theme parse(const json::value& v, std::string_view path, type<icon_theme>) {
    return read_enum(v, path, {icon_theme::light, icon_theme::dark});
}
} // namespace wire

MCP_WIRE_DESCRIBE(icon, "Icon", (src), (mime_type), (sizes), (theme))
MCP_WIRE_CODEC(icon)

MCP_WIRE_DESCRIBE(annotations, "Annotations", (audience), (priority),
                  (last_modified, when(wire_field::annotations_last_modified)))
MCP_WIRE_CODEC(annotations)

MCP_WIRE_DESCRIBE(implementation, "Implementation", (name), (title, when(wire_field::title)), (version),
                  (description, when(wire_field::implementation_details)),
                  (website_url, when(wire_field::implementation_details)), (icons, when(wire_field::icons)))
MCP_WIRE_CODEC(implementation)

MCP_WIRE_DESCRIBE(paginated_request, "PaginatedRequest.params", (cursor), (meta))
json::object to_json(const paginated_request& x, revision r) {
    return wire::write_struct(x, r);
}
template <> paginated_request from_json<paginated_request>(const json::value& v) {
    if (v.is_null()) return {};
    return wire::read_struct<paginated_request>(v, "PaginatedRequest.params");
}

} // namespace mcp
