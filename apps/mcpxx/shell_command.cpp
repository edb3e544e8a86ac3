// `mcpxx shell [--config FILE] [--root DIR] [--trust SERVER] [--yes] ...`: start every
// configured server, say what came up, then run commands line by line until quit, exit or the
// end of input. Servers' log messages and catalogue changes are shown as they arrive, above the
// line being edited.
#include "catalogue_output.hpp"
#include "commands.hpp"
#include "host_output.hpp"
#include "host_session.hpp"
#include "shell.hpp"

#include <CLI/CLI.hpp>
#include <mcp/json/text.hpp>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

namespace mcpxx_cli {
namespace {

std::string format_log(const std::string& server, const mcp::logging_message_notification& n) {
    std::string text;
    if (n.data.is_string())
        text = std::string(n.data.get_string());
    else if (const auto* o = n.data.if_object(); o && mcp::find_string(*o, "message"))
        text = std::string(*mcp::find_string(*o, "message"));
    else
        text = mcp::to_json(n.data);
    const auto st = style::for_stream(2);
    const std::string level(mcp::to_string(n.level));
    using L = mcp::logging_level;
    const std::string shown = n.level >= L::error     ? st.red(level)
                              : n.level >= L::warning ? st.yellow(level)
                                                      : st.dim(level);
    return "[" + server + "] " + shown + (n.logger ? " (" + mcp::printable(*n.logger) + ")" : "") + ": " +
           mcp::printable(text);
}

std::string describe_change(const mcp::host::server_status& s) {
    if (s.state == mcp::host::server_state::ready)
        return "[" + s.name + "] " +
               (s.restarts ? "up again (restart " + std::to_string(s.restarts) + "): "
                           : "catalogue changed: ") +
               catalogue_counts(s.tools, s.resources, s.resource_templates, s.prompts);
    return "[" + s.name + "] " + std::string(to_string(s.state)) +
           (s.error.empty() ? "" : ": " + mcp::printable(s.error));
}

/// What the user was last told about each server's catalogue, so that only news is reported:
/// the manager also signals a first connection (which the summary covers, and whose signal may
/// come after it) and list_changed notices that change nothing.
class catalogue_news {
public:
    /// The message for `server`'s current state, or nullopt when nothing changed.
    std::optional<std::string> changed(mcp::host::manager& m, const std::string& server) {
        const auto s = m.status(server);
        std::string fingerprint = describe_change(s);
        for (const auto& t : m.tools())
            if (t.server == server) fingerprint += "\n" + t.name;
        std::lock_guard lock(mu_);
        auto& last = seen_[server];
        if (last == fingerprint) return std::nullopt;
        last = std::move(fingerprint);
        return describe_change(s);
    }

private:
    std::mutex mu_;
    std::map<std::string, std::string> seen_;
};

/// What came up; one message, so that servers' output arriving meanwhile cannot split it.
std::string summary(host_session& session) {
    const auto st = style::for_stream(2);
    auto& m = session.servers();
    std::size_t tools = 0, resources = 0, templates = 0, prompts = 0;
    std::string ready, failed_lines;
    int n_ready = 0, n_failed = 0;
    for (const auto& s : m.servers()) {
        if (s.state == mcp::host::server_state::ready) {
            ++n_ready;
            ready += (ready.empty() ? "" : ", ") + s.name;
            tools += s.tools, resources += s.resources, templates += s.resource_templates,
                prompts += s.prompts;
        } else {
            ++n_failed;
            failed_lines += "  " + st.red(s.name + ": ") + std::string(to_string(s.state)) +
                            (s.error.empty() ? "" : ": " + mcp::printable(s.error)) + "\n";
        }
    }
    std::string text = st.bold("mcpxx shell") + ": " + counted(n_ready, "server") + " ready" +
                       (ready.empty() ? "" : " (" + ready + ")");
    if (n_failed) text += ", " + st.red(std::to_string(n_failed) + " failed");
    return text + "; " + catalogue_counts(tools, resources, templates, prompts) + "\n" + failed_lines +
           st.dim("Type help for the commands, /PROMPT to get a prompt, quit to leave.");
}

int run_shell(const host_cli_options& options) {
    host_session session(options);
    if (int rc = session.load(); rc != exit_ok) return rc;
    auto terminal = std::make_shared<shell_terminal>();
    // Catalogue changes are reported once the summary is out (the first listing is in it) and
    // until the shell ends (stopping the servers is no news).
    auto live = std::make_shared<std::atomic<bool>>(false);
    auto news = std::make_shared<catalogue_news>();
    session_hooks hooks;
    hooks.io = terminal->io();
    hooks.on_log = [terminal](const std::string& server, const mcp::logging_message_notification& n) {
        terminal->notify(format_log(server, n));
    };
    hooks.on_catalogue_changed = [terminal, live, news, &session](const std::string& server) {
        if (!live->load()) return;
        try {
            if (auto text = news->changed(session.servers(), server))
                terminal->notify(style::for_stream(2).dim(*text));
        } catch (const std::exception&) {
        }
    };
    hooks.on_server_stderr = [terminal](const std::string& server, std::string_view line) {
        terminal->notify("[" + server + "] " + mcp::printable(line));
    };
    // An attached resource that changed is read again when next used; the user hears of it now.
    auto attachments = std::make_shared<attachment_list>();
    hooks.on_resource_updated = [terminal, attachments](const std::string& server, const std::string& uri) {
        if (attachments->mark_changed(server, uri))
            terminal->notify(style::for_stream(2).dim("[" + server + "] the attached " + mcp::printable(uri) +
                                                      " changed (it is read again when next used)"));
    };
    hooks.ordered = true; // what servers announce during a command is shown before it ends
    if (terminal->interactive())
        terminal->notify(style::for_stream(2).dim(
            "Starting " + std::to_string(session.found().servers.size()) + " servers..."));
    if (int rc = session.start({}, std::move(hooks)); rc != exit_ok) return rc;
    if (session.interrupted()) return exit_interrupted;
    mcp::json::object unused; // the shell has no --json
    session.report_config_problems(unused);
    terminal->notify(summary(session));
    for (const auto& s : session.servers().servers()) news->changed(session.servers(), s.name);
    live->store(true);

    shell sh(session, terminal, attachments);
    const completer complete = [&sh](const std::string& line, std::size_t cursor) {
        return sh.complete(line, cursor);
    };
    int rc = exit_ok;
    for (;;) {
        // Ctrl-C counts afresh at each prompt: only two during one command exit the shell.
        session.begin_command();
        const auto line = terminal->read_command(complete);
        if (!line) {
            if (!terminal->interactive() && std::ferror(stdin) && session.interrupted()) {
                // Ctrl-C while waiting for a line on a plain terminal: a new line, not the end.
                std::cin.clear();
                std::clearerr(stdin);
                terminal->notify("");
                session.begin_command();
                continue;
            }
            // Ctrl-D ends a session normally; a script ends with the status of its last command.
            rc = terminal->interactive() ? exit_ok : sh.status();
            break;
        }
        if (!sh.execute(*line)) {
            rc = sh.status();
            break;
        }
    }
    live->store(false);
    std::cout.flush();
    return rc;
}

} // namespace

void add_shell_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<host_cli_options>();
    auto* cmd = app.add_subcommand(
        "shell",
        "Interactive session over every configured server: tools, resources, prompts (/server__prompt)");
    add_host_options(cmd, *o);
    cmd->remove_option(cmd->get_option("--json")); // a person reads the shell
    cmd->add_flag("--yes,-y", o->yes, "Do not ask for approval of tool calls or review sampling requests");
    cmd->add_option_function<std::string>(
           "--server-log-level",
           [o](const std::string& v) {
               const auto level = mcp::parse_logging_level(v);
               if (!level)
                   throw CLI::ValidationError("--server-log-level",
                                              "\"" + v +
                                                  "\" is not a level (debug, info, notice, warning, error, "
                                                  "critical, alert, emergency)");
               o->server_log_level = *level;
           },
           "The least level of the log messages servers are asked for and the shell shows (default info)")
        ->type_name("LEVEL");
    cmd->callback([o, &exit_code] { exit_code = run_shell(*o); });
}

} // namespace mcpxx_cli
