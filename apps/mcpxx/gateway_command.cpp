// `mcpxx gateway`: every configured server served as one Streamable HTTP MCP server (both
// protocol eras) at http://HOST:PORT/mcp, with bearer-token or OAuth (--oauth-issuer)
// authentication, per-token rate limits, Origin validation, /healthz, /metrics (Prometheus text)
// and structured logs (one JSON object per line on stderr). `--stdio` serves stdin/stdout instead.
//
// Tool calls cannot be approved at a terminal here: by default only read-only tools of trusted
// servers run (--trust NAME, or `trust: true` in the config); --approve-all runs every call.
// Anything else is answered with isError: true and a message that says why.
#include "audit_option.hpp"
#include "catalogue_output.hpp"
#include "commands.hpp"
#include "config_discovery.hpp"
#include "gateway_access.hpp"
#include "host_output.hpp"
#include "oauth_login.hpp"
#include "read_file.hpp"
#include "timeout_option.hpp"

#include <mcp/auth/oauth_flags.hpp>
#include <mcp/host/catalogue.hpp>
#include <mcp/host/gateway.hpp>
#include <mcp/http/server.hpp>
#include <mcp/json/text.hpp>
#include <mcp/json/utf8.hpp>
#include <mcp/server/middleware.hpp>

#include <CLI/CLI.hpp>

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

