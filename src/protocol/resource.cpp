// Codec of resources: Resource, ResourceTemplate, resources/list, templates/list, read,
// subscribe, updated.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

json::object to_json(const resource& x, revision r) {
    json::object o;
    o["uri"] = x.uri;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    put(o, "description", x.description);
    put(o, "mimeType", x.mime_type);
    put(o, "size", x.size);
    put_annotations(o, x.annotations, r);
    put_icons(o, x.icons, r);
    put_meta(o, x.meta, defines(r, wire_field::entity_meta));
    return o;
}
namespace {
resource read_resource(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    resource x;
    x.uri = req_string(o, "uri", path);
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.mime_type = opt_string(o, "mimeType", path);
    x.size = opt_int(o, "size", path);
    x.annotations = opt_annotations(o, path);
    x.icons = read_icons(o, path);
    x.meta = meta(o, path);
    return x;
}
resource_template read_template(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    resource_template x;
    x.uri_template = req_string(o, "uriTemplate", path);
    x.name = req_string(o, "name", path);
    x.title = opt_string(o, "title", path);
    x.description = opt_string(o, "description", path);
    x.mime_type = opt_string(o, "mimeType", path);
    x.annotations = opt_annotations(o, path);
    x.icons = read_icons(o, path);
    x.meta = meta(o, path);
    return x;
}
} // namespace
template <> resource from_json<resource>(const json::value& v) {
    return read_resource(v, "Resource");
}

json::object to_json(const resource_template& x, revision r) {
    json::object o;
    o["uriTemplate"] = x.uri_template;
    o["name"] = x.name;
    if (defines(r, wire_field::title)) put(o, "title", x.title);
    put(o, "description", x.description);
    put(o, "mimeType", x.mime_type);
    put_annotations(o, x.annotations, r);
    put_icons(o, x.icons, r);
    put_meta(o, x.meta, defines(r, wire_field::entity_meta));
    return o;
}
template <> resource_template from_json<resource_template>(const json::value& v) {
    return read_template(v, "ResourceTemplate");
}

json::object to_json(const read_resource_request& x, revision r) {
    json::object o;
    o["uri"] = x.uri;
    put_meta(o, x.meta, true);
    if (defines(r, wire_field::input_responses)) {
        put(o, "inputResponses", x.input_responses);
        put(o, "requestState", x.request_state);
    }
    return o;
}
template <> read_resource_request from_json<read_resource_request>(const json::value& v) {
    constexpr std::string_view path = "ReadResourceRequest.params";
    const auto& o = object(v, path);
    read_resource_request x;
    x.uri = req_string(o, "uri", path);
    x.meta = meta(o, path);
    x.input_responses = opt_object(o, "inputResponses", path);
    x.request_state = opt_string(o, "requestState", path);
    return x;
}

json::object to_json(const read_resource_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.contents.size());
    for (const auto& c : x.contents) a.push_back(to_json(c, r));
    o["contents"] = std::move(a);
    put_cacheable(o, x.ttl_ms, x.cache_scope, r);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> read_resource_result from_json<read_resource_result>(const json::value& v) {
    constexpr std::string_view path = "ReadResourceResult";
    const auto& o = object(v, path);
    read_resource_result x;
    x.contents = each<resource_contents>(req_array(o, "contents", path), join(path, "contents"),
                                         read_resource_contents);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const list_resources_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.resources.size());
    for (const auto& i : x.resources) a.push_back(to_json(i, r));
    o["resources"] = std::move(a);
    put(o, "nextCursor", x.next_cursor);
    put_cacheable(o, x.ttl_ms, x.cache_scope, r);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> list_resources_result from_json<list_resources_result>(const json::value& v) {
    constexpr std::string_view path = "ListResourcesResult";
    const auto& o = object(v, path);
    list_resources_result x;
    x.resources = each<resource>(req_array(o, "resources", path), join(path, "resources"), read_resource);
    x.next_cursor = opt_string(o, "nextCursor", path);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const list_resource_templates_result& x, revision r) {
    json::object o;
    json::array a;
    a.reserve(x.resource_templates.size());
    for (const auto& i : x.resource_templates) a.push_back(to_json(i, r));
    o["resourceTemplates"] = std::move(a);
    put(o, "nextCursor", x.next_cursor);
    put_cacheable(o, x.ttl_ms, x.cache_scope, r);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> list_resource_templates_result from_json<list_resource_templates_result>(const json::value& v) {
    constexpr std::string_view path = "ListResourceTemplatesResult";
    const auto& o = object(v, path);
    list_resource_templates_result x;
    x.resource_templates = each<resource_template>(req_array(o, "resourceTemplates", path),
                                                   join(path, "resourceTemplates"), read_template);
    x.next_cursor = opt_string(o, "nextCursor", path);
    read_cacheable(o, path, x.ttl_ms, x.cache_scope);
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const subscribe_request& x, revision) {
    json::object o;
    o["uri"] = x.uri;
    put_meta(o, x.meta, true);
    return o;
}
template <> subscribe_request from_json<subscribe_request>(const json::value& v) {
    constexpr std::string_view path = "SubscribeRequest.params";
    const auto& o = object(v, path);
    return {req_string(o, "uri", path), meta(o, path)};
}

json::object to_json(const resource_updated_notification& x, revision) {
    json::object o;
    o["uri"] = x.uri;
    put_meta(o, x.meta, true);
    return o;
}
template <> resource_updated_notification from_json<resource_updated_notification>(const json::value& v) {
    constexpr std::string_view path = "ResourceUpdatedNotification.params";
    const auto& o = object(v, path);
    return {req_string(o, "uri", path), meta(o, path)};
}

} // namespace mcp
