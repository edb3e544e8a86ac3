// The OAuth client at the wire: an mcp::client over the HTTP transport with an
// mcp::auth::client_authorizer, against a protected MCP server and an authorization server of
// the test's own, both on real loopback sockets (http_test_server). The happy path (discovery,
// registration, PKCE, state, resource, the retried request), then each refusal the client must
// make: a redirect with the wrong state or the wrong iss, metadata for another issuer, a
// redirect URI that is not loopback - each fails the connection with a readable -32010 and
// nothing after the refusal reaches the servers.
#include "support/http_test_server.hpp"

#include "auth/urls.hpp"

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/auth/pkce.hpp>
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

using mcp::test::http_test_server;
using mcp::test::recorded_request;
using writer_ptr = std::shared_ptr<mcp::http::core::response_writer>;
namespace json = mcp::json;
namespace auth = mcp::auth;

namespace {

constexpr std::string_view code = "CODE-never-shown";
constexpr std::string_view access_token = "tok-never-shown-1"; // the first one issued

/// How the authorization server misbehaves in a test.
struct as_script {
    std::string metadata_issuer; ///< "" = the real one
    std::string state;           ///< "" = echo the client's
    std::string iss;             ///< "" = the real issuer; "-" = none
    int expires_in = 3600;
    bool step_up = false;     ///< tools/list with the first token: 403 insufficient_scope
    bool always_403 = false;  ///< tools/list: 403 insufficient_scope whatever the token
    std::string token_answer; ///< "" = a token; else this body (200) from the token endpoint
    bool no_metadata = false; ///< the authorization server has no metadata document
};

class protected_servers {
public:
    explicit protected_servers(as_script s = {}) : script_(std::move(s)) {
        as_.set_handler(
            [this](const recorded_request& r, writer_ptr w) { authorization_server(r, std::move(w)); });
        mcp_.set_handler([this](const recorded_request& r, writer_ptr w) { mcp_server(r, std::move(w)); });
    }

    std::string issuer() const { return as_.url("/as"); }
    std::string mcp_url() const { return mcp_.url("/mcp"); }
    http_test_server& as() { return as_; }
    http_test_server& mcp() { return mcp_; }

    std::vector<recorded_request> at(http_test_server& s, std::string method, std::string path) {
        return s.requests([&](const recorded_request& r) {
            return r.method == method && r.target.substr(0, r.target.find('?')) == path;
        });
    }

private:
    void authorization_server(const recorded_request& r, writer_ptr w) {
        const std::string path = r.target.substr(0, r.target.find('?'));
        if (r.method == "GET" && path == "/.well-known/oauth-authorization-server/as" &&
            !script_.no_metadata) {
            json::object m{{"issuer", script_.metadata_issuer.empty() ? issuer() : script_.metadata_issuer},
                           {"authorization_endpoint", issuer() + "/authorize"},
                           {"token_endpoint", issuer() + "/token"},
                           {"registration_endpoint", issuer() + "/register"},
                           {"response_types_supported", json::array{"code"}},
                           {"code_challenge_methods_supported", json::array{"S256"}},
                           {"token_endpoint_auth_methods_supported", json::array{"none"}},
                           {"authorization_response_iss_parameter_supported", true}};
            w->respond(200, http_test_server::json_headers(), mcp::to_json(m));
        } else if (r.method == "POST" && path == "/as/register") {
            w->respond(201, http_test_server::json_headers(), R"({"client_id":"client-1"})");
        } else if (r.method == "GET" && path == "/as/authorize") {
            const auto q = auth::detail::query_params(r.target);
            std::lock_guard lock(mu_);
            challenge_ = q.count("code_challenge") ? q.at("code_challenge") : "";
            auth::detail::param_list back{{"code", std::string(code)},
                                          {"state", script_.state.empty() ? q.at("state") : script_.state}};
            if (script_.iss != "-") back.emplace_back("iss", script_.iss.empty() ? issuer() : script_.iss);
            w->respond(302, {{"Location", auth::detail::with_query(q.at("redirect_uri"), back)}}, "");
        } else if (r.method == "POST" && path == "/as/token") {
            const auto form = auth::detail::query_params("http://x/?" + r.body);
            std::lock_guard lock(mu_);
            const bool by_code = form.count("code") && form.at("code") == code &&
                                 form.count("code_verifier") &&
                                 auth::pkce_s256_challenge(form.at("code_verifier")) == challenge_;
            const bool by_refresh = form.count("refresh_token") && form.at("refresh_token") == "refresh-1";
            if (!by_code && !by_refresh)
                return w->respond(400, http_test_server::json_headers(), R"({"error":"invalid_grant"})");
            if (!script_.token_answer.empty())
                return w->respond(200, http_test_server::json_headers(), script_.token_answer);
            issued_.push_back("tok-never-shown-" + std::to_string(issued_.size() + 1));
            w->respond(200, http_test_server::json_headers(),
                       mcp::to_json(json::object{{"access_token", issued_.back()},
                                                 {"token_type", "Bearer"},
                                                 {"expires_in", script_.expires_in},
                                                 {"refresh_token", "refresh-1"}}));
        } else {
            w->respond(404, {}, "");
        }
    }