namespace mcpxx_cli {
namespace {

using mcp::json::object;

struct gateway_cli {
    std::vector<std::string> config_files;
    std::string listen = "127.0.0.1:8080";
    std::string path = "/mcp";
    bool stdio = false;
    std::string token_file;
    mcp::auth::oauth_flags oauth;
    double rate = 0;
    double burst = 0;
    std::vector<std::string> trusted;
    bool approve_all = false;
    double timeout_seconds = 0; ///< 0: not given (each entry's own "timeout", else the defaults)
    std::string audit_log;
    bool redact = false;
    std::vector<std::string> roots;
    std::vector<std::string> allowed_origins;
    std::vector<std::string> allowed_hosts;
    bool plain_names = false;
    std::string log_level = "info";
    bool verbose = false;
};

int level_rank(std::string_view l) {
    return l == "debug" ? 0 : l == "info" ? 1 : l == "warning" ? 2 : 3;
}

// ------------------------------------------------------------------------------- --listen

struct endpoint {
    std::string address;
    unsigned short port = 0;
};

endpoint parse_listen(const std::string& text) {
    endpoint e;
    std::string host = "127.0.0.1", port = text;
    if (!text.empty() && text.front() == '[') { // [::1]:8080
        const auto close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            throw input_error("--listen: expected HOST:PORT, got \"" + text + "\"");
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else if (auto colon = text.rfind(':'); colon != std::string::npos) {
        host = colon == 0 ? "127.0.0.1" : text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    if (host == "localhost") host = "127.0.0.1";
    unsigned v = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), v);
    if (ec != std::errc() || end != port.data() + port.size() || v > 65535)
        throw input_error("--listen: bad port in \"" + text + "\" (HOST:PORT, PORT 0 = any free port)");
    e.address = host;
    e.port = static_cast<unsigned short>(v);
    return e;
}

bool is_loopback(const std::string& address) {
    return address.rfind("127.", 0) == 0 || address == "::1";
}

// ---------------------------------------------------------------------------------- metrics

std::string gateway_metrics(mcp::host::gateway& gw, std::uint64_t unauthorized) {
    std::string out;
    const auto servers = gw.servers().servers();
    // One series per server whatever happens to it (its identity never changes), and the state
    // as a gauge per state, every state always present (1 for the current one).
    out += "# HELP mcpxx_gateway_server_up Whether the server behind the gateway is ready (1) or not (0).\n"
           "# TYPE mcpxx_gateway_server_up gauge\n";
    for (const auto& s : servers)
        out += "mcpxx_gateway_server_up{server=\"" + mcp::prometheus_label_value(s.name) + "\"} " +
               (s.state == mcp::host::server_state::ready ? "1" : "0") + "\n";
    out += "# HELP mcpxx_gateway_server_state The state of the server behind the gateway (1 for the current "
           "state).\n"
           "# TYPE mcpxx_gateway_server_state gauge\n";
    using st = mcp::host::server_state;
    for (const auto& s : servers)
        for (const auto state : {st::starting, st::ready, st::restarting, st::failed, st::stopped})
            out += "mcpxx_gateway_server_state{server=\"" + mcp::prometheus_label_value(s.name) +
                   "\",state=\"" + std::string(to_string(state)) + "\"} " + (s.state == state ? "1" : "0") +
                   "\n";
    out += "# HELP mcpxx_gateway_server_restarts_total Restarts of the server after it died.\n"
           "# TYPE mcpxx_gateway_server_restarts_total counter\n";
    for (const auto& s : servers)
        out += "mcpxx_gateway_server_restarts_total{server=\"" + mcp::prometheus_label_value(s.name) +
               "\"} " + std::to_string(s.restarts) + "\n";
    out += "# HELP mcpxx_gateway_waiting_calls Calls waiting for a 2026-07-28 client's input.\n"
           "# TYPE mcpxx_gateway_waiting_calls gauge\nmcpxx_gateway_waiting_calls " +
           std::to_string(gw.waiting_calls()) + "\n";
    out += "# HELP mcpxx_gateway_unauthorized_total HTTP requests refused for want of a valid token.\n"
           "# TYPE mcpxx_gateway_unauthorized_total counter\nmcpxx_gateway_unauthorized_total " +
           std::to_string(unauthorized) + "\n";
    return out;
}

/// What a client wrote (a tool name, a URI), as a log line shows it: at most 200 bytes (cut at
/// a UTF-8 boundary, the length of the rest said); JSON escapes the rest.
std::string clipped(std::string_view text) {
    constexpr std::size_t limit = 200;
    if (text.size() <= limit) return std::string(text);
    const std::size_t cut = mcp::utf8::boundary_before(text, limit);
    return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) + " more bytes)";
}

std::string path_of(const std::string& target) {
    const auto q = target.find('?');
    return q == std::string::npos ? target : target.substr(0, q);
}

// ------------------------------------------------------------------------- per-token views

/// What each token may see (its principal's patterns), or nullopt when no token is limited.
///  - `tools` patterns: tools and prompts, by their gateway names (`server__name`).
///  - `resources` patterns: resources and resource templates, by their gateway URIs.
///  - With `tools` and no `resources`: the resources and templates of the servers the patterns
///    admit - a server some visible tool or prompt leads to, or (qualified names) whose names
///    the patterns could match ("weather__*" admits "weather", and so does "*").
std::optional<mcp::middleware::catalogue_filter>
token_filter(const gateway_tokens& tokens, const mcp::host::gateway& gw, bool plain_names) {
    auto limited = std::make_shared<std::map<std::string, gateway_token>>();
    for (const auto& [principal, t] : tokens.principals())
        if (!t.tools.empty() || !t.resources.empty()) limited->emplace(principal, t);
    if (limited->empty()) return std::nullopt;
    const auto any = [](const std::vector<std::string>& patterns, const std::string& name) {
        for (const auto& p : patterns)
            if (glob_match(p, name)) return true;
        return false;
    };
    const auto names = [limited, any](const std::string& principal, const std::string& name) {
        auto it = limited->find(principal);
        return it == limited->end() || it->second.tools.empty() || any(it->second.tools, name);
    };
    // A resource or template of `to` (nullopt: it leads nowhere, and the server says "not found").
    const auto by_server = [limited, any, &gw,
                            plain_names](const std::string& principal, const std::string& uri,
                                         const std::optional<mcp::host::gateway::route>& to) {
        auto it = limited->find(principal);
        if (it == limited->end()) return true;
        const auto& t = it->second;
        if (!t.resources.empty()) return any(t.resources, uri);
        if (t.tools.empty() || !to) return true;
        for (const auto& n : gw.names_of(to->server))
            if (any(t.tools, n)) return true;
        if (plain_names) return false;
        const std::string prefix = mcp::host::sanitize_name(to->server) + "__";
        for (const auto& p : t.tools)
            if (glob_admits_prefix(p, prefix)) return true;
        return false;
    };
    mcp::middleware::catalogue_filter f;
    f.tool = names;
    f.prompt = names;
    f.resource = [by_server, &gw](const std::string& principal, const std::string& uri) {
        return by_server(principal, uri, gw.resource_route(uri));
    };
    f.resource_template = [by_server, &gw](const std::string& principal, const std::string& text) {
        return by_server(principal, text, gw.template_route(text));
    };
    return f;
}

// ------------------------------------------------------------------------------------- run

int run_gateway(const gateway_cli& o) {
    const int min_rank = level_rank(o.log_level);
    auto log = [min_rank](std::string_view level, object fields) {
        if (level_rank(level) >= min_rank) log_json(level, std::move(fields));
    };

    // ---- what is configured ----
    gateway_tokens tokens;
    endpoint ep;
    try {
        if (!o.token_file.empty()) tokens.load_file(o.token_file);
        if (const char* env = std::getenv("MCPXX_GATEWAY_TOKENS"); env && *env)
            tokens.load_list(env, "MCPXX_GATEWAY_TOKENS");
        if (!o.stdio) ep = parse_listen(o.listen);
    } catch (const input_error& e) {
        log("error", object{{"event", "config"}, {"message", e.what()}});
        return exit_usage;
    }
    const bool oauth = o.oauth.enabled();
    try {
        o.oauth.check();
        if (oauth && !tokens.empty())
            throw input_error(
                "--oauth-issuer and bearer tokens (--token-file, MCPXX_GATEWAY_TOKENS) exclude each "
                "other: choose one");
        if (oauth && o.stdio) throw input_error("--oauth-issuer is for HTTP; over --stdio there is no token");
    } catch (const std::exception& e) {
        log("error", object{{"event", "config"}, {"message", e.what()}});
        return exit_usage;
    }
    if (!o.stdio && tokens.empty() && !oauth && !is_loopback(ep.address)) {
        log("error",
            object{{"event", "config"},
                   {"message", "listening on " + ep.address +
                                   " (not loopback) needs tokens: --token-file FILE, MCPXX_GATEWAY_TOKENS "
                                   "or --oauth-issuer URL"}});
        return exit_usage;
    }

    mcp::host::discovery_result found;
    try {
        found = discover_servers(o.config_files);
    } catch (const input_error& e) {
        log("error", object{{"event", "config"}, {"message", e.what()}});
        return exit_usage;
    }
    for (const auto& e : found.errors)
        log("warning", object{{"event", "config"}, {"message", e.to_string()}});
    for (const auto& d : found.disabled)
        log("info",
            object{{"event", "config"},
                   {"message", d.source + ": server \"" + d.name + "\" is disabled; it is not served"}});
    for (const auto& a : found.not_allowed)
        log("warning",
            object{{"event", "config"},
                   {"message", "server \"" + a.name + "\" is not served: " + not_allowed_reason(a.source)}});
    if (found.servers.empty()) {
        std::string why;
        if (!o.config_files.empty())
            why = "no usable MCP server in " + o.config_files.front();
        else if (!found.not_allowed.empty())
            why = "no MCP server to serve: " + *not_allowed_note(found);
        else
            why =
                "no MCP servers configured: none of the hosts' config files defines one (use --config FILE)";
        log("error", object{{"event", "config"}, {"message", why}});
        return exit_usage;
    }

    // ---- the gateway ----
    mcp::host::gateway_options go;
    go.server.info = {"mcpxx-gateway", "0.1.0"};
    go.qualify_names = !o.plain_names;
    // --timeout, else each entry's own "timeout", else 30 s to start and 60 s per call.
    std::optional<std::chrono::milliseconds> timeout;
    if (o.timeout_seconds > 0)
        timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeout_seconds * 1000));
    go.manager.client_info = {"mcpxx-gateway", "0.1.0"};
    go.manager.connect_timeout = timeout.value_or(std::chrono::milliseconds(30000));
    go.manager.call_timeout = timeout.value_or(std::chrono::milliseconds(60000));
    go.manager.approval.approve_all = o.approve_all;
    go.manager.approval.trusted_servers.insert(o.trusted.begin(), o.trusted.end());
    // Only the roots asked for: servers may take them as the directories they may use.
    for (const auto& r : o.roots) go.manager.roots.emplace_back(r);
    // OAuth-protected remote upstreams: the user's stored sign-ins (`mcpxx login NAME`), renewed
    // with their refresh tokens; one that needs the user fails with a message saying so.
    go.manager.authorizer = [oauth = std::make_shared<oauth_clients>()](const mcp::host::server_config& s) {
        return oauth->for_server(s);
    };
    try {
        go.manager.audit = open_audit_log(o.audit_log, o.redact);
    } catch (const input_error& e) {
        log("error", object{{"event", "config"}, {"message", e.what()}});
        return exit_usage;
    }
    if (o.verbose)
        go.manager.on_server_stderr = [log](const std::string& server, std::string_view line) {
            log("debug", object{{"event", "server_stderr"}, {"server", server}, {"line", line}});
        };
    go.on_event = [log](const object& e) {
        const auto kind = mcp::find_string(e, "event").value_or("");
        const bool bad =
            (kind == "server_state" && e.contains("error")) || kind == "hidden" || kind == "input_expired";
        log(bad ? "warning" : "info", e);
    };
    mcp::host::gateway gw(std::move(go));
    for (auto s : found.servers) {
        if (timeout) s.timeout = *timeout;
        gw.add_server(std::move(s));
    }

    // ---- middleware, outermost first: log + metrics, principal, rate, tool filter ----
    mcp::server_metrics metrics;
    auto& srv = gw.server();
    srv.use([log, &gw](mcp::incoming_call& call, const mcp::receive_next& next) -> mcp::json::value {
        const auto t0 = std::chrono::steady_clock::now();
        auto record = [&](const char* outcome, const mcp::error* e) {
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            object f{{"event", "request"}, {"method", call.method()}};
            const auto labels = gw.labels(call);
            if (!labels.server.empty()) f["server"] = labels.server;
            if (!call.target().empty()) f["target"] = clipped(call.target());
            if (!call.principal().empty()) f["principal"] = call.principal();
            f["ms"] = std::round(ms * 1000) / 1000;
            f["outcome"] = outcome;
            if (e) {
                f["code"] = e->code();
                f["message"] = clipped(e->what());
            }
            log(e ? "warning" : "info", std::move(f));
        };
        try {
            auto r = next(call);
            const auto* o = r.if_object();
            const auto* is_error = o ? o->if_contains("isError") : nullptr;
            const auto* type = o ? o->if_contains("resultType") : nullptr;
            record(is_error && is_error->is_bool() && is_error->get_bool()               ? "isError"
                   : type && type->is_string() && type->get_string() == "input_required" ? "input_required"
                                                                                         : "ok",
                   nullptr);
            return r;
        } catch (const mcp::error& e) {
            record(e.code() == mcp::error_code::rate_limited   ? "rate_limited"
                   : e.code() == mcp::error_code::unauthorized ? "unauthorized"
                                                               : "error",
                   &e);
            throw;
        }
    });
    srv.use(metrics.middleware([&gw](const mcp::incoming_call& call) { return gw.labels(call); }));
    if ((!tokens.empty() || oauth) && !o.stdio) srv.use(mcp::middleware::require_principal());
    bool own_rates = false;
    for (const auto& [principal, t] : tokens.principals()) own_rates |= t.rate.has_value();
    if (o.rate > 0 || own_rates) {
        // Unlimited by default when only some tokens have a rate of their own.
        auto limiter =
            o.rate > 0
                ? std::make_shared<mcp::rate_limiter>(o.rate, o.burst > 0 ? o.burst : std::max(1.0, o.rate))
                : std::make_shared<mcp::rate_limiter>(1e12, 1e12);
        for (const auto& [principal, t] : tokens.principals())
            if (t.rate) limiter->set_limit(t.principal, *t.rate, t.burst.value_or(std::max(1.0, *t.rate)));
        srv.use(mcp::middleware::rate_limit(limiter));
    }
    if (auto filter = token_filter(tokens, gw, o.plain_names)) {
        srv.use(mcp::middleware::filter_catalogue(*filter));
        srv.use_sending(mcp::middleware::filter_resource_updates(*filter));
    }

    // Over stdio the end of stdin ends the gateway and signals keep their default action.
    try {
        if (!o.stdio) mcp::http::install_stop_signals();
    } catch (const std::exception& e) {
        log("error", object{{"event", "start"}, {"message", e.what()}});
        return exit_unavailable;
    }
    // start() does not throw for a server that fails (that server is reported failed), only
    // when the process itself is out of resources (no thread, no memory): a readable error and
    // the exit code of "could not start", not std::terminate.
    const auto start_failed = [&](const std::exception& e) {
        log("error", object{{"event", "start"}, {"message", e.what()}});
        gw.close();
        return exit_unavailable;
    };
    if (o.stdio) {
        try {
            gw.start(); // over stdio a signal ends the gateway by its default action
        } catch (const std::exception& e) {
            return start_failed(e);
        }
    } else {
        // The stop signals are ours from here on: a supervisor (or a test) may send SIGTERM.
        log("info", object{{"event", "starting"}, {"servers", found.servers.size()}});
        // Starting the servers takes up to their connect timeout; a SIGTERM meanwhile must
        // stop the gateway now, not once they have started: closing the gateway closes the
        // connections being set up, and start() returns.
        std::atomic<bool> started{false};
        std::exception_ptr start_error; // read only after join(), which orders it
        std::thread starting;
        try {
            starting = std::thread([&] {
                // An exception leaving a thread's function is std::terminate: hand it back.
                try {
                    gw.start();
                } catch (...) {
                    start_error = std::current_exception();
                }
                started = true;
            });
        } catch (const std::exception& e) {
            return start_failed(e);
        }
        bool stopped = false;
        while (!started.load()) {
            if (mcp::http::wait_for_stop_signal(std::chrono::milliseconds(50))) {
                stopped = true;
                break;
            }
        }
        if (stopped) {
            log("info", object{{"event", "stopping"}, {"while", "starting"}});
            gw.close();
            starting.join();
            log("info", object{{"event", "stopped"}});
            return exit_ok; // as a stop after start-up: the operator asked for it
        }
        starting.join();
        if (start_error) {
            try {
                std::rethrow_exception(start_error);
            } catch (const std::exception& e) {
                return start_failed(e);
            }
        }
    }

    // What a person starting it wants to see: the servers and where to connect.
    std::ostream& human = o.stdio ? std::cerr : std::cout;
    std::size_t ready = 0;
    for (const auto& s : gw.servers().servers()) {
        ready += s.state == mcp::host::server_state::ready;
        human << "  " << s.name << ": " << to_string(s.state);
        if (s.state == mcp::host::server_state::ready)
            human << " (" << catalogue_counts(s.tools, s.resources, s.resource_templates, s.prompts) << ")";
        else if (!s.error.empty())
            human << " - " << mcp::printable(s.error);
        human << "\n";
    }

    if (o.stdio) {
        human << "mcpxx gateway: " << ready << " of " << counted(found.servers.size(), "server")
              << " ready, on stdio\n"
              << std::flush;
        log("info", object{{"event", "listening"}, {"transport", "stdio"}});
        const int rc = mcp::serve_stdio(srv);
        gw.close();
        return rc;
    }

    // ---- HTTP ----
    auto unauthorized = std::make_shared<std::atomic<std::uint64_t>>(0);
    mcp::http::server_options ho;
    ho.address = ep.address;
    ho.port = ep.port;
    ho.path = o.path;
    ho.allowed_origins = o.allowed_origins;
    ho.allowed_hosts = o.allowed_hosts;
    // The HTTP server's own lines (clients cut off or refused, a descriptor limit raised or
    // fitted) in the gateway's JSON log, not as plain text between its lines.
    ho.log = [log](std::string_view line) {
        log(line.starts_with("mcp::http::core::server on") ? "info" : "warning",
            object{{"event", "http"}, {"message", line}});
    };
    auto refused = [log, unauthorized](const mcp::http::request_info& r, std::string_view reason) {
        ++*unauthorized;
        log("warning", object{{"event", "unauthorized"},
                              {"remote", r.remote_address},
                              {"target", path_of(r.target)},
                              {"reason", reason}});
    };
    // OAuth: the resource is the gateway's own URL (named once it is bound) unless
    // --oauth-audience gives the URL clients use.
    std::unique_ptr<mcp::auth::resource_server> resource_server;
    auto auth_options = o.oauth.options({});
    if (oauth) {
        auth_options.log = [log](std::string_view line) {
            log("warning", object{{"event", "oauth"}, {"message", line}});
        };
        try {
            resource_server = std::make_unique<mcp::auth::resource_server>(auth_options);
        } catch (const std::invalid_argument& e) {
            log("error", object{{"event", "config"}, {"message", e.what()}});
            gw.close();
            return exit_usage;
        }
        ho.authenticate = [check = resource_server->authenticator(),
                           refused](const mcp::http::request_info& r) {
            auto d = check(r);
            // Counted and logged as the bearer tokens' refusals are (the message never holds the
            // token); a 503 (keys not loaded) is the resource server's own log line, once.
            if (!d.accepted && d.status != 503) refused(r, d.message);
            return d;
        };
    }
    if (!tokens.empty()) ho.authenticate = tokens.bearer().authenticator("mcpxx-gateway", refused);
    // Whether a request carries good credentials, without counting or logging a refusal.
    std::function<bool(const mcp::http::request_info&)> credentials_ok;
    if (!tokens.empty())
        credentials_ok = [bearer = tokens.bearer()](const mcp::http::request_info& r) {
            const auto* authorization = r.header("Authorization");
            return authorization && bearer.principal_of(*authorization).has_value();
        };
    else if (resource_server)
        credentials_ok = [check = resource_server->authenticator()](const mcp::http::request_info& r) {
            return r.header("Authorization") && check(r).accepted;
        };
    ho.extra_routes = [&gw, &metrics, authenticate = ho.authenticate, unauthorized, credentials_ok](
                          const mcp::http::request_info& r, int& status,
                          std::vector<std::pair<std::string, std::string>>& headers, std::string& body) {
        const auto p = path_of(r.target);
        if (p != "/healthz" && p != "/metrics") return false;
        if (r.method != "GET" && r.method != "HEAD") {
            status = 405;
            headers = {{"Allow", "GET, HEAD"}, {"Content-Type", "text/plain"}};
            body = "Method Not Allowed\n";
            return true;
        }
        if (p == "/healthz") {
            // Open: a load balancer or an orchestrator probes it without credentials, and learns
            // the status (200 / 503) and nothing else. The servers' names, states, processes and
            // errors are shown to a valid token (or to anyone when no token is configured).
            auto h = gw.health();
            status = mcp::find_string(h, "status").value_or("") == "down" ? 503 : 200;
            headers = {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}};
            if (credentials_ok && !credentials_ok(r)) h = object{{"status", h.at("status")}};
            body = mcp::to_json(mcp::json::value(std::move(h))) + "\n";
            return true;
        }
        if (authenticate)
            if (auto d = authenticate(r); !d.accepted) {
                status = d.status;
                headers = d.headers;
                headers.emplace_back("Content-Type", "text/plain");
                body = d.message + "\n";
                return true;
            }
        status = 200;
        headers = {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"},
                   {"Cache-Control", "no-store"}};
        body = metrics.prometheus("mcp") + gateway_metrics(gw, unauthorized->load());
        return true;
    };
    if (resource_server) resource_server->add_metadata_routes(ho);
    mcp::http::server http(srv, std::move(ho));
    try {
        http.start();
        if (resource_server) {
            if (auth_options.resource.empty()) resource_server->set_resource(http.url());
            // Keys fetched in the background from here on; failing, the log says why.
            resource_server->start();
        }
    } catch (const std::exception& e) {
        log("error", object{{"event", "listen"}, {"message", e.what()}});
        gw.close();
        return exit_unavailable;
    }
    human << "mcpxx gateway: " << ready << " of " << counted(found.servers.size(), "server") << " ready\n"
          << "  connect to " << http.url()
          << (!tokens.empty() ? "  (Authorization: Bearer <token>)"
              : oauth         ? "  (access tokens of " + o.oauth.issuer + ")"
                              : std::string())
          << "\n"
          << "  health at http://"
          << (ep.address.find(':') != std::string::npos ? "[" + ep.address + "]" : ep.address) << ":"
          << http.port() << "/healthz, metrics at /metrics; Ctrl-C stops\n"
          << std::flush;
    log("info", object{{"event", "listening"},
                       {"url", http.url()},
                       {"auth", oauth            ? "oauth"
                                : tokens.empty() ? "none"
                                                 : "bearer"},
                       {"tokens", tokens.size()},
                       {"servers", found.servers.size()},
                       {"ready", ready}});
    mcp::http::wait_for_stop_signal();
    log("info", object{{"event", "stopping"}});
    http.stop(std::chrono::seconds(5));
    gw.close();
    log("info", object{{"event", "stopped"}});
    return exit_ok;
}

} // namespace

