// Codec of the shared small types: role, icon, annotations, implementation, pagination params.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

std::string_view to_string(role r) noexcept {
    return r == role::user ? "user" : "assistant";
}
std::string_view to_string(icon_theme t) noexcept {
    return t == icon_theme::light ? "light" : "dark";
}

role wire::read_role(const json::value& v, std::string_view path) {
    if (v.is_string()) {
        if (v.get_string() == "user") return role::user;
        if (v.get_string() == "assistant") return role::assistant;
    }
    fail(path, "must be \"user\" or \"assistant\"");
}
template <> role from_json<role>(const json::value& v) {
    return read_role(v, "Role");
}

// --- icon ---
json::object to_json(const icon& x, revision) {
    json::object o;
    o["src"] = x.src;
    put(o, "mimeType", x.mime_type);
    if (!x.sizes.empty()) {
        json::array a;
        for (const auto& s : x.sizes) a.emplace_back(s);
        o["sizes"] = std::move(a);
    }
    if (x.theme) o["theme"] = to_string(*x.theme);
    return o;
}
icon wire::read_icon(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    icon x;
    x.src = req_string(o, "src", path);
    x.mime_type = opt_string(o, "mimeType", path);
    if (const auto* a = opt_array(o, "sizes", path)) x.sizes = string_array(*a, join(path, "sizes"));
    if (auto t = opt_string(o, "theme", path)) {
        if (*t == "light")
            x.theme = icon_theme::light;
        else if (*t == "dark")
            x.theme = icon_theme::dark;
        else
            fail(join(path, "theme"), "must be \"light\" or \"dark\"");
    }
    return x;
}
std::vector<icon> wire::read_icons(const json::object& o, std::string_view path) {
    const auto* a = opt_array(o, "icons", path);
    if (!a) return {};
    return each<icon>(*a, join(path, "icons"), read_icon);
}
template <> icon from_json<icon>(const json::value& v) {
    return read_icon(v, "Icon");
}

// --- annotations ---
json::object to_json(const annotations& x, revision r) {
    json::object o;
    if (!x.audience.empty()) {
        json::array a;
        for (auto who : x.audience) a.emplace_back(to_string(who));
        o["audience"] = std::move(a);
    }
    put(o, "priority", x.priority);
    if (defines(r, wire_field::annotations_last_modified)) put(o, "lastModified", x.last_modified);
    return o;
}
annotations wire::read_annotations(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    annotations x;
    if (const auto* a = opt_array(o, "audience", path))
        x.audience = each<role>(*a, join(path, "audience"), read_role);
    x.priority = opt_number(o, "priority", path);
    x.last_modified = opt_string(o, "lastModified", path);
    return x;
}
std::optional<annotations> wire::opt_annotations(const json::object& o, std::string_view path) {
    const auto* v = member(o, "annotations");
    if (!v) return std::nullopt;
    return read_annotations(*v, join(path, "annotations"));
}
template <> annotations from_json<annotations>(const json::value& v) {
    return read_annotations(v, "Annotations");
}

// --- implementation ---
json::object to_json(const implementation& x, revision r) {
    json::object o;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    o["version"] = x.version;
    if (defines(r, wire_field::implementation_details)) {
        put(o, "description", x.description);
        put(o, "websiteUrl", x.website_url);
    }
    put_icons(o, x.icons, r);
    return o;
}
implementation wire::read_implementation(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    implementation x;
    x.name = req_string(o, "name", path);
    x.version = req_string(o, "version", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.icons = read_icons(o, path);
    x.website_url = opt_string(o, "websiteUrl", path);
    return x;
}
template <> implementation from_json<implementation>(const json::value& v) {
    return read_implementation(v, "Implementation");
}

// --- pagination ---
json::object to_json(const paginated_request& x, revision) {
    json::object o;
    put(o, "cursor", x.cursor);
    put_meta(o, x.meta, true);
    return o;
}
template <> paginated_request from_json<paginated_request>(const json::value& v) {
    constexpr std::string_view path = "PaginatedRequest.params";
    if (v.is_null()) return {};
    const auto& o = object(v, path);
    return {opt_string(o, "cursor", path), meta(o, path)};
}

} // namespace mcp
