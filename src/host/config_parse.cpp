// Reading one host config file: the JSON, the server entries of each host's format, and the
// errors that name the file and the entry (see mcp/host/config.hpp).
#include <mcp/host/config.hpp>
#include <mcp/host/variables.hpp>
#include <mcp/json/json.hpp>

#include "host/bounded_read.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace mcp::host {
namespace {

/// A problem with one entry; becomes a config_error naming the file and the entry.
struct entry_error {
    std::string message;
};

// Fields each format defines. Every format also accepts `trust`, `timeout`, `disabled` and
// `description` (harmless, and what lets one file work with several hosts).
const std::set<std::string_view>& known_fields(config_format f) {
    static const std::set<std::string_view> common{"type",    "command",  "args",       "env",
                                                   "cwd",     "url",      "headers",    "trust",
                                                   "timeout", "disabled", "description"};
    static const auto with = [](std::initializer_list<std::string_view> extra) {
        auto s = common;
        s.insert(extra.begin(), extra.end());
        return s;
    };
    static const std::set<std::string_view> claude_code = with({"oauth", "headersHelper"});
    static const std::set<std::string_view> cursor = with({"envFile", "auth"});
    static const std::set<std::string_view> vscode = with({"envFile", "dev", "gallery", "version"});
    static const std::set<std::string_view> windsurf = with({"serverUrl", "disabledTools"});
    static const std::set<std::string_view> gemini =
        with({"httpUrl", "includeTools", "excludeTools", "oauth", "authProviderType", "targetAudience",
              "targetServiceAccount", "tcp"});
    static const std::set<std::string_view> any = [] {
        std::set<std::string_view> s;
        for (auto* p : {&claude_code, &cursor, &vscode, &windsurf, &gemini}) s.insert(p->begin(), p->end());
        return s;
    }();
    switch (f) {
    case config_format::claude_desktop:
        return common;
    case config_format::claude_code:
    case config_format::claude_code_user:
        return claude_code;
    case config_format::cursor:
        return cursor;
    case config_format::vscode:
        return vscode;
    case config_format::windsurf:
        return windsurf;
    case config_format::gemini:
        return gemini;
    case config_format::detect:
        break;
    }
    return any;
}

// Fields a host uses for things this module does not do; accepted, and the user is told.
bool ignored_field(std::string_view f) {
    return f == "headersHelper" || f == "dev" || f == "gallery" ||
           f == "version" || f == "authProviderType" || f == "targetAudience" ||
           f == "targetServiceAccount" || f == "tcp";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string q(std::string_view s) {
    return "\"" + std::string(s) + "\"";
}

std::string expand(std::string_view field, std::string_view text, const expansion_options& x) {
    try {
        return expand_variables(text, x);
    } catch (const expansion_error& e) {
        throw entry_error{q(field) + ": " + e.what()};
    }
}

std::string string_field(const json::object& o, std::string_view key) {
    const auto& v = o.at(key);
    if (!v.is_string()) throw entry_error{q(key) + " must be a string"};
    return std::string(v.get_string());
}

std::vector<std::string> string_array(const json::object& o, std::string_view key) {
    const auto& v = o.at(key);
    if (!v.is_array()) throw entry_error{q(key) + " must be an array of strings"};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.get_array().size(); ++i) {
        const auto& e = v.get_array()[i];
        if (!e.is_string()) throw entry_error{q(key) + "[" + std::to_string(i) + "] must be a string"};
        out.emplace_back(e.get_string());
    }
    return out;
}

std::map<std::string, std::string> string_map(const json::object& o, std::string_view key) {
    const auto& v = o.at(key);
    if (!v.is_object()) throw entry_error{q(key) + " must be an object of strings"};
    std::map<std::string, std::string> out;
    for (const auto& [k, e] : v.get_object()) {
        if (!e.is_string()) throw entry_error{q(key) + "." + std::string(k) + " must be a string"};
        out[std::string(k)] = std::string(e.get_string());
    }
    return out;
}

bool bool_field(const json::object& o, std::string_view key) {
    const auto& v = o.at(key);
    if (!v.is_bool()) throw entry_error{q(key) + " must be true or false"};
    return v.get_bool();
}

// KEY=VALUE lines, as in a .env file: comments, blank lines, `export `, quotes.
std::map<std::string, std::string> read_env_file(const std::filesystem::path& path) {
    std::string error;
    const auto text = detail::read_regular_file(path, detail::max_env_file_bytes, error);
    if (!text)
        throw entry_error{"\"envFile\": " + path.string() + " " + (error.empty() ? "does not exist" : error)};
    std::istringstream in(*text);
    std::map<std::string, std::string> out;
    std::string line;
    const auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t\r");
        const auto e = s.find_last_not_of(" \t\r");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("export ", 0) == 0) line = trim(line.substr(7));
        const auto eq = line.find('=');
        if (eq == std::string::npos || eq == 0) continue;
        std::string value = trim(line.substr(eq + 1));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        out[trim(line.substr(0, eq))] = value;
    }
    return out;
}

std::filesystem::path base_directory(const file_context& file) {
    // Relative paths mean what they mean to the host: the project for project files, the
    // file's own directory for an explicit --config file, the home directory otherwise.
    if (file.scope == config_scope::project || file.scope == config_scope::local) return file.cwd;
    if (file.scope == config_scope::explicit_file) {
        std::filesystem::path p(file.source);
        if (p.is_relative()) p = file.cwd / p;
        return p.parent_path();
    }
    return file.home;
}

transport_kind parse_type(std::string_view t) {
    if (t == "stdio") return transport_kind::stdio;
    if (t == "http" || t == "streamable-http" || t == "streamableHttp" || t == "streamable_http")
        return transport_kind::streamable_http;
    if (t == "sse") return transport_kind::sse;
    throw entry_error{"\"type\" must be \"stdio\", \"http\" or \"sse\", not " + q(t)};
}

// The `oauth` object (Claude Code, Gemini CLI) or Cursor's `auth` object of a remote entry.
std::optional<oauth_settings> parse_oauth(const json::object& entry, std::string_view field, const expansion_options& x,
                                          config_scope scope, std::vector<std::string>& notes) {
    const auto& v = entry.at(field);
    if (!v.is_object()) throw entry_error{q(field) + " must be an object"};
    const auto& o = v.get_object();
    const bool cursor = field == "auth";
    const auto name = [&](std::string_view k) { return std::string(field) + "." + std::string(k); };
    if (o.contains("enabled") && !bool_field(o, "enabled")) return std::nullopt;
    oauth_settings out;
    for (const auto& [k, value] : o) {
        if (k == "enabled") continue;
        if (k == (cursor ? "CLIENT_ID" : "clientId")) {
            out.client_id = expand(name(k), string_field(o, k), x);
        } else if (k == (cursor ? "CLIENT_SECRET" : "clientSecret")) {
            const auto raw = string_field(o, k);
            // A secret written into a project file travels with the project (git, archives).
            if (scope == config_scope::project && raw.find('$') == std::string::npos)
                notes.push_back("\"" + name(k) + "\" is written in a project file, where everyone who has the "
                                "project can read it; use \"${VARIABLE}\" and keep the secret in the environment");
            out.client_secret = expand(name(k), raw, x);
        } else if (k == "scopes") {
            if (value.is_string()) {
                std::istringstream words(expand(name(k), std::string(value.get_string()), x));
                for (std::string w; words >> w;) out.scopes.push_back(w);
            } else {
                for (auto& sc : string_array(o, k)) out.scopes.push_back(expand(name(k), sc, x));
            }
        } else if (!cursor && k == "callbackPort") {
            const auto port = find_int(o, k);
            if (!port || *port < 1 || *port > 65535)
                throw entry_error{q(name(k)) + " must be a port number (1-65535)"};
            out.callback_port = static_cast<std::uint16_t>(*port);
        } else if (!cursor && k == "redirectUri") {
            out.redirect_uri = expand(name(k), string_field(o, k), x);
        } else if (!cursor && (k == "authServerMetadataUrl" || k == "authorizationUrl" || k == "tokenUrl" ||
                               k == "registrationUrl" || k == "audiences" || k == "tokenParamName")) {
            // Endpoints written by hand: mcpxx finds them from the server (RFC 9728, RFC 8414).
            notes.push_back("field \"" + name(k) + "\" is not supported and was ignored");
        } else {
            throw entry_error{"unknown field " + q(name(k))};
        }
    }
    if (out.callback_port && !out.redirect_uri.empty())
        throw entry_error{q(name("callbackPort")) + " and " + q(name("redirectUri")) + " say the same thing; use one"};
    return out;
}

server_config parse_fields(const std::string& name, const json::object& o, const file_context& file,
                           config_format format, config_scope scope, const std::string& source) {
    server_config s;
    s.name = name;
    s.source = source;
    s.format = format;
    s.scope = scope;

    const auto& known = known_fields(format);
    for (const auto& [k, v] : o) {
        if (known.count(k)) {
            if (ignored_field(k))
                s.notes.push_back("field \"" + std::string(k) + "\" is not supported and was ignored");
            continue;
        }
        std::string msg = "unknown field " + q(k);
        std::string_view best;
        std::size_t best_d = 3;
        for (auto f : known)
            if (auto d = edit_distance(k, f); d < best_d) best_d = d, best = f;
        if (!best.empty()) msg += " (did you mean " + q(best) + "?)";
        throw entry_error{msg};
    }
    expansion_options x{.environment = file.environment,
                        .user_home = file.home.string(),
                        .workspace_folder = file.cwd.string(),
                        .bare_dollar = format == config_format::gemini};

    // Which transport: `type` when given, else what the fields say.
    std::optional<transport_kind> type;
    if (o.contains("type")) type = parse_type(string_field(o, "type"));
    std::optional<std::string> url_field;
    for (const char* k : {"url", "httpUrl", "serverUrl"})
        if (o.contains(k)) {
            if (url_field) throw entry_error{"has both " + q(*url_field) + " and " + q(k)};
            url_field = k;
        }
    const bool has_command = o.contains("command");
    if (has_command && url_field)
        throw entry_error{"has both \"command\" and " + q(*url_field) + "; use one"};
    if (!has_command && !url_field)
        throw entry_error{"needs \"command\" (a local server) or \"url\" (a remote one)"};
    if (type == transport_kind::stdio && !has_command)
        throw entry_error{"\"type\" is \"stdio\" but there is no \"command\""};
    if (type && *type != transport_kind::stdio && has_command)
        throw entry_error{"\"type\" is " + q(to_string(*type)) + " but the entry has a \"command\""};

    if (has_command) {
        s.transport = transport_kind::stdio;
        s.command = expand("command", string_field(o, "command"), x);
        if (s.command.empty()) throw entry_error{"\"command\" is empty"};
        if (o.contains("args"))
            for (auto& a : string_array(o, "args")) s.args.push_back(expand("args", a, x));
        if (o.contains("envFile")) {
            std::filesystem::path p = expand("envFile", string_field(o, "envFile"), x);
            if (p.is_relative()) p = base_directory(file) / p;
            s.env = read_env_file(p);
        }
        if (o.contains("env"))
            for (auto& [k, v] : string_map(o, "env")) s.env[k] = expand("env", v, x);
        if (o.contains("cwd")) {
            std::filesystem::path p = expand("cwd", string_field(o, "cwd"), x);
            if (p.is_relative()) p = base_directory(file) / p;
            p = p.lexically_normal();
            if (p.filename().empty() && p.has_parent_path()) p = p.parent_path(); // "dir/." is "dir/"
            s.cwd = p.string();
        }
    } else {
        // Gemini CLI: httpUrl is Streamable HTTP and url is SSE. Elsewhere a bare url is tried as
        // Streamable HTTP, falling back to SSE when the server refuses it, as hosts do; an
        // explicit `type` is taken at its word.
        if (type)
            s.transport = *type;
        else if (format == config_format::gemini && *url_field == "url")
            s.transport = transport_kind::sse;
        else
            s.transport = transport_kind::streamable_http;
        s.sse_fallback = !type && s.transport == transport_kind::streamable_http && *url_field != "httpUrl";
        s.url = expand(*url_field, string_field(o, *url_field), x);
        if (o.contains("headers"))
            for (auto& [k, v] : string_map(o, "headers")) s.headers[k] = expand("headers", v, x);
        for (const char* k : {"args", "env", "cwd", "envFile"})
            if (o.contains(k)) throw entry_error{q(k) + " is for local (command) servers, not remote ones"};
        for (const char* k : {"oauth", "auth"})
            if (o.contains(k)) s.oauth = parse_oauth(o, k, x, scope, s.notes);
    }
    if (has_command && o.contains("headers")) throw entry_error{"\"headers\" is for remote (url) servers"};
    for (const char* k : {"oauth", "auth"})
        if (has_command && o.contains(k)) throw entry_error{q(k) + " is for remote (url) servers"};

    if (o.contains("trust")) s.trusted = bool_field(o, "trust");
    if (o.contains("timeout")) {
        const auto& t = o.at("timeout");
        const auto ms = t.is_number() ? t.to_number<double>() : -1.0;
        if (!(ms > 0) || ms > 86400000.0) throw entry_error{"\"timeout\" must be a number of milliseconds"};
        s.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(ms));
    }
    if (o.contains("description") && !o.at("description").is_string())
        throw entry_error{"\"description\" must be a string"};
    if (o.contains("includeTools")) s.include_tools = string_array(o, "includeTools");
    if (o.contains("excludeTools")) s.exclude_tools = string_array(o, "excludeTools");
    if (o.contains("disabledTools"))
        for (auto& t : string_array(o, "disabledTools")) s.exclude_tools.push_back(t);
    return s;
}

