#include "audit_option.hpp"
#include "read_file.hpp"

#include <mcp/host/config.hpp>

#include <CLI/CLI.hpp>

namespace mcpxx_cli {

void add_audit_options(CLI::App* cmd, std::string& audit_log, bool& redact) {
    cmd->add_option("--audit-log", audit_log, "Append every tool call to this JSON-lines file")
        ->type_name("FILE");
    cmd->add_flag(
        "--redact", redact,
        "In the audit log, write a keyed digest of the arguments (HMAC-SHA-256, \"argumentsDigest\") "
        "instead of them; the key is kept in $XDG_CONFIG_HOME/mcpxx/audit-key "
        "(~/.config/mcpxx/audit-key), created on first use");
}

std::filesystem::path audit_key_path() {
    const auto dir = mcp::host::user_config_home();
    return dir.empty() ? dir : dir / "mcpxx" / "audit-key";
}

std::shared_ptr<mcp::host::audit_log> open_audit_log(const std::string& audit_log, bool redact) {
    if (audit_log.empty()) return nullptr;
    mcp::host::audit_options options;
    try {
        if (redact) {
            const auto key_file = audit_key_path();
            if (key_file.empty())
                throw input_error("--redact: no place to keep the audit key: set HOME (or XDG_CONFIG_HOME)");
            options.redaction_key = mcp::host::load_or_create_audit_key(key_file);
        }
        return std::make_shared<mcp::host::audit_log>(audit_log, std::move(options));
    } catch (const input_error&) {
        throw;
    } catch (const std::exception& e) {
        throw input_error(e.what());
    }
}

} // namespace mcpxx_cli
