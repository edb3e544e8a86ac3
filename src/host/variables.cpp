// Variable expansion in host config strings (see mcp/host/variables.hpp).
#include <mcp/host/variables.hpp>

#include <cstdlib>

namespace mcp::host {
namespace {

bool name_start(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool name_char(char c) noexcept {
    return name_start(c) || (c >= '0' && c <= '9');
}

std::string basename_of(const std::string& dir) {
    auto s = dir;
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    const auto slash = s.rfind('/');
    return slash == std::string::npos ? s : s.substr(slash + 1);
}

std::optional<std::string> lookup(const expansion_options& o, std::string_view name) {
    if (o.environment) return o.environment(name);
    if (const char* v = std::getenv(std::string(name).c_str())) return std::string(v);
    return std::nullopt;
}

std::string env_value(const expansion_options& o, std::string_view name) {
    if (name.empty() || !name_start(name.front()))
        throw expansion_error("\"" + std::string(name) + "\" is not a variable name");
    for (char c : name)
        if (!name_char(c)) throw expansion_error("\"" + std::string(name) + "\" is not a variable name");
    auto v = lookup(o, name);
    if (!v) throw expansion_error("variable \"" + std::string(name) + "\" is not set");
    return *v;
}

// The text between "${" and "}".
std::string expand_braced(std::string_view body, const expansion_options& o) {
    if (body.rfind("env:", 0) == 0) return env_value(o, body.substr(4));
    if (body.rfind("input:", 0) == 0)
        throw expansion_error("${" + std::string(body) +
                              "} is a VS Code input prompt, which only VS Code can answer");
    if (const auto dash = body.find(":-"); dash != std::string_view::npos) {
        auto v = lookup(o, body.substr(0, dash));
        if (v && !v->empty()) return *v;
        return std::string(body.substr(dash + 2));
    }
    // Predefined editor variables first: they are what these names mean in Cursor and VS Code.
    if (body == "userHome" && !o.user_home.empty()) return o.user_home;
    if (body == "workspaceFolder" && !o.workspace_folder.empty()) return o.workspace_folder;
    if (body == "workspaceFolderBasename" && !o.workspace_folder.empty())
        return basename_of(o.workspace_folder);
    if (body == "pathSeparator" || body == "/") return "/";
    return env_value(o, body);
}

} // namespace

std::string expand_variables(std::string_view text, const expansion_options& o) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c != '$' || i + 1 == text.size()) {
            out.push_back(c);
            continue;
        }
        if (text[i + 1] == '{') {
            const auto close = text.find('}', i + 2);
            if (close == std::string_view::npos)
                throw expansion_error("unterminated \"${\" in \"" + std::string(text) + "\"");
            out += expand_braced(text.substr(i + 2, close - i - 2), o);
            i = close;
        } else if (o.bare_dollar && name_start(text[i + 1])) {
            std::size_t end = i + 1;
            while (end < text.size() && name_char(text[end])) ++end;
            out += env_value(o, text.substr(i + 1, end - i - 1));
            i = end - 1;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

} // namespace mcp::host