    void mcp_server(const recorded_request& r, writer_ptr w) {
        if (r.method == "GET" && r.target == "/.well-known/oauth-protected-resource/mcp") {
            json::object prm{{"resource", mcp_url()},
                             {"authorization_servers", json::array{json::value(issuer())}}};
            w->respond(200, http_test_server::json_headers(), mcp::to_json(prm));
            return;
        }
        if (r.target != "/mcp") return w->respond(404, {}, "");
        const std::string prm = mcp_.url("/.well-known/oauth-protected-resource/mcp");
        const std::string authorization = r.header("Authorization").value_or("");
        const std::string token = authorization.rfind("Bearer ", 0) == 0 ? authorization.substr(7) : "";
        bool known = false;
        {
            std::lock_guard lock(mu_);
            known = std::find(issued_.begin(), issued_.end(), token) != issued_.end();
        }
        if (!known) {
            w->respond(401,
                       {{"WWW-Authenticate", R"(Bearer scope="read", resource_metadata=")" + prm + "\""},
                        {"Content-Type", "application/json"}},
                       R"({"error":"invalid_token"})");
            return;
        }
        if (r.rpc_method() == "tools/list" &&
            (script_.always_403 || (script_.step_up && token == access_token))) {
            w->respond(
                403,
                {{"WWW-Authenticate",
                  R"(Bearer error="insufficient_scope", scope="write", resource_metadata=")" + prm + "\""}},
                R"({"error":"insufficient_scope"})");
            return;
        }
        if (r.method != "POST") return w->respond(r.method == "DELETE" ? 200 : 405, {}, "");
        const json::value msg = r.json();
        const auto& o = msg.as_object();
        if (!o.contains("id")) return w->respond(202, {}, "");
        json::value result = json::object{};
        if (r.rpc_method() == "initialize")
            result = json::object{{"protocolVersion", "2025-11-25"},
                                  {"capabilities", json::object{{"tools", json::object{}}}},
                                  {"serverInfo", json::object{{"name", "protected"}, {"version", "1"}}}};
        else if (r.rpc_method() == "tools/list")
            result = json::object{{"tools", json::array{}}};
        w->respond(200, http_test_server::json_headers(), mcp::test::rpc_result(o.at("id"), result));
    }

    as_script script_;
    std::mutex mu_;
    std::string challenge_;
    std::vector<std::string> issued_;
    http_test_server as_;
    http_test_server mcp_;
};

