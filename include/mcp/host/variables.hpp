// mcp/host/variables.hpp - the variable syntax of MCP host config files.
//
//   ${VAR}             the environment variable VAR (Claude Code, Windsurf, Gemini CLI, ...)
//   ${env:VAR}         the same, in VS Code / Cursor / Windsurf spelling
//   ${VAR:-default}    VAR when it is set and not empty, else `default` (Claude Code)
//   ${userHome}        the home directory (Cursor, VS Code)
//   ${workspaceFolder} the current (project) directory; ${workspaceFolderBasename} its last part
//   ${pathSeparator}   "/"
//   $VAR               only with bare_dollar (Gemini CLI)
// A variable that is not set and has no default is an error, never an empty string: a server
// started with an empty token fails later in a way that is much harder to understand.
// ${input:ID} (VS Code input prompts) is an error too: only VS Code can ask for those.
#pragma once

#include <mcp/host/config.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::host {

class expansion_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct expansion_options {
    env_lookup environment;       ///< empty: the process environment
    std::string user_home;        ///< for ${userHome}
    std::string workspace_folder; ///< for ${workspaceFolder}
    bool bare_dollar = false;     ///< also expand $VAR
};

/// Expand every variable in `text`. Throws expansion_error, e.g. `variable "API_KEY" is not set`.
std::string expand_variables(std::string_view text, const expansion_options& options);

} // namespace mcp::host
