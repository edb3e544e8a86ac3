// mcp/protocol/capabilities.hpp - what a client and a server declare they support
// (ClientCapabilities, ServerCapabilities). A sub-capability the revision does not define is not
// sent (e.g. `elicitation` to 2025-03-26, `tasks` to anything but 2025-11-25, `extensions` before
// 2026-07-28, roots `listChanged` to 2026-07-28).
#pragma once

#include <mcp/protocol/codec.hpp>

#include <optional>

namespace mcp {

struct roots_capability {
    std::optional<bool> list_changed; ///< 2024-11-05 .. 2025-11-25
    bool operator==(const roots_capability&) const = default;
};

struct sampling_capability {
    bool context = false; ///< `context: {}` - includeContext other than "none" (2025-11-25+)
    bool tools = false;   ///< `tools: {}` - tools and toolChoice in requests (2025-11-25+)
    bool operator==(const sampling_capability&) const = default;
};

struct elicitation_capability {
    bool form = false; ///< `form: {}` (2025-11-25+)
    bool url = false;  ///< `url: {}` (2025-11-25+)
    /// An empty elicitation capability means form mode (and is all 2025-06-18 can say).
    bool supports_form() const noexcept { return form || !url; }
    bool supports_url() const noexcept { return url; }
    bool operator==(const elicitation_capability&) const = default;
};

/// Client tasks capability (2025-11-25 only).
struct client_tasks_capability {
    bool list = false;
    bool cancel = false;
    bool sampling_create_message = false; ///< requests.sampling.createMessage
    bool elicitation_create = false;      ///< requests.elicitation.create
    bool operator==(const client_tasks_capability&) const = default;
};

struct client_capabilities {
    std::optional<json::object> experimental;
    std::optional<roots_capability> roots;
    std::optional<sampling_capability> sampling;
    std::optional<elicitation_capability> elicitation; ///< 2025-06-18+
    std::optional<client_tasks_capability> tasks;      ///< 2025-11-25 only
    std::optional<json::object> extensions;            ///< 2026-07-28+: id -> settings object
    bool operator==(const client_capabilities&) const = default;
};
json::object to_json(const client_capabilities& x, revision r);
template <> client_capabilities from_json<client_capabilities>(const json::value& v);

struct list_changed_capability {
    std::optional<bool> list_changed;
    bool operator==(const list_changed_capability&) const = default;
};
using prompts_capability = list_changed_capability;
using tools_capability = list_changed_capability;

struct resources_capability {
    std::optional<bool> subscribe;
    std::optional<bool> list_changed;
    bool operator==(const resources_capability&) const = default;
};

/// Server tasks capability (2025-11-25 only).
struct server_tasks_capability {
    bool list = false;
    bool cancel = false;
    bool tools_call = false; ///< requests.tools.call
    bool operator==(const server_tasks_capability&) const = default;
};

struct server_capabilities {
    std::optional<json::object> experimental;
    bool logging = false;     ///< `logging: {}`
    bool completions = false; ///< `completions: {}` (2025-03-26+)
    std::optional<prompts_capability> prompts;
    std::optional<resources_capability> resources;
    std::optional<tools_capability> tools;
    std::optional<server_tasks_capability> tasks; ///< 2025-11-25 only
    std::optional<json::object> extensions;       ///< 2026-07-28+
    bool operator==(const server_capabilities&) const = default;
};
json::object to_json(const server_capabilities& x, revision r);
template <> server_capabilities from_json<server_capabilities>(const json::value& v);

} // namespace mcp
