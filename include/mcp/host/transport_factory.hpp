// mcp/host/transport_factory.hpp - from a server_config to a transport: the one place that knows
// which transport each kind of entry uses.
//
// Remote entries (Streamable HTTP, SSE) need the HTTP client transport, which this build does
// not have yet: make_transport throws for them with a message that says so. Adding it is
// adding a case to make_transport.
#pragma once

#include <mcp/host/config.hpp>
#include <mcp/transport/transport.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::host {

/// Why the server cannot be started, checked before trying: a command that is neither on PATH
/// (the server's own PATH if its env sets one) nor an executable file, a working directory that
/// does not exist, a URL that does not parse or is not http(s). nullopt when it looks startable.
std::optional<std::string> check_startable(const server_config& server);

struct transport_options {
    /// Lines the server writes to stderr (stdio servers). Empty: they are kept (the tail is in
    /// the error when the server fails) but not shown.
    std::function<void(std::string_view line)> on_stderr_line;
    /// Let a stdio server write to our stderr directly instead.
    bool inherit_stderr = false;
};

/// A transport for the server, not yet started. Throws mcp::error (connection_closed) when the
/// server cannot be reached this way (the command cannot be run, no HTTP transport yet).
transport_ptr make_transport(const server_config& server, const transport_options& options = {});

/// The message make_transport gives for remote servers while there is no HTTP client transport.
inline constexpr std::string_view http_not_available = "HTTP transport not available yet";

} // namespace mcp::host
