// The --audit-log and --redact options, the same on the host commands and the gateway, and the
// place of the key that --redact digests the arguments with.
#pragma once

#include <mcp/host/audit.hpp>

#include <CLI/App.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace mcpxx_cli {

/// Add `--audit-log FILE` and `--redact` to `command`.
void add_audit_options(CLI::App* command, std::string& audit_log, bool& redact);

/// Where mcpxx keeps the redaction key: $XDG_CONFIG_HOME/mcpxx/audit-key, else
/// ~/.config/mcpxx/audit-key. Empty when neither HOME nor XDG_CONFIG_HOME is an absolute path.
std::filesystem::path audit_key_path();

/// The audit log the options ask for: null without --audit-log; with --redact, keyed with the
/// key at audit_key_path() (created on first use). Throws input_error saying why it cannot be
/// opened.
std::shared_ptr<mcp::host::audit_log> open_audit_log(const std::string& audit_log, bool redact);

} // namespace mcpxx_cli
