#include "host_session.hpp"
#include "host_output.hpp"
#include "audit_option.hpp"
#include "config_discovery.hpp"
#include "read_file.hpp"
#include "timeout_option.hpp"

#include <CLI/CLI.hpp>
#include <mcp/host/transport_factory.hpp>
#include <mcp/json/text.hpp>

#include <cstdlib>
#include <iostream>

namespace mcpxx_cli {

void print_error(const std::string& message) {
    // One write per line: a message from another thread (a server's log) never splits it. The
    // message often quotes a server (its error), so it is escaped (see terminal.hpp).
    std::cerr << style::for_stream(2).red("mcpxx: ") + mcp::printable_lines(message) + "\n";
}

void add_host_options(CLI::App* cmd, host_cli_options& o) {
    cmd->add_option("--config,-c", o.config_files,
                    "Read servers from this file (repeatable) instead of the hosts' config files");
    cmd->add_flag(
        "--json", o.json,
        "Machine-readable output: one JSON object on stdout, a failure too ({\"error\": {\"message\", "
        "\"exitCode\", \"code\"?, \"data\"?}})");
    auto* root = cmd->add_option("--root", o.roots,
                                 "Offer this directory to servers as an MCP root, instead of the current "
                                 "directory (repeatable). Servers may take roots as the directories they may "
                                 "use: server-filesystem replaces its own with them")
                     ->type_name("DIR");
    cmd->add_flag("--no-roots", o.no_roots,
                  "Offer no root to servers (by default the current directory is offered), e.g. to keep "
                  "server-filesystem to the directories its config gives it")
        ->excludes(root);
    cmd->add_option("--trust", o.trusted,
                    "Trust this server: its read-only tools run without asking (repeatable)");
    add_timeout_option(cmd, o.timeout_seconds,
                       "Seconds to wait for each server to start and for each request (instead of the "
                       "entries' own \"timeout\", in ms; default 30 to start, 60 per request)");
    add_audit_options(cmd, o.audit_log, o.redact);
    cmd->add_flag("--verbose,-v", o.verbose, "Show what servers write to stderr");
    cmd->add_flag_callback(
        "--raw", [] { keep_raw_bodies(true); },
        "Write content bodies (a tool's result, a resource's text, a prompt's messages) as the exact "
        "bytes the server sent, control characters included; by default they are escaped wherever "
        "they go, since a pipe often ends at a terminal");
    cmd->add_option("--sampling-url", o.sampling_url,
                    "Answer servers' sampling requests with this OpenAI-compatible API (base URL, e.g. "
                    "https://api.openai.com/v1; requests go to URL/chat/completions)");
    cmd->add_option(
        "--sampling-model", o.sampling_models,
        "A model the sampling API may use (repeatable; the first is the default, the server's hints choose "
        "among them)");
    cmd->add_option("--sampling-key-env", o.sampling_key_env,
                    "The environment variable that holds the sampling API's key (sent as a Bearer token)");
}

namespace {

/// The sampling provider the options ask for; throws input_error saying why it cannot be made.
std::shared_ptr<mcp::host::sampling_provider> make_sampling_provider(const host_cli_options& o) {
    if (o.sampling_url.empty()) {
        if (!o.sampling_models.empty() || !o.sampling_key_env.empty())
            throw input_error("--sampling-model and --sampling-key-env need --sampling-url");
        return std::make_shared<mcp::host::declining_sampling_provider>(
            "mcpxx has no model to sample: start it with --sampling-url URL --sampling-model NAME");
    }
    mcp::host::openai_provider_options p{.base_url = o.sampling_url, .models = o.sampling_models};
    if (p.models.empty()) throw input_error("--sampling-url needs --sampling-model NAME");
    if (!o.sampling_key_env.empty()) {
        const char* key = std::getenv(o.sampling_key_env.c_str());
        if (!key || !*key)
            throw input_error("--sampling-key-env: the environment variable " + o.sampling_key_env +
                              " is not set");
        p.api_key = key;
    }
    try {
        return std::make_shared<mcp::host::openai_sampling_provider>(std::move(p));
    } catch (const std::exception& e) {
        throw input_error(e.what());
    }
}

} // namespace

host_session::host_session(const host_cli_options& options) : options_(options), interrupt_(cancel_) {}

host_session::~host_session() {
    if (manager_) manager_->close();
}

namespace {
constexpr std::chrono::milliseconds default_connect_timeout{30000};
constexpr std::chrono::milliseconds default_call_timeout{60000};

std::optional<std::chrono::milliseconds> given_timeout(double seconds) {
    if (!(seconds > 0)) return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::max(0.001, seconds) * 1000));
}
} // namespace

std::chrono::milliseconds host_session::timeout_for(const std::string& server) const {
    if (auto t = given_timeout(options_.timeout_seconds)) return *t;
    if (manager_) {
        try {
            if (auto t = manager_->config(server).timeout) return *t;
        } catch (const std::out_of_range&) {
        }
    }
    return default_call_timeout;
}

int host_session::fail(int exit_code, const std::string& message, const mcp::error* rpc,
                       mcp::json::object extra) const {
    if (!options_.json) {
        print_error(message);
        return exit_code;
    }
    mcp::json::object e{{"message", message}, {"exitCode", exit_code}};
    if (rpc) {
        e["code"] = rpc->code();
        if (!rpc->data().is_null()) e["data"] = rpc->data();
    }
    extra["error"] = std::move(e);
    print_json(mcp::json::value(std::move(extra)));
    std::cout << std::flush;
    return exit_code;
}

int host_session::load() {
    try {
        found_ = discover_servers(options_.config_files);
    } catch (const input_error& e) {
        return fail(exit_usage, e.what());
    }
    if (found_.servers.empty() && found_.disabled.empty() && found_.not_allowed.empty() &&
        found_.errors.empty())
        return fail(
            exit_usage,
            options_.config_files.empty()
                ? "no MCP servers configured: none of the hosts' config files defines one (use --config FILE)"
                : "no MCP servers in " + options_.config_files.front());
    // Servers that wait to be allowed are listed, and named they say so: not a reason to stop.
    if (found_.servers.empty() && found_.not_allowed.empty() && !found_.errors.empty()) {
        if (options_.json) {
            mcp::json::object out;
            report_config_problems(out);
            return fail(exit_usage, found_.errors.front().to_string(), nullptr, std::move(out));
        }
        for (const auto& e : found_.errors) print_error(e.to_string());
        return exit_usage;
    }
    return exit_ok;
}

void host_session::report_config_problems(mcp::json::object& out, bool entries_listed) const {
    using mcp::json::object;
    if (options_.json) {
        mcp::json::array errors, shadowed, notes;
        for (const auto& e : found_.errors)
            errors.push_back(object{
                {"source", e.source}, {"server", e.server}, {"message", e.message}, {"text", e.to_string()}});
        for (const auto& sh : found_.shadowed)
            shadowed.push_back(object{{"name", sh.name}, {"source", sh.source}, {"winner", sh.winner}});
        for (const auto& n : found_.notes) notes.push_back(mcp::json::string(n));
        if (auto note = not_allowed_note(found_)) notes.push_back(mcp::json::string(*note));
        out["errors"] = std::move(errors);
        out["shadowed"] = std::move(shadowed);
        out["notes"] = std::move(notes);
        return;
    }
    const auto s = style::for_stream(2);
    for (const auto& e : found_.errors) {
        // An entry that no other file defines is a row of its own in `servers`.
        const bool listed = entries_listed && !e.server.empty() && !found_.is_defined(e.server);
        // Config files may come with a cloned project: what they name is escaped like server text.
        if (!listed) std::cerr << s.yellow("warning: ") + mcp::printable_lines(e.to_string()) + "\n";
    }
    for (const auto& n : found_.notes) std::cerr << s.dim("note: " + mcp::printable_lines(n)) + "\n";
    if (auto note = not_allowed_note(found_)) std::cerr << s.dim("note: " + *note) + "\n";
    for (const auto& sh : found_.shadowed)
        std::cerr << s.dim("note: server \"" + sh.name + "\" of " + sh.source + " is hidden by the one in " +
                           sh.winner) +
                         "\n";
}

std::vector<std::filesystem::path> host_session::root_paths() const {
    if (options_.no_roots) return {};
    if (options_.roots.empty()) {
        std::error_code ec;
        auto cwd = std::filesystem::current_path(ec);
        if (ec)
            throw input_error("the current directory, offered to servers as their root, cannot be read (" +
                              ec.message() + "): pass --root DIR or --no-roots");
        return {std::move(cwd)};
    }
    return {options_.roots.begin(), options_.roots.end()};
}

void host_session::begin_command() {
    cancel_ = mcp::cancellation_source();
    interrupt_.rearm(cancel_);
}

