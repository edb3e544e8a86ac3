#include "config_discovery.hpp"
#include "read_file.hpp"

#include <algorithm>

namespace mcpxx_cli {

mcp::host::project_trust load_project_trust() {
    try {
        return mcp::host::project_trust::load(mcp::host::project_trust::default_path());
    } catch (const mcp::host::project_trust_error& e) {
        throw input_error(e.what());
    }
}

mcp::host::discovery_result discover_servers(const std::vector<std::string>& config_files) {
    mcp::host::discovery_options d;
    for (const auto& f : config_files) d.explicit_files.emplace_back(f);
    // Read when a project file asks: a broken list matters only where there is one.
    std::optional<mcp::host::project_trust> trust;
    d.project_allowed = [&trust](const std::filesystem::path& file, std::string_view content) {
        if (!trust) trust = load_project_trust();
        return trust->allowed(file, content);
    };
    return mcp::host::discover(d);
}

std::string not_allowed_reason(const std::string& source) {
    return source + " is not allowed yet, or changed since (run \"mcpxx allow\" to review and allow it)";
}

std::string not_allowed_message(const mcp::host::server_config& server) {
    return "server \"" + server.name + "\" is not started: " + not_allowed_reason(server.source);
}

std::optional<std::string> not_allowed_note(const mcp::host::discovery_result& found) {
    std::vector<std::string> files;
    for (const auto& s : found.not_allowed)
        if (std::find(files.begin(), files.end(), s.source) == files.end()) files.push_back(s.source);
    if (files.empty()) return std::nullopt;
    std::string list;
    for (std::size_t i = 0; i < files.size(); ++i)
        list += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
    const bool one = files.size() == 1;
    return "the servers of " + list +
           " are not started: " + (one ? "this project file is" : "these project files are") +
           " not allowed yet, or changed since (run \"mcpxx allow\" to see what " +
           (one ? "it runs and allow it" : "they run and allow them") + ")";
}

} // namespace mcpxx_cli
