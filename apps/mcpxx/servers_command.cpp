// `mcpxx servers`: every configured server, started and initialized, with what it offers or why
// it failed. `mcpxx ping [SERVER]`: round trips.
#include "catalogue_output.hpp"
#include "commands.hpp"
#include "config_discovery.hpp"
#include "host_output.hpp"
#include "host_session.hpp"

#include <CLI/CLI.hpp>
#include <mcp/json/text.hpp>

namespace mcpxx_cli {
namespace {

using mcp::json::object;

object status_json(const mcp::host::server_status& s) {
    object o{{"name", s.name},
             {"source", s.source},
             {"transport", std::string(to_string(s.transport))},
             {"status", std::string(to_string(s.state))}};
    if (s.protocol_version) o["protocolVersion"] = std::string(mcp::to_string(*s.protocol_version));
    if (s.server_info)
        o["serverInfo"] = object{{"name", s.server_info->name}, {"version", s.server_info->version}};
    if (s.state == mcp::host::server_state::ready) {
        o["tools"] = s.tools;
        o["resources"] = s.resources;
        o["resourceTemplates"] = s.resource_templates;
        o["prompts"] = s.prompts;
    }
    if (!s.error.empty()) o["error"] = s.error;
    return o;
}

int run_servers(const host_cli_options& opts) {
    host_session session(opts);
    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc = session.start({}); rc != exit_ok) return rc;
    if (session.interrupted()) return exit_interrupted;
    const auto& found = session.found();
    const auto statuses = session.servers().servers();
    bool unavailable = false;
    for (const auto& s : statuses) unavailable |= s.state != mcp::host::server_state::ready;
    const bool config_errors = !found.errors.empty();

    // Entries that were not started: broken ones (when no other file defines the name),
    // disabled ones, and those of project files that are not allowed.
    std::vector<const mcp::host::config_error*> invalid;
    for (const auto& e : found.errors)
        if (!e.server.empty() && !found.is_defined(e.server)) invalid.push_back(&e);

    object out;
    if (opts.json) {
        mcp::json::array servers;
        for (const auto& s : statuses) servers.push_back(status_json(s));
        for (const auto* e : invalid)
            servers.push_back(object{
                {"name", e->server}, {"source", e->source}, {"status", "invalid"}, {"error", e->message}});
        for (const auto& d : found.disabled)
            servers.push_back(object{{"name", d.name},
                                     {"source", d.source},
                                     {"transport", std::string(to_string(d.transport))},
                                     {"status", "disabled"}});
        for (const auto& a : found.not_allowed)
            servers.push_back(object{{"name", a.name},
                                     {"source", a.source},
                                     {"transport", std::string(to_string(a.transport))},
                                     {"status", "not_allowed"},
                                     {"message", not_allowed_reason(a.source)}});
        out["servers"] = std::move(servers);
        session.report_config_problems(out, true);
        out["files"] = mcp::json::value_from(found.files_read);
        print_json(out);
    } else {
        const auto st = style::for_stream(1);
        server_columns c;
        for (const auto& s : statuses) c.name = std::max(c.name, s.name.size() + 2);
        for (const auto* e : invalid) c.name = std::max(c.name, e->server.size() + 2);
        for (const auto& d : found.disabled) c.name = std::max(c.name, d.name.size() + 2);
        for (const auto& a : found.not_allowed) c.name = std::max(c.name, a.name.size() + 2);
        if (!found.not_allowed.empty()) c.state = server_columns::state_with_not_allowed;
        for (const auto& s : statuses) std::cout << server_line(s, c, st) << "\n";
        for (const auto* e : invalid) std::cout << invalid_entry_line(*e, c, st) << "\n";
        for (const auto& d : found.disabled) std::cout << disabled_entry_line(d, c, st) << "\n";
        for (const auto& a : found.not_allowed) std::cout << not_allowed_entry_line(a, c, st) << "\n";
        session.report_config_problems(out, true);
    }
    if (unavailable) return exit_unavailable;
    return config_errors ? exit_usage : exit_ok;
}

int run_ping(const host_cli_options& opts, const std::string& server) {
    host_session session(opts);
    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc =
            session.start(server.empty() ? std::vector<std::string>{} : std::vector<std::string>{server});
        rc != exit_ok)
        return rc;
    if (session.interrupted()) return exit_interrupted;
    object out{{"servers", mcp::json::array{}}}; // the results, filled in below
    session.report_config_problems(out);
    int rc = exit_ok;
    mcp::json::array results;
    for (const auto& s : session.servers().servers()) {
        object r{{"name", s.name}};
        if (s.state != mcp::host::server_state::ready) {
            r["ok"] = false;
            r["error"] = s.error;
            rc = exit_unavailable;
        } else {
            const auto t0 = std::chrono::steady_clock::now();
            try {
                session.servers().client(s.name)->ping(
                    {.timeout = session.timeout_for(s.name), .cancel = session.cancel_token()});
                r["ok"] = true;
                r["ms"] =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            } catch (const std::exception& e) {
                if (session.interrupted()) return exit_interrupted;
                r["ok"] = false;
                r["error"] = e.what();
                if (rc == exit_ok) rc = exit_negative;
            }
        }
        if (!opts.json) {
            if (r.at("ok").as_bool()) {
                char ms[32];
                std::snprintf(ms, sizeof ms, "%.2f ms", r.at("ms").as_double());
                std::cout << mcp::printable(s.name) << ": " << style::for_stream(1).green("ok") << " " << ms
                          << "\n";
            } else {
                std::cout << mcp::printable(s.name) << ": " << style::for_stream(1).red("failed") << " "
                          << mcp::printable(r.at("error").as_string()) << "\n";
            }
        }
        results.push_back(std::move(r));
    }
    if (opts.json) {
        out["servers"] = std::move(results);
        print_json(out);
    }
    // As `servers`: over every server, a broken entry is a usage error once every server that
    // could start did (one server named: only its own entry counts, checked by start()).
    if (rc == exit_ok && server.empty() && !session.found().errors.empty()) rc = exit_usage;
    return rc;
}

} // namespace

void add_servers_commands(CLI::App& app, int& exit_code) {
    auto opts = std::make_shared<host_cli_options>();
    auto* servers = app.add_subcommand("servers", "Start every configured MCP server and report on each");
    add_host_options(servers, *opts);
    servers->callback([opts, &exit_code] { exit_code = run_servers(*opts); });

    auto ping_opts = std::make_shared<host_cli_options>();
    auto server = std::make_shared<std::string>();
    auto* ping = app.add_subcommand("ping", "Ping one server, or every configured server");
    ping->add_option("server", *server, "The server (default: all)");
    add_host_options(ping, *ping_opts);
    ping->callback([ping_opts, server, &exit_code] { exit_code = run_ping(*ping_opts, *server); });
}

} // namespace mcpxx_cli
