// `mcpxx uri-template expand`: expand an RFC 6570 template with variables from a JSON file
// (strings, numbers, booleans, arrays for lists, objects for associative arrays).
#include "commands.hpp"
#include "read_file.hpp"

#include <mcp/protocol/uri_template.hpp>

#include <CLI/CLI.hpp>

#include <iostream>

namespace mcpxx_cli {
namespace {

struct expand_options {
    std::string text;
    std::string vars_file;
};

int run_expand(const expand_options& o) {
    mcp::json::object vars;
    if (!o.vars_file.empty()) {
        try {
            auto v = read_json_file(o.vars_file);
            if (!v.is_object()) throw input_error(o.vars_file + " must hold a JSON object of variables");
            vars = std::move(v.get_object());
        } catch (const input_error& e) {
            std::cerr << "mcpxx: " << e.what() << '\n';
            return exit_usage;
        }
    }
    try {
        const mcp::uri_template t(o.text);
        std::cout << t.expand(vars) << '\n';
        return exit_ok;
    } catch (const mcp::uri_template_error& e) {
        std::cerr << "mcpxx: invalid template: " << e.what() << '\n';
        return exit_negative;
    }
}

} // namespace

void add_uri_template_command(CLI::App& app, int& exit_code) {
    auto* ut = app.add_subcommand("uri-template", "RFC 6570 URI templates");
    ut->require_subcommand(1);
    auto opts = std::make_shared<expand_options>();
    auto* expand =
        ut->add_subcommand("expand", "Print the expansion of TEMPLATE: exit 1 for an invalid template");
    expand->add_option("template", opts->text, "The URI template, e.g. 'file:///{+path}{?q}'")->required();
    expand->add_option("--vars", opts->vars_file, "A JSON file holding an object of variables");
    expand->callback([opts, &exit_code] { exit_code = run_expand(*opts); });
}

} // namespace mcpxx_cli
