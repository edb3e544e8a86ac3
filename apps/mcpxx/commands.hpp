// The subcommands of the `mcpxx` tool. Each add_*_command registers itself on the app and, when
// it runs, stores the process exit code in `exit_code`.
//
// Exit codes shared by every command: 0 success, 1 a negative answer (invalid instance, invalid
// template, failed call), 2 usage error or unusable input (missing file, bad JSON, bad schema).
#pragma once

#include <CLI/App.hpp>

namespace mcpxx_cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_negative = 1;
inline constexpr int exit_usage = 2;

void add_schema_command(CLI::App& app, int& exit_code);
void add_uri_template_command(CLI::App& app, int& exit_code);

} // namespace mcpxx_cli
