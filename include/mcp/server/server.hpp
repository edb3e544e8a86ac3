// mcp/server/server.hpp - an MCP server: registries of tools, resources, resource templates and
// prompts shared by every connected peer, each peer served by its own server_session.
//
//   mcp::server s({.info = {.name = "weather", .version = "1.0.0"}});
//   s.add_tool({.name = "echo", .input_schema = ...}, [](const mcp::json::object& args, mcp::context&) {
//       return mcp::call_tool_result{.content = {mcp::text(args.at("text").as_string().c_str())}};
//   });
//   mcp::serve_stdio(s);
//
// Registries may change at any time; connected peers get list_changed notifications (and, in the
// stateless era, open subscriptions/listen streams do). A server answers every method correctly
// with nothing registered (empty lists, proper errors).
//
// Both protocol eras are served by the same object: a peer that sends initialize gets a session
// of the initialize era (2024-11-05 .. 2025-11-25); a request carrying
// _meta["io.modelcontextprotocol/protocolVersion"] is served statelessly (2026-07-28), on a
// session (stdio) or without one (what the Streamable HTTP transport does).
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/middleware.hpp>
#include <mcp/server/server_session.hpp>
#include <mcp/server/typed.hpp>
#include <mcp/session/session.hpp>
#include <mcp/transport/stdio.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

namespace detail {
struct server_access;
}

// tool_handler (raw JSON arguments in, result out), prompt_handler and completion_handler are
// declared in mcp/server/typed.hpp. A handler throwing mcp::error gives a JSON-RPC error; any
// other exception in a tool becomes a result with isError: true and the exception's message.
/// Reads one resource (or one URI of a template, with its variables).
using resource_reader = std::function<read_resource_result(const std::string& uri, context& ctx)>;
using template_reader = std::function<read_resource_result(
    const std::string& uri, const std::map<std::string, std::string>& variables, context& ctx)>;

struct server_options {
    implementation info{"mcpxx-server", "0.1.0"};
    std::optional<std::string> instructions;
    /// Items per page of tools/list, resources/list, resources/templates/list, prompts/list.
    std::size_t page_size = 100;
    /// Revisions offered, newest preferred. An initialize asking for another gets the newest
    /// initialize-era one of these; a stateless request for one not listed gets -32022.
    std::vector<revision> revisions{revision::v2026_07_28, revision::v2025_11_25, revision::v2025_06_18,
                                    revision::v2025_03_26, revision::v2024_11_05};
    /// Capabilities are declared from what is registered when a peer initializes; set these to
    /// declare a feature before anything is registered (for registries filled later).
    bool always_declare_tools = false;
    bool always_declare_resources = false;
    bool always_declare_prompts = false;
    bool declare_logging = true;
    /// Validate tools/call arguments against each tool's inputSchema before its handler runs
    /// (a mismatch is a result with isError: true naming what is wrong, as 2025-11-25 asks).
    bool validate_tool_arguments = true;
    /// Experimental capabilities to declare, verbatim.
    json::object experimental;
    /// Extensions to declare (2026-07-28 `capabilities.extensions`: id -> settings), verbatim.
    json::object extensions;
    /// Caching hints of the stateless era (ttlMs / cacheScope) for tools/list, prompts/list,
    /// resources/list, resources/templates/list and server/discover; resources/read uses
    /// `read_cache` unless the reader's result sets its own. ttl 0 = revalidate every time.
    struct cache_hint {
        std::int64_t ttl_ms = 0;
        std::string scope = "public"; ///< "public" or "private"
    };
    cache_hint list_cache{0, "public"};
    cache_hint read_cache{0, "private"};
    /// Key of the HMAC-SHA256 that protects MRTR requestState. Empty: 32 random bytes chosen at
    /// construction, so states do not survive a restart and replicas behind a load balancer need
    /// a shared key here.
    std::string request_state_secret;
    /// How long an issued requestState stays valid.
    std::chrono::seconds request_state_ttl{900};
    /// Rounds of one multi-round request at most (a client answering forever is cut off).
    int max_input_rounds = 32;
    /// Whether a client may subscribe to `uri` (resources/subscribe, and the
    /// resourceSubscriptions of subscriptions/listen); e.g. only what the client could read.
    /// False refuses with "Resource not found" (-32002; -32602 from 2026-07-28); an mcp::error
    /// thrown refuses with that error instead (resources/subscribe answers it). Listen leaves a
    /// refused URI out of what it acknowledges. Unset: any URI. Called on the request's thread;
    /// must be thread-safe.
    std::function<bool(const std::string& uri)> accept_subscription;
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
    /// Register (or replace) a tool with a raw JSON handler. Its inputSchema is checked now;
    /// std::invalid_argument (naming the tool and the place in the schema) if it is not a valid
    /// JSON Schema, or if an `x-mcp-header` annotation in it is invalid (2026-07-28: on a
    /// property not reached from the root through `properties` alone, on a type other than
    /// string, integer or boolean, not an HTTP token, or a name repeated ignoring case). Valid
    /// annotations make Streamable HTTP clients mirror those arguments into `Mcp-Param-{name}`
    /// headers, which mcp::http::server checks against the body (-32020 when they differ).
    void add_tool(tool definition, tool_handler handler);
    /// Register a typed tool: inputSchema from the argument type, outputSchema and
    /// structuredContent from a described return type (see mcp/server/typed.hpp). The schemas in
    /// `definition` are replaced by those of the types.
    template <detail::typed_tool_handler F> void add_tool(tool definition, F handler) {
        using args = detail::arguments_of<F>;
        auto raw = detail::typed_tool(definition, std::move(handler));
        std::shared_ptr<const schema::validator> validator;
        if constexpr (described_struct<args>)
            validator = std::make_shared<const schema::validator>(
                schema::validator_of<args>()); // compiled once per type
        register_tool(std::move(definition), std::move(raw), std::move(validator));
    }
    /// Shorthand for a tool with a name and a description (raw or typed handler).
    template <class F> void add_tool(std::string name, std::string description, F handler) {
        tool definition;
        definition.name = std::move(name);
        definition.description = std::move(description);
        add_tool(std::move(definition), std::move(handler));
    }
    bool remove_tool(const std::string& name);
    /// The definition of tool `name` as registered (schemas included), or null. The object stays
    /// valid while held, even if the tool is replaced or removed meanwhile.
    std::shared_ptr<const tool> find_tool(const std::string& name) const;
    // --- resources ---
    void add_resource(resource definition, resource_reader reader);
    bool remove_resource(const std::string& uri);
    /// A template resource: resources/read of a URI that matches `uri_template` (RFC 6570, levels
    /// 1-4) reaches `reader` with the matched variables. Throws std::invalid_argument (with the
    /// offset of the problem) when the template does not parse.
    void add_resource_template(resource_template definition, template_reader reader,
                               std::map<std::string, completion_handler> completers = {});
    bool remove_resource_template(const std::string& uri_template);
    /// Send notifications/resources/updated to every peer subscribed to `uri`.
    void notify_resource_updated(const std::string& uri);
    // --- prompts ---
    void add_prompt(prompt definition, prompt_handler handler,
                    std::map<std::string, completion_handler> completers = {});
    /// Register a typed prompt: its arguments come from the argument type (see typed.hpp);
    /// enum-valued arguments are completed from their names unless `completers` has one.
    template <detail::typed_prompt_handler F>
    void add_prompt(prompt definition, F handler, std::map<std::string, completion_handler> completers = {}) {
        auto raw = detail::typed_prompt(definition, completers, std::move(handler));
        add_prompt(std::move(definition), std::move(raw), std::move(completers));
    }
    bool remove_prompt(const std::string& name);

