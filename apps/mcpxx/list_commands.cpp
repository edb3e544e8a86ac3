// `mcpxx tools|resources|prompts [SERVER]`: the combined catalogue of every configured server
// (or of one).
#include "catalogue_output.hpp"
#include "commands.hpp"
#include "host_output.hpp"
#include "host_session.hpp"

#include <CLI/CLI.hpp>
#include <mcp/json/text.hpp>

namespace mcpxx_cli {
namespace {

using mcp::json::array;
using mcp::json::object;

enum class what { tools, resources, prompts };

constexpr auto wire = mcp::latest_initialize_revision;

int run_list(const host_cli_options& opts, const std::string& server, what kind) {
    host_session session(opts);
    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc =
            session.start(server.empty() ? std::vector<std::string>{} : std::vector<std::string>{server});
        rc != exit_ok)
        return rc;
    if (session.interrupted()) return exit_interrupted;
    object out;
    session.report_config_problems(out);
    auto& m = session.servers();
    const auto st = style::for_stream(1);
    int rc = exit_ok;
    array unavailable;
    for (const auto& s : m.servers())
        if (s.state != mcp::host::server_state::ready) {
            rc = exit_unavailable;
            unavailable.push_back(object{{"name", s.name}, {"error", s.error}});
            if (!opts.json) std::cerr << st.red(s.name + ": ") + mcp::printable(s.error) + "\n";
        }

    if (kind == what::tools) {
        array tools;
        const auto entries = m.tools();
        if (opts.json)
            for (const auto& t : entries)
                tools.push_back(
                    object{{"name", t.name}, {"server", t.server}, {"tool", mcp::to_json(t.tool, wire)}});
        else
            print_tools(std::cout, entries, st);
        out["tools"] = std::move(tools);
    } else if (kind == what::resources) {
        array resources, templates;
        for (const auto& s : m.servers()) {
            if (s.state != mcp::host::server_state::ready) continue;
            if (!opts.json) {
                print_resources(std::cout, m, s.name, st);
                continue;
            }
            for (const auto& r : m.resources(s.name))
                resources.push_back(object{{"server", s.name}, {"resource", mcp::to_json(r, wire)}});
            for (const auto& t : m.resource_templates(s.name))
                templates.push_back(object{{"server", s.name}, {"resourceTemplate", mcp::to_json(t, wire)}});
        }
        out["resources"] = std::move(resources);
        out["resourceTemplates"] = std::move(templates);
    } else {
        array prompts;
        for (const auto& s : m.servers()) {
            if (s.state != mcp::host::server_state::ready) continue;
            if (!opts.json) {
                print_prompts(std::cout, m, s.name, st);
                continue;
            }
            for (const auto& p : m.prompts(s.name))
                prompts.push_back(object{{"server", s.name}, {"prompt", mcp::to_json(p, wire)}});
        }
        out["prompts"] = std::move(prompts);
    }
    if (opts.json) {
        out["unavailable"] = std::move(unavailable);
        print_json(out);
    }
    // As `servers`: over every server, a broken entry is a usage error once every server that
    // could start did (one server named: only its own entry counts, checked by start()).
    if (rc == exit_ok && server.empty() && !session.found().errors.empty()) rc = exit_usage;
    return rc;
}

void add(CLI::App& app, int& exit_code, const char* name, const char* help, what kind) {
    auto opts = std::make_shared<host_cli_options>();
    auto server = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(name, help);
    cmd->add_option("server", *server, "Only this server (default: all)");
    add_host_options(cmd, *opts);
    cmd->callback([opts, server, kind, &exit_code] { exit_code = run_list(*opts, *server, kind); });
}

} // namespace

void add_list_commands(CLI::App& app, int& exit_code) {
    add(app, exit_code, "tools", "List the tools of every server (names as a model sees them: server__tool)",
        what::tools);
    add(app, exit_code, "resources", "List the resources and resource templates of every server",
        what::resources);
    add(app, exit_code, "prompts", "List the prompts of every server", what::prompts);
}

} // namespace mcpxx_cli
