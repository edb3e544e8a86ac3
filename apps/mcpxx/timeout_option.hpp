// The --timeout option, the same on every command that waits for servers.
#pragma once

#include <CLI/App.hpp>

#include <string>

namespace mcpxx_cli {

/// Longest --timeout accepted, in seconds (a day): beyond it the value is surely a mistake, and
/// it keeps the conversion to milliseconds far from overflowing.
inline constexpr double max_timeout_seconds = 86400;

/// Add `--timeout SECONDS` to `command`. Anything but a number above 0 and at most a day (0, -5,
/// "abc", "inf") is a usage error naming the option and the value.
CLI::Option* add_timeout_option(CLI::App* command, double& seconds, const std::string& help);

} // namespace mcpxx_cli
