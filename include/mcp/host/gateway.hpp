// mcp/host/gateway.hpp - many MCP servers served as one: an mcp::server whose tools, resources,
// resource templates, prompts and completions are the combined catalogue of a host manager,
// kept in step with the servers' list_changed notifications and restarts.
//
//   mcp::host::gateway gw({.manager = {.approval = {.approve_all = true}}});
//   for (auto& s : mcp::host::discover({.explicit_files = {"mcp.json"}}).servers) gw.add_server(s);
//   gw.start();                                             // connects them all, in parallel
//   mcp::http::server http(gw.server(), {.port = 8080});   // or mcp::serve_stdio(gw.server())
//   http.start();
//
// Names. By default every name says which server it comes from, so that nothing collides:
// tools and prompts are `server__name` (the host catalogue's rule, see catalogue.hpp), resource
// URIs and templates become `mcpxx://server/<the server's URI>` (the server's part kept verbatim,
// so a template stays a template and a read strips the prefix exactly). URIs inside results
// (resource links, embedded resources, read contents) and resources/updated are rewritten the
// same way. With `qualify_names = false` names are the servers' own (a gateway in front of one
// server is then transparent); when two servers offer the same name, the server added first
// keeps it and the other's item is left out (reported through on_event).
//
// Forwarded both ways, for the client's calls: progress (the client's progressToken gets the
// server's notifications/progress), cancellation (the client cancelling cancels the server's
// request), log messages (the servers are asked for `server_log_level` and each client gets
// what its own level admits; a message sent while a call of that client runs goes on that
// call's stream), sampling, elicitation and roots requests (asked of the client whose call the
// server is serving; outside a call sampling/elicitation are refused, roots see below), and for
// those the server's cancellation (the client is sent notifications/cancelled) and the client's
// progress (sent on to the server when it asked for it), list_changed (the catalogue is rebuilt
// and the gateway's own clients are told), resource subscriptions (subscribing through the
// gateway subscribes at the server).
//
// Roots. Within a call a server gets the calling client's roots (the manager's, i.e. --root,
// when that client declares none). Outside a call - a server that asks after its own start or
// after a roots/list_changed - the servers are shared by every client, so the answer is the
// union of the roots of every connected client that declares roots (each asked then, at most
// `roots_timeout`; one that does not answer is left out), or the manager's when no connected
// client declares roots. Whatever changes that answer is passed on to every server as
// notifications/roots/list_changed: a client's own roots/list_changed, a client with roots
// connecting or going away. Clients of 2026-07-28 have no session: their roots count within
// their calls only.
//
// Servers are tried again forever by default (manager.restart is restart_policy::forever()):
// a server that is down when the gateway starts, or dies any number of times, joins the
// catalogue when it comes up, and the clients get list_changed.
//
// Which call a server's request belongs to: an mcpxx server echoes the correlation id the
// gateway puts in each forwarded request (see forwarding_meta in mcp/server/context.hpp); for
// other servers, the one call of the gateway in flight on that server. With several in flight
// and no id the request cannot be placed: sampling and elicitation are refused, roots answered
// as outside a call, log messages go to every client.
//
// Names stay: a tool or prompt keeps its qualified name for the gateway's lifetime (see
// catalogue.hpp), and while its server is down a call by that name is a tool result with
// isError: true saying the server is not available (a prompt: an error saying so), never
// another server's item that happens to sanitise to the same name.
//
// Clients of 2026-07-28 ask for input through multi-round-trip results (MRTR) while a server of
// the initialize era waits on an open request: the gateway keeps such a call running, parked,
// between the rounds (up to `input_wait`), and finds it again through the requestState it
// issued. See docs/design.md ("Gateway") for the reasoning and the rough edges.
//
// Tool calls go through the manager: approval policy, audit log, timeouts. There is no
// terminal: a call the policy does not allow by itself (manager.approval: approve_all, trusted
// servers' read-only tools) is put to the user of the calling client, as a form elicitation
// (key "dev.mcpxx/approval"; in the stateless era a round of its own, the approval then kept in
// the sealed requestState of the call's later rounds). A client without form elicitation, a
// "no", or a call to a server that is down is a tool result with isError: true saying so.
#pragma once

#include <mcp/host/manager.hpp>
#include <mcp/server/server.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::host {

