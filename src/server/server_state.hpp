// Internal state of a server and of each of its peers, shared by the files of src/server.
//
// How a request is served, whatever carried it:
//   session (initialize era)   lifecycle.cpp installs the method table's handlers on the session;
//                              serve_on_session snapshots the peer's caller_info into a
//                              call_state and runs the method (server_methods.cpp).
//   session (stateless era)    the same handlers see _meta["io.modelcontextprotocol/
//                              protocolVersion"] on an uninitialized session and serve the
//                              request statelessly (stateless.cpp) with a caller_info from _meta.
//   no session                 server_access::handle_request (stateless.cpp) does the same for
//                              a request_stream, on the handler executor, answering through
//                              the engine's run_request (src/session/run_request.hpp).
#pragma once

#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/server.hpp>
#include <mcp/server/server_session.hpp>

#include <mutex>
#include <set>
#include <shared_mutex>
#include <span>
#include <unordered_map>

namespace mcp {

/// The server features declared to one peer in its initialize result (or a discover result).
struct declared_features {
    bool tools = false;
    bool resources = false;
    bool resources_subscribe = false;
    bool prompts = false;
    bool logging = false;
    bool completions = false;
    json::object experimental;
    json::object extensions;
};

/// The ServerCapabilities object for `d`, as revision `r` defines it.
json::object capabilities_json(const declared_features& d, revision r);
/// `d` as the typed ServerCapabilities of a session_snapshot, and back (lossless both ways).
server_capabilities to_server_capabilities(const declared_features& d);
declared_features declared_from(const server_capabilities& c);

struct server_session::state {
    mutable std::mutex mu;
    bool initialize_done = false;      ///< initialize was answered
    bool initialized_notified = false; ///< notifications/initialized arrived
    std::shared_ptr<const caller_info> caller = std::make_shared<const caller_info>(); ///< set by initialize
    declared_features declared; ///< what we declared in the initialize result
    std::optional<logging_level> level;
    std::set<std::string> subscriptions;
    /// server_session::on_snapshot_changed. Called under `publish_mu` (not `mu`), so that
    /// snapshots reach it one at a time, in the order of the changes they carry.
    std::mutex publish_mu;
    std::function<void(const session_snapshot&)> on_snapshot_changed;
};

/// server_session::snapshot() of the peer whose state is `st`.
std::optional<session_snapshot> snapshot_of(const server_session::state& st);
/// Hand the peer's new snapshot to its on_snapshot_changed callback, if any (after a change of
/// what server_session::snapshot() returns, before the response of the request that made it).
void publish_snapshot(server_session::state& st);

namespace detail {

/// One round of a request that may ask the client for input (MRTR in the stateless era).
struct input_round {
    json::object offered;       ///< answers available: from requestState, then inputResponses
    json::object used;          ///< answers ask() returned in this run (carried to the next round)
    json::value app_state;      ///< context::request_state()
    json::value next_app_state; ///< context::set_request_state()
    int round = 1;              ///< 1 for the first request, +1 per retry
};

/// What the server knows about one request being served; a context wraps it.
struct call_state {
    const server::impl* owner = nullptr; ///< the server (for its sending middleware)
    std::shared_ptr<const caller_info> caller;
    std::shared_ptr<server_session> peer; ///< initialize era on a session; else null
    std::optional<logging_level> level;   ///< stateless: _meta logLevel (no logging without it)
    const server_options* options = nullptr;
    input_round* round = nullptr;        ///< stateless tools/call, prompts/get, resources/read
    std::map<std::string, int> key_uses; ///< automatic ask() keys used so far in this run
    json::value local_state;             ///< request_state() outside MRTR (initialize era)
    std::string no_principal;
};

} // namespace detail

/// A subscriptions/listen stream (stateless era): what it asked for and where to send.
struct listener {
    json::value subscription_id; ///< the listen request's id
    bool tools = false, prompts = false, resources = false;
    std::set<std::string> resource_uris;
    std::function<void(std::string method, json::object params)> send; ///< a notification on the stream
    std::shared_ptr<deferred_reply> reply;                             ///< resolved on a graceful end
    cancellation_token cancel;
    std::uint64_t cancel_registration = 0;
};

struct server::impl : std::enable_shared_from_this<server::impl> {
    struct tool_entry {
        std::shared_ptr<const tool> definition; ///< shared with find_tool() callers
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
    std::string state_key;          ///< HMAC key of request states (opts.request_state_secret or random)
    std::shared_ptr<executor> exec; ///< where stateless requests run
    mutable std::shared_mutex mu;
    std::map<std::string, tool_entry> tools;
    std::map<std::string, resource_entry> resources;
    std::map<std::string, template_entry> templates;
    std::map<std::string, prompt_entry> prompts;

    mutable std::mutex sessions_mu;
    std::map<const server_session*, std::shared_ptr<server_session>> sessions;
    std::vector<std::function<void(server_session&)>> roots_changed_callbacks;
    std::vector<std::function<void(server_session&)>> initialized_callbacks;

