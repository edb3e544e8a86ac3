// conformance_client's OAuth part (see conformance_client_auth.hpp).
#include "conformance_client_auth.hpp"

#include <mcp/http/fetch.hpp>

#include <iostream>
#include <stdexcept>

namespace conformance {

namespace {

/// What a browser does for the mock: visit the authorization URL and stop at the redirect.
class redirect_reader final : public mcp::auth::user_agent {
public:
    std::string redirect_uri() override { return "http://localhost:3000/callback"; }

    std::string authorize(const std::string& url, const mcp::cancellation_token& cancel) override {
        auto r = mcp::http::fetch({.url = url, .cancel = cancel});
        auto location = r.header("Location");
        if (r.status / 100 != 3 || !location)
            throw std::runtime_error("the authorization endpoint answered HTTP " + std::to_string(r.status) +
                                     " without a redirect");
        return std::string(*location);
    }
};

std::string context_string(const mcp::json::value& context, std::string_view key) {
    if (!context.is_object()) return {};
    return std::string(mcp::find_string(context.get_object(), key).value_or(""));
}

} // namespace

std::shared_ptr<mcp::auth::client_authorizer> scenario_authorizer(const mcp::json::value& context) {
    mcp::auth::client_authorizer_options o;
    o.agent = std::make_shared<redirect_reader>();
    o.client_id = context_string(context, "client_id");
    o.client_secret = context_string(context, "client_secret");
    o.client_metadata_url = "https://conformance-test.local/client-metadata.json";
    o.client_name = "mcpxx-conformance-client";
    o.log = [](std::string_view line) { std::cerr << "conformance_client: auth: " << line << '\n'; };
    return std::make_shared<mcp::auth::client_authorizer>(std::move(o));
}

} // namespace conformance
