// `mcpxx auth`, `logout` and `login` over the user's credential store (XDG_CONFIG_HOME of the
// test): who is signed in where, shown by the configured name, never a token; signing out keeps
// the client registration unless told; a store others can read, a server that is not remote or
// not configured, a redirect URI to another machine: clear errors with exit code 2.
#include <mcp/auth/file_credential_store.hpp>

#include "support/host_fixture.hpp"
#include "support/http_test_server.hpp"
#include "support/program_output.hpp"

#include <boost/json.hpp>
#include <boost/url/parse.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using mcp::test::run_result;

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";
const mcp::auth::store_key key{"https://mcp.example.com/mcp", "https://auth.example.com"};

struct cli_auth_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    fs::path config = dirs.root / "servers.json";
    mcp::auth::file_credential_store store{dirs.root / "xdg-config/mcpxx/credentials"};

    void SetUp() override {
        dirs.write(config, R"({"mcpServers": {
            "gh": {"type": "http", "url": "https://MCP.example.com/mcp/", "oauth": {"clientId": "cid"}},
            "far": {"type": "http", "url": "https://far.example.com/mcp",
                    "oauth": {"redirectUri": "http://auth-helper.example.com:8976/callback"}},
            "local": {"command": "/bin/true"}}})");
    }

    void sign_in_by_hand() {
        mcp::auth::token_set t;
        t.access_token = "SECRET-ACCESS";
        t.refresh_token = "SECRET-REFRESH";
        t.scope = "repo read:org";
        t.expires_at = std::chrono::system_clock::time_point(std::chrono::seconds(1'900'000'000));
        store.save_tokens(key, t);
        store.save_client(key, {.client_id = "cid", .client_secret = "SECRET-CLIENT"});
    }

    /// How mcpxx is run: HOME and XDG_CONFIG_HOME in the test's directory (never the real
    /// ~/.config), and `extra_env`.
    mcp::test::program_run program(const std::vector<std::string>& args,
                                   std::vector<std::pair<std::string, std::string>> extra_env = {}) const {
        std::vector<std::string> argv{mcpxx};
        argv.insert(argv.end(), args.begin(), args.end());
        extra_env.insert(extra_env.end(), {{"HOME", dirs.home.string()},
                                           {"XDG_CONFIG_HOME", (dirs.root / "xdg-config").string()},
                                           {"NO_COLOR", "1"}});
        return {.argv = std::move(argv), .files = dirs.root, .cwd = dirs.project, .env = std::move(extra_env)};
    }
    run_result run(const std::vector<std::string>& args) const { return mcp::test::run_program(program(args)); }
    static void expect_no_secret(const run_result& r) {
        for (const auto* s : {"SECRET-ACCESS", "SECRET-REFRESH", "SECRET-CLIENT"}) {
            EXPECT_EQ(r.out.find(s), std::string::npos) << r.out;
            EXPECT_EQ(r.err.find(s), std::string::npos) << r.err;
        }
    }
};

TEST_F(cli_auth_test, auth_lists_sign_ins_by_name_and_never_a_token) {
    auto r = run({"auth", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Not signed in anywhere (mcpxx login SERVER signs in)\n");

    sign_in_by_hand();
    r = run({"auth", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("SERVER"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("gh (https://mcp.example.com/mcp)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("https://auth.example.com"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2030-03-17 17:46 UTC *"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("repo read:org"), std::string::npos) << r.out;
    expect_no_secret(r);

    r = run({"auth", "--json", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = boost::json::parse(r.out).as_object();
    const auto& row = doc.at("logins").as_array().at(0).as_object();
    EXPECT_EQ(row.at("server"), "https://mcp.example.com/mcp");
    EXPECT_EQ(row.at("issuer"), "https://auth.example.com");
    EXPECT_EQ(row.at("name"), "gh");
    EXPECT_EQ(row.at("expiresAt"), 1'900'000'000);
    EXPECT_EQ(row.at("refreshable"), true);
    EXPECT_EQ(row.at("clientId"), "cid");
    expect_no_secret(r);
}

TEST_F(cli_auth_test, logout_forgets_the_tokens_and_with_forget_client_everything) {
    sign_in_by_hand();
    auto r = run({"logout", "gh", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Signed out of \"gh\"\n");
    EXPECT_FALSE(store.load_tokens(key));
    EXPECT_TRUE(store.load_client(key)); // the next sign-in need not register again
    r = run({"logout", "https://mcp.example.com/mcp", "--forget-client"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(store.load_client(key));
    EXPECT_TRUE(fs::is_empty(store.folder()));
    r = run({"logout", "gh", "--config", config.string()});
    EXPECT_EQ(r.out, "Not signed in to \"gh\"\n");
}

TEST_F(cli_auth_test, a_store_others_can_read_is_refused) {
    sign_in_by_hand();
    fs::permissions(store.file_for(key), fs::perms(0644));
    auto r = run({"auth", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(store.file_for(key).string() + " may be read or changed by other users"), std::string::npos)
        << r.err;
    expect_no_secret(r);
    fs::permissions(store.folder(), fs::perms(0755));
    r = run({"logout", "gh", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(store.folder().string() + " may be read or changed by other users"), std::string::npos)
        << r.err;
}

TEST_F(cli_auth_test, login_refuses_what_it_cannot_sign_in_to) {
    auto r = run({"login", "nosuch", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: no server named \"nosuch\" is configured (give its name or its URL)\n");
    r = run({"login", "local", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: server \"local\" is a local (command) server; OAuth is for remote servers\n");
    r = run({"login", "far", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: the redirect URI must point to this machine (127.0.0.1, [::1] or localhost), "
                     "not to another host\n");
    r = run({"login", "ftp://x.example/mcp"});
    EXPECT_EQ(r.exit_code, 2);
}

// A protected MCP server and its authorization server on one loopback port, as a browser and
// mcpxx meet them: metadata, registration, an authorization endpoint that redirects at once
// (the user "approves"), the token endpoint; the MCP endpoint answers 401 without a token.
struct cli_auth_flow : cli_auth_test {
    mcp::test::http_test_server as;
    std::string origin = "http://127.0.0.1:" + std::to_string(as.port());
    fs::path bin = dirs.root / "bin";

    void SetUp() override {
        cli_auth_test::SetUp();
        dirs.write(config, R"({"mcpServers": {"up": {"type": "http", "url": ")" + origin + R"(/mcp"}}})");
        // The "browser": xdg-open that follows the authorization server's redirect to mcpxx.
        dirs.write(bin / "xdg-open", "#!/bin/sh\nexec curl -s -L -o /dev/null --max-time 20 \"$1\"\n");
        fs::permissions(bin / "xdg-open", fs::perms(0755));
        as.set_handler([this](const mcp::test::recorded_request& r, std::shared_ptr<mcp::test::core::response_writer> w) {
            const auto json = [&](int status, boost::json::object body) {
                w->respond(status, {{"Content-Type", "application/json"}}, boost::json::serialize(body));
            };
            const std::string path = r.target.substr(0, r.target.find('?'));
            if (path == "/mcp" && !r.header("Authorization")) {
                w->respond(401, {{"WWW-Authenticate", "Bearer resource_metadata=\"" + origin +
                                                          "/.well-known/oauth-protected-resource/mcp\""}},
                           "");
            } else if (path == "/.well-known/oauth-protected-resource/mcp") {
                json(200, {{"resource", origin + "/mcp"}, {"authorization_servers", boost::json::array{origin}}});
            } else if (path == "/.well-known/oauth-authorization-server") {
                json(200, {{"issuer", origin},
                           {"authorization_endpoint", origin + "/authorize"},
                           {"token_endpoint", origin + "/token"},
                           {"registration_endpoint", origin + "/register"},
                           {"response_types_supported", boost::json::array{"code"}},
                           {"code_challenge_methods_supported", boost::json::array{"S256"}},
                           {"authorization_response_iss_parameter_supported", true}});
            } else if (path == "/register") {
                auto req = boost::json::parse(r.body).as_object();
                json(201, {{"client_id", "dyn-client"},
                           {"redirect_uris", req.at("redirect_uris")},
                           {"token_endpoint_auth_method", "none"}});
            } else if (path == "/authorize") {
                std::string redirect, state;
                for (const auto& p : boost::urls::parse_origin_form(r.target)->params()) {
                    if (p.key == "redirect_uri") redirect = p.value;
                    if (p.key == "state") state = p.value;
                }
                w->respond(302, {{"Location", redirect + "?code=CODE-SECRET&state=" + state + "&iss=" + origin}}, "");
            } else if (path == "/token") {
                json(200, {{"access_token", "SECRET-ACCESS"}, {"token_type", "Bearer"}, {"expires_in", 3600},
                           {"refresh_token", "SECRET-REFRESH"}, {"scope", "mcp"}});
            } else {
                w->respond(404, {}, "");
            }
        });
    }

    /// With a display and the test's xdg-open first on PATH.
    mcp::test::program_run with_browser(const std::vector<std::string>& args) const {
        return program(args, {{"PATH", bin.string() + ":/usr/bin:/bin"}, {"DISPLAY", ":99"}});
    }
};

TEST_F(cli_auth_flow, login_signs_in_through_the_browser_and_keeps_the_tokens) {
    auto r = mcp::test::run_program(with_browser({"login", "up", "--config", config.string()}));
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("Opening the browser to sign in. If it does not open, visit:\n  " + origin + "/authorize?"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("Signed in to \"up\""), std::string::npos) << r.err;
    for (const auto* secret : {"SECRET-ACCESS", "SECRET-REFRESH", "CODE-SECRET"}) {
        EXPECT_EQ(r.out.find(secret), std::string::npos);
        EXPECT_EQ(r.err.find(secret), std::string::npos);
    }
    // The redirect came to mcpxx's loopback receiver, registered as the client's redirect URI.
    const auto authorize = as.requests([](const auto& q) { return q.target.rfind("/authorize?", 0) == 0; });
    ASSERT_EQ(authorize.size(), 1u);
    std::string redirect_uri;
    for (const auto& p : boost::urls::parse_origin_form(authorize[0].target)->params())
        if (p.key == "redirect_uri") redirect_uri = p.value;
    EXPECT_EQ(redirect_uri.rfind("http://127.0.0.1:", 0), 0u) << redirect_uri;
    EXPECT_EQ(redirect_uri.substr(redirect_uri.size() - 9), "/callback") << redirect_uri;
    const mcp::auth::store_key stored{origin + "/mcp", origin};
    const auto tokens = store.load_tokens(stored);
    ASSERT_TRUE(tokens);
    EXPECT_EQ(tokens->access_token, "SECRET-ACCESS");
    struct stat st {};
    ASSERT_EQ(::stat(store.file_for(stored).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);

    r = run({"auth", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("up (" + origin + "/mcp)"), std::string::npos) << r.out;
    expect_no_secret(r);
}

TEST_F(cli_auth_flow, a_command_on_a_terminal_offers_to_sign_in) {
    int master = -1, slave = -1;
    ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
    auto pr = with_browser({"tools", "up", "--config", config.string()});
    pr.stdin_fd = slave;
    pr.close_in_child = {master};
    pr.new_session = true;
    const pid_t pid = mcp::test::start_program(pr);
    ::close(slave);
    ASSERT_EQ(::write(master, "y\n", 2), 2); // typed ahead: the terminal keeps it for the question
    std::atomic<bool> done{false};
    std::thread drain([&] { // what the terminal echoes is read, so that the program never blocks on it
        char buf[1024];
        while (!done) {
            pollfd p{master, POLLIN, 0};
            if (::poll(&p, 1, 50) > 0 && ::read(master, buf, sizeof buf) <= 0) break;
        }
    });
    const auto r = mcp::test::finish_program(pid, pr);
    done = true;
    drain.join();
    ::close(master);
    EXPECT_NE(r.err.find("Server \"up\" (" + origin + "/mcp) needs you to sign in. Sign in now? [Y/n]"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("Signed in to \"up\""), std::string::npos) << r.err;
    EXPECT_TRUE(store.load_tokens({origin + "/mcp", origin}));
    // Connected again with the token (this test's server has no MCP behind it: 404).
    EXPECT_FALSE(as.requests([](const auto& q) { return q.target == "/mcp" && q.header("Authorization"); }).empty());
    EXPECT_EQ(r.exit_code, 3) << r.err;
}

TEST_F(cli_auth_flow, an_expired_token_of_a_pre_registered_client_is_renewed_without_the_user) {
    dirs.write(config, R"({"mcpServers": {"up": {"type": "http", "url": ")" + origin +
                           R"(/mcp", "oauth": {"clientId": "pre-registered"}}}})");
    // Signed in earlier: discovery kept, the token expired, a refresh token at hand.
    const mcp::auth::store_key stored{origin + "/mcp", origin};
    ASSERT_EQ(mcp::test::run_program(with_browser({"login", "up", "--config", config.string()})).exit_code, 0);
    auto t = *store.load_tokens(stored);
    t.access_token = "SECRET-OLD";
    t.expires_at = std::chrono::system_clock::now() - std::chrono::hours(1);
    store.save_tokens(stored, t);
    const auto before = as.requests([](const auto& q) { return q.target == "/token"; }).size();

    const auto r = run({"tools", "up", "--config", config.string()}); // no terminal, no browser
    EXPECT_EQ(r.err.find("sign in first"), std::string::npos) << r.err;
    const auto token_requests = as.requests([](const auto& q) { return q.target == "/token"; });
    ASSERT_EQ(token_requests.size(), before + 1) << r.err;
    EXPECT_NE(token_requests.back().body.find("grant_type=refresh_token"), std::string::npos);
    EXPECT_EQ(store.load_tokens(stored)->access_token, "SECRET-ACCESS");
    expect_no_secret(r);
}

TEST_F(cli_auth_flow, a_command_without_a_terminal_says_how_to_sign_in) {
    auto r = run({"tools", "up", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("sign in first: run \"mcpxx login up\""), std::string::npos) << r.err;
    // Nothing was registered and no browser was asked for: the sign-in is the user's to start.
    EXPECT_TRUE(as.requests([](const auto& q) { return q.target == "/register"; }).empty());
}

} // namespace
