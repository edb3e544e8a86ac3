// `mcpxx allow [--revoke]`: the project config files of the current directory (./.mcp.json,
// .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json), what each would start, and
// recording them, with their content, in the user's list of allowed project files (see
// mcp/host/project_trust.hpp). The person typed `allow`: nothing is asked.
#include "commands.hpp"
#include "config_discovery.hpp"
#include "host_output.hpp"
#include "host_session.hpp"
#include "read_file.hpp"
#include "shell_words.hpp"
#include "terminal.hpp"

#include <mcp/host/transport_factory.hpp>
#include <mcp/json/text.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <optional>

namespace mcpxx_cli {
namespace {

/// What the entry runs, as a person reads it: "[in DIR] [K=V ...] command args..." (each word
/// quoted when it needs it), or the URL (without what may hold secrets) and its headers' names.
/// Written by whoever wrote the project: escaped (see terminal.hpp).
std::string what_it_runs(const mcp::host::server_config& s) {
    std::string line;
    if (s.transport != mcp::host::transport_kind::stdio) {
        line = mcp::host::url_for_display(s.url);
        std::string headers;
        for (const auto& [name, value] : s.headers) headers += (headers.empty() ? "" : ", ") + name;
        if (!headers.empty()) line += "  (headers: " + headers + ")";
        return mcp::printable(line);
    }
    if (s.cwd) line += "(in " + quote_word(*s.cwd) + ") ";
    for (const auto& [name, value] : s.env) line += quote_word(name + "=" + value) + " ";
    line += quote_word(s.command);
    for (const auto& a : s.args) line += " " + quote_word(a);
    return mcp::printable(line);
}

/// The file's entries, one a line, in columns: name, transport (or "invalid"), what it runs.
void print_entries(const mcp::host::project_file& file, const mcp::host::discovery_result& found,
                   const style& st) {
    std::size_t w = 4;
    for (const auto& s : file.servers) w = std::max(w, mcp::printable(s.name).size() + 2);
    for (const auto& e : found.errors)
        if (e.source == file.source) w = std::max(w, mcp::printable(e.server).size() + 2);
    for (const auto& s : file.servers)
        std::cout << "  " << st.bold(pad(mcp::printable(s.name), w))
                  << pad(std::string(to_string(s.transport)), 7) << what_it_runs(s)
                  << (s.disabled ? st.dim("  (disabled)") : "") << "\n";
    for (const auto& e : found.errors) {
        if (e.source != file.source) continue;
        if (e.server.empty())
            std::cout << "  " << st.red("not usable: ") << mcp::printable(e.message) << "\n";
        else
            std::cout << "  " << st.bold(pad(mcp::printable(e.server), w)) << st.red("invalid  ")
                      << mcp::printable(e.message) << "\n";
    }
    if (file.servers.empty() && std::none_of(found.errors.begin(), found.errors.end(),
                                             [&](const auto& e) { return e.source == file.source; }))
        std::cout << "  " << st.dim("(no servers)") << "\n";
}

int run_allow(bool revoke) {
    // The files first: where there is none, that is what to say, whatever the list.
    mcp::host::discovery_result found;
    std::optional<mcp::host::project_trust> loaded;
    try {
        found = discover_servers({});
        if (!found.project_files.empty()) loaded = load_project_trust();
    } catch (const input_error& e) {
        print_error(e.what());
        return exit_usage;
    }
    if (found.project_files.empty()) {
        std::error_code ec;
        print_error("no project config file in " + std::filesystem::current_path(ec).string() +
                    " (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json)");
        return exit_usage;
    }
    auto& trust = *loaded;
    if (trust.path().empty()) {
        print_error("no place to keep the list of allowed project files: set HOME (or XDG_CONFIG_HOME)");
        return exit_usage;
    }

    const auto st = style::for_stream(1);
    std::vector<std::string> done, unchanged;
    for (const auto& file : found.project_files) {
        const std::string state = file.allowed              ? "allowed"
                                  : trust.listed(file.path) ? "changed since it was allowed"
                                                            : "not allowed";
        std::cout << st.bold(mcp::printable(file.source)) << "  "
                  << st.dim(mcp::printable(file.path.string())) << "  "
                  << (file.allowed ? st.green(state) : st.yellow(state)) << "\n";
        print_entries(file, found, st);
        const bool changed = revoke ? trust.revoke(file.path) : trust.allow(file.path, file.content);
        (changed ? done : unchanged).push_back(mcp::printable(file.source));
    }
    if (!done.empty()) {
        try {
            trust.save();
        } catch (const mcp::host::project_trust_error& e) {
            print_error(e.what());
            return exit_usage;
        }
    }
    const auto list = [](const std::vector<std::string>& files) {
        std::string s;
        for (std::size_t i = 0; i < files.size(); ++i)
            s += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
        return s;
    };
    const bool one = done.size() == 1;
    if (!done.empty() && !revoke)
        std::cout << "allowed " << list(done) << ": " << (one ? "its" : "their")
                  << " servers start from now on, "
                  << (one ? "until it changes" : "each file's until it changes") << "\n";
    if (!done.empty() && revoke)
        std::cout << "revoked " << list(done) << ": " << (one ? "its" : "their")
                  << " servers are not started until allowed again\n";
    if (!unchanged.empty())
        std::cout << list(unchanged) << (unchanged.size() == 1 ? " was " : " were ")
                  << (revoke ? "not in the list" : "already allowed with this content") << "\n";
    std::cout << st.dim("(the list: " + trust.path().string() + ")") << "\n";
    return exit_ok;
}

} // namespace

void add_allow_command(CLI::App& app, int& exit_code) {
    auto revoke = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("allow", "Allow the servers of this directory's project config files "
                                            "(.mcp.json, .vscode/mcp.json, ...): shows what they run");
    cmd->footer(
        "A project file (./.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json) comes\n"
        "with the directory, from a git clone, and its servers are commands: mcpxx starts them only\n"
        "once you allowed the file with its present content, and a changed file waits to be allowed\n"
        "again. The list is $XDG_CONFIG_HOME/mcpxx/allowed-projects.json (without XDG_CONFIG_HOME:\n"
        "~/.config/mcpxx/allowed-projects.json). Files named with --config are always used.\n");
    cmd->add_flag("--revoke", *revoke, "Remove this directory's project files from the list instead");
    cmd->callback([revoke, &exit_code] { exit_code = run_allow(*revoke); });
}

} // namespace mcpxx_cli
