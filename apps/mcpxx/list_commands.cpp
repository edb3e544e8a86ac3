// `mcpxx tools|resources|prompts [SERVER]`: the combined catalogue of every configured server
// (or of one).
#include "commands.hpp"
#include "host_output.hpp"
#include "host_session.hpp"

#include <CLI/CLI.hpp>

namespace mcpxx_cli {
namespace {

using mcp::json::array;
using mcp::json::object;

enum class what { tools, resources, prompts };

constexpr auto wire = mcp::latest_initialize_revision;

int run_list(const host_cli_options& opts, const std::string& server, what kind) {
    host_session session(opts);
    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc = session.start(server.empty() ? std::vector<std::string>{} : std::vector<std::string>{server}); rc != exit_ok)
        return rc;
    if (session.interrupted()) return exit_interrupted;
    session.print_config_problems();
    auto& m = session.servers();
    const auto st = style::for_stream(1);
    int rc = exit_ok;
    array unavailable;
    for (const auto& s : m.servers())
        if (s.state != mcp::host::server_state::ready) {
            rc = exit_unavailable;
            unavailable.push_back(object{{"name", s.name}, {"error", s.error}});
            if (!opts.json) std::cerr << st.red(s.name + ": ") << s.error << "\n";
        }

    object out;
    if (kind == what::tools) {
        array tools;
        const auto entries = m.tools();
        std::size_t w = 0;
        for (const auto& t : entries) w = std::max(w, t.name.size() + 2);
        for (const auto& t : entries) {
            if (opts.json) {
                tools.push_back(object{{"name", t.name}, {"server", t.server}, {"tool", mcp::to_json(t.tool, wire)}});
                continue;
            }
            std::string flags;
            if (t.tool.annotations && t.tool.annotations->read_only_hint.value_or(false)) flags = " [read-only]";
            std::cout << st.bold(pad(t.name, w)) << t.tool.description.value_or("") << st.dim(flags) << "\n";
        }
        out["tools"] = std::move(tools);
    } else if (kind == what::resources) {
        array resources, templates;
        for (const auto& s : m.servers()) {
            if (s.state != mcp::host::server_state::ready) continue;
            for (const auto& r : m.resources(s.name)) {
                if (opts.json) resources.push_back(object{{"server", s.name}, {"resource", mcp::to_json(r, wire)}});
                else std::cout << st.bold(s.name) << "  " << r.uri << "  " << r.name << st.dim(r.mime_type ? "  " + *r.mime_type : "") << "\n";
            }
            for (const auto& t : m.resource_templates(s.name)) {
                if (opts.json) templates.push_back(object{{"server", s.name}, {"resourceTemplate", mcp::to_json(t, wire)}});
                else std::cout << st.bold(s.name) << "  " << t.uri_template << "  " << t.name << st.dim("  (template)") << "\n";
            }
        }
        out["resources"] = std::move(resources);
        out["resourceTemplates"] = std::move(templates);
    } else {
        array prompts;
        for (const auto& s : m.servers()) {
            if (s.state != mcp::host::server_state::ready) continue;
            for (const auto& p : m.prompts(s.name)) {
                if (opts.json) {
                    prompts.push_back(object{{"server", s.name}, {"prompt", mcp::to_json(p, wire)}});
                    continue;
                }
                std::string args;
                for (const auto& a : p.arguments) args += (args.empty() ? "" : ", ") + a.name + (a.required.value_or(false) ? "*" : "");
                std::cout << st.bold(s.name) << "  " << p.name << (args.empty() ? "" : "(" + args + ")") << "  "
                          << p.description.value_or("") << "\n";
            }
        }
        out["prompts"] = std::move(prompts);
    }
    if (opts.json) {
        out["unavailable"] = std::move(unavailable);
        print_json(out);
    }
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
    add(app, exit_code, "tools", "List the tools of every server (names as a model sees them: server__tool)", what::tools);
    add(app, exit_code, "resources", "List the resources and resource templates of every server", what::resources);
    add(app, exit_code, "prompts", "List the prompts of every server", what::prompts);
}

} // namespace mcpxx_cli
