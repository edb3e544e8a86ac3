// mcp/host/manager.hpp - connections to many MCP servers at once, as a host keeps them.
//
//   mcp::host::manager m({.approver = my_approver, .audit = log, .roots = {"/home/me/project"}});
//   for (auto& s : mcp::host::discover().servers) m.add_server(s);
//   m.connect_all();                                // in parallel; failures are per server
//   for (auto& t : m.tools()) std::cout << t.name << "\n";         // "git__commit", ...
//   auto r = m.call_tool("git__commit", {{"message", "x"}});       // asks the approver first
//
// What it does for each server:
//   * starts it (make_transport), initializes, lists tools, resources and prompts;
//   * offers the roots (file:// URIs of `roots`), and sends roots/list_changed on set_roots;
//   * lists again when the server announces list_changed (on_catalogue_changed follows);
//   * restarts a server that was up and died, after 1x, 2x, 4x ... restart_policy::initial_delay
//     (at most max_delay, less a random part), giving up after max_attempts failed restarts in a
//     row, or never; a connection that stayed up for stable_after resets the count; a server
//     that could not be started at all fails at once, or is tried again the same way
//     (restart_policy::retry_first_start, as a long-running gateway wants);
//   * names each tool once: a (server, tool) keeps its catalogue name for the manager's
//     lifetime, across restarts (see catalogue.hpp);
//   * routes tool calls through the approval policy and the approver, with a timeout, and writes
//     each call to the audit log; sampling and elicitation requests go to the providers.
// Thread-safe: every member may be called from any thread.
#pragma once

#include <mcp/client/client.hpp>
#include <mcp/host/approval.hpp>
#include <mcp/host/audit.hpp>
#include <mcp/host/config.hpp>
#include <mcp/host/providers.hpp>
#include <mcp/http/request_authorizer.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::host {

enum class server_state {
    starting,   ///< being started and initialized
    ready,      ///< initialized and listed
    restarting, ///< down (died, or could not start and is tried again): waiting to start again
    failed,     ///< could not start, or gave up restarting
    stopped,    ///< closed by the manager
};
std::string_view to_string(server_state s) noexcept;
/// Why a server in `state` cannot take a request, in words: `server "x" failed: ERROR`,
/// `server "x" is still starting`, `server "x" is restarting (last error: ERROR)`,
/// `server "x" has been stopped`. `error` may be empty.
std::string not_ready_reason(std::string_view name, server_state state, std::string_view error);

struct server_status {
    std::string name;
    std::string source;
    transport_kind transport = transport_kind::stdio;
    server_state state = server_state::starting;
    std::optional<revision> protocol_version;
    std::optional<implementation> server_info;
    std::size_t tools = 0, resources = 0, resource_templates = 0, prompts = 0;
    std::string error;      ///< why it failed or last died; while starting, what it waits for
    int restarts = 0;       ///< successful restarts so far
    std::optional<int> pid; ///< of a running stdio server
};

/// When a server that is down is tried again. The n-th attempt in a row waits
/// initial_delay x 2^(n-1), at most max_delay, less a random share of up to `jitter` of that
/// (servers that went down together, with a network, then do not all come back at the same
/// instant).
struct restart_policy {
    /// Failed attempts in a row after which the server is given up (state failed, with
    /// "gave up after N restarts" in its error); nullopt: never give up.
    std::optional<int> max_attempts = 5;
    std::chrono::milliseconds initial_delay{250};
    std::chrono::milliseconds max_delay{8000};
    /// A connection that stayed up this long resets the count of attempts.
    std::chrono::milliseconds stable_after{30000};
    /// Share of each delay taken off at random, from 0 (none) to 1.
    double jitter = 0.2;
    /// Whether a server that could not be started in the first place (nothing answering at its
    /// URL yet, a command not installed yet) is tried again under this policy, its state
    /// `restarting` in between. False: it fails at once, which a command run once wants (it
    /// says so now rather than after the backoff).
    bool retry_first_start = false;