server_config parse_entry(const std::string& name, const json::value& value, const file_context& file,
                          config_format format, config_scope scope, const std::string& source) {
    if (!value.is_object()) throw entry_error{"must be an object"};
    const auto& o = value.get_object();
    if (!o.contains("disabled") || !bool_field(o, "disabled"))
        return parse_fields(name, o, file, format, scope, source);
    // Hosts let people turn off a server that cannot start yet (a key not set, a command not
    // installed): what a disabled entry says is not checked until it is enabled.
    server_config s;
    try {
        s = parse_fields(name, o, file, format, scope, source);
    } catch (const entry_error&) {
        s.name = name;
        s.source = source;
        s.format = format;
        s.scope = scope;
        s.transport = o.contains("command") ? transport_kind::stdio : transport_kind::streamable_http;
    }
    s.disabled = true;
    return s;
}

void parse_servers(const json::value& servers, const file_context& file, config_format format,
                   config_scope scope, const std::string& source, std::string_view key,
                   discovery_result& out) {
    if (!servers.is_object()) {
        out.errors.push_back({source, "", q(key) + " must be an object"});
        return;
    }
    for (const auto& [k, v] : servers.get_object()) {
        const std::string name(k);
        if (name.empty()) {
            out.errors.push_back({source, name, "a server needs a name"});
            continue;
        }
        try {
            auto s = parse_entry(name, v, file, format, scope, source);
            (s.disabled ? out.disabled : out.servers).push_back(std::move(s));
        } catch (const entry_error& e) {
            out.errors.push_back({source, name, e.message});
        }
    }
}

std::optional<json::value> parse_with_position(std::string_view text, std::string& error) {
    // Comments and trailing commas are accepted: VS Code and Gemini CLI files are JSONC.
    json::parse_options po;
    po.allow_comments = true;
    po.allow_trailing_commas = true;
    json::stream_parser p(json::storage_ptr(), po);
    boost::system::error_code ec;
    // write(), not write_some(): text after the value (other than spaces and comments) is an
    // error at its position, not a document cut short.
    const std::size_t used = p.write(text.data(), text.size(), ec);
    if (!ec) p.finish(ec);
    if (!ec) return p.release();
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < used && i < text.size(); ++i) {
        if (text[i] == '\n')
            ++line, col = 1;
        else
            ++col;
    }
    error = "not valid JSON: " + ec.message() + " at line " + std::to_string(line) + ", column " +
            std::to_string(col);
    return std::nullopt;
}

config_format detect_format(const json::object& o) {
    if (o.contains("mcpServers"))
        return o.contains("projects") ? config_format::claude_code_user : config_format::detect;
    if (o.contains("servers")) return config_format::vscode;
    if (o.contains("projects")) return config_format::claude_code_user;
    return config_format::detect;
}

bool same_directory(const std::string& key, const std::filesystem::path& cwd) {
    std::error_code ec;
    const std::filesystem::path k(key);
    if (k.lexically_normal() == cwd.lexically_normal()) return true;
    return std::filesystem::equivalent(k, cwd, ec) && !ec;
}

} // namespace

void parse_config(std::string_view text, const file_context& file, discovery_result& out) {
    std::string error;
    auto doc = parse_with_position(text, error);
    if (!doc) {
        out.errors.push_back({file.source, "", error});
        return;
    }
    if (!doc->is_object()) {
        out.errors.push_back({file.source, "", "must be a JSON object"});
        return;
    }
    const auto& root = doc->get_object();
    const bool detecting = file.format == config_format::detect;
    const config_format format = detecting ? detect_format(root) : file.format;

    if (format == config_format::vscode) {
        if (const auto* inputs = root.if_contains("inputs");
            inputs && inputs->is_array() && !inputs->get_array().empty())
            out.notes.push_back(file.source +
                                ": \"inputs\" are prompts only VS Code can show; they are ignored, and "
                                "servers that use ${input:...} cannot start");
        if (const auto* servers = root.if_contains("servers"))
            parse_servers(*servers, file, format, file.scope, file.source, "servers", out);
        else if (detecting)
            out.errors.push_back({file.source, "", "has no \"servers\" object"});
        return;
    }
    if (const auto* servers = root.if_contains("mcpServers"))
        parse_servers(*servers, file, format, file.scope, file.source, "mcpServers", out);
    if (format == config_format::claude_code_user) {
        // Claude Code's "local" scope: servers for one project directory, kept in ~/.claude.json.
        if (const auto* projects = root.if_contains("projects"); projects && projects->is_object()) {
            for (const auto& [dir, project] : projects->get_object()) {
                if (!project.is_object() || !same_directory(std::string(dir), file.cwd)) continue;
                if (const auto* servers = project.get_object().if_contains("mcpServers")) {
                    const auto scope =
                        file.scope == config_scope::explicit_file ? file.scope : config_scope::local;
                    parse_servers(*servers, file, format, scope,
                                  file.source + " (project " + std::string(dir) + ")", "mcpServers", out);
                }
            }
        }
        return;
    }
    if (detecting && !root.contains("mcpServers"))
        out.errors.push_back({file.source, "", "has no \"mcpServers\" (or \"servers\") object"});
}

} // namespace mcp::host