/// The user's browser: visit the authorization URL, stop at the redirect, return its target.
class redirect_reader final : public auth::user_agent {
public:
    explicit redirect_reader(std::string redirect = "http://127.0.0.1:9/callback")
        : redirect_(std::move(redirect)) {}
    std::string redirect_uri() override { return redirect_; }
    std::string authorize(const std::string& url, const mcp::cancellation_token& cancel) override {
        auto r = mcp::http::fetch({.url = url, .cancel = cancel});
        auto location = r.header("Location");
        if (!location) throw std::runtime_error("no redirect");
        return std::string(*location);
    }

private:
    std::string redirect_;
};

std::shared_ptr<auth::client_authorizer> authorizer(std::string redirect = "http://127.0.0.1:9/callback") {
    return std::make_shared<auth::client_authorizer>(
        auth::client_authorizer_options{.agent = std::make_shared<redirect_reader>(std::move(redirect))});
}

mcp::client_options options() {
    return {.info = {.name = "auth-test", .version = "1"}, .protocol_version = mcp::revision::v2025_11_25};
}

/// Connect and list the tools; the error text when that fails (checked to be -32010).
std::string connect_error(const std::string& url, std::shared_ptr<auth::client_authorizer> a) {
    mcp::client c(options());
    try {
        c.connect(mcp::http::make_client_transport({.url = url, .authorizer = std::move(a)}));
        c.list_tools();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::http_error) << e.what();
        return e.what();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(connected)";
}

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

} // namespace

TEST(AuthClientFlow, LogsInOnTheFirst401AndSendsTheTokenFromThenOn) {
    protected_servers s;
    auto a = authorizer();
    {
        mcp::client c(options());
        c.connect(mcp::http::make_client_transport({.url = s.mcp_url(), .authorizer = a}));
        EXPECT_TRUE(c.list_tools().tools.empty());
        c.close();
    }
    // Registration (RFC 7591) as a native public client with the loopback redirect.
    const auto reg = s.at(s.as(), "POST", "/as/register");
    ASSERT_EQ(reg.size(), 1u);
    const auto body = reg[0].json().as_object();
    EXPECT_EQ(body.at("application_type"), "native");
    EXPECT_EQ(body.at("redirect_uris").as_array().at(0), "http://127.0.0.1:9/callback");
    // The authorization request: PKCE S256, a state, the resource (RFC 8707).
    const auto authz = s.at(s.as(), "GET", "/as/authorize");
    ASSERT_EQ(authz.size(), 1u);
    const auto q = auth::detail::query_params(authz[0].target);
    EXPECT_EQ(q.at("response_type"), "code");
    EXPECT_EQ(q.at("client_id"), "client-1");
    EXPECT_EQ(q.at("code_challenge_method"), "S256");
    EXPECT_GE(q.at("state").size(), 32u);
    EXPECT_EQ(q.at("resource"), s.mcp_url());
    // The token request: the verifier of that challenge (the server checked it), the resource.
    const auto token = s.at(s.as(), "POST", "/as/token");
    ASSERT_EQ(token.size(), 1u);
    const auto form = auth::detail::query_params("http://x/?" + token[0].body);
    EXPECT_EQ(form.at("grant_type"), "authorization_code");
    EXPECT_EQ(form.at("resource"), s.mcp_url());
    EXPECT_EQ(form.at("client_id"), "client-1");
    EXPECT_EQ(auth::pkce_s256_challenge(form.at("code_verifier")), q.at("code_challenge"));
    // One 401 (the first initialize), then every request carried the token.
    const auto posts = s.at(s.mcp(), "POST", "/mcp");
    ASSERT_GE(posts.size(), 4u); // initialize (401), initialize, initialized, tools/list
    EXPECT_FALSE(posts[0].header("Authorization").has_value());
    for (std::size_t i = 1; i < posts.size(); ++i)
        EXPECT_EQ(posts[i].header("Authorization"), "Bearer " + std::string(access_token)) << i;

    // A second connection with the same authorizer starts with the stored token: no 401.
    const std::size_t before = posts.size();
    mcp::client again(options());
    again.connect(mcp::http::make_client_transport({.url = s.mcp_url(), .authorizer = a}));
    again.list_tools();
    again.close();
    const auto later = s.at(s.mcp(), "POST", "/mcp");
    for (std::size_t i = before; i < later.size(); ++i)
        EXPECT_TRUE(later[i].header("Authorization").has_value());
    EXPECT_EQ(s.at(s.as(), "GET", "/as/authorize").size(), 1u);
}

