// A server command that the test can keep from starting: a shell script that fails at once
// while a flag file exists, and otherwise becomes the real server (exec: the same process, so
// the host's PID is the server's). For restarts that must fail until the test says so.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace mcp::test {

class switchable_server {
public:
    /// `program`: the server's path; `label` keeps the scripts of two tests apart.
    switchable_server(const std::string& label, const std::string& program)
        : dir_(std::filesystem::temp_directory_path() /
               ("mcpxx-switchable-" + label + "-" + std::to_string(::getpid()))),
          flag_(dir_ / "down"), script_(dir_ / "server.sh") {
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        std::ofstream(script_) << "#!/bin/sh\n"
                               << "if [ -e '" << flag_.string() << "' ]; then\n"
                               << "  echo 'kept down by the test' >&2\n"
                               << "  exit 1\n"
                               << "fi\n"
                               << "exec '" << program << "' \"$@\"\n";
        std::filesystem::permissions(script_, std::filesystem::perms::owner_all);
    }
    ~switchable_server() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    switchable_server(const switchable_server&) = delete;
    switchable_server& operator=(const switchable_server&) = delete;

    std::string command() const { return script_.string(); }
    /// From now on every start fails (with "kept down by the test" on stderr).
    void keep_down() const { std::ofstream(flag_) << "down\n"; }
    /// From now on it starts.
    void let_up() const { std::filesystem::remove(flag_); }

private:
    std::filesystem::path dir_, flag_, script_;
};

} // namespace mcp::test
