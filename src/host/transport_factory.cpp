// From a server_config to a transport (see mcp/host/transport_factory.hpp).
#include <mcp/host/transport_factory.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/child_process.hpp>

#include "http/core/request.hpp"

#include <boost/url/parse.hpp>

#include <cstdlib>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::host {
namespace {

/// What is wrong with a server's URL, in words a person can act on (Boost.URL's own reasons,
/// such as "mismatch", say nothing to them); nullopt when it is a usable http(s) URL.
std::optional<std::string> url_problem(std::string_view text) {
    constexpr const char* needs_scheme = "an http:// or https:// URL is needed";
    if (text.empty()) return "it is empty";
    auto url = boost::urls::parse_uri(text);
    if (!url) {
        if (text.find("://") == std::string_view::npos) return needs_scheme; // "127.0.0.1:8080/mcp"
        if (text.find_first_of(" \t\r\n") != std::string_view::npos) return "a URL cannot contain spaces";
        return "expected http(s)://HOST[:PORT]/PATH, with special characters percent-encoded";
    }
    if (url->scheme() != "http" && url->scheme() != "https") return needs_scheme; // "localhost:8080/mcp" too
    if (!url->has_authority() || url->host().empty()) return "it has no host";
    return std::nullopt;
}

} // namespace

std::string url_for_display(std::string_view text) {
    if (auto u = boost::urls::parse_uri(text); u && u->has_authority())
        return std::string(u->scheme()) + "://" + std::string(u->encoded_host_and_port()) +
               std::string(u->encoded_path());
    std::string s(text.substr(0, text.find_first_of("?#")));
    if (const auto at = s.rfind('@'); at != std::string::npos) {
        const auto scheme_end = s.find("://");
        s = (scheme_end != std::string::npos && scheme_end < at ? s.substr(0, scheme_end + 3)
                                                                : std::string()) +
            s.substr(at + 1);
    }
    return s;
}

std::optional<std::string> check_startable(const server_config& s) {
    if (s.transport == transport_kind::stdio) {
        if (s.command.find('/') != std::string::npos) {
            if (::access(s.command.c_str(), F_OK) != 0) return "command not found: " + s.command;
            if (!child_process_transport::find_executable(s.command, s.env))
                return s.command + " is not an executable file";
        } else if (!child_process_transport::find_executable(s.command, s.env)) {
            return "command not found on PATH: " + s.command;
        }
        if (s.cwd) {
            struct stat st {};
            if (::stat(s.cwd->c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
                return "working directory does not exist: " + *s.cwd;
        }
        return std::nullopt;
    }
    // The URL is shown without its user info, query or fragment: those may hold a token.
    const auto shown = url_for_display(s.url);
    if (auto why = url_problem(s.url)) return "not a valid URL: \"" + shown + "\" (" + *why + ")";
    return std::nullopt;
}

transport_ptr make_transport(const server_config& s, const transport_options& o) {
    switch (s.transport) {
    case transport_kind::stdio: {
        child_process_transport::options c;
        c.command = s.command;
        c.args = s.args;
        c.env = s.env;
        c.cwd = s.cwd;
        if (o.inherit_stderr) {
            c.stderr_handling = child_process_transport::stderr_mode::inherit;
        } else {
            c.stderr_handling = child_process_transport::stderr_mode::capture;
            c.on_stderr_line = o.on_stderr_line;
        }
        return child_process_transport::spawn(std::move(c));
    }
    case transport_kind::streamable_http:
    case transport_kind::sse: {
        http::client_transport_options h;
        h.url = s.url;
        bool has_authorization = false;
        for (const auto& [name, value] : s.headers) {
            h.headers.emplace_back(name, value);
            has_authorization = has_authorization || http::core::iequals(name, "Authorization");
        }
        if (!has_authorization) h.authorizer = o.authorizer;
        h.mode = s.transport == transport_kind::sse ? http::transport_mode::legacy_sse
                 : s.sse_fallback                   ? http::transport_mode::automatic
                                                    : http::transport_mode::streamable;
        h.connect_timeout = o.connect_timeout;
        if (o.on_stderr_line)
            h.log = o.on_stderr_line;
        else if (!o.inherit_stderr)
            h.log = [](std::string_view) {};
        try {
            return http::make_client_transport(std::move(h));
        } catch (const std::invalid_argument& e) {
            // Names the header, never its value (mcp/http/client_transport.hpp).
            std::string_view why = e.what();
            if (const auto colon = why.find(": ");
                why.rfind("mcp::", 0) == 0 && colon != std::string_view::npos)
                why.remove_prefix(colon + 2);
            throw error(error_code::connection_closed, std::string(why));
        }
    }
    }
    throw error(error_code::connection_closed, "unknown transport");
}

} // namespace mcp::host
