// The shared OAuth command-line options (see mcp/auth/oauth_flags.hpp).
#include <mcp/auth/oauth_flags.hpp>

#include <cstdio>
#include <stdexcept>

namespace mcp::auth {

bool oauth_flags::consume(int argc, char** argv, int& i) {
    const std::string_view arg = argv[i];
    std::string* target = arg == "--oauth-issuer" ? &issuer : arg == "--oauth-audience" ? &audience : nullptr;
    const bool scope = arg == "--oauth-scope";
    if (!target && !scope) return false;
    if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
    std::string value = argv[++i];
    if (value.empty()) throw std::invalid_argument(std::string(arg) + " needs a value");
    if (scope)
        scopes.push_back(std::move(value));
    else
        *target = std::move(value);
    return true;
}

void oauth_flags::check() const {
    if (!enabled() && (!audience.empty() || !scopes.empty()))
        throw std::invalid_argument("--oauth-audience and --oauth-scope need --oauth-issuer");
}

resource_server_options oauth_flags::options(const std::string& own_url) const {
    resource_server_options o;
    o.issuer = issuer;
    const bool audience_is_url = audience.starts_with("https://") || audience.starts_with("http://");
    o.resource = audience_is_url ? audience : own_url;
    o.audience = audience;
    o.required_scopes = scopes;
    return o;
}

int serve(mcp::server& server, http::server_options options, const oauth_flags& flags) {
    if (!flags.enabled()) return http::serve(server, std::move(options));
    try {
        flags.check();
        const auto auth_options = flags.options({}); // the resource: the audience, or named below
        resource_server auth(auth_options);
        auth.install(options);
        http::server http(server, std::move(options));
        http::install_stop_signals();
        http.start();
        if (auth_options.resource.empty()) auth.set_resource(http.url());
        auth.start(); // failing, it logged why and keeps trying in the background
        http::wait_for_stop_signal();
        http.stop(std::chrono::seconds(5));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcpxx: %s\n", e.what());
        return 1;
    }
}

} // namespace mcp::auth
