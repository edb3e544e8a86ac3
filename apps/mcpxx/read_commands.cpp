// `mcpxx read SERVER URI`, `mcpxx prompt SERVER NAME [--arg k=v ...]` and
// `mcpxx complete SERVER (--prompt NAME | --resource TEMPLATE) ARG VALUE`.
#include "commands.hpp"
#include "host_output.hpp"
#include "host_session.hpp"
#include "read_file.hpp"

#include <CLI/CLI.hpp>
#include <mcp/json/text.hpp>

namespace mcpxx_cli {
namespace {

struct read_options {
    host_cli_options host;
    std::string server, target;           // URI or prompt name
    std::vector<std::string> args;        // prompt arguments
    std::string prompt_ref, resource_ref; // complete
    std::string argument, value;          // complete
    std::vector<std::string> context;     // complete: other arguments, KEY=VALUE
};

/// Connects the one server and runs `body` with its client; maps failures to exit codes.
template <class F> int with_client(const read_options& o, F body) {
    host_session session(o.host);
    if (int rc = session.load(); rc != exit_ok) return rc;
    if (int rc = session.start({o.server}); rc != exit_ok) return rc;
    if (session.interrupted()) return exit_interrupted;
    auto client = session.client_or_report(o.server);
    if (!client) return exit_unavailable;
    try {
        return body(*client, mcp::call_options{.timeout = session.timeout_for(o.server),
                                               .cancel = session.cancel_token()});
    } catch (const input_error& e) {
        return session.fail(exit_usage, e.what());
    } catch (const std::exception& e) {
        return session.report_failure(e);
    }
}

int run_read(const read_options& o) {
    return with_client(o, [&](mcp::client& c, mcp::call_options co) {
        auto r = c.read_resource(o.target, std::move(co));
        if (o.host.json)
            print_json(mcp::to_json(r, c.protocol_version()));
        else
            for (const auto& x : r.contents) std::cout << content_body(describe(x)) << "\n";
        return exit_ok;
    });
}

int run_prompt(const read_options& o) {
    return with_client(o, [&](mcp::client& c, mcp::call_options co) {
        std::map<std::string, std::string> args;
        for (const auto& kv : o.args) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
                throw input_error("--arg wants KEY=VALUE, got \"" + kv + "\"");
            args[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        auto r = c.get_prompt(o.target, std::move(args), std::move(co));
        if (o.host.json)
            print_json(mcp::to_json(r, c.protocol_version()));
        else
            print_prompt_result(r);
        return exit_ok;
    });
}

int run_complete(const read_options& o) {
    if (o.prompt_ref.empty() == o.resource_ref.empty())
        return host_session(o.host).fail(
            exit_usage, "complete needs exactly one of --prompt NAME and --resource TEMPLATE");
    return with_client(o, [&](mcp::client& c, mcp::call_options co) {
        mcp::complete_request req;
        if (!o.prompt_ref.empty())
            req.ref = mcp::prompt_reference{.name = o.prompt_ref};
        else
            req.ref = mcp::resource_template_reference{.uri = o.resource_ref};
        req.argument = {.name = o.argument, .value = o.value};
        std::map<std::string, std::string> context;
        for (const auto& kv : o.context) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
                throw input_error("--context wants KEY=VALUE, got \"" + kv + "\"");
            context[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        if (!context.empty()) req.context_arguments = std::move(context);
        auto r = c.complete(req, std::move(co));
        if (o.host.json)
            print_json(mcp::to_json(r, c.protocol_version()));
        else
            for (const auto& v : r.values) std::cout << mcp::printable(v) << "\n";
        return exit_ok;
    });
}

} // namespace

void add_read_commands(CLI::App& app, int& exit_code) {
    auto r = std::make_shared<read_options>();
    auto* read = app.add_subcommand("read", "Read a resource: mcpxx read SERVER URI");
    read->add_option("server", r->server, "The server")->required();
    read->add_option("uri", r->target, "The resource URI")->required();
    add_host_options(read, r->host);
    read->callback([r, &exit_code] { exit_code = run_read(*r); });

    auto p = std::make_shared<read_options>();
    auto* prompt =
        app.add_subcommand("prompt", "Get a prompt: mcpxx prompt SERVER NAME [--arg KEY=VALUE ...]");
    prompt->add_option("server", p->server, "The server")->required();
    prompt->add_option("name", p->target, "The prompt")->required();
    prompt->add_option("--arg,-a", p->args, "KEY=VALUE (repeatable)");
    add_host_options(prompt, p->host);
    prompt->callback([p, &exit_code] { exit_code = run_prompt(*p); });

    auto c = std::make_shared<read_options>();
    auto* complete = app.add_subcommand(
        "complete",
        "Complete an argument: mcpxx complete SERVER (--prompt NAME | --resource TEMPLATE) ARG VALUE");
    complete->add_option("server", c->server, "The server")->required();
    complete->add_option("--prompt", c->prompt_ref, "Complete an argument of this prompt");
    complete->add_option("--resource", c->resource_ref, "Complete a variable of this resource template");
    complete->add_option("argument", c->argument, "The argument (or template variable)")->required();
    complete->add_option("value", c->value, "What was typed so far")->required();
    complete->add_option("--context", c->context,
                         "KEY=VALUE: another argument already chosen (repeatable), sent as the request's "
                         "context.arguments so that the server can complete in its light");
    add_host_options(complete, c->host);
    complete->callback([c, &exit_code] { exit_code = run_complete(*c); });
}

} // namespace mcpxx_cli
