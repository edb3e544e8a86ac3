// mcp/server/server.hpp - an MCP server: registries of tools, resources, resource templates and
// prompts shared by every connected peer, each peer served by its own server_session.
//
//   mcp::server s({.info = {.name = "weather", .version = "1.0.0"}});
//   s.add_tool({.name = "echo", .input_schema = ...}, [](const mcp::json::object& args, mcp::context&) {
//       return mcp::call_tool_result{.content = {mcp::text(args.at("text").as_string().c_str())}};
//   });
//   mcp::serve_stdio(s);
//
// Registries may change at any time; connected peers get list_changed notifications. A server
// answers every method correctly with nothing registered (empty lists, proper errors).
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/server_session.hpp>
#include <mcp/session/session.hpp>
#include <mcp/transport/transport.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A tool handler: validated arguments in, result out. Throwing mcp::error gives a JSON-RPC
/// error; any other exception becomes a result with isError: true and the exception's message.
using tool_handler = std::function<call_tool_result(const json::object& arguments, context& ctx)>;
/// Reads one resource (or one URI of a template, with its variables).
using resource_reader = std::function<read_resource_result(const std::string& uri, context& ctx)>;
using template_reader =
    std::function<read_resource_result(const std::string& uri, const std::map<std::string, std::string>& variables,
                                       context& ctx)>;
/// Builds a prompt from its (already checked) arguments.
using prompt_handler =
    std::function<get_prompt_result(const std::map<std::string, std::string>& arguments, context& ctx)>;
/// Completes one argument: the argument's name, the partial value, the other arguments already
/// given (completion context). Returns candidate values (at most 100 are sent).
using completion_handler = std::function<complete_result(
    const std::string& argument, const std::string& value, const std::map<std::string, std::string>& context_arguments)>;

struct server_options {
    implementation info{"mcpxx-server", "0.1.0"};
    std::optional<std::string> instructions;
    /// Items per page of tools/list, resources/list, resources/templates/list, prompts/list.
    std::size_t page_size = 100;
    /// Revisions offered, newest preferred. A client asking for another gets the newest of these.
    std::vector<revision> revisions{revision::v2025_11_25, revision::v2025_06_18, revision::v2025_03_26,
                                    revision::v2024_11_05};
    /// Capabilities are declared from what is registered when a peer initializes; set these to
    /// declare a feature before anything is registered (for registries filled later).
    bool always_declare_tools = false;
    bool always_declare_resources = false;
    bool always_declare_prompts = false;
    bool declare_logging = true;
    /// Experimental capabilities to declare, verbatim.
    json::object experimental;
    /// Options of each peer's JSON-RPC session.
    session_options session;
};

class server_session;

class server {
public:
    explicit server(server_options options = {});
    ~server();
    server(const server&) = delete;
    server& operator=(const server&) = delete;

    // --- tools ---
    void add_tool(tool definition, tool_handler handler);
    bool remove_tool(const std::string& name);
    // --- resources ---
    void add_resource(resource definition, resource_reader reader);
    bool remove_resource(const std::string& uri);
    void add_resource_template(resource_template definition, template_reader reader,
                               std::map<std::string, completion_handler> completers = {});
    bool remove_resource_template(const std::string& uri_template);
    /// Send notifications/resources/updated to every peer subscribed to `uri`.
    void notify_resource_updated(const std::string& uri);
    // --- prompts ---
    void add_prompt(prompt definition, prompt_handler handler,
                    std::map<std::string, completion_handler> completers = {});
    bool remove_prompt(const std::string& name);

    /// Send notifications/message to every peer whose level admits `level`.
    void log(logging_level level, json::value data, std::optional<std::string> logger = std::nullopt);

    /// Called when a peer sends notifications/roots/list_changed.
    void on_roots_list_changed(std::function<void(server_session&)> callback);
    /// Called when a peer has completed initialization.
    void on_initialized(std::function<void(server_session&)> callback);

    // --- serving ---
    /// Start serving one peer over `transport`; returns at once.
    std::shared_ptr<server_session> connect(transport_ptr transport);
    /// Serve one peer and block until it disconnects.
    void serve(transport_ptr transport);
    /// Peers currently connected.
    std::vector<std::shared_ptr<server_session>> sessions() const;

    const server_options& options() const noexcept;

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

/// Serve `s` on this process's stdin/stdout until stdin ends. Returns the process exit code (0).
int serve_stdio(server& s);

} // namespace mcp
