// What every host command shares: the options (--config, --json, --root, --trust, ...), reading
// the configs, starting the servers a command needs, and turning failures into exit codes.
#pragma once

#include "commands.hpp"
#include "oauth_login.hpp"
#include "terminal.hpp"

#include <mcp/host/config.hpp>
#include <mcp/host/manager.hpp>

#include <CLI/App.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpxx_cli {

struct host_cli_options {
    std::vector<std::string> config_files;
    bool json = false;
    std::vector<std::string> roots; ///< --root: offered instead of the current directory
    bool no_roots = false;          ///< --no-roots: none offered
    std::vector<std::string> trusted;
    /// --timeout: 0 when not given (then each entry's own `timeout`, else the defaults below).
    double timeout_seconds = 0;
    std::string audit_log;
    bool redact = false;
    bool verbose = false;
    bool yes = false;
    // Sampling through an OpenAI-compatible chat-completions API (--sampling-*).
    std::string sampling_url;
    std::vector<std::string> sampling_models;
    std::string sampling_key_env;
    /// shell: the least level of the log messages asked of servers (--server-log-level).
    mcp::logging_level server_log_level = mcp::logging_level::info;
};

/// Add the shared options to a host subcommand.
void add_host_options(CLI::App* command, host_cli_options& options);

/// How a session talks to the user and what it wants to hear from servers. The defaults suit a
/// one-shot command: questions on stderr/stdin, logs and catalogue changes ignored, a server's
/// stderr (with --verbose) as "[server] line" on stderr.
struct session_hooks {
    user_io io = user_io::standard();
    /// Log messages of servers. With it set, servers are asked for messages from
    /// host_cli_options::server_log_level up: logging/setLevel in the initialize era, each
    /// request's _meta in the 2026-07-28 era (where a server sends none unless asked).
    std::function<void(const std::string& server, const mcp::logging_message_notification&)> on_log;
    std::function<void(const std::string& server)> on_catalogue_changed;
    std::function<void(const std::string& server, std::string_view line)> on_server_stderr;
    /// A server's notifications/resources/updated (for a resource subscribed to).
    std::function<void(const std::string& server, const std::string& uri)> on_resource_updated;
    /// Results reach the caller after the notifications a server sent before them have been
    /// handled (manager_options::ordered_responses): what a server announces during a command
    /// is shown before the command ends. The hooks must then not wait for that server.
    bool ordered = false;
};

class host_session {
public:
    explicit host_session(const host_cli_options& options);
    ~host_session();

    /// Read the configs (see config_discovery.hpp). Returns exit_ok, or exit_usage when a file
    /// is unusable and no server is left, no server is configured at all, or the list of allowed
    /// project files cannot be read (the message is printed). Disabled servers and those of
    /// project files that are not allowed count as configured (`servers` lists them), though
    /// none is started.
    int load();
    /// Add and connect `names` (every configured server, but the disabled and not-allowed ones,
    /// when empty). exit_usage for a name that is not configured, is disabled, is of a project
    /// file that is not allowed, or whose entry is broken (the reason is printed).
    int start(const std::vector<std::string>& names, session_hooks hooks = {});

    const mcp::host::discovery_result& found() const { return found_; }
    mcp::host::manager& servers() { return *manager_; }
    /// The client of one started server, or nullptr after printing why it is not up.
    std::shared_ptr<mcp::client> client_or_report(const std::string& name);
    bool json() const { return options_.json; }
    const host_cli_options& options() const { return options_; }
    /// How long to wait for a request to `server`: --timeout, else the entry's `timeout`, else
    /// 60 s.
    std::chrono::milliseconds timeout_for(const std::string& server) const;
    /// The roots offered to servers: the current directory, or every --root instead, or none
    /// with --no-roots (MCP hosts offer the directory they work in). Servers may take roots as
    /// the directories they may use (server-filesystem replaces its own with them). Throws
    /// input_error when the current directory is needed and cannot be read.
    std::vector<std::filesystem::path> root_paths() const;
    /// Cancelled by Ctrl-C.
    mcp::cancellation_token cancel_token() const { return cancel_.token(); }
    bool interrupted() const { return interrupt_.interrupted(); }
    /// For a session that runs many commands (the shell): Ctrl-C from now on cancels only the
    /// next command, and interrupted() is false again.
    void begin_command();

    /// Print a failure of a call and give its exit code: 4 denied, 130 interrupted, 3 server
    /// gone, 1 any other error from the server (or a timeout).
    int report_failure(const std::exception& e) const;
    /// Report a failure the way the command's output goes and return `exit_code`: with --json,
    /// one JSON object on stdout, {"error": {"message", "exitCode", "code"?, "data"?}} ("code"
    /// and "data" those of the JSON-RPC error, when a server answered with one) and the members
    /// of `extra`, stderr staying quiet; else "mcpxx: message" on stderr.
    int fail(int exit_code, const std::string& message, const mcp::error* rpc = nullptr,
             mcp::json::object extra = {}) const;
    /// The problems in the configs that did not stop the command (broken entries, unreadable
    /// files, hidden definitions, notes), reported the one way every command over several servers
    /// shares: with --json as the members "errors", "shadowed" and "notes" of the command's JSON
    /// object `out` (stderr stays quiet), else as warnings and notes on stderr; servers of
    /// project files that are not allowed make one note saying how to allow them. `entries_listed`:
    /// the command shows broken entries itself (servers lists them as "invalid"), so they are not
    /// repeated as warnings.
    void report_config_problems(mcp::json::object& out, bool entries_listed = false) const;

private:
    host_cli_options options_;
    mcp::cancellation_source cancel_;
    interrupt_guard interrupt_;
    mcp::host::discovery_result found_;
    std::shared_ptr<oauth_clients> oauth_ = std::make_shared<oauth_clients>();
    std::unique_ptr<mcp::host::manager> manager_;

    /// On a terminal: offer to sign in to each server that failed for want of a sign-in, and
    /// connect it again once signed in.
    void offer_sign_in(const user_io& io);
};

/// "mcpxx: message" on stderr, in red on a terminal; the message escaped but for its line feeds
/// and tabs (mcp::printable_lines: it may quote a server).
void print_error(const std::string& message);

/// Parse "k=v" arguments; a value is a string when the schema says so (or it is not JSON),
/// else the JSON it spells. Throws input_error.
mcp::json::object parse_key_values(const std::vector<std::string>& pairs,
                                   const mcp::json::object* input_schema);

} // namespace mcpxx_cli
