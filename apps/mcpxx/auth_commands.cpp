// `mcpxx login SERVER`, `mcpxx logout SERVER` and `mcpxx auth`: signing in to OAuth-protected
// remote servers, signing out, and who is signed in where. SERVER is the name of a configured
// remote server (its `oauth` settings are used) or its URL. Tokens are kept by
// mcp::auth::file_credential_store and never printed.
#include "commands.hpp"
#include "config_discovery.hpp"
#include "host_output.hpp"
#include "host_session.hpp"
#include "oauth_login.hpp"
#include "read_file.hpp"
#include "terminal.hpp"

#include <mcp/host/transport_factory.hpp>
#include <mcp/json/json.hpp>
#include <mcp/json/text.hpp>

#include <CLI/CLI.hpp>

#include <ctime>
#include <iostream>

namespace mcpxx_cli {
namespace {

struct auth_cli_options {
    std::vector<std::string> config_files;
    std::string server;
    bool forget_client = false;
    bool json = false;
};

/// A server named on the command line: its canonical URL and, for a configured entry, its
/// settings. Throws input_error.
struct named_server {
    std::string shown;
    std::string url;
    std::optional<mcp::host::oauth_settings> oauth;
};

named_server resolve(const std::string& name, const std::vector<std::string>& config_files) {
    const bool is_url = name.rfind("https://", 0) == 0 || name.rfind("http://", 0) == 0;
    named_server out;
    if (is_url) {
        out.shown = mcp::host::url_for_display(name);
        out.url = name;
    } else {
        const auto found = discover_servers(config_files);
        const auto* s = found.find(name);
        if (!s && found.find_not_allowed(name)) throw input_error(not_allowed_message(*found.find_not_allowed(name)));
        if (!s && found.find_disabled(name)) s = found.find_disabled(name); // signing in ahead is fine
        if (!s) {
            if (const auto* e = found.error_for(name)) throw input_error(e->to_string());
            throw input_error("no server named \"" + name + "\" is configured (give its name or its URL)");
        }
        if (s->transport == mcp::host::transport_kind::stdio)
            throw input_error("server \"" + name + "\" is a local (command) server; OAuth is for remote servers");
        out.shown = "\"" + name + "\"";
        out.url = s->url;
        out.oauth = s->oauth;
    }
    try {
        out.url = mcp::auth::canonical_resource_uri(out.url);
    } catch (const std::invalid_argument&) {
        throw input_error(out.shown + " is not an http(s) URL");
    }
    return out;
}

int run_login(const auth_cli_options& o) {
    named_server s;
    try {
        s = resolve(o.server, o.config_files);
    } catch (const input_error& e) {
        print_error(e.what());
        return exit_usage;
    }
    mcp::cancellation_source cancel;
    interrupt_guard interrupt(cancel);
    return sign_in(s.shown, s.url, s.oauth ? &*s.oauth : nullptr, cancel.token(), std::cerr);
}

std::shared_ptr<mcp::auth::file_credential_store> open_store() {
    try {
        return std::make_shared<mcp::auth::file_credential_store>();
    } catch (const mcp::auth::credential_store_error& e) {
        throw input_error(e.what());
    }
}

int run_logout(const auth_cli_options& o) {
    try {
        const auto s = resolve(o.server, o.config_files);
        const auto store = open_store();
        std::size_t signed_out = 0;
        if (o.forget_client) {
            signed_out = store->erase_server(s.url);
        } else {
            for (const auto& e : store->list())
                if (e.key.server == s.url && e.tokens) {
                    store->erase_tokens(e.key);
                    store->erase_pending(e.key);
                    ++signed_out;
                }
        }
        std::cout << (signed_out ? "Signed out of " : "Not signed in to ") << s.shown
                  << (o.forget_client ? " (its client registrations are forgotten too)" : "") << "\n";
        return exit_ok;
    } catch (const input_error& e) {
        print_error(e.what());
    } catch (const mcp::auth::credential_store_error& e) {
        print_error(e.what());
    }
    return exit_usage;
}

std::string utc_time(std::chrono::system_clock::time_point t) {
    const std::time_t tt = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    ::gmtime_r(&tt, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

int run_auth(const auth_cli_options& o) {
    std::vector<mcp::auth::file_credential_store::entry> entries;
    std::vector<std::string> problems;
    std::shared_ptr<mcp::auth::file_credential_store> store;
    mcp::host::discovery_result found;
    try {
        store = open_store();
        entries = store->list(&problems);
        found = discover_servers(o.config_files);
    } catch (const input_error& e) {
        print_error(e.what());
        return exit_usage;
    } catch (const mcp::auth::credential_store_error& e) {
        print_error(e.what());
        return exit_usage;
    }
    // The configured names of each URL, so that the table speaks of "github", not a URL.
    const auto name_of = [&](const std::string& url) {
        std::string names;
        for (const auto& s : found.servers) {
            if (s.transport == mcp::host::transport_kind::stdio) continue;
            try {
                if (mcp::auth::canonical_resource_uri(s.url) == url) names += (names.empty() ? "" : ",") + s.name;
            } catch (const std::invalid_argument&) {
            }
        }
        return names;
    };
    const auto now = std::chrono::system_clock::now();
    const auto expiry = [&](const mcp::auth::token_set& t) -> std::string {
        if (!t.expires_at) return "-";
        return (*t.expires_at <= now ? "expired " : "") + utc_time(*t.expires_at);
    };
    if (o.json) {
        mcp::json::array list;
        for (const auto& e : entries) {
            mcp::json::object row{{"server", e.key.server}, {"issuer", e.key.issuer}, {"name", name_of(e.key.server)},
                                  {"signedIn", e.tokens.has_value()}};
            if (e.tokens) {
                row["scopes"] = e.tokens->scope;
                row["refreshable"] = !e.tokens->refresh_token.empty();
                if (e.tokens->expires_at)
                    row["expiresAt"] = std::chrono::duration_cast<std::chrono::seconds>(
                                           e.tokens->expires_at->time_since_epoch())
                                           .count();
            }
            if (e.client) row["clientId"] = e.client->client_id;
            list.push_back(std::move(row));
        }
        mcp::json::array errors;
        for (const auto& p : problems) errors.emplace_back(p);
        std::cout << mcp::to_json(mcp::json::object{{"logins", std::move(list)}, {"errors", std::move(errors)}}) << "\n";
        return problems.empty() ? exit_ok : exit_usage;
    }
    for (const auto& p : problems) print_error(p);
    std::size_t shown = 0;
    const auto st = style::for_stream(1);
    for (const auto& e : entries) {
        if (!e.tokens) continue; // a registration kept for later, not a sign-in
        if (shown++ == 0)
            std::cout << st.bold(pad("SERVER", 40) + pad("ISSUER", 36) + pad("EXPIRES", 24) + "SCOPES") << "\n";
        auto name = name_of(e.key.server);
        const auto server = mcp::printable(name.empty() ? e.key.server : name + " (" + e.key.server + ")");
        std::cout << pad(server, 40) << pad(mcp::printable(e.key.issuer), 36)
                  << pad(expiry(*e.tokens) + (e.tokens->refresh_token.empty() ? "" : " *"), 24)
                  << mcp::printable(e.tokens->scope.empty() ? "-" : e.tokens->scope) << "\n";
    }
    if (shown == 0)
        std::cout << "Not signed in anywhere (mcpxx login SERVER signs in)\n";
    else
        std::cout << st.dim("(* renewed without you when it expires; kept in " + store->folder().string() + ")")
                  << "\n";
    return problems.empty() ? exit_ok : exit_usage;
}

} // namespace

void add_auth_commands(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<auth_cli_options>();
    auto* login = app.add_subcommand("login", "Sign in to an OAuth-protected remote server in the browser");
    login->add_option("SERVER", o->server, "A configured remote server, or its URL")->required();
    login->add_option("--config", o->config_files, "Read these config files instead of the hosts' ones");
    login->footer("The browser opens the authorization server's page (or the address is printed, without\n"
                  "a display); the answer comes back to 127.0.0.1. The tokens are kept in\n"
                  "$XDG_CONFIG_HOME/mcpxx/credentials (~/.config/mcpxx/credentials), readable only by you.\n"
                  "The entry's \"oauth\" settings are used: clientId, clientSecret (\"${VAR}\"), scopes,\n"
                  "callbackPort or redirectUri.\n");
    login->callback([o, &exit_code] { exit_code = run_login(*o); });

    auto* logout = app.add_subcommand("logout", "Forget the tokens of a remote server");
    logout->add_option("SERVER", o->server, "A configured remote server, or its URL")->required();
    logout->add_option("--config", o->config_files, "Read these config files instead of the hosts' ones");
    logout->add_flag("--forget-client", o->forget_client,
                     "Forget the client registrations and what was discovered about the server too");
    logout->callback([o, &exit_code] { exit_code = run_logout(*o); });

    auto* auth = app.add_subcommand("auth", "Where you are signed in: server, issuer, expiry, scopes (never a token)");
    auth->add_option("--config", o->config_files, "Read these config files instead of the hosts' ones");
    auth->add_flag("--json", o->json, "One JSON object: {\"logins\": [...], \"errors\": [...]}");
    auth->callback([o, &exit_code] { exit_code = run_auth(*o); });
}

} // namespace mcpxx_cli