void add_gateway_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<gateway_cli>();
    auto* cmd = app.add_subcommand(
        "gateway", "Serve every configured server as one MCP server over Streamable HTTP (or --stdio)");
    cmd->add_option("--config,-c", o->config_files,
                    "Read servers from this file (repeatable) instead of the hosts' config files");
    cmd->add_option("--listen,-l", o->listen,
                    "Address and port to listen on (default 127.0.0.1:8080; port 0: any)");
    cmd->add_option("--path", o->path, "Path of the MCP endpoint (default /mcp)");
    cmd->add_flag("--stdio", o->stdio, "Serve stdin/stdout instead of HTTP");
    cmd->add_option(
        "--token-file", o->token_file,
        "Accepted bearer tokens: one per line (TOKEN [NAME]) or JSON {\"tokens\": [{token, name, rate, "
        "burst, tools, resources}]}; also MCPXX_GATEWAY_TOKENS=tok1,tok2. \"tools\": glob patterns of the "
        "tools and prompts a token sees (server__name); \"resources\": patterns of the resource URIs and "
        "templates it sees (mcpxx://server/...); without \"resources\", it sees the resources of the "
        "servers its \"tools\" patterns admit");
    cmd->add_option("--oauth-issuer", o->oauth.issuer,
                    "Accept access tokens of this OAuth authorization server (its metadata names its keys); "
                    "the gateway becomes a resource server (RFC 9728 metadata, 401/403 challenges)")
        ->type_name("URL");
    cmd->add_option("--oauth-audience", o->oauth.audience,
                    "What tokens must name in aud: the gateway's URL as clients see it (default: its own MCP "
                    "URL)")
        ->type_name("URL");
    cmd->add_option("--oauth-scope", o->oauth.scopes, "A scope every request needs (repeatable)")
        ->type_name("SCOPE");
    cmd->add_option("--rate", o->rate,
                    "Requests per second per token (per address without tokens); 0: unlimited");
    cmd->add_option("--burst", o->burst, "Requests allowed at once above the rate (default: the rate)");
    cmd->add_option("--trust", o->trusted, "Trust this server: its read-only tools run (repeatable)");
    cmd->add_flag("--approve-all,--yes,-y", o->approve_all,
                  "Run every tool call (default: read-only tools of trusted servers run; others are put to "
                  "the client's user "
                  "through elicitation, or get isError when it cannot ask)");
    add_timeout_option(cmd, o->timeout_seconds,
                       "Seconds to wait for each server to start and for each call (instead of the entries' "
                       "own \"timeout\", in ms; default 30 to start, 60 per call)");
    add_audit_options(cmd, o->audit_log, o->redact);
    cmd->add_option("--root", o->roots,
                    "Offer this directory to servers as an MCP root when they ask outside a client's call "
                    "(repeatable; --root . for the current directory; none by default). Within a call, "
                    "the calling client's roots are asked for")
        ->type_name("DIR");
    cmd->add_option(
        "--allow-origin", o->allowed_origins,
        "Accept browser requests from this Origin (scheme://host[:port], repeatable; default loopback)");
    cmd->add_option("--allow-host", o->allowed_hosts,
                    "Accept this Host header (repeatable; default: loopback names when bound to loopback)");
    cmd->add_flag(
        "--plain-names", o->plain_names,
        "Use the servers' own names (no server__ prefix, no mcpxx:// URIs); on a collision the first "
        "server keeps the name");
    cmd->add_option("--log-level", o->log_level, "Least level of the JSON log lines on stderr")
        ->check(CLI::IsMember({"debug", "info", "warning", "error"}));
    cmd->add_flag("--verbose,-v", o->verbose, "Log what servers write to stderr (debug level)");
    cmd->callback([o, &exit_code] { exit_code = run_gateway(*o); });
}

} // namespace mcpxx_cli
