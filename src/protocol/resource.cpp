// Codec of resources: Resource, ResourceTemplate, resources/list, templates/list, read,
// subscribe, updated.
#include "protocol/described.hpp"

namespace mcp {

MCP_WIRE_DESCRIBE(resource, "Resource", (uri), (name), (title, when(wire_field::title)), (description), (mime_type),
                  (size), (annotations), (icons, when(wire_field::icons)),
                  (meta, when(wire_field::entity_meta)))
MCP_WIRE_CODEC(resource)

MCP_WIRE_DESCRIBE(resource_template, "ResourceTemplate", (uri_template), (name), (title, when(wire_field::title)),
                  (description), (mime_type), (annotations), (icons, when(wire_field::icons)),
                  (meta, when(wire_field::entity_meta)))
MCP_WIRE_CODEC(resource_template)

MCP_WIRE_DESCRIBE(read_resource_request, "ReadResourceRequest.params", (uri), (meta),
                  (input_responses, when(wire_field::input_responses)),
                  (request_state, when(wire_field::input_responses)))
MCP_WIRE_CODEC(read_resource_request)

MCP_WIRE_DESCRIBE(read_resource_result, "ReadResourceResult", (contents, field::required),
                  MCP_WIRE_CACHEABLE, (meta))
MCP_WIRE_RESULT_CODEC(read_resource_result)

MCP_WIRE_DESCRIBE(list_resources_result, "ListResourcesResult", (resources, field::required), (next_cursor),
                  MCP_WIRE_CACHEABLE, (meta))
MCP_WIRE_RESULT_CODEC(list_resources_result)

MCP_WIRE_DESCRIBE(list_resource_templates_result, "ListResourceTemplatesResult",
                  (resource_templates, field::required), (next_cursor),
                  MCP_WIRE_CACHEABLE, (meta))
MCP_WIRE_RESULT_CODEC(list_resource_templates_result)

MCP_WIRE_DESCRIBE(subscribe_request, "SubscribeRequest.params", (uri), (meta))
MCP_WIRE_CODEC(subscribe_request)

MCP_WIRE_DESCRIBE(resource_updated_notification, "ResourceUpdatedNotification.params", (uri),
                  (meta))
MCP_WIRE_CODEC(resource_updated_notification)

} // namespace mcp
