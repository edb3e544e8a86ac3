// How every command finds its servers: the files named with --config, or the hosts' files, where
// a project file (./.mcp.json, ...) counts only once the user allowed it with `mcpxx allow` (see
// mcp/host/project_trust.hpp), and what the commands say about the ones that are not allowed.
#pragma once

#include <mcp/host/config.hpp>
#include <mcp/host/project_trust.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpxx_cli {

/// The user's list of allowed project files, at project_trust::default_path(). Throws
/// input_error when it cannot be read.
mcp::host::project_trust load_project_trust();

/// The servers the configs define. With `config_files` (--config) only those, all allowed: the
/// user named them. Without, the hosts' files, each project file's servers only when allowed
/// (the list is read only when there is a project file). Throws input_error when the list cannot
/// be read.
mcp::host::discovery_result discover_servers(const std::vector<std::string>& config_files);

/// Why a server of the project file `source` is not started, and what to run:
/// ".mcp.json is not allowed yet, or changed since (run "mcpxx allow" to review and allow it)".
std::string not_allowed_reason(const std::string& source);
/// For a command that names such a server: "server "x" is not started: ...".
std::string not_allowed_message(const mcp::host::server_config& server);
/// One note for every project file whose servers are not started, or nullopt when there is none.
std::optional<std::string> not_allowed_note(const mcp::host::discovery_result& found);

} // namespace mcpxx_cli
