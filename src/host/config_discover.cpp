// Where each MCP host keeps its server definitions, and merging them (see mcp/host/config.hpp).
#include <mcp/host/config.hpp>

#include "host/bounded_read.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace mcp::host {

std::string_view to_string(transport_kind k) noexcept {
    switch (k) {
    case transport_kind::stdio:
        return "stdio";
    case transport_kind::streamable_http:
        return "http";
    case transport_kind::sse:
        return "sse";
    }
    return "?";
}

std::string_view to_string(config_format f) noexcept {
    switch (f) {
    case config_format::detect:
        return "mcpServers";
    case config_format::claude_desktop:
        return "Claude Desktop";
    case config_format::claude_code:
        return "Claude Code";
    case config_format::claude_code_user:
        return "Claude Code";
    case config_format::cursor:
        return "Cursor";
    case config_format::vscode:
        return "VS Code";
    case config_format::windsurf:
        return "Windsurf";
    case config_format::gemini:
        return "Gemini CLI";
    }
    return "?";
}

std::string config_error::to_string() const {
    std::string s = source;
    if (!server.empty()) s += ": server \"" + server + "\"";
    return s + ": " + message;
}

const config_error* discovery_result::error_for(std::string_view name) const noexcept {
    if (is_defined(name)) return nullptr;
    for (const auto& e : errors)
        if (e.server == name) return &e;
    return nullptr;
}

const server_config* discovery_result::find(std::string_view name) const noexcept {
    for (const auto& s : servers)
        if (s.name == name) return &s;
    return nullptr;
}

const server_config* discovery_result::find_disabled(std::string_view name) const noexcept {
    for (const auto& s : disabled)
        if (s.name == name) return &s;
    return nullptr;
}

const server_config* discovery_result::find_not_allowed(std::string_view name) const noexcept {
    for (const auto& s : not_allowed)
        if (s.name == name) return &s;
    return nullptr;
}

env_lookup process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        if (const char* v = std::getenv(std::string(name).c_str())) return std::string(v);
        return std::nullopt;
    };
}

namespace {

/// An environment variable's value when it is an absolute path, else empty.
std::filesystem::path absolute_path_variable(const env_lookup& env, std::string_view name) {
    const auto v = env(name);
    if (!v || v->empty() || !std::filesystem::path(*v).is_absolute()) return {};
    return *v;
}

/// $XDG_CONFIG_HOME, else `home`/.config.
std::filesystem::path config_home(const env_lookup& env, const std::filesystem::path& home) {
    if (auto xdg = absolute_path_variable(env, "XDG_CONFIG_HOME"); !xdg.empty()) return xdg;
    return home / ".config";
}

/// Where Claude Code keeps its user file: $CLAUDE_CONFIG_DIR, else the home.
std::filesystem::path claude_code_dir(const env_lookup& env, const std::filesystem::path& home) {
    if (auto dir = absolute_path_variable(env, "CLAUDE_CONFIG_DIR"); !dir.empty()) return dir;
    return home;
}

} // namespace

std::filesystem::path user_config_home(const env_lookup& environment) {
    const env_lookup env = environment ? environment : process_environment();
    if (auto xdg = absolute_path_variable(env, "XDG_CONFIG_HOME"); !xdg.empty()) return xdg;
    if (auto home = absolute_path_variable(env, "HOME"); !home.empty()) return home / ".config";
    return {};
}

namespace {

struct location {
    std::filesystem::path path;
    config_format format;
    config_scope scope;
};

// Least specific first: a later file wins over an earlier one of the same scope. Claude Desktop
// keeps its file where Electron puts an application's data: the XDG config directory on Linux,
// ~/Library/Application Support on macOS. Claude Code keeps ~/.claude.json in $CLAUDE_CONFIG_DIR
// when that is set; the other hosts use dot-directories in the home, whatever XDG_CONFIG_HOME says.
std::vector<location> host_locations(const std::filesystem::path& home, const std::filesystem::path& cwd,
                                     const env_lookup& env) {
    using F = config_format;
    using S = config_scope;
    return {
        {config_home(env, home) / "Claude/claude_desktop_config.json", F::claude_desktop, S::user},
        {home / "Library/Application Support/Claude/claude_desktop_config.json", F::claude_desktop, S::user},
        {home / ".codeium/windsurf/mcp_config.json", F::windsurf, S::user},
        {home / ".cursor/mcp.json", F::cursor, S::user},
        {home / ".gemini/settings.json", F::gemini, S::user},
        {claude_code_dir(env, home) / ".claude.json", F::claude_code_user, S::user},
        {cwd / ".mcp.json", F::claude_code, S::project},
        {cwd / ".cursor/mcp.json", F::cursor, S::project},
        {cwd / ".vscode/mcp.json", F::vscode, S::project},
        {cwd / ".gemini/settings.json", F::gemini, S::project},
    };
}

/// "~/.cursor/mcp.json" for files under home, ".vscode/mcp.json" for files under the project.
std::string display_name(const std::filesystem::path& p, const location& where,
                         const std::filesystem::path& home, const std::filesystem::path& cwd) {
    const auto under = [](const std::filesystem::path& base,
                          const std::filesystem::path& file) -> std::optional<std::string> {
        if (base.empty()) return std::nullopt;
        const auto rel = file.lexically_relative(base);
        if (rel.empty() || *rel.begin() == "..") return std::nullopt;
        return rel.generic_string();
    };
    if (where.scope == config_scope::project)
        if (auto r = under(cwd, p)) return *r;
    if (auto r = under(home, p)) return "~/" + *r;
    return p.string();
}

std::filesystem::path default_home(const env_lookup& env) {
    if (auto h = env("HOME"); h && !h->empty()) return *h;
    return {};
}

/// What project_allowed is asked about: the project directory resolved, the file's place in it
/// not (see project_file::path).
std::filesystem::path project_file_key(const std::filesystem::path& file, const std::filesystem::path& cwd) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::weakly_canonical(std::filesystem::absolute(cwd, ec), ec);
    if (ec) dir = std::filesystem::absolute(cwd, ec).lexically_normal();
    return (dir / file.lexically_relative(cwd)).lexically_normal();
}

} // namespace

