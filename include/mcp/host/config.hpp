// mcp/host/config.hpp - MCP server definitions as MCP hosts keep them, and discovery of the files
// they live in.
//
//   auto found = mcp::host::discover({});            // $HOME and the current directory
//   for (auto& e : found.errors) std::cerr << e.to_string() << "\n";   // the others still work
//   for (auto& s : found.servers) std::cout << s.name << " from " << s.source << "\n";
//
// Files read (least specific first; on a duplicate name the more specific one wins and the other
// is listed in `shadowed`; the servers of project files only once allowed, see below):
//   user     ~/.config/Claude/claude_desktop_config.json       Claude Desktop  mcpServers
//              (Linux; $XDG_CONFIG_HOME/Claude/... when XDG_CONFIG_HOME is set, as Electron does)
//            ~/Library/Application Support/Claude/claude_desktop_config.json
//                                                              Claude Desktop  mcpServers (macOS)
//            ~/.codeium/windsurf/mcp_config.json               Windsurf        mcpServers (serverUrl)
//            ~/.cursor/mcp.json                                Cursor          mcpServers
//            ~/.gemini/settings.json                           Gemini CLI      mcpServers (httpUrl, url)
//            ~/.claude.json                                    Claude Code     mcpServers
//              ($CLAUDE_CONFIG_DIR/.claude.json when CLAUDE_CONFIG_DIR is set)
//   project  ./.mcp.json                                       Claude Code     mcpServers
//            ./.cursor/mcp.json                                Cursor          mcpServers
//            ./.vscode/mcp.json                                VS Code         servers (+ inputs)
//            ./.gemini/settings.json                           Gemini CLI      mcpServers
//   local    ~/.claude.json projects[<cwd>].mcpServers         Claude Code (its "local" scope
//                                                              outranks the project's .mcp.json)
// With explicit files (--config), only those are read, in order (a later file wins), and the
// format is recognised from the content: `servers` (VS Code), `projects` (~/.claude.json) or
// `mcpServers` (every other host).
//
// Project files come with the directory, e.g. from a `git clone`, and their stdio entries are
// command lines: discovery_options::project_allowed decides whether a project file's servers may
// be used (the user allowed that file with that content; see project_trust.hpp). The servers of a
// file that is not allowed are listed in `not_allowed`, not in `servers`, and still take part in
// the precedence, so a name never silently switches to another command. User files, the local
// scope and explicit files are the user's own and always allowed.
//
// Strings in command, args, env, cwd, url and headers expand ${VAR}, ${env:VAR},
// ${VAR:-default}, ${userHome} and ${workspaceFolder} (see variables.hpp); Gemini CLI files
// also expand $VAR. A problem with one entry (unknown field, wrong type, missing variable) is a
// config_error naming the file and the entry; the other entries are still read. An entry with
// `"disabled": true` (Cline, Roo Code, Windsurf) is listed in `disabled`, not started, and not an
// error: what else it says is not checked until it is enabled.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::host {

/// How a host reaches a server.
enum class transport_kind {
    stdio,           ///< a child process speaking MCP over stdin/stdout
    streamable_http, ///< Streamable HTTP (2025-03-26+)
    sse,             ///< the legacy HTTP+SSE transport (2024-11-05)
};
std::string_view to_string(transport_kind k) noexcept;

/// The file formats this module reads.
enum class config_format {
    detect,           ///< recognise from the content (explicit --config files)
    claude_desktop,   ///< {"mcpServers": {...}}
    claude_code,      ///< .mcp.json: mcpServers with type stdio/http/sse
    claude_code_user, ///< ~/.claude.json: mcpServers and `projects[<dir>].mcpServers`
    cursor,           ///< mcpServers, ${env:VAR}, envFile
    vscode,           ///< {"servers": {...}, "inputs": [...]}, type stdio/http/sse
    windsurf,         ///< mcpServers, remote as serverUrl
    gemini,           ///< mcpServers, remote as httpUrl (Streamable HTTP) or url (SSE), trust, timeout
};
std::string_view to_string(config_format f) noexcept;

/// How specific a file is; on a duplicate server name the higher scope wins.
enum class config_scope { user = 0, project = 1, local = 2, explicit_file = 3 };

/// How to log in to a remote server with OAuth, from its entry's `oauth` object (Claude Code,
/// Gemini CLI) or Cursor's `auth` object. Every field is optional: without them the client
/// registers itself with the authorization server.
struct oauth_settings {
    std::string client_id;     ///< `clientId` (Cursor: `CLIENT_ID`): a pre-registered client
    /// `clientSecret` (Cursor: `CLIENT_SECRET`), after variable expansion, so that the file
    /// says "${MY_SECRET}" and the secret stays in the environment. Never logged or shown.
    std::string client_secret;
    /// `scopes`: an array, or one space-separated string (Claude Code). Empty: the server's.
    std::vector<std::string> scopes;
    /// `callbackPort` (Claude Code): redirect to http://localhost:PORT/callback, for an
    /// authorization server that only accepts a registered redirect URI. Unset: a free port.
    std::optional<std::uint16_t> callback_port;
    /// `redirectUri` (Gemini CLI): the whole redirect URI; it must be http:// to a loopback
    /// address with a port, which is checked when it is used.
    std::string redirect_uri;
};

