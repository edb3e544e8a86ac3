// mcp/auth/oauth_flags.hpp - the command-line options that put a server behind an OAuth
// authorization server, shared by `mcpxx gateway` and the example servers' --http mode:
//
//   --oauth-issuer URL       the authorization server (its metadata names its keys)
//   --oauth-audience URL     what tokens must name in `aud`: this server's canonical URL as
//                            clients see it (behind a proxy); default: its own MCP URL
//   --oauth-scope SCOPE      a scope every request needs (repeatable)
//
//   mcp::auth::oauth_flags oauth;
//   for (int i = 1; i < argc; ++i)
//       if (!oauth.consume(argc, argv, i)) ...the program's own options...
//   return mcp::auth::serve(server, {.port = 8080}, oauth);   // plain http::serve without --oauth-issuer
#pragma once

#include <mcp/auth/resource_server.hpp>
#include <mcp/http/server.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// One line for a usage message.
inline constexpr std::string_view oauth_flags_usage =
    "[--oauth-issuer URL [--oauth-audience URL] [--oauth-scope SCOPE]...]";

struct oauth_flags {
    std::string issuer;
    std::string audience;
    std::vector<std::string> scopes;

    bool enabled() const noexcept { return !issuer.empty(); }
    /// When argv[i] is one of the options above: take it and its value (i moves past it) and
    /// return true. Throws std::invalid_argument naming the option when its value is missing.
    bool consume(int argc, char** argv, int& i);
    /// Throws std::invalid_argument when an audience or a scope is given without an issuer.
    void check() const;
    /// The resource server's options for a server whose own MCP URL is `own_url`: the
    /// resource is the audience when that is an http(s) URL, else `own_url`.
    resource_server_options options(const std::string& own_url) const;
};

/// mcp::http::serve, protected by `flags` when they name an issuer: the server starts, its
/// resource is named after its URL, the issuer's keys are fetched (requests with a token get
/// 503 until they are). Blocks until SIGINT or SIGTERM. Returns a process exit code (0; 1 if
/// it could not listen or the options are wrong, with the reason on stderr).
int serve(mcp::server& server, http::server_options options, const oauth_flags& flags);

} // namespace mcp::auth
