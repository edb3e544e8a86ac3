// Where each MCP host keeps its server definitions, and merging them (see mcp/host/config.hpp).
#include <mcp/host/config.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

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

env_lookup process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        if (const char* v = std::getenv(std::string(name).c_str())) return std::string(v);
        return std::nullopt;
    };
}

namespace {

struct location {
    std::filesystem::path path;
    config_format format;
    config_scope scope;
};

// Least specific first: a later file wins over an earlier one of the same scope.
std::vector<location> host_locations(const std::filesystem::path& home, const std::filesystem::path& cwd) {
    using F = config_format;
    using S = config_scope;
    return {
        {home / ".config/Claude/claude_desktop_config.json", F::claude_desktop, S::user},
        {home / ".codeium/windsurf/mcp_config.json", F::windsurf, S::user},
        {home / ".cursor/mcp.json", F::cursor, S::user},
        {home / ".gemini/settings.json", F::gemini, S::user},
        {home / ".claude.json", F::claude_code_user, S::user},
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

std::optional<std::string> read_file(const std::filesystem::path& p, std::string& error) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) return std::nullopt;
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        error = "cannot be read";
        return std::nullopt;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return std::move(ss).str();
}

std::filesystem::path default_home(const env_lookup& env) {
    if (auto h = env("HOME"); h && !h->empty()) return *h;
    return {};
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
        places = host_locations(home, cwd);
    }

    // Every definition in reading order; then one per name, the most specific.
    discovery_result all;
    std::vector<server_config> definitions;
    std::set<std::filesystem::path> seen; // when cwd is home, ~/.cursor/mcp.json is also the project's
    for (const auto& where : places) {
        const bool is_explicit = where.scope == config_scope::explicit_file;
        std::filesystem::path canonical = std::filesystem::weakly_canonical(where.path, ec);
        if (ec) canonical = where.path;
        if (!is_explicit && !seen.insert(canonical).second) continue;
        const std::string shown =
            is_explicit ? where.path.string() : display_name(where.path, where, home, cwd);
        std::string error;
        auto text = read_file(where.path, error);
        if (!text) {
            if (!error.empty())
                all.errors.push_back({shown, "", error});
            else if (is_explicit)
                all.errors.push_back({shown, "", "no such file"});
            continue;
        }
        all.files_read.push_back(shown);
        discovery_result file;
        parse_config(*text,
                     {.source = shown,
                      .format = where.format,
                      .scope = where.scope,
                      .home = home,
                      .cwd = cwd,
                      .environment = env},
                     file);
        // A disabled definition takes part in the precedence like any other: a more specific
        // file that turns a server off wins.
        for (auto* list : {&file.servers, &file.disabled})
            for (auto& s : *list) definitions.push_back(std::move(s));
        all.errors.insert(all.errors.end(), file.errors.begin(), file.errors.end());
        all.notes.insert(all.notes.end(), file.notes.begin(), file.notes.end());
    }

    out.errors = std::move(all.errors);
    out.notes = std::move(all.notes);
    out.files_read = std::move(all.files_read);
    std::vector<server_config> winners;
    for (auto& s : definitions) {
        auto it = std::find_if(winners.begin(), winners.end(),
                               [&](const server_config& x) { return x.name == s.name; });
        if (it == winners.end()) {
            winners.push_back(std::move(s));
        } else if (static_cast<int>(s.scope) >= static_cast<int>(it->scope)) {
            out.shadowed.push_back({s.name, it->source, s.source});
            *it = std::move(s);
        } else {
            out.shadowed.push_back({s.name, s.source, it->source});
        }
    }
    for (auto& s : winners) (s.disabled ? out.disabled : out.servers).push_back(std::move(s));
    return out;
}

} // namespace mcp::host