    /// Never give up, on a first start either: for a host that runs for a long time (the
    /// default of mcp::host::gateway).
    static restart_policy forever() noexcept {
        restart_policy p;
        p.max_attempts.reset();
        p.retry_first_start = true;
        return p;
    }
};

/// One tool of the combined catalogue.
struct tool_entry {
    std::string name; ///< unique, model-safe, kept for the manager's lifetime: server__tool
    std::string server;
    mcp::tool tool;
    bool server_trusted = false;
};

struct tool_call_options {
    std::optional<std::chrono::milliseconds> timeout; ///< else the server's `timeout`, else the manager's
    std::function<void(const progress_update&)> on_progress;
    cancellation_token cancel;
    /// Extra members for the request's params._meta.
    json::object meta;
    /// The user's decision when the caller asked already (after approval_needed() said so, e.g.
    /// a gateway asking the user of its client through elicitation): true runs the call as
    /// approved by the user, false refuses it (audited as denied, call_denied thrown). Unset:
    /// the policy decides, then the manager's approver.
    std::optional<bool> user_decision;
    /// Why user_decision is false, for the audit log and call_denied's message (default: "the
    /// user denied the call"), e.g. that nobody could be asked.
    std::string denial_reason;
    /// Who asked for the call (a gateway's authenticated client), for the audit log; empty: not
    /// known.
    std::string principal;
};

struct manager_options {
    implementation client_info{"mcpxx", "0.1.0"};
    /// The revision each server is asked for (client_options::protocol_version); unset: the
    /// client's default (the newest, falling back to the initialize era). A gateway pins the
    /// initialize era: its session carries the servers' own requests and notifications.
    std::optional<revision> protocol_version;
    /// Starting one server, unless its config has a `timeout` of its own: the connection
    /// (TCP, TLS), each request of the handshake (initialize; the server/discover probe gets at
    /// most half of it, and at most the client's discover_timeout) and each listing. A server
    /// that has not answered fails with "no answer to initialize within N s" (and what it wrote
    /// on stdout that is not JSON-RPC, and the end of its stderr), or over HTTP "the server
    /// answered nothing: ...".
    std::chrono::milliseconds connect_timeout{30000};
    std::chrono::milliseconds call_timeout{60000};
    restart_policy restart;
    approval_policy approval;
    std::shared_ptr<mcp::host::approver> approver;      ///< null: calls that need approval are denied
    std::shared_ptr<audit_log> audit;                   ///< null: no audit log
    std::shared_ptr<sampling_provider> sampling;        ///< null: sampling not declared
    std::shared_ptr<elicitation_responder> elicitation; ///< null: elicitation not declared
    /// Offered as roots (made absolute); the capability is declared even when empty (so that
    /// set_roots can add some later). Offer only what the user chose: servers may take roots as
    /// the directories they may use.
    std::vector<std::filesystem::path> roots;
    bool inherit_server_stderr = false; ///< else captured (the tail goes in errors)
    std::function<void(const std::string& server, std::string_view line)> on_server_stderr;
    /// OAuth for remote servers: the client that logs in to `server` when it answers 401 (null:
    /// none), asked at each connection; transport_options::authorizer says which entries use it.
    std::function<std::shared_ptr<http::request_authorizer>(const server_config& server)> authorizer;
    std::function<void(const std::string& server, const logging_message_notification&)> on_log;
    /// Ask each server that declares logging for messages from this level up (logging/setLevel
    /// after each connect). Unset: the server's own default.
    std::optional<logging_level> server_log_level;
    /// A call's result reaches the caller only after the log messages (and other notifications)
    /// the server sent before it have been handled (session_options::ordered_responses): for a
    /// host that forwards a call's log messages to the call's own client. Hooks (on_log, ...)
    /// must then not wait for another request to the same server.
    bool ordered_responses = false;
    /// A server's notifications/resources/updated (for a resource someone subscribed to).
    std::function<void(const std::string& server, const std::string& uri)> on_resource_updated;
    /// Answers a server's roots/list instead of `roots` when it returns a list (nullopt: `roots`).
    /// Sees the request, whose _meta may say on whose behalf the server asks.
    std::function<std::optional<std::vector<root>>(const std::string& server, request_context& request)>
        roots_provider;
    /// A server's tools, resources or prompts changed (list_changed, restart, failure).
    std::function<void(const std::string& server)> on_catalogue_changed;
};

