// mcp/http/bearer.hpp - static bearer tokens (RFC 6750) for an mcp::http::server: each accepted
// token names the principal its requests act for (what middleware such as rate limits and tool
// filters key on, see mcp/server/middleware.hpp).
//
//   mcp::http::bearer_tokens tokens;
//   tokens.add(std::getenv("MY_TOKEN"), "ci");
//   mcp::http::serve(server, {.port = 8080, .authenticate = tokens.authenticator("my-server")});
//
// A request without a known token gets 401 with `WWW-Authenticate: Bearer realm="..."`. Tokens
// are kept as their SHA-256 only, and never appear in errors.
#pragma once

#include <mcp/http/server.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::http {

class bearer_tokens {
public:
    bearer_tokens();
    /// Accept `token` for `principal`. Throws std::invalid_argument for a token shorter than 8
    /// characters, one that cannot travel in a header (printable ASCII without spaces), or one
    /// added already.
    void add(std::string_view token, std::string principal);
    bool empty() const noexcept;
    std::size_t size() const noexcept;
    /// The principal of an Authorization header value ("Bearer <token>", scheme
    /// case-insensitive), or nullopt.
    std::optional<std::string> principal_of(std::string_view authorization) const;
    /// An authenticate hook (server_options::authenticate) over these tokens (a snapshot:
    /// tokens added later are not seen). `on_refused` is told of each refusal and why ("no
    /// token", "unknown token", "repeated Authorization header": more than one line is 400).
    std::function<auth_decision(const request_info&)>
    authenticator(std::string realm = "mcp",
                  std::function<void(const request_info&, std::string_view reason)> on_refused = {}) const;

private:
    std::shared_ptr<std::map<std::string, std::string>> by_digest_; ///< SHA-256 hex -> principal
};

} // namespace mcp::http