int host_session::start(const std::vector<std::string>& names, session_hooks hooks) {
    mcp::host::manager_options mo;
    mo.client_info = {"mcpxx", "0.1.0"};
    // Precedence: --timeout, then the entry's own "timeout", then the defaults. The manager
    // applies an entry's timeout to starting it and to its calls; --timeout replaces it.
    const auto given = given_timeout(options_.timeout_seconds);
    mo.connect_timeout = given.value_or(default_connect_timeout);
    mo.call_timeout = given.value_or(default_call_timeout);
    mo.approval.approve_all = options_.yes;
    mo.approval.trusted_servers.insert(options_.trusted.begin(), options_.trusted.end());
    mo.approver = std::make_shared<terminal_approver>(hooks.io);
    mo.elicitation = std::make_shared<terminal_elicitation>(hooks.io);
    if (hooks.on_log) mo.server_log_level = options_.server_log_level;
    mo.on_log = std::move(hooks.on_log);
    mo.on_catalogue_changed = std::move(hooks.on_catalogue_changed);
    mo.on_resource_updated = std::move(hooks.on_resource_updated);
    mo.ordered_responses = hooks.ordered;
    mo.authorizer = [oauth = oauth_](const mcp::host::server_config& s) { return oauth->for_server(s); };
    const auto io = hooks.io;
    try {
        mo.sampling = make_sampling_provider(options_);
    } catch (const input_error& e) {
        return fail(exit_usage, e.what());
    }
    // The user sees what a server sends to the model and what comes back, unless --yes.
    if (!options_.yes && !options_.sampling_url.empty())
        mo.sampling = std::make_shared<mcp::host::reviewed_sampling_provider>(
            mo.sampling, std::make_shared<terminal_sampling_reviewer>(hooks.io));
    try {
        mo.audit = open_audit_log(options_.audit_log, options_.redact);
        mo.roots = root_paths();
    } catch (const input_error& e) {
        return fail(exit_usage, e.what());
    }
    if (options_.verbose) {
        if (hooks.on_server_stderr)
            mo.on_server_stderr = std::move(hooks.on_server_stderr);
        else
            mo.on_server_stderr = [](const std::string& server, std::string_view line) {
                std::cerr << "[" + server + "] " + mcp::printable(line) + "\n";
            };
    }
    manager_ = std::make_unique<mcp::host::manager>(std::move(mo));

    const auto add = [&](mcp::host::server_config c) {
        if (given) c.timeout = *given;
        manager_->add_server(std::move(c));
    };
    if (names.empty()) {
        for (const auto& s : found_.servers) add(s);
    } else {
        for (const auto& n : names) {
            if (const auto* s = found_.find(n)) {
                add(*s);
            } else if (const auto* a = found_.find_not_allowed(n)) {
                return fail(exit_usage, not_allowed_message(*a));
            } else if (const auto* d = found_.find_disabled(n)) {
                return fail(exit_usage,
                            "server \"" + n + "\" is disabled in " + d->source + " (\"disabled\": true)");
            } else if (const auto* e = found_.error_for(n)) {
                return fail(exit_usage, e->to_string());
            } else {
                std::string known;
                for (const auto& s : found_.servers) known += (known.empty() ? "" : ", ") + s.name;
                return fail(exit_usage,
                            "no server named \"" + n + "\" is configured (servers: " + known + ")");
            }
        }
    }
    manager_->connect_all();
    offer_sign_in(io);
    return exit_ok;
}

void host_session::offer_sign_in(const user_io& io) {
    // Only a person at a terminal can use a browser; a script gets the error, which names the
    // command that signs in.
    if (options_.json || !io.terminal || !io.ask) return;
    for (const auto& status : manager_->servers()) {
        if (status.state == mcp::host::server_state::ready || !oauth_->needs_sign_in(status.name)) continue;
        const auto& config = manager_->config(status.name);
        const auto answer = io.ask("Server \"" + mcp::printable(status.name) + "\" (" +
                                   mcp::host::url_for_display(config.url) + ") needs you to sign in. Sign in now? [Y/n] ");
        if (!answer || (!answer->empty() && (*answer)[0] != 'y' && (*answer)[0] != 'Y')) continue;
        if (sign_in("\"" + status.name + "\"", config.url, config.oauth ? &*config.oauth : nullptr, cancel_token(),
                    std::cerr) == exit_ok)
            manager_->connect(status.name);
    }
}

std::shared_ptr<mcp::client> host_session::client_or_report(const std::string& name) {
    try {
        return manager_->client(name);
    } catch (const mcp::error& e) {
        fail(exit_unavailable, e.what(), &e);
        return nullptr;
    } catch (const std::exception& e) {
        fail(exit_unavailable, e.what());
        return nullptr;
    }
}

int host_session::report_failure(const std::exception& e) const {
    // Interrupted: the user knows; --json still gets an object saying so.
    const auto interrupted_now = [&] {
        return options_.json ? fail(exit_interrupted, "interrupted") : exit_interrupted;
    };
    if (dynamic_cast<const user_interrupted*>(&e)) return interrupted_now();
    if (dynamic_cast<const mcp::host::call_denied*>(&e))
        return fail(exit_denied, std::string("denied: ") + e.what());
    if (const auto* err = dynamic_cast<const mcp::error*>(&e)) {
        if (err->code() == mcp::error_code::request_cancelled && interrupted()) return interrupted_now();
        if (err->code() == mcp::error_code::connection_closed) return fail(exit_unavailable, e.what(), err);
        const std::string text = std::string(e.what()) + " (error " + std::to_string(err->code()) + ")";
        return fail(exit_negative, options_.json ? std::string(e.what()) : text, err);
    }
    if (interrupted()) return interrupted_now();
    return fail(exit_negative, e.what());
}

mcp::json::object parse_key_values(const std::vector<std::string>& pairs, const mcp::json::object* schema) {
    mcp::json::object out;
    const mcp::json::object* props = schema ? mcp::find_object(*schema, "properties") : nullptr;
    for (const auto& kv : pairs) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw input_error("--arg wants KEY=VALUE, got \"" + kv + "\"");
        const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
        std::string type;
        if (props)
            if (const auto* p = mcp::find_object(*props, key))
                type = std::string(mcp::find_string(*p, "type").value_or(""));
        if (type == "string") {
            out[key] = value;
            continue;
        }
        boost::system::error_code ec;
        auto v = mcp::parse_json(value, ec);
        out[key] = v ? std::move(*v) : mcp::json::value(value);
    }
    return out;
}

} // namespace mcpxx_cli
