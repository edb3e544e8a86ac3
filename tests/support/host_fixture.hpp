// A fake home directory and project directory filled with the host config files of
// tests/data/host_configs, for the host tests (config discovery, the manager, the CLI).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace mcp::test {

inline std::filesystem::path host_configs_dir() {
    return std::filesystem::path(MCPXX_SOURCE_DIR) / "tests" / "data" / "host_configs";
}

struct fake_host_dirs {
    std::filesystem::path root, home, project;

    explicit fake_host_dirs(const std::string& label) {
        root = std::filesystem::temp_directory_path() /
               ("mcpxx-host-" + label + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(root);
        home = root / "home";
        project = root / "project";
        std::filesystem::create_directories(home);
        std::filesystem::create_directories(project);
    }
    ~fake_host_dirs() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    fake_host_dirs(const fake_host_dirs&) = delete;
    fake_host_dirs& operator=(const fake_host_dirs&) = delete;

    /// Copy a data file to `to`, replacing @PROJECT_DIR@ (the only thing a data file cannot know).
    void install(const std::string& data_file, const std::filesystem::path& to) const {
        std::ifstream in(host_configs_dir() / data_file);
        std::stringstream ss;
        ss << in.rdbuf();
        std::string text = ss.str();
        for (std::size_t p; (p = text.find("@PROJECT_DIR@")) != std::string::npos;)
            text.replace(p, 13, project.string());
        std::filesystem::create_directories(to.parent_path());
        std::ofstream(to) << text;
    }

    /// Every host's files in their places.
    void install_all() const {
        install("claude_desktop/claude_desktop_config.json",
                home / ".config/Claude/claude_desktop_config.json");
        install("claude_code/claude.json", home / ".claude.json");
        install("claude_code/.mcp.json", project / ".mcp.json");
        install("cursor/mcp.json", home / ".cursor/mcp.json");
        install("cursor/project_mcp.json", project / ".cursor/mcp.json");
        install("vscode/mcp.json", project / ".vscode/mcp.json");
        install("windsurf/mcp_config.json", home / ".codeium/windsurf/mcp_config.json");
        install("gemini/settings.json", home / ".gemini/settings.json");
        install("gemini/project_settings.json", project / ".gemini/settings.json");
    }

    void write(const std::filesystem::path& to, const std::string& text) const {
        std::filesystem::create_directories(to.parent_path());
        std::ofstream(to) << text;
    }
};

} // namespace mcp::test
