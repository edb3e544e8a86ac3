// mcp/transport/child_process.hpp - the client side of the stdio transport: start a server as a
// child process and speak MCP over its stdin and stdout.
//
//   auto t = mcp::child_process_transport::spawn({.command = "npx", .args = {"-y", "some-server"}});
//
// The child gets its own process group and dies with the client (PR_SET_PDEATHSIG), so a
// crashed client leaves no orphan. close() shuts down as the spec says: close the child's stdin,
// wait, then SIGTERM, wait, then SIGKILL, and always reap it.
#pragma once

#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/fd_stream.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

class child_process_transport : public fd_stream_transport {
public:
    enum class stderr_mode {
        inherit, ///< the child writes to our stderr
        capture, ///< lines go to on_stderr_line and to stderr_tail()
        discard, ///< /dev/null
    };
    struct options {
        std::string command;                    ///< a path, or a name searched on PATH
        std::vector<std::string> args;          ///< arguments after the command
        std::map<std::string, std::string> env; ///< added to (or replacing) the environment
        bool inherit_environment = true;        ///< start from our environment, else from `env` only
        std::optional<std::string> cwd;
        stderr_mode stderr_handling = stderr_mode::inherit;
        std::function<void(std::string_view line)> on_stderr_line; ///< with stderr_mode::capture
        /// Time given to each shutdown step (stdin closed, then SIGTERM) before the next.
        std::chrono::milliseconds shutdown_grace{2000};
        /// Bytes written to the child's stdin and not yet read by it, at most (64 MiB; 0: no
        /// limit). A child that stops reading while messages keep coming is treated as gone at
        /// the limit: the transport closes (the session's requests fail with connection_closed)
        /// and the session's diagnostic sink gets one line. See fd_stream_transport::options.
        std::size_t max_queued_bytes = fd_stream_transport::default_max_queued_bytes;
    };

    /// Start the child. Throws mcp::error (code connection_closed) with a readable message when
    /// the command is not found, not executable, or the working directory does not exist.
    static std::shared_ptr<child_process_transport> spawn(options o);

    /// The executable spawn() would start for `command`: a path with a '/' as it is, else the
    /// first executable regular file of that name in the directories of PATH (taken from `env`,
    /// else, with `inherit_environment`, from ours, else /usr/local/bin:/usr/bin:/bin).
    /// nullopt when there is none.
    static std::optional<std::string> find_executable(const std::string& command,
                                                      const std::map<std::string, std::string>& env,
                                                      bool inherit_environment = true);

    ~child_process_transport() override;
    /// As fd_stream_transport::start; when the child ends on its own, on_close comes after its
    /// last stdout line, and (normally) after the child was reaped, so exit_status() is known.
    void start(transport_handler handler) override;
    /// The shutdown ladder (stdin EOF, grace, SIGTERM to the group, grace, SIGKILL), then reap.
    /// Blocks until the child is gone (at most about 2 x shutdown_grace). Idempotent.
    void close() override;

    int pid() const noexcept;
    /// The exit code (or -signal) once the child has exited and was reaped.
    std::optional<int> exit_status() const;
    /// The last 64 KiB the child wrote to stderr (stderr_mode::capture).
    std::string stderr_tail() const;

    struct child;
    child_process_transport(fd_stream_transport::options fds, std::shared_ptr<child> c);

private:
    std::shared_ptr<child> child_;
};

} // namespace mcp
