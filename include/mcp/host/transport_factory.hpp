// mcp/host/transport_factory.hpp - from a server_config to a transport: the one place that knows
// which transport each kind of entry uses.
//
//   stdio                        a child process (mcp/transport/child_process.hpp)
//   streamable_http              the HTTP client transport (mcp/http/client_transport.hpp) in
//                                mode `streamable`, or `automatic` (falling back to HTTP+SSE)
//                                when the entry did not name its type (server_config::sse_fallback)
//   sse                          the HTTP client transport in mode `legacy_sse`
// The entry's headers go on every HTTP request and nowhere else: messages name the URL without
// its user info, query or fragment (url_for_display), never a header value. A remote server
// without an Authorization header gets the OAuth client transport_options::authorizer gives it.
#pragma once

#include <mcp/host/config.hpp>
#include <mcp/http/request_authorizer.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::host {

/// Why the server cannot be started, checked before trying: a command that is neither on PATH
/// (the server's own PATH if its env sets one) nor an executable file, a working directory that
/// does not exist, a URL that does not parse or is not http(s). nullopt when it looks startable.
std::optional<std::string> check_startable(const server_config& server);

struct transport_options {
    /// Diagnostics about the server: the lines a stdio server writes to stderr, and the HTTP
    /// transport's warnings for a remote one (a refused GET stream, a dropped tool...; never a
    /// header value). Empty: stderr lines are kept (the tail is in the error when the server
    /// fails) but not shown, and HTTP warnings are dropped.
    std::function<void(std::string_view line)> on_stderr_line;
    /// Let a stdio server write to our stderr directly instead (HTTP warnings go to stderr too).
    bool inherit_stderr = false;
    /// Remote servers: name resolution, TCP connection and TLS handshake of one connection.
    std::chrono::milliseconds connect_timeout{10000};
    /// Remote servers: the OAuth client that logs in to this one when it answers 401
    /// (mcp/auth/client_authorizer.hpp); null, or an entry with its own Authorization header:
    /// none.
    std::shared_ptr<http::request_authorizer> authorizer;
};

/// A transport for the server, not yet started. Throws mcp::error (connection_closed) when the
/// server cannot be reached this way (the command cannot be run, the URL or a header is invalid).
transport_ptr make_transport(const server_config& server, const transport_options& options = {});

/// `url` as it may be shown: scheme://host[:port]/path, without user info, query or fragment,
/// which may hold secrets. Text that does not parse as a URL is cut at the first '?' or '#' and
/// loses anything up to an '@'.
std::string url_for_display(std::string_view url);

} // namespace mcp::host