TEST(AuthClientFlow, ARedirectWithAnotherStateIsRefused) {
    protected_servers s({.state = "forged-state"});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "HTTP 401")) << why;
    EXPECT_TRUE(contains(why, "another state than the one sent")) << why;
    EXPECT_FALSE(contains(why, code)) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/token").empty());
}

TEST(AuthClientFlow, ARedirectFromAnotherIssuerIsRefused) {
    protected_servers s({.iss = "http://evil.example.com"});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "iss is not the issuer")) << why;
    EXPECT_FALSE(contains(why, code)) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/token").empty());
}

TEST(AuthClientFlow, ARedirectWithoutIssIsRefusedWhenTheServerAdvertisesIt) {
    protected_servers s({.iss = "-"});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "has no iss")) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/token").empty());
}

TEST(AuthClientFlow, MetadataOfAnotherIssuerIsRefused) {
    protected_servers s({.metadata_issuer = "http://127.0.0.1:1/elsewhere"});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "names the issuer")) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/register").empty());
    EXPECT_TRUE(s.at(s.as(), "GET", "/as/authorize").empty());
}

TEST(AuthClientFlow, ARedirectUriThatIsNotLoopbackIsRefused) {
    protected_servers s;
    const std::string why = connect_error(s.mcp_url(), authorizer("http://example.com/callback"));
    EXPECT_TRUE(contains(why, "neither a loopback http address nor https")) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/register").empty());
    EXPECT_TRUE(s.at(s.as(), "GET", "/as/authorize").empty());
}

TEST(AuthClientFlow, WithoutAUserAgentTheLoginFailsClearly) {
    protected_servers s;
    const std::string why = connect_error(
        s.mcp_url(), std::make_shared<auth::client_authorizer>(auth::client_authorizer_options{}));
    EXPECT_TRUE(contains(why, "no user agent is set")) << why;
}

TEST(AuthClientFlow, AnExpiredTokenIsRefreshedWithoutTheUser) {
    protected_servers s({.expires_in = 1}); // within the 30 s leeway: expired at once
    auto a = authorizer();
    {
        mcp::client c(options());
        c.connect(mcp::http::make_client_transport({.url = s.mcp_url(), .authorizer = a}));
        c.list_tools();
        c.close();
    }
    mcp::client c(options());
    c.connect(mcp::http::make_client_transport({.url = s.mcp_url(), .authorizer = a}));
    c.list_tools();
    c.close();
    const auto tokens = s.at(s.as(), "POST", "/as/token");
    ASSERT_EQ(tokens.size(), 2u);
    const auto form = auth::detail::query_params("http://x/?" + tokens[1].body);
    EXPECT_EQ(form.at("grant_type"), "refresh_token");
    EXPECT_EQ(form.at("resource"), s.mcp_url());
    EXPECT_EQ(form.at("client_id"), "client-1");
    EXPECT_EQ(s.at(s.as(), "GET", "/as/authorize").size(), 1u); // the user was asked once
    EXPECT_EQ(s.at(s.mcp(), "POST", "/mcp").back().header("Authorization"), "Bearer tok-never-shown-2");
}

