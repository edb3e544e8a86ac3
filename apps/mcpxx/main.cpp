// mcpxx - the command-line tool of mcpxx.
//
//   mcpxx schema validate --schema FILE --instance FILE [--default-dialect draft-07] [--remote PREFIX=DIR]...
//   mcpxx uri-template expand TEMPLATE --vars FILE.json
//   mcpxx servers | tools | resources | prompts [SERVER]      (--config FILE, --json, ...)
//   mcpxx call SERVER TOOL [--arg KEY=VALUE ...] [--args JSON] [--yes]
//   mcpxx read SERVER URI | prompt SERVER NAME [--arg KEY=VALUE]
//   mcpxx complete SERVER (--prompt NAME | --resource TEMPLATE) ARG VALUE | ping [SERVER]
//   mcpxx shell [--yes]                                        (interactive, or commands from stdin)
//   mcpxx gateway [--config FILE] [--listen 127.0.0.1:8080] [--token-file FILE] [--rate N] ...
// Exit codes: see commands.hpp.
#include "commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"mcpxx: Model Context Protocol tools (servers from your MCP hosts' configs, JSON Schema, "
                 "URI templates)",
                 "mcpxx"};
    app.require_subcommand(1);
    int exit_code = mcpxx_cli::exit_ok;
    mcpxx_cli::add_schema_command(app, exit_code);
    mcpxx_cli::add_uri_template_command(app, exit_code);
    mcpxx_cli::add_servers_commands(app, exit_code);
    mcpxx_cli::add_list_commands(app, exit_code);
    mcpxx_cli::add_call_command(app, exit_code);
    mcpxx_cli::add_read_commands(app, exit_code);
    mcpxx_cli::add_shell_command(app, exit_code);
    mcpxx_cli::add_gateway_command(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e); // prints the message
        return mcpxx_cli::exit_usage;
    }
    return exit_code;
}
