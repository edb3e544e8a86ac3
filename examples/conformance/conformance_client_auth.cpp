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
    o.client_private_key_pem = context_string(context, "private_key_pem");
    if (auto alg = context_string(context, "signing_algorithm"); !alg.empty()) o.client_signing_algorithm = alg;
    if (auto jwt = context_string(context, "valid_jwt"); !jwt.empty()) o.jwt_bearer_assertion = [jwt] { return jwt; };
    if (auto idp = context_string(context, "idp_token_endpoint"); !idp.empty())
        o.enterprise = {.token_endpoint = idp,
                        .client_id = context_string(context, "idp_client_id"),
                        .id_token = [t = context_string(context, "idp_id_token")] { return t; }};
    o.client_metadata_url = "https://conformance-test.local/client-metadata.json";
    o.client_name = "mcpxx-conformance-client";
    o.dpop = true; // used where the authorization server offers it
    o.log = [](std::string_view line) { std::cerr << "conformance_client: auth: " << line << '\n'; };
    return std::make_shared<mcp::auth::client_authorizer>(std::move(o));
}

} // namespace conformance
