// The subcommands of the `mcpxx` tool. Each add_*_command registers itself on the app and, when
// it runs, stores the process exit code in `exit_code`.
//
// Exit codes shared by every command:
//   0    success
//   1    a negative answer: invalid instance or template; the server answered with an error,
//        a tool result with isError: true, or did not answer in time
//   2    usage error or unusable input: bad options, missing or broken file, bad schema, a config
//        file or server entry that cannot be used, a server name that is not configured (or is
//        disabled, or is of a project file that is not allowed)
//   3    a server could not be started or connected (or went away during the command)
//   4    the tool call was denied: by the user, or with no terminal to ask on (stdin not a tty)
//   130  interrupted (Ctrl-C); a call in flight was cancelled (notifications/cancelled sent)
// Commands over several servers (servers, tools, resources, prompts, ping without a server
// name) print what the servers that came up gave, and exit 3 when any server could not be
// reached, else 2 when a config file or entry could not be used (it is reported), else 1 when a
// ping failed.
#pragma once

#include <CLI/App.hpp>

#include <string>

namespace mcpxx_cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_negative = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_unavailable = 3;
inline constexpr int exit_denied = 4;
inline constexpr int exit_interrupted = 130;

/// The exit codes above, for --help.
std::string exit_codes_help();

void add_schema_command(CLI::App& app, int& exit_code);
void add_uri_template_command(CLI::App& app, int& exit_code);
/// servers, ping
void add_servers_commands(CLI::App& app, int& exit_code);
/// tools, resources, prompts
void add_list_commands(CLI::App& app, int& exit_code);
/// call
void add_call_command(CLI::App& app, int& exit_code);
/// read, prompt, complete
void add_read_commands(CLI::App& app, int& exit_code);
/// shell: exits 0 on quit (exit N: N, end of a script: its last command's status); the codes
/// above when the servers cannot be configured (2) or start-up is interrupted (130)
void add_shell_command(CLI::App& app, int& exit_code);
/// allow [--revoke]: records this directory's project config files in the user's list of
/// allowed ones (or removes them); 2 when there is none, or the list cannot be read or written
void add_allow_command(CLI::App& app, int& exit_code);
/// login SERVER, logout SERVER [--forget-client], auth [--json]: OAuth sign-in to remote
/// servers; 2 for a server that is not configured or not remote, or a store that cannot be used,
/// 3 when the server's authorization server cannot be found, 1 when it refuses, 130 on Ctrl-C
void add_auth_commands(CLI::App& app, int& exit_code);
/// gateway: serves until SIGINT/SIGTERM (0); 2 for unusable options, tokens or configs; 3 when
/// it cannot listen
void add_gateway_command(CLI::App& app, int& exit_code);

} // namespace mcpxx_cli
