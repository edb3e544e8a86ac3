// mcp/protocol/resource.hpp - resources: Resource, ResourceTemplate, resources/list,
// resources/templates/list, resources/read, subscriptions and their notifications.
#pragma once

#include <mcp/protocol/content.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A resource the server can read (Resource).
struct resource {
    std::string uri;
    std::string name;
    std::optional<std::string> title; ///< 2025-06-18+
    std::optional<std::string> description;
    std::optional<std::string> mime_type;
    std::optional<std::int64_t> size; ///< raw size in bytes
    std::optional<mcp::annotations> annotations;
    std::vector<icon> icons;          ///< 2025-11-25+
    std::optional<json::object> meta; ///< 2025-06-18+
    bool operator==(const resource&) const = default;
};
json::object to_json(const resource& x, revision r);
template <> resource from_json<resource>(const json::value& v);

/// A family of resources named by an RFC 6570 URI template (ResourceTemplate).
struct resource_template {
    std::string uri_template;
    std::string name;
    std::optional<std::string> title;
    std::optional<std::string> description;
    std::optional<std::string> mime_type;
    std::optional<mcp::annotations> annotations;
    std::vector<icon> icons;
    std::optional<json::object> meta;
    bool operator==(const resource_template&) const = default;
};
json::object to_json(const resource_template& x, revision r);
template <> resource_template from_json<resource_template>(const json::value& v);

/// Params of resources/read.
struct read_resource_request {
    std::string uri;
    std::optional<json::object> meta;
    std::optional<json::object> input_responses; ///< 2026-07-28+
    std::optional<std::string> request_state;    ///< 2026-07-28+
    bool operator==(const read_resource_request&) const = default;
};
json::object to_json(const read_resource_request& x, revision r);
template <> read_resource_request from_json<read_resource_request>(const json::value& v);

/// Result of resources/read.
struct read_resource_result {
    std::vector<resource_contents> contents;
    std::optional<std::int64_t> ttl_ms;     ///< 2026-07-28+ (0 when unset)
    std::optional<std::string> cache_scope; ///< 2026-07-28+ ("private" when unset)
    std::optional<json::object> meta;
    bool operator==(const read_resource_result&) const = default;
};
json::object to_json(const read_resource_result& x, revision r);
template <> read_resource_result from_json<read_resource_result>(const json::value& v);

/// Result of resources/list.
struct list_resources_result {
    std::vector<resource> resources;
    std::optional<std::string> next_cursor;
    std::optional<std::int64_t> ttl_ms;
    std::optional<std::string> cache_scope;
    std::optional<json::object> meta;
    bool operator==(const list_resources_result&) const = default;
};
json::object to_json(const list_resources_result& x, revision r);
template <> list_resources_result from_json<list_resources_result>(const json::value& v);

/// Result of resources/templates/list.
struct list_resource_templates_result {
    std::vector<resource_template> resource_templates;
    std::optional<std::string> next_cursor;
    std::optional<std::int64_t> ttl_ms;
    std::optional<std::string> cache_scope;
    std::optional<json::object> meta;
    bool operator==(const list_resource_templates_result&) const = default;
};
json::object to_json(const list_resource_templates_result& x, revision r);
template <> list_resource_templates_result from_json<list_resource_templates_result>(const json::value& v);

/// Params of resources/subscribe and resources/unsubscribe (2024-11-05 .. 2025-11-25).
struct subscribe_request {
    std::string uri;
    std::optional<json::object> meta;
    bool operator==(const subscribe_request&) const = default;
};
using unsubscribe_request = subscribe_request;
json::object to_json(const subscribe_request& x, revision r);
template <> subscribe_request from_json<subscribe_request>(const json::value& v);

/// Params of notifications/resources/updated.
struct resource_updated_notification {
    std::string uri;
    std::optional<json::object> meta;
    bool operator==(const resource_updated_notification&) const = default;
};
json::object to_json(const resource_updated_notification& x, revision r);
template <> resource_updated_notification from_json<resource_updated_notification>(const json::value& v);

} // namespace mcp