    // Middleware, replaced as a whole when one is added (readers copy the pointer under the lock).
    mutable std::mutex middleware_mu;
    std::shared_ptr<const std::vector<receiving_middleware>> receivers;
    std::shared_ptr<const std::vector<sending_middleware>> senders;
    std::shared_ptr<const std::vector<notification_middleware>> notification_watchers;
    /// Run `inner` inside the receiving middleware (directly when there is none).
    json::value receive(request_context& rpc, bool stateless,
                        const std::function<json::value()>& inner) const;
    /// Run `inner` inside the sending middleware; `call.params` may be changed on the way.
    json::value send(outgoing_call& call, const std::function<json::value(outgoing_call&)>& inner) const;
    bool has_senders() const;
    /// Run `deliver` inside the notification middleware (directly when there is none).
    void receive_notification(std::string_view method, json::object& params, const message_origin* origin,
                              bool stateless, const std::function<void()>& deliver) const;

    mutable std::mutex listeners_mu;
    std::map<std::uint64_t, std::shared_ptr<listener>> listeners;
    std::uint64_t next_listener = 1;

    /// What the server declares now.
    declared_features declared_now() const;
    /// Whether it declares `capability` ("tools", "resources.subscribe", ...) now; cheaper than
    /// declared_now() for the check every request makes.
    bool offers(std::string_view capability) const;
    bool offers_tools_locked() const;
    bool offers_resources_locked() const;
    bool offers_prompts_locked() const;
    bool offers_completions_locked() const;
    /// opts.info as 2026-07-28 writes it, for every result's _meta (built once, by the constructor).
    json::object server_info_2026;
    /// Register every MCP method handler on a new peer's session.
    void install_handlers(const std::shared_ptr<server_session>& ss);
    /// Send a list_changed notification to initialized peers that were told about the feature,
    /// and to listen streams that asked for it.
    enum class feature { tools, resources, prompts };
    void broadcast_list_changed(feature f);
    /// server::update: while > 0, broadcasts are collected in `pending_changes` (a bit per feature).
    std::mutex batch_mu;
    int batch_depth = 0;
    unsigned pending_changes = 0;
    std::vector<std::shared_ptr<server_session>> live_sessions() const;

    // --- methods (server_methods.cpp): one function per MCP method, era-independent ---
    using method = json::value (*)(impl&, request_context&, detail::call_state&);
    struct method_entry {
        std::string_view name;
        method fn;
        bool initialize_era; ///< served on an initialized session (and sessionless, initialize era)
        bool stateless_era;  ///< served in the 2026-07-28 era
    };
    /// Every MCP method past the lifecycle (initialize, ping): the one table all paths use.
    static std::span<const method_entry> methods();
    /// The method named `name` in the era's table (`stateless`: 2026-07-28), or null.
    static const method_entry* find_method(std::string_view name, bool stateless);
    /// Which declared capability a client->server method needs; nullptr for none.
    static const char* capability_needed(std::string_view method);
    static bool declares(const declared_features& d, std::string_view capability);
    /// Serve `m` for the peer of session `peer` (its handler on the engine; lifecycle.cpp).
    json::value serve_on_session(request_context& ctx, const method_entry& m,
                                 std::shared_ptr<server_session> peer);

    // --- the stateless era (stateless.cpp) ---
    /// Serve `rpc` as a stateless request: check its _meta, route, run, decorate the result.
    /// Throws mcp::error for protocol errors; returns the result object.
    json::value serve_stateless(request_context& rpc);
    /// Serve `rpc` as initialize-era revision `r` with no session behind it.
    json::value serve_sessionless(request_context& rpc, revision r);
    /// See detail::server_access::handle_request.
    void handle_request(jsonrpc::request request, std::shared_ptr<request_stream> stream,
                        cancellation_token cancel, std::shared_ptr<const message_origin> origin,
                        std::optional<revision> initialize_era);

    // --- subscriptions/listen (listen.cpp) ---
    json::value listen(request_context& rpc, detail::call_state& call);
    /// opts.accept_subscription for a URI of subscriptions/listen (an error thrown = refused).
    bool subscription_accepted(const std::string& uri) const;
    void notify_listeners(feature f);
    void notify_listeners_resource_updated(const std::string& uri);
    void end_listeners();
};

/// The initialize result for `params`, filling `who` with the negotiated revision and the
/// client's identity (server.cpp). Throws mcp::error for bad params.
json::object initialize_result_json(const server::impl& srv, const json::object& params,
                                    declared_features declared, caller_info& who);

/// The caller of a request on an initialized session: the session's, or, when the request's
/// _meta carries forwarding_meta::client_capabilities (an intermediary acting for a client),
/// a copy with those capabilities (less what the session did not declare).
std::shared_ptr<const caller_info> forwarded_caller(std::shared_ptr<const caller_info> session_caller,
                                                    const request_context& rpc);

/// Whether an uninitialized session's request is a stateless-era one (its _meta names a
/// protocol version).
bool is_stateless_request(const request_context& rpc) noexcept;

} // namespace mcp
