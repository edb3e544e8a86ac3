// The library's OAuth client logging in to an mcpxx server that a real authorization server
// protects: npm oidc-provider (pinned in tests/interop/package.json; oidc_authorization_code.mjs
// configures it: dynamic client registration, PKCE, resource indicators, JWT access tokens,
// its development login and consent pages) in front of `echo_server --http --oauth-issuer`.
// mcp::client over the HTTP transport with an mcp::auth::client_authorizer: discovery from the
// 401, registration, the authorization code flow with PKCE S256 through a user agent of this
// test that acts as a browser (follows redirects, keeps cookies, submits the login and consent
// forms with a made-up user, stops at the redirect to the client's loopback redirect URI),
// then tools/list and tools/call with the token. A tampered `state` is refused with nothing
// stored. Skipped when node or the package is missing (scripts/install-deps).
#include <mcp/auth/client_authorizer.hpp>
#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>
#include <mcp/http/fetch.hpp>

#include "auth/jose.hpp"
#include "auth/urls.hpp"
#include "support/child_server.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <stdexcept>

#include <strings.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const fs::path interop = fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop";

/// The pinned Node 22 (what oidc-provider supports) when installed, else the node on PATH;
/// empty when neither.
std::string node_program() {
    const auto pinned = interop / "node_modules" / ".bin" / "node";
    if (::access(pinned.c_str(), X_OK) == 0) return pinned.string();
    return std::system("node --version >/dev/null 2>&1") == 0 ? "node" : "";
}

bool have_oidc_provider() {
    return fs::exists(interop / "node_modules" / "oidc-provider" / "package.json");
}

/// A browser, as far as oidc-provider's development pages need one: GET the authorization
/// URL, follow redirects, keep cookies, fill each page's form (hidden fields as they are, any
/// user name and password) and post it, until the redirect to the client's redirect URI.
class scripted_browser : public mcp::auth::user_agent {
public:
    explicit scripted_browser(bool tamper_state = false) : tamper_state_(tamper_state) {}

    std::string redirect_uri() override { return "http://127.0.0.1:51873/callback"; }

    std::string authorize(const std::string& authorization_url,
                          const mcp::cancellation_token& cancel) override {
        {
            std::lock_guard lock(mutex_);
            visited_.push_back(authorization_url);
        }
        mcp::http::fetch_request request{.url = authorization_url, .cancel = cancel};
        for (int step = 0; step < 20; ++step) {
            if (request.url.rfind(redirect_uri() + "?", 0) == 0) {
                std::lock_guard lock(mutex_);
                returned_.push_back(tamper_state_ ? tampered(request.url) : request.url);
                return returned_.back();
            }
            request.headers = {{"Cookie", cookie_header()}};
            if (request.method == "POST")
                request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
            const auto response = mcp::http::fetch(request);
            for (const auto& [name, value] : response.headers)
                if (strcasecmp(name.c_str(), "set-cookie") == 0) keep_cookie(value);
            if (response.status >= 300 && response.status < 400) {
                request = {.url = resolve(request.url, std::string(response.header("location").value_or(""))),
                           .cancel = cancel};
            } else if (response.status == 200 && response.body.find("<form") != std::string::npos) {
                request = {.method = "POST",
                           .url = resolve(request.url, form_action(response.body)),
                           .body = mcp::auth::detail::form_encode(form_fields(response.body)),
                           .cancel = cancel};
            } else {
                throw std::runtime_error("the authorization server answered " +
                                         std::to_string(response.status) + " at " + request.url + ": " +
                                         response.body.substr(0, 400));
            }
        }
        throw std::runtime_error("no redirect to the client after 20 pages");
    }

