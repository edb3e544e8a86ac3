// `mcpxx call SERVER TOOL [--arg k=v ...] [--args JSON] [--yes]`: one tool call, after the user
// approved it (unless --yes, or the policy allows it), with progress on stderr and Ctrl-C
// cancelling it.
#include "commands.hpp"
#include "host_output.hpp"
#include "host_session.hpp"
#include "read_file.hpp"

#include <CLI/CLI.hpp>

namespace mcpxx_cli {
namespace {

struct call_options {
    host_cli_options host;
    std::string server, tool;
    std::vector<std::string> args;
    std::string args_json;
};

int run_call(const call_options& o) {
    host_session session(o.host);
    // --args is checked before any server starts; --arg values need the tool's schema.
    mcp::json::object arguments;
    try {
        if (!o.args_json.empty()) {
            auto v = parse_json_text(o.args_json, "--args");
            if (!v.is_object()) throw input_error("--args must be a JSON object");
            arguments = std::move(v.get_object());
        }
    } catch (const input_error& e) {
        return session.fail(exit_usage, e.what());
    }

    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc = session.start({o.server}); rc != exit_ok) return rc;
    if (session.interrupted()) return exit_interrupted;
    auto client = session.client_or_report(o.server);
    if (!client) return exit_unavailable;
    auto& m = session.servers();

    std::optional<mcp::tool> definition;
    std::string known;
    for (const auto& t : m.tools())
        if (t.server == o.server) {
            known += (known.empty() ? "" : ", ") + t.tool.name;
            if (t.tool.name == o.tool) definition = t.tool;
        }
    if (!definition)
        return session.fail(exit_usage, "server \"" + o.server + "\" has no tool \"" + o.tool +
                                            "\" (tools: " + known + ")");

    try {
        for (auto& [k, v] : parse_key_values(o.args, &definition->input_schema)) arguments[k] = std::move(v);
    } catch (const input_error& e) {
        return session.fail(exit_usage, e.what());
    }

    mcp::call_tool_result result;
    {
        call_progress progress;
        try {
            result = m.call_tool(o.server, o.tool, std::move(arguments),
                                 {.on_progress = progress.on_progress(), .cancel = session.cancel_token()});
        } catch (const std::exception& e) {
            progress.finish();
            return session.report_failure(e);
        }
    }
    if (o.host.json)
        print_json(mcp::to_json(result, client->protocol_version()));
    else
        print_call_result(result);
    return result.is_error.value_or(false) ? exit_negative : exit_ok;
}

} // namespace

void add_call_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<call_options>();
    auto* cmd =
        app.add_subcommand("call", "Call a tool: mcpxx call SERVER TOOL [--arg KEY=VALUE ...] [--args JSON]");
    cmd->add_option("server", o->server, "The server")->required();
    cmd->add_option("tool", o->tool, "The tool (its name on the server)")->required();
    cmd->add_option(
        "--arg,-a", o->args,
        "KEY=VALUE (repeatable); VALUE is JSON unless the tool's schema says the argument is a string");
    cmd->add_option("--args", o->args_json,
                    "All arguments as one JSON object (--arg values are added to it)");
    cmd->add_flag("--yes,-y", o->host.yes,
                  "Do not ask: run the tool, and send sampling requests and their answers without review");
    add_host_options(cmd, o->host);
    cmd->callback([o, &exit_code] { exit_code = run_call(*o); });
}

} // namespace mcpxx_cli
