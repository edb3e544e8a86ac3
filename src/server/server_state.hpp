// Internal state of a server and of each of its peers, shared by the files of src/server.
#pragma once

#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/server.hpp>
#include <mcp/server/server_session.hpp>

#include <mutex>
#include <set>
#include <shared_mutex>

namespace mcp {

/// The server features declared to one peer in its initialize result.
struct declared_features {
    bool tools = false;
    bool resources = false;
    bool resources_subscribe = false;
    bool prompts = false;
    bool logging = false;
    bool completions = false;
    json::object experimental;
};

/// The ServerCapabilities object for `d`, as revision `r` defines it.
json::object capabilities_json(const declared_features& d, revision r);

struct server_session::state {
    mutable std::mutex mu;
    bool initialize_done = false;      ///< initialize was answered
    bool initialized_notified = false; ///< notifications/initialized arrived
    revision version = latest_initialize_revision;
    implementation client;
    client_capabilities caps;
    json::object caps_json; ///< the capabilities object as the client sent it
    declared_features declared; ///< what we declared in the initialize result
    std::optional<logging_level> level;
    std::set<std::string> subscriptions;
};

struct server::impl : std::enable_shared_from_this<server::impl> {
    struct tool_entry {
        tool definition;
        std::shared_ptr<const tool_handler> handler;
        /// inputSchema compiled at registration; null when argument validation is off.
        std::shared_ptr<const schema::validator> arguments;
    };
    struct resource_entry {
        resource definition;
        std::shared_ptr<const resource_reader> reader;
    };
    struct template_entry {
        resource_template definition;
        uri_template compiled; ///< definition.uri_template, parsed once at registration
        std::shared_ptr<const template_reader> reader;
        std::map<std::string, completion_handler> completers;
    };
    struct prompt_entry {
        prompt definition;
        std::shared_ptr<const prompt_handler> handler;
        std::map<std::string, completion_handler> completers;
    };

    server_options opts;
    mutable std::shared_mutex mu;
    std::map<std::string, tool_entry> tools;
    std::map<std::string, resource_entry> resources;
    std::map<std::string, template_entry> templates;
    std::map<std::string, prompt_entry> prompts;

    mutable std::mutex sessions_mu;
    std::map<const server_session*, std::shared_ptr<server_session>> sessions;
    std::vector<std::function<void(server_session&)>> roots_changed_callbacks;
    std::vector<std::function<void(server_session&)>> initialized_callbacks;

    /// What the server declares now, for a peer speaking `r`.
    declared_features declared_now() const;
    /// Register every MCP method handler on a new peer's session.
    void install_handlers(const std::shared_ptr<server_session>& ss);
    void install_feature_handlers(const std::shared_ptr<server_session>& ss);
    /// Send a list_changed notification to initialized peers that were told about the feature.
    enum class feature { tools, resources, prompts };
    void broadcast_list_changed(feature f);
    std::vector<std::shared_ptr<server_session>> live_sessions() const;
};

} // namespace mcp