    /// Make several registry changes (add_*, remove_*) as one: peers and listen streams get one
    /// list_changed per feature that changed, after `changes` returns, instead of one per call.
    /// Changes other threads make meanwhile are announced with them. May nest.
    void update(const std::function<void()>& changes);

    /// Send notifications/message to every peer whose level admits `level`.
    void log(logging_level level, json::value data, std::optional<std::string> logger = std::nullopt);

    /// Wrap every incoming request (see mcp/server/middleware.hpp). The first added runs first.
    void use(receiving_middleware m);
    /// Wrap every request and notification the server sends on its own initiative.
    void use_sending(sending_middleware m);
    /// See every incoming notification before the server acts on it (see middleware.hpp).
    void use_notifications(notification_middleware m);

    /// Called when a peer sends notifications/roots/list_changed.
    void on_roots_list_changed(std::function<void(server_session&)> callback);
    /// Called when a peer has completed initialization.
    void on_initialized(std::function<void(server_session&)> callback);

    // --- serving ---
    /// Start serving one peer over `transport`; returns at once.
    std::shared_ptr<server_session> connect(transport_ptr transport);
    /// Serve a peer that initialized with another process (a replica behind the same load
    /// balancer, which kept server_session::snapshot() in a shared store): like connect(), but
    /// the session starts initialized as `snapshot` says - revision, client, capabilities,
    /// declared features, log level, subscriptions - so that the peer's next message is served
    /// as it would have been where initialize happened. Nothing is sent to the peer; on_initialized
    /// callbacks run only if notifications/initialized had not arrived yet and arrives here.
    /// Throws std::invalid_argument when the snapshot's revision is not an initialize-era
    /// revision this server offers, or its client capabilities do not parse.
    std::shared_ptr<server_session> restore_session(transport_ptr transport,
                                                    const session_snapshot& snapshot);
    /// End every subscriptions/listen stream gracefully (each gets its result) and close every
    /// session. The server stays usable (registries, new connections).
    void shutdown();
    /// End every subscriptions/listen stream gracefully, leaving sessions alone (what an HTTP
    /// server does when it stops).
    void end_subscriptions();
    /// Open subscriptions/listen streams.
    std::size_t listeners() const;
    /// Serve one peer and block until it disconnects.
    void serve(transport_ptr transport);
    /// Peers currently connected.
    std::vector<std::shared_ptr<server_session>> sessions() const;

    const server_options& options() const noexcept;

    struct impl;

private:
    friend struct detail::server_access; // the HTTP transport's entry points (src/server)
    /// connect() and restore_session(): start serving `rpc` with the peer state `st`.
    std::shared_ptr<server_session> attach(std::shared_ptr<mcp::session> rpc,
                                           std::shared_ptr<server_session::state> st);
    /// add_tool with the arguments validator already compiled (null: compile inputSchema).
    void register_tool(tool definition, tool_handler handler,
                       std::shared_ptr<const schema::validator> arguments);
    std::shared_ptr<impl> impl_;
};

/// Serve `s` on this process's stdin/stdout until stdin ends (or until a client that stopped
/// reading is cut off at options.max_queued_bytes). Returns the process exit code (0).
int serve_stdio(server& s, const stdio_options& options = {});

} // namespace mcp