class manager {
public:
    explicit manager(manager_options options = {});
    ~manager(); ///< stops every server
    manager(const manager&) = delete;
    manager& operator=(const manager&) = delete;

    /// Add a server (not started). Throws std::invalid_argument on a duplicate name.
    void add_server(server_config config);
    /// Start every added server that is not running, all at once; returns when each is ready,
    /// has failed or is waiting to be tried again (restart_policy::retry_first_start), or after about 1.5 x
    /// its connect time (connect_timeout or the config's `timeout`) plus the few seconds it takes to stop a
    /// server that did not answer: a server still starting then says in its status's `error` what it is
    /// waiting for ("still connecting after 12.0 s").
    void connect_all();
    /// Start one server and wait for it; true when ready.
    bool connect(const std::string& name);
    /// Wait until the server is ready (e.g. after a restart); false on timeout or failure.
    bool wait_ready(const std::string& name, std::chrono::milliseconds timeout);

    std::vector<server_status> servers() const;
    server_status status(const std::string& name) const; ///< throws std::out_of_range
    const server_config& config(const std::string& name) const;

    /// Tools of every ready server (after includeTools/excludeTools), with catalogue names. A
    /// (server, tool) keeps the name it was first given here for the manager's lifetime, and
    /// no other pair is ever given that name (catalogue_names).
    std::vector<tool_entry> tools() const;
    std::optional<tool_entry> find_tool(const std::string& qualified_name) const;
    /// Which (server, tool) a catalogue name was given to, whether or not the server is ready
    /// now (a client may still hold the name while its server restarts).
    std::optional<std::pair<std::string, std::string>>
    tool_name_owner(const std::string& qualified_name) const;
    std::vector<resource> resources(const std::string& server) const;
    std::vector<resource_template> resource_templates(const std::string& server) const;
    std::vector<prompt> prompts(const std::string& server) const;

    /// Call a tool by catalogue name, or by server and tool. Asks for approval as the policy
    /// says, audits, and returns the result as received (isError included). Throws call_denied,
    /// or mcp::error: not connected (connection_closed, saying why: a name whose server is down
    /// or restarting says so), unknown or excluded tool, timeout (request_timeout), cancelled
    /// (request_cancelled), or an error the server answered with.
    call_tool_result call_tool(const std::string& qualified_name, json::object arguments,
                               tool_call_options options = {});
    call_tool_result call_tool(const std::string& server, const std::string& tool, json::object arguments,
                               tool_call_options options = {});

    /// What the approver would be asked before this call, or nullopt when the policy lets it run
    /// without asking (or the tool is unknown: call_tool will say so). For a host that asks the
    /// user elsewhere and passes the answer as tool_call_options::user_decision.
    std::optional<approval_request> approval_needed(const std::string& server, const std::string& tool,
                                                    const json::object& arguments) const;

    /// The client of a ready server, for everything else (read, get_prompt, complete, ping).
    /// Throws mcp::error(connection_closed) naming the server and its state when not ready.
    std::shared_ptr<mcp::client> client(const std::string& server) const;

    /// Replace the roots; every connected server that declared interest is told.
    void set_roots(std::vector<std::filesystem::path> roots);
    /// Tell every connected server that declared interest that the roots changed (send
    /// notifications/roots/list_changed): for a roots_provider whose answer changed.
    void notify_roots_changed();
    std::vector<root> roots() const;

    /// Stop every server (closing their connections and processes).
    void close();

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

/// A file:// URI for an absolute path (percent-encoded as RFC 8089 wants).
std::string file_uri(const std::filesystem::path& absolute_path);

} // namespace mcp::host
