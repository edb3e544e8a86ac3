// mcp/client/client.hpp - an MCP client: connects to one server over any transport, performs the
// initialize handshake, and offers every client->server call with typed results, helpers that
// walk all pages, handlers for the server's requests (sampling, elicitation, roots) and callbacks
// for its notifications.
//
//   mcp::client c({.info = {"my-host", "1.0"}});
//   c.connect(mcp::child_process_transport::spawn({.command = "./echo_server"}));
//   for (auto& t : c.list_all_tools()) std::cout << t.name << "\n";
//   auto r = c.call_tool("echo", {{"text", "hi"}});
//
// Structured output is checked: a tool listed with an `outputSchema` must answer with conforming
// `structuredContent`, or call_tool throws (see call_tool and client_options).
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/session/session.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Per-call options: timeout, progress, cancellation.
struct call_options {
    std::optional<std::chrono::milliseconds> timeout;
    std::function<void(const progress_update&)> on_progress;
    cancellation_token cancel;
    /// Extra members for params._meta.
    json::object meta;
};

/// Server->client request handlers. A handler may throw mcp::error to answer with an error
/// (e.g. code -1 when the user rejects a sampling request).
using sampling_handler = std::function<create_message_result(const create_message_request&, request_context&)>;
using elicitation_handler = std::function<elicit_result(const elicit_request&, request_context&)>;
using roots_handler = std::function<std::vector<root>()>;
/// A roots handler that sees the request (its _meta, its cancellation): for a host that answers
/// differently depending on what the server is doing (a gateway asking its own client).
using roots_request_handler = std::function<std::vector<root>(request_context&)>;

struct client_options {
    implementation info{"mcpxx-client", "0.1.0"};
    /// The revision asked for in initialize; the server may answer with an older one, which the
    /// client accepts if it is in `revisions`.
    revision protocol_version = latest_initialize_revision;
    std::vector<revision> revisions{revision::v2025_11_25, revision::v2025_06_18, revision::v2025_03_26,
                                    revision::v2024_11_05};
    /// Declared capabilities beyond those implied by the handlers set (experimental, ...).
    json::object experimental;
    /// Timeout of each call unless call_options says otherwise.
    std::chrono::milliseconds timeout{60000};
    /// Check each call's structuredContent against the outputSchema its tool was listed with
    /// (the spec's "clients SHOULD validate structured results"); see client::call_tool. When
    /// false, tools/list compiles no schema and call_tool returns every result as received.
    bool validate_structured_content = true;
    session_options session;
};

class client {
public:
    explicit client(client_options options = {});
    ~client();
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    // --- handlers for server requests; set before connect() (they decide the capabilities) ---
    void set_sampling_handler(sampling_handler handler, bool supports_tools = true, bool supports_context = false);
    void set_elicitation_handler(elicitation_handler handler, bool form = true, bool url = false);
    /// Offer roots. `list_changed` declares roots.listChanged; call notify_roots_changed() after a change.
    void set_roots_handler(roots_handler handler, bool list_changed = true);
    void set_roots_request_handler(roots_request_handler handler, bool list_changed = true);
    void set_roots(std::vector<root> roots);
    void notify_roots_changed();

    // --- notification callbacks ---
    void on_tools_list_changed(std::function<void()> cb);
    void on_resources_list_changed(std::function<void()> cb);
    void on_prompts_list_changed(std::function<void()> cb);
    void on_resource_updated(std::function<void(const std::string& uri)> cb);
    void on_log_message(std::function<void(const logging_message_notification&)> cb);
    void on_elicitation_complete(std::function<void(const std::string& elicitation_id)> cb);
    /// Any other notification, by method. notifications/progress and notifications/cancelled are
    /// handled by the session itself (call_options::on_progress, cancellation) and never get here.
    void on_notification(std::string method, std::function<void(const json::object& params)> cb);
    void on_close(std::function<void()> cb);

    // --- lifecycle ---
    /// Connect and initialize; throws mcp::error if the server refuses or answers with a
    /// revision this client does not speak (the connection is closed then).
    const initialize_result& connect(transport_ptr transport);
    void close();
    bool connected() const;
    const initialize_result& server() const;
    revision protocol_version() const;
    mcp::session& rpc() const;

    // --- calls ---
    void ping(call_options options = {});
    /// One page of tools/list. Also remembers the outputSchema of each tool on the page, compiled
    /// once here (a schema that a later listing repeats is not compiled again), for call_tool to
    /// check results against. The first page (no cursor) replaces what was remembered; later
    /// pages add to it. A schema without `$schema` is read as JSON Schema 2020-12 when 2025-11-25
    /// is negotiated and as draft-07 before it, as the spec says. A schema that does not compile
    /// does not fail the listing: calls to that tool report it. notifications/tools/list_changed
    /// or a new connect() forgets every schema until the next listing, and a page requested
    /// before a list_changed arrived is not remembered (it may describe the old list).
    list_tools_result list_tools(std::optional<std::string> cursor = std::nullopt, call_options options = {});
    /// Every page of tools/list (remembering outputSchemas as list_tools does).
    std::vector<tool> list_all_tools(call_options options = {});
    /// tools/call. A result with `isError: true` is returned as received: a failed tool made no
    /// promise about its output. Otherwise, if client_options::validate_structured_content is on
    /// and the latest listing (see list_tools) gave `name` an outputSchema, the result is checked
    /// and a violation throws mcp::error with code error_code::invalid_params (-32602, as the
    /// TypeScript SDK does) and one of these messages:
    ///   - "tool 'NAME' was listed with an outputSchema but returned no structuredContent"
    ///   - "structuredContent of tool 'NAME' does not match its outputSchema: at /sum: expected
    ///     number, got string; at (root): ..." (instance location and message of the first five
    ///     errors, then "; and more" if there are others; "(root)" is the empty JSON pointer)
    ///   - "tool 'NAME' was listed with an outputSchema that cannot be compiled, so its
    ///     structuredContent cannot be checked: <the compile error>"
    /// The error's data is an object: "tool" (the name), "errors" (an array of {instanceLocation,
    /// keywordLocation, message}) or "schemaError" (the compile error), and "result" (the result
    /// as received, so that a caller may still show its content).
    /// A tool the client has not listed (since connect() and the last list_changed) is not
    /// checked, since there is nothing to check it against: call list_all_tools() first. The client never lists on its own, since that would
    /// hide a round trip, and a paginated walk, inside a call.
    call_tool_result call_tool(const std::string& name, json::object arguments = {}, call_options options = {});
    list_resources_result list_resources(std::optional<std::string> cursor = std::nullopt, call_options options = {});
    std::vector<resource> list_all_resources(call_options options = {});
    list_resource_templates_result list_resource_templates(std::optional<std::string> cursor = std::nullopt,
                                                           call_options options = {});
    std::vector<resource_template> list_all_resource_templates(call_options options = {});
    read_resource_result read_resource(const std::string& uri, call_options options = {});
    void subscribe(const std::string& uri, call_options options = {});
    void unsubscribe(const std::string& uri, call_options options = {});
    list_prompts_result list_prompts(std::optional<std::string> cursor = std::nullopt, call_options options = {});
    std::vector<prompt> list_all_prompts(call_options options = {});
    get_prompt_result get_prompt(const std::string& name, std::map<std::string, std::string> arguments = {},
                                 call_options options = {});
    complete_result complete(const complete_request& request, call_options options = {});
    void set_logging_level(logging_level level, call_options options = {});

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp
