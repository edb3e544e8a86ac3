// A child process driven byte by byte over pipes, for tests of what a real server binary does
// with real (and deliberately broken) input.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {

/// What a stdio client writes first: initialize (id 0, 2025-11-25) and notifications/initialized,
/// one line each.
inline const std::string stdio_handshake =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
    "\n"
    R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
    "\n";

class raw_process {
public:
    explicit raw_process(std::vector<std::string> argv);
    ~raw_process();
    raw_process(const raw_process&) = delete;
    raw_process& operator=(const raw_process&) = delete;

    /// Write all bytes to the child's stdin (false if the pipe is closed).
    bool write(std::string_view bytes);
    /// Next line from the child's stdout (without the newline); nullopt on timeout or EOF.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// Close stdin (EOF for the child).
    void close_stdin();
    /// Wait for the exit; the exit code, or -signal, or nullopt on timeout. Reads (and keeps)
    /// what the child writes to stdout meanwhile, so that it never blocks on a full pipe.
    std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    /// The exit code (or -signal) if the child has exited, else nullopt; never waits, and never
    /// reads stdout (for a test of a client that does not read).
    std::optional<int> exit_status();
    int pid() const { return pid_; }
    /// Everything the child wrote to stderr so far (drained on each call to read_line/wait).
    const std::string& stderr_text();

private:
    void drain_stderr();
    int pid_ = -1;
    int in_ = -1, out_ = -1, err_ = -1;
    std::string buffer_;
    std::string stderr_;
    std::optional<int> status_;
};

} // namespace mcp::test