    std::vector<std::string> visited() {
        std::lock_guard lock(mutex_);
        return visited_;
    }
    /// The redirects handed back to the client.
    std::vector<std::string> returned() {
        std::lock_guard lock(mutex_);
        return returned_;
    }

private:
    static std::string resolve(const std::string& base, const std::string& location) {
        if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) return location;
        if (location.empty() || location[0] != '/')
            throw std::runtime_error("unexpected location: " + location);
        return mcp::auth::detail::origin_of(base) + location;
    }

    static std::string attribute(const std::string& tag, const std::string& name) {
        std::smatch m;
        const std::regex re("\\s" + name + "=\"([^\"]*)\"");
        return std::regex_search(tag, m, re) ? m[1].str() : "";
    }

    static std::string form_action(const std::string& html) {
        std::smatch m;
        if (!std::regex_search(html, m, std::regex("<form[^>]*>"))) throw std::runtime_error("no form");
        return attribute(m[0].str(), "action");
    }

    static mcp::auth::detail::param_list form_fields(const std::string& html) {
        mcp::auth::detail::param_list fields;
        const std::regex input("<input[^>]*>");
        for (auto it = std::sregex_iterator(html.begin(), html.end(), input); it != std::sregex_iterator();
             ++it) {
            const auto tag = it->str();
            const auto name = attribute(tag, "name");
            if (name.empty()) continue;
            if (attribute(tag, "type") == "hidden")
                fields.emplace_back(name, attribute(tag, "value"));
            else if (attribute(tag, "type") == "password")
                fields.emplace_back(name, "a-made-up-password");
            else
                fields.emplace_back(name, "ada@example.test");
        }
        return fields;
    }

    void keep_cookie(const std::string& set_cookie) {
        const auto pair = set_cookie.substr(0, set_cookie.find(';'));
        const auto eq = pair.find('=');
        if (eq == std::string::npos) return;
        if (eq + 1 == pair.size())
            cookies_.erase(pair.substr(0, eq)); // cleared
        else
            cookies_[pair.substr(0, eq)] = pair.substr(eq + 1);
    }

    std::string cookie_header() const {
        std::string out;
        for (const auto& [name, value] : cookies_) out += (out.empty() ? "" : "; ") + name + "=" + value;
        return out;
    }

    static std::string tampered(std::string url) {
        const auto at = url.find("state=");
        if (at != std::string::npos) url.insert(at + 6, "x");
        return url;
    }

    bool tamper_state_;
    std::map<std::string, std::string> cookies_;
    std::mutex mutex_;
    std::vector<std::string> visited_, returned_;
};

/// The authorization server and the resource server, shared by the tests (node starts slowly).
struct servers {
    fs::path dir;
    std::unique_ptr<mcp::test::child_server> authorization_server;
    std::unique_ptr<mcp::test::child_server> echo;
    std::string issuer, mcp_url;
    std::string failure;

    servers() {
        char temp[] = "/tmp/mcpxx-oidc-XXXXXX";
        if (!::mkdtemp(temp)) throw std::runtime_error("mkdtemp failed");
        dir = temp;
        authorization_server = std::make_unique<mcp::test::child_server>(
            std::vector<std::string>{node_program(), (interop / "oidc_authorization_code.mjs").string(),
                                     "{port}", log_path().string()});
        if (!authorization_server->ready()) {
            failure = "oidc-provider did not start";
            return;
        }
        issuer = authorization_server->url("");
        echo = std::make_unique<mcp::test::child_server>(std::vector<std::string>{
            (fs::path(MCPXX_BINARY_DIR) / "echo_server").string(), "--http", "127.0.0.1:{port}",
            "--oauth-issuer", issuer, "--oauth-scope", "mcp:tools"});
        if (!echo->ready()) failure = "echo_server --http --oauth-issuer did not start";
        mcp_url = echo->url("/mcp");
    }
    ~servers() { fs::remove_all(dir); }

    fs::path log_path() const { return dir / "authorization-server.log"; }
    /// The authorization server's log lines so far, parsed.
    std::vector<mcp::json::object> requests() const {
        std::vector<mcp::json::object> out;
        std::ifstream in(log_path());
        for (std::string line; std::getline(in, line);) out.push_back(mcp::json::parse(line).as_object());
        return out;
    }
};

class client_oauth_vs_oidc_provider : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!node_program().empty() && have_oidc_provider()) shared = std::make_unique<servers>();
    }
    static void TearDownTestSuite() { shared.reset(); }

    void SetUp() override {
        if (!shared)
            GTEST_SKIP() << "node or the npm package oidc-provider is missing: run scripts/install-deps";
        ASSERT_TRUE(shared->failure.empty()) << shared->failure;
    }

    std::shared_ptr<mcp::auth::client_authorizer> authorizer(std::shared_ptr<scripted_browser> browser) {
        return std::make_shared<mcp::auth::client_authorizer>(mcp::auth::client_authorizer_options{
            .store = store, .agent = std::move(browser), .log = [this](std::string_view line) {
                flow_log += std::string(line) + "\n";
            }});
    }

    static inline std::unique_ptr<servers> shared;
    std::shared_ptr<mcp::auth::memory_store> store = std::make_shared<mcp::auth::memory_store>();
    std::string flow_log;
};