discovery_result discover(const discovery_options& options) {
    discovery_result out;
    const env_lookup env = options.environment ? options.environment : process_environment();
    std::error_code ec;
    const std::filesystem::path home = options.home.empty() ? default_home(env) : options.home;
    const std::filesystem::path cwd = options.cwd.empty() ? std::filesystem::current_path(ec) : options.cwd;

    std::vector<location> places;
    if (!options.explicit_files.empty()) {
        for (const auto& f : options.explicit_files)
            places.push_back({f, config_format::detect, config_scope::explicit_file});
    } else {
        places = host_locations(home, cwd, env);
    }

    // Every definition in reading order; then one per name, the most specific.
    struct definition {
        server_config server;
        bool allowed = true; ///< false: of a project file that is not allowed
    };
    std::vector<definition> definitions;
    std::set<std::filesystem::path> seen; // when cwd is home, ~/.cursor/mcp.json is also the project's
    for (const auto& where : places) {
        const bool is_explicit = where.scope == config_scope::explicit_file;
        std::filesystem::path canonical = std::filesystem::weakly_canonical(where.path, ec);
        if (ec) canonical = where.path;
        if (!is_explicit && !seen.insert(canonical).second) continue;
        const std::string shown =
            is_explicit ? where.path.string() : display_name(where.path, where, home, cwd);
        std::string error;
        auto text = detail::read_regular_file(where.path, detail::max_config_file_bytes, error);
        if (!text) {
            if (!error.empty())
                out.errors.push_back({shown, "", error});
            else if (is_explicit)
                out.errors.push_back({shown, "", "no such file"});
            continue;
        }
        out.files_read.push_back(shown);
        discovery_result file;
        parse_config(*text,
                     {.source = shown,
                      .format = where.format,
                      .scope = where.scope,
                      .home = home,
                      .cwd = cwd,
                      .environment = env},
                     file);
        // A project file came with the directory: its servers are used only when it is allowed.
        bool allowed = true;
        if (where.scope == config_scope::project) {
            project_file pf{.path = project_file_key(where.path, cwd),
                            .source = shown,
                            .content = std::move(*text),
                            .format = where.format};
            if (options.project_allowed) pf.allowed = options.project_allowed(pf.path, pf.content);
            allowed = pf.allowed;
            for (auto* list : {&file.servers, &file.disabled})
                pf.servers.insert(pf.servers.end(), list->begin(), list->end());
            out.project_files.push_back(std::move(pf));
        }
        // A disabled or not-allowed definition takes part in the precedence like any other: a
        // more specific file that turns a server off wins, and a name never falls back to a
        // less specific file's command while its project file waits to be allowed.
        for (auto* list : {&file.servers, &file.disabled})
            for (auto& s : *list) definitions.push_back({std::move(s), allowed});
        out.errors.insert(out.errors.end(), file.errors.begin(), file.errors.end());
        out.notes.insert(out.notes.end(), file.notes.begin(), file.notes.end());
    }

    std::vector<definition> winners;
    for (auto& d : definitions) {
        auto it = std::find_if(winners.begin(), winners.end(),
                               [&](const definition& x) { return x.server.name == d.server.name; });
        if (it == winners.end()) {
            winners.push_back(std::move(d));
        } else if (static_cast<int>(d.server.scope) >= static_cast<int>(it->server.scope)) {
            out.shadowed.push_back({d.server.name, it->server.source, d.server.source});
            *it = std::move(d);
        } else {
            out.shadowed.push_back({d.server.name, d.server.source, it->server.source});
        }
    }
    for (auto& w : winners) {
        auto& list = !w.allowed ? out.not_allowed : w.server.disabled ? out.disabled : out.servers;
        list.push_back(std::move(w.server));
    }
    return out;
}

} // namespace mcp::host
