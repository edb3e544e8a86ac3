// A program running in a real terminal: a detached tmux session on a private tmux server, for
// tests of interactive programs (what they draw, keys, Ctrl-C as a terminal sends it).
//
//   mcp::test::tmux_session t(dir, "exec ./mcpxx shell --config servers.json");
//   ASSERT_TRUE(t.wait_for("mcpxx> "));
//   t.type("tools");
//   t.keys({"Enter"});
//
// Waiting polls the screen (never a fixed sleep), so tests stay correct on a loaded machine.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace mcp::test {

class tmux_session {
public:
    /// Whether tmux can be run.
    static bool available();

    /// Run `command` with /bin/sh in a new detached session of `width` x `height` cells. The
    /// tmux server's socket is in `dir`, so nothing is shared with other tmux servers.
    tmux_session(const std::filesystem::path& dir, const std::string& command, int width = 200,
                 int height = 50);
    ~tmux_session(); ///< kills the server, and with it the program
    tmux_session(const tmux_session&) = delete;
    tmux_session& operator=(const tmux_session&) = delete;

    /// Keys by tmux name: "Enter", "Tab", "C-c", "C-d", "Up", "BSpace", ...
    void keys(const std::vector<std::string>& names) const;
    /// Text typed as it is.
    void type(const std::string& text) const;

    /// The visible screen, one line per row (trailing blanks trimmed).
    std::string screen() const;
    /// The scrollback and the screen, wrapped lines joined.
    std::string contents() const;
    /// The last non-blank row of the screen (where an editor's prompt usually is).
    std::string last_line() const;

    /// Poll contents() until `text` occurs at least `count` times; false after `timeout`.
    bool wait_for(const std::string& text, int count = 1,
                  std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
    /// Poll until last_line() equals `line` (compared without trailing blanks).
    bool wait_for_last_line(const std::string& line,
                            std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;

private:
    std::string tmux(std::vector<std::string> args) const;
    std::string socket_;
};

} // namespace mcp::test