TEST(AuthClientFlow, A403InsufficientScopeStepsUpToTheUnionOfScopes) {
    protected_servers s({.step_up = true});
    mcp::client c(options());
    c.connect(mcp::http::make_client_transport({.url = s.mcp_url(), .authorizer = authorizer()}));
    c.list_tools(); // 403 with the first token, then again with the second
    c.close();
    const auto authz = s.at(s.as(), "GET", "/as/authorize");
    ASSERT_EQ(authz.size(), 2u);
    EXPECT_EQ(auth::detail::query_params(authz[0].target).at("scope"), "read");
    EXPECT_EQ(auth::detail::query_params(authz[1].target).at("scope"), "read write");
    EXPECT_EQ(s.at(s.mcp(), "POST", "/mcp").back().header("Authorization"), "Bearer tok-never-shown-2");
}

TEST(AuthClientFlow, StepUpGivesUpAfterItsLimit) {
    protected_servers s({.always_403 = true});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "HTTP 403")) << why;
    EXPECT_TRUE(contains(why, "after 2 step-up authorizations")) << why;
    EXPECT_EQ(s.at(s.as(), "GET", "/as/authorize").size(), 3u); // the login, then two step-ups
}

TEST(AuthClientFlow, ATokenAnswerWithoutAUsableTokenIsAClearError) {
    for (const std::string& answer :
         {std::string("<html>oops</html>"), std::string(R"({"token_type":"Bearer"})"),
          std::string(R"({"access_token":"two words"})"),
          std::string(R"({"access_token":")") + std::string(9000, 'a') + "\r\n\"}"}) {
        protected_servers s({.token_answer = answer});
        const std::string why = connect_error(s.mcp_url(), authorizer());
        EXPECT_TRUE(contains(why, "authorization failed: the token response from") ||
                    contains(why, "authorization failed: the access token from"))
            << why;
        EXPECT_LT(why.size(), 400u) << why; // nothing of the body repeated
    }
}

TEST(AuthClientFlow, AnAuthorizationServerWithoutMetadataIsAClearError) {
    protected_servers s({.no_metadata = true});
    const std::string why = connect_error(s.mcp_url(), authorizer());
    EXPECT_TRUE(contains(why, "no metadata found for the authorization server")) << why;
    EXPECT_TRUE(s.at(s.as(), "POST", "/as/register").empty());
    // All three well-known locations of an issuer with a path were tried, in order.
    const auto tried = s.as().requests(http_test_server::method_is("GET"));
    ASSERT_EQ(tried.size(), 3u);
    EXPECT_EQ(tried[0].target, "/.well-known/oauth-authorization-server/as");
    EXPECT_EQ(tried[1].target, "/.well-known/openid-configuration/as");
    EXPECT_EQ(tried[2].target, "/as/.well-known/openid-configuration");
}

TEST(AuthClientFlow, LoginAndLogoutWithoutATransport) {
    protected_servers s;
    auto a = authorizer();
    EXPECT_FALSE(a->authorization(s.mcp_url()).has_value());
    a->login(s.mcp_url()); // discovery from the well-known URI, no challenge
    EXPECT_EQ(a->authorization(s.mcp_url()), "Bearer " + std::string(access_token));
    // The store keeps it per (server, issuer) under the canonical URI.
    const auto found = a->store()->load_discovery(auth::canonical_resource_uri(s.mcp_url()));
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->issuer, s.issuer());
    const auth::store_key key{auth::canonical_resource_uri(s.mcp_url()), found->issuer};
    EXPECT_TRUE(a->store()->load_tokens(key).has_value());
    EXPECT_EQ(a->store()->load_client(key)->client_id, "client-1");
    a->logout(s.mcp_url());
    EXPECT_FALSE(a->authorization(s.mcp_url()).has_value());
    EXPECT_TRUE(a->store()->load_discovery(auth::canonical_resource_uri(s.mcp_url())).has_value());
    a->logout(s.mcp_url(), true);
    EXPECT_FALSE(a->store()->load_discovery(auth::canonical_resource_uri(s.mcp_url())).has_value());
    EXPECT_FALSE(a->store()->load_client(key).has_value());
}