/// One server, after variable expansion.
struct server_config {
    std::string name;
    transport_kind transport = transport_kind::stdio;
    // stdio
    std::string command;
    std::vector<std::string> args;
    std::map<std::string, std::string> env;
    std::optional<std::string> cwd;
    // remote
    std::string url;
    std::map<std::string, std::string> headers; ///< sent on every request; never logged or shown
    /// streamable_http only: when the server refuses Streamable HTTP, try the legacy HTTP+SSE
    /// transport. True when the entry did not say which (a bare `url` or Windsurf's
    /// `serverUrl`); false for `"type": "http"` and Gemini's `httpUrl`.
    bool sse_fallback = false;
    /// remote only: the `oauth` (or Cursor's `auth`) settings, when the entry has them and does
    /// not say `"enabled": false`.
    std::optional<oauth_settings> oauth;
    // policy
    bool trusted = false; ///< `trust: true` (read-only tools run without asking)
    /// `timeout` (ms): how long to wait for this server to start (initialize and list) and for
    /// each request to it, instead of the manager's connect_timeout and call_timeout.
    std::optional<std::chrono::milliseconds> timeout;
    bool disabled = false;                  ///< `disabled: true`: defined, not to be started
    std::vector<std::string> include_tools; ///< only these tools (empty: all)
    std::vector<std::string> exclude_tools; ///< never these tools (wins over include)
    // provenance
    std::string source; ///< the file as shown to the user: "~/.cursor/mcp.json"
    config_format format = config_format::detect;
    config_scope scope = config_scope::user;
    std::vector<std::string> notes; ///< things worth telling the user (ignored fields, ...)
};

/// A file or an entry that cannot be used. `server` is empty for a problem with the whole file.
struct config_error {
    std::string source;
    std::string server;
    std::string message;
    /// `~/.cursor/mcp.json: server "git": unknown field "comand"`
    std::string to_string() const;
};

/// A server hidden by a more specific definition of the same name.
struct shadowed_server {
    std::string name;
    std::string source; ///< the file of the hidden definition
    std::string winner; ///< the file whose definition is used
};

/// A project file (config_scope::project) that was read, and whether its servers may be used.
struct project_file {
    /// The path discovery_options::project_allowed was asked about: the project directory's
    /// canonical path followed by the file's place in it (".vscode/mcp.json"). Symbolic links
    /// inside the project are not resolved: a `.mcp.json` that links to another project's file
    /// is still this project's file, whose relative commands run here.
    std::filesystem::path path;
    std::string source;  ///< as shown: ".vscode/mcp.json"
    std::string content; ///< the bytes read, which the decision was about
    config_format format = config_format::detect;
    bool allowed = true;
    /// What the file defines, before precedence: its servers, then its disabled entries (each in
    /// the file's order). Its broken entries are in discovery_result::errors.
    std::vector<server_config> servers;
};

struct discovery_result {
    std::vector<server_config> servers; ///< in order of first appearance, one per name
    /// Entries with `"disabled": true` (when the most specific definition of the name is one).
    std::vector<server_config> disabled;
    /// Entries of project files that are not allowed (when the most specific definition of the
    /// name is one), disabled ones too: not to be started until the file is allowed.
    std::vector<server_config> not_allowed;
    /// The project files that were read, allowed or not (files_read lists them too).
    std::vector<project_file> project_files;
    std::vector<config_error> errors;
    std::vector<shadowed_server> shadowed;
    std::vector<std::string> notes;      ///< file-level remarks ("inputs are not supported")
    std::vector<std::string> files_read; ///< the files that exist and were read (as shown)
    /// The error of the entry named `name`, if it had one (and no other file defined it).
    const config_error* error_for(std::string_view name) const noexcept;
    /// The server named `name` (not a disabled or not-allowed one).
    const server_config* find(std::string_view name) const noexcept;
    const server_config* find_disabled(std::string_view name) const noexcept;
    const server_config* find_not_allowed(std::string_view name) const noexcept;
    /// Whether some file defines `name` usably: as a server, a disabled one, or one of a project
    /// file that is not allowed (usable once allowed).
    bool is_defined(std::string_view name) const noexcept {
        return find(name) || find_disabled(name) || find_not_allowed(name);
    }
};

/// Looks up environment variables; the default reads the process environment.
using env_lookup = std::function<std::optional<std::string>(std::string_view name)>;
env_lookup process_environment();

/// The user's configuration directory as the XDG Base Directory specification defines it:
/// $XDG_CONFIG_HOME, else $HOME/.config. Empty when neither variable holds an absolute path
/// (relative values are ignored, as the specification says).
std::filesystem::path user_config_home(const env_lookup& environment = process_environment());

struct discovery_options {
    /// Files to read instead of the hosts' places (--config).
    std::vector<std::filesystem::path> explicit_files;
    /// Home and current directory; empty: $HOME and std::filesystem::current_path().
    std::filesystem::path home;
    std::filesystem::path cwd;
    env_lookup environment; ///< empty: the process environment
    /// Whether the servers of a project file may be used, asked once for each project file that
    /// exists, with project_file::path and the file's content. Empty: every project file is
    /// allowed, as before this option existed; a program that starts servers for a person who
    /// did not write the project's files (a command-line tool run in a cloned repository) should
    /// set it, e.g. to project_trust::checker(). Not asked for user, local or explicit files.
    /// What it throws leaves discover().
    std::function<bool(const std::filesystem::path& file, std::string_view content)> project_allowed;
};

/// Read every file that exists (see the table at the top) and merge the servers.
discovery_result discover(const discovery_options& options = {});

/// What one file contributes, for callers that read files themselves. `text` is the file's
/// content, `source` its name as shown. Errors and notes are appended to `out`; servers (and
/// disabled ones) too, in the file's order (duplicates are not resolved here).
struct file_context {
    std::string source;
    config_format format = config_format::detect;
    config_scope scope = config_scope::user;
    std::filesystem::path home;
    std::filesystem::path cwd;
    env_lookup environment;
};
void parse_config(std::string_view text, const file_context& file, discovery_result& out);

} // namespace mcp::host
