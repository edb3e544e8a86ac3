// `mcpxx gateway` started as a program by a test: over a config file, on 127.0.0.1 with a port the
// system picks (read from the "connect to" line it prints), its JSON log appended to a file.
#pragma once

#include "support/gateway_fixture.hpp" // built()
#include "support/raw_process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

namespace mcp::test {

struct gateway_process {
    std::unique_ptr<raw_process> process;
    unsigned short port = 0;
    std::string url; ///< http://127.0.0.1:PORT/mcp

    /// Start `mcpxx gateway --config CONFIG --listen 127.0.0.1:0 ARGS...` with stderr appended to
    /// `log`. A failure to start (or to print the URL) is a test failure, and `process` stays null.
    static gateway_process start(const std::filesystem::path& config, const std::vector<std::string>& args,
                                 const std::filesystem::path& log) {
        gateway_process g;
        std::string cmd =
            "exec '" + built("mcpxx") + "' gateway --config '" + config.string() + "' --listen 127.0.0.1:0";
        for (const auto& a : args) cmd += " '" + a + "'";
        cmd += " 2>>'" + log.string() + "'";
        auto p = std::make_unique<raw_process>(std::vector<std::string>{"/bin/sh", "-c", cmd});
        for (int i = 0; i < 20; ++i) {
            auto line = p->read_line(std::chrono::seconds(20));
            if (!line) break;
            if (auto at = line->find("connect to http://127.0.0.1:"); at != std::string::npos) {
                g.port = static_cast<unsigned short>(std::stoi(line->substr(at + 28)));
                g.url = "http://127.0.0.1:" + std::to_string(g.port) + "/mcp";
                g.process = std::move(p);
                return g;
            }
        }
        ADD_FAILURE() << "the gateway did not start; log:\n" << text_of_file(log);
        return g;
    }

    /// A fresh folder for one test (named after it) holding mcp.json with everything_server; the
    /// gateway's own files (the audit key) go to its xdg-config, never the real ~/.config.
    static std::filesystem::path scratch_dir(const std::string& prefix) {
        namespace fs = std::filesystem;
        const auto dir =
            fs::temp_directory_path() / (prefix + std::to_string(::getpid()) + "-" +
                                         testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        ::setenv("XDG_CONFIG_HOME", (dir / "xdg-config").c_str(), 1);
        std::ofstream(dir / "mcp.json")
            << R"({"mcpServers": {"everything": {"command": ")" + built("everything_server") + R"("}}})";
        return dir;
    }

    static std::string text_of_file(const std::filesystem::path& path) {
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
};

} // namespace mcp::test