TEST_F(client_oauth_vs_oidc_provider, authorization_code_with_pkce_then_tools) {
    const auto& url = shared->mcp_url;
    const auto before = shared->requests().size();
    auto browser = std::make_shared<scripted_browser>();
    auto auth = authorizer(browser);
    mcp::client client{{.info = {.name = "mcpxx-oauth-interop", .version = "1.0"}}};
    client.connect(
        mcp::http::make_client_transport({.url = url, .log = [](std::string_view) {}, .authorizer = auth}));

    const auto tools = client.list_all_tools();
    ASSERT_EQ(tools.size(), 1u);
    EXPECT_EQ(tools[0].name, "echo");
    const auto echoed = client.call_tool("echo", {{"text", "behind oidc-provider"}});
    ASSERT_FALSE(echoed.is_error.value_or(false));
    ASSERT_EQ(echoed.content.size(), 1u);
    EXPECT_EQ(*mcp::text_of(echoed.content[0]), "behind oidc-provider");
    client.close();

    // One visit of the user, to an authorization URL with PKCE S256 and the server as resource.
    const auto visits = browser->visited();
    ASSERT_EQ(visits.size(), 1u);
    auto query = mcp::auth::detail::query_params(visits[0]);
    EXPECT_EQ(visits[0].rfind(shared->issuer + "/", 0), 0u) << visits[0];
    EXPECT_EQ(query["response_type"], "code");
    EXPECT_EQ(query["code_challenge_method"], "S256");
    EXPECT_EQ(query["resource"], url);
    // The challenge's scope (offline_access joins it: the server advertises it).
    EXPECT_NE((" " + query["scope"] + " ").find(" mcp:tools "), std::string::npos) << query["scope"];

    // What the authorization server saw: a registration, the authorization request and the
    // code exchange, both for the MCP server.
    const auto all = shared->requests();
    std::vector<mcp::json::object> seen(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
    auto route = [&](const char* name) {
        for (const auto& r : seen)
            if (mcp::find_string(r, "route").value_or("") == name) return r;
        return mcp::json::object{};
    };
    auto field = [&](const char* name, const char* key) {
        const auto r = route(name);
        const auto* v = r.if_contains(key);
        return v ? mcp::json::serialize(*v) : std::string("(none)");
    };
    const auto quoted = "\"" + url + "\"";
    EXPECT_EQ(field("registration", "status"), "201");
    EXPECT_EQ(field("authorization", "resource"), quoted);
    EXPECT_EQ(field("authorization", "code_challenge_method"), "\"S256\"");
    EXPECT_EQ(field("token", "grant_type"), "\"authorization_code\"");
    EXPECT_EQ(field("token", "resource"), quoted);
    EXPECT_EQ(field("token", "status"), "200");

    // The stored access token is a JWT of that issuer for that audience.
    const auto tokens = store->load_tokens({mcp::auth::canonical_resource_uri(url), shared->issuer});
    ASSERT_TRUE(tokens);
    const auto jwt = mcp::auth::detail::parse_jws(tokens->access_token);
    EXPECT_EQ(mcp::find_string(jwt.payload, "iss").value_or(""), shared->issuer);
    const auto* aud = jwt.payload.if_contains("aud");
    ASSERT_TRUE(aud);
    auto is_url = [&](const mcp::json::value& v) { return v.is_string() && v.get_string() == url; };
    EXPECT_TRUE(is_url(*aud) ||
                (aud->is_array() && aud->as_array().size() == 1 && is_url(aud->as_array()[0])))
        << mcp::json::serialize(*aud);
    EXPECT_EQ(flow_log.find(tokens->access_token), std::string::npos) << "the flow logged the token";
    ASSERT_EQ(browser->returned().size(), 1u);
    const auto code = mcp::auth::detail::query_params(browser->returned()[0])["code"];
    ASSERT_FALSE(code.empty());
    EXPECT_EQ(flow_log.find(code), std::string::npos) << "the flow logged the code";
}

TEST_F(client_oauth_vs_oidc_provider, tampered_state_is_refused_and_nothing_is_stored) {
    const auto& url = shared->mcp_url;
    const auto before = shared->requests().size();
    auto browser = std::make_shared<scripted_browser>(/*tamper_state=*/true);
    auto auth = authorizer(browser);
    try {
        auth->login(url);
        FAIL() << "a tampered state was accepted";
    } catch (const mcp::auth::authorization_error& e) {
        EXPECT_EQ(e.reason(), mcp::auth::auth_failure::state_mismatch);
        EXPECT_NE(std::string(e.what()).find("state"), std::string::npos) << e.what();
    }
    // Through the transport, the caller of mcp::client sees why.
    mcp::client client{{.info = {.name = "mcpxx-oauth-interop", .version = "1.0"}}};
    try {
        client.connect(mcp::http::make_client_transport(
            {.url = url, .log = [](std::string_view) {}, .authorizer = auth}));
        FAIL() << "connected with a tampered state";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("another state than the one sent"), std::string::npos)
            << e.what();
    }
    ASSERT_EQ(browser->visited().size(), 2u);
    const mcp::auth::store_key key{mcp::auth::canonical_resource_uri(url), shared->issuer};
    EXPECT_FALSE(store->load_tokens(key));
    EXPECT_FALSE(store->load_pending(key));
    // The code was never exchanged.
    const auto all = shared->requests();
    for (auto it = all.begin() + static_cast<std::ptrdiff_t>(before); it != all.end(); ++it)
        EXPECT_NE(mcp::find_string(*it, "route").value_or(""), "token");
}

} // namespace
