// From a server_config to a transport (see mcp/host/transport_factory.hpp).
#include <mcp/host/transport_factory.hpp>
#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/child_process.hpp>

#include <boost/url/parse.hpp>

#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::host {
namespace {

bool executable_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The same search the child process transport does, so that "found" here means it will start.
bool on_path(const std::string& command, const std::map<std::string, std::string>& env) {
    std::string path;
    if (auto it = env.find("PATH"); it != env.end()) path = it->second;
    else if (const char* p = std::getenv("PATH")) path = p;
    else path = "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        auto end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string dir = path.substr(start, end - start);
        if (dir.empty()) dir = ".";
        if (executable_file(dir + "/" + command)) return true;
        start = end + 1;
    }
    return false;
}

} // namespace

std::optional<std::string> check_startable(const server_config& s) {
    if (s.transport == transport_kind::stdio) {
        if (s.command.find('/') != std::string::npos) {
            if (::access(s.command.c_str(), F_OK) != 0) return "command not found: " + s.command;
            if (!executable_file(s.command)) return s.command + " is not an executable file";
        } else if (!on_path(s.command, s.env)) {
            return "command not found on PATH: " + s.command;
        }
        if (s.cwd) {
            struct stat st {};
            if (::stat(s.cwd->c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "working directory does not exist: " + *s.cwd;
        }
        return std::nullopt;
    }
    auto url = boost::urls::parse_absolute_uri(s.url);
    if (!url) return "not a valid URL: \"" + s.url + "\" (" + url.error().message() + ")";
    if (url->scheme() != "http" && url->scheme() != "https") return "not an http(s) URL: \"" + s.url + "\"";
    if (!url->has_authority() || url->host().empty()) return "URL has no host: \"" + s.url + "\"";
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
    case transport_kind::sse:
        // The HTTP client transport is being written; it goes here.
        throw error(error_code::connection_closed, std::string(http_not_available));
    }
    throw error(error_code::connection_closed, "unknown transport");
}

} // namespace mcp::host