/// The manager options a gateway starts from: servers tried again forever.
inline manager_options gateway_manager_defaults() {
    manager_options o;
    o.restart = restart_policy::forever();
    return o;
}

struct gateway_options {
    /// Options of the mcp::server clients talk to (info, instructions, page size, request-state
    /// secret and lifetime, session options...). The gateway declares tools, resources and
    /// prompts from the start (servers come and go) and leaves argument validation to the
    /// servers, whatever these say. Without an accept_subscription of its own, subscribing to a
    /// URI that leads to no server is refused as "Resource not found".
    server_options server{.info = {"mcpxx-gateway", "0.1.0"}};
    /// The servers behind: connections, restarts, approval, audit, roots. Hooks the gateway
    /// needs (sampling, elicitation, roots, logs, catalogue changes, resource updates) are set
    /// by it; those given here are called as well. Servers are tried again forever unless
    /// `restart` says otherwise.
    manager_options manager = gateway_manager_defaults();
    /// Qualify names with their server (see the top of this file); false: the servers' names.
    bool qualify_names = true;
    /// Scheme of qualified resource URIs: `<scheme>://<server>/<uri>`.
    std::string uri_scheme = "mcpxx";
    /// Log messages asked of the servers (logging/setLevel), before each client's own filter.
    logging_level server_log_level = logging_level::debug;
    /// How long a call waiting for a 2026-07-28 client's answers is kept before it is
    /// cancelled at its server.
    std::chrono::milliseconds input_wait{std::chrono::minutes(5)};
    /// Calls waiting for answers at most; beyond it a call that needs input fails.
    std::size_t max_waiting_calls = 1000;
    /// How long each client is given to list its roots when a server asks outside a call.
    std::chrono::milliseconds roots_timeout{5000};
    /// Structured events, one JSON object each with an "event" member: "server_state"
    /// (server, state, error), "catalogue" (tools, prompts, resources, templates), "hidden"
    /// (kind, name, server, kept: the server whose item of that name was kept, when names
    /// collide without qualified names; or why the item cannot be published, in parentheses: a
    /// template that is not a valid URI template, a tool with an invalid x-mcp-header
    /// annotation), "input_expired" (server).
    std::function<void(const json::object&)> on_event;
};

class gateway {
public:
    explicit gateway(gateway_options options = {});
    ~gateway(); ///< close()
    gateway(const gateway&) = delete;
    gateway& operator=(const gateway&) = delete;

    /// Add a server (not started). Throws std::invalid_argument on a duplicate name.
    void add_server(server_config config);
    /// Start every server, all at once, and publish the catalogue; returns when each is ready
    /// or has failed. Servers that come up later (restarts) join the catalogue then. Middleware
    /// added to server() before start() run before the gateway's own (which subscribes at the
    /// servers): add authentication and rate limits first.
    void start();

    /// The MCP server to serve (over HTTP, stdio, ...).
    mcp::server& server() noexcept;
    /// The servers behind.
    manager& servers() noexcept;

    /// Where a catalogue name leads: the server and its own name for the tool / prompt / URI.
    struct route {
        std::string server;
        std::string name;
    };
    std::optional<route> tool_route(const std::string& name) const;
    std::optional<route> prompt_route(const std::string& name) const;
    std::optional<route> resource_route(const std::string& uri) const;
    /// Where a published resource template (its uriTemplate text) leads.
    std::optional<route> template_route(const std::string& uri_template) const;
    /// The catalogue names of the tools and prompts that lead to `server`.
    std::vector<std::string> names_of(const std::string& server) const;

    /// Metric labels of a call (server_metrics::middleware): the server behind it and, for
    /// tools/call, the server's own tool name; a tools/call of a name the catalogue does not
    /// have is labelled tool="(unknown)" (no server), so that clients cannot add series.
    metric_labels labels(const incoming_call& call) const;

    /// The servers' states for a health check: {"status": "ok" | "degraded" | "down",
    /// "servers": [{"name", "state", "restarts", "tools", "resources", "prompts", "error"?,
    /// "pid"?}], "waitingCalls": N}. "ok": every server ready; "down": none.
    json::object health() const;
    /// Calls kept running between the rounds of a 2026-07-28 client's input.
    std::size_t waiting_calls() const;

    /// Stop serving: end listen streams and sessions, cancel waiting calls, stop the servers.
    void close();

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp::host
