// mcpxx - the command-line tool of mcpxx.
//
//   mcpxx schema validate --schema FILE --instance FILE [--default-dialect draft-07] [--remote PREFIX=DIR]...
//   mcpxx uri-template expand TEMPLATE --vars FILE.json
//   mcpxx servers | tools | resources | prompts [SERVER]      (--config FILE, --json, ...)
//   mcpxx call SERVER TOOL [--arg KEY=VALUE ...] [--args JSON] [--yes]
//   mcpxx read SERVER URI | prompt SERVER NAME [--arg KEY=VALUE]
//   mcpxx complete SERVER (--prompt NAME | --resource TEMPLATE) ARG VALUE [--context K=V]... | ping [SERVER]
//   mcpxx shell [--yes]                                        (interactive, or commands from stdin)
//   mcpxx allow [--revoke]                                     (this directory's project config files)
//   mcpxx login SERVER | logout SERVER [--forget-client] | auth [--json]   (OAuth sign-in)
//   mcpxx gateway [--config FILE] [--listen 127.0.0.1:8080] [--token-file FILE] [--rate N] ...
// Exit codes: see commands.hpp.
#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <boost/json.hpp>

#include <iostream>
#include <string_view>

namespace mcpxx_cli {

std::string exit_codes_help() {
    // "  CODE meaning", continuation lines indented under the meaning.
    const auto line = [](int code, std::string meaning) {
        std::string c = std::to_string(code);
        for (auto at = meaning.find('\n'); at != std::string::npos; at = meaning.find('\n', at + 1))
            meaning.insert(at + 1, 7, ' ');
        return "  " + c + std::string(5 - c.size(), ' ') + meaning + "\n";
    };
    return "Exit codes:\n" + line(exit_ok, "success") +
           line(exit_negative,
                "a server answered with an error or not in time, or a tool result has isError;\n"
                "schema / uri-template: the instance or template is invalid") +
           line(exit_usage,
                "usage error or unusable input: a bad option, a missing or broken file, a config\n"
                "entry that cannot be used, a server that is not configured (or not allowed)") +
           line(exit_unavailable, "a server could not be started or reached, or went away") +
           line(exit_denied, "the tool call was denied: by the user, or with no terminal to ask on\n"
                             "(stdin a pipe or a file; --yes runs calls without asking)") +
           line(exit_interrupted, "interrupted (Ctrl-C); a call in flight was cancelled") +
           "servers, tools, resources, prompts and ping print what the servers that came up gave,\n"
           "and exit 3 when any server could not be reached, else 2 when a config entry is broken.\n";
}

} // namespace mcpxx_cli

int main(int argc, char** argv) {
    CLI::App app{"mcpxx: Model Context Protocol tools (servers from your MCP hosts' configs, JSON Schema, "
                 "URI templates)",
                 "mcpxx"};
    app.require_subcommand(1);
    app.footer(mcpxx_cli::exit_codes_help());
    int exit_code = mcpxx_cli::exit_ok;
    mcpxx_cli::add_schema_command(app, exit_code);
    mcpxx_cli::add_uri_template_command(app, exit_code);
    mcpxx_cli::add_servers_commands(app, exit_code);
    mcpxx_cli::add_list_commands(app, exit_code);
    mcpxx_cli::add_call_command(app, exit_code);
    mcpxx_cli::add_read_commands(app, exit_code);
    mcpxx_cli::add_shell_command(app, exit_code);
    mcpxx_cli::add_allow_command(app, exit_code);
    mcpxx_cli::add_gateway_command(app, exit_code);
    mcpxx_cli::add_auth_commands(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e); // prints the message
        // A caller that asked for JSON gets its error as JSON too (stdout), as every other
        // failure of a command with --json.
        for (int i = 1; i < argc; ++i)
            if (std::string_view(argv[i]) == "--json") {
                std::cout << boost::json::serialize(boost::json::object{
                                 {"error", boost::json::object{{"message", e.what()},
                                                               {"exitCode", mcpxx_cli::exit_usage}}}})
                          << "\n";
                break;
            }
        return mcpxx_cli::exit_usage;
    }
    return exit_code;
}
