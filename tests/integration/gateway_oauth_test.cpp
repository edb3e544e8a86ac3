// `mcpxx gateway --oauth-issuer` as a program, in front of an authorization server played by the
// test (metadata and JWKS over HTTP, keys made with OpenSSL): the Protected Resource Metadata, 401
// with resource_metadata, a valid token accepted (its subject in the log as the principal), wrong
// audience / tampered signature / alg none refused with 401, a missing scope 403
// insufficient_scope, and no token in the log. The same against a real authorization server
// (oidc-provider) is tests/interop/oauth_gateway.mjs.
#include "support/eventually.hpp"
#include "support/gateway_fixture.hpp"
#include "support/gateway_process.hpp"
#include "support/raw_process.hpp"
// after the fixtures, as in the other tests that include http/http_server.hpp
#include "support/fake_issuer.hpp"

#include <gmock/gmock.h>

#include <csignal>
#include <filesystem>
#include <unistd.h>

namespace {

using namespace mcp::test;
using mcp::auth::detail::base64url_encode;
using mcp::auth::detail::sign_jws;
using mcp::json::object;
using testing::HasSubstr;
namespace fs = std::filesystem;

class gateway_oauth : public testing::Test {
protected:
    void SetUp() override { dir_ = gateway_process::scratch_dir("mcpxx-gateway-oauth-"); }
    void TearDown() override {
        if (proc_) {
            ::kill(proc_->pid(), SIGTERM);
            proc_->wait(std::chrono::seconds(10));
        }
        proc_.reset();
        const auto log = log_text();
        for (const auto& t : tokens_) EXPECT_EQ(log.find(t), std::string::npos) << "a token in the log";
        fs::remove_all(dir_);
    }

    void start(std::vector<std::string> args) {
        args.push_back("--approve-all");
        auto g = gateway_process::start(dir_ / "mcp.json", args, dir_ / "log.jsonl");
        ASSERT_TRUE(g.process);
        proc_ = std::move(g.process);
        port_ = g.port;
        url_ = g.url;
    }
    std::string log_text() const { return gateway_process::text_of_file(dir_ / "log.jsonl"); }

    std::string token(object changes = {}, const signing_key& k = keys().rsa) {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        object c{{"iss", as_.issuer()}, {"aud", url_}, {"sub", "carol"},
                 {"exp", now + 300},    {"iat", now},  {"scope", "mcp:tools"}};
        for (auto& [n, v] : changes) c[n] = v;
        auto t = sign_jws(k, {{"typ", "at+jwt"}}, c);
        tokens_.push_back(t);
        return t;
    }
    mcp::http::fetch_response list_tools(const std::string& token) const {
        mcp::http::header_list h{{"Content-Type", "application/json"},
                                 {"Accept", "application/json, text/event-stream"},
                                 {"MCP-Protocol-Version", "2026-07-28"},
                                 {"Mcp-Method", "tools/list"}};
        if (!token.empty()) h.emplace_back("Authorization", "Bearer " + token);
        const std::string body =
            R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
        return mcp::http::fetch({.method = "POST", .url = url_, .headers = std::move(h), .body = body});
    }
    static std::string challenge(const mcp::http::fetch_response& r) {
        return std::string(r.header("WWW-Authenticate").value_or(""));
    }

    fake_issuer as_;
    fs::path dir_;
    std::unique_ptr<raw_process> proc_;
    unsigned short port_ = 0;
    std::string url_;
    std::vector<std::string> tokens_;
};

TEST_F(gateway_oauth, a_resource_server_in_front_of_an_authorization_server) {
    start({"--oauth-issuer", as_.issuer(), "--oauth-scope", "mcp:tools"});
    const auto metadata_url =
        "http://127.0.0.1:" + std::to_string(port_) + "/.well-known/oauth-protected-resource/mcp";

    auto meta = mcp::http::fetch({.url = metadata_url});
    ASSERT_EQ(meta.status, 200);
    auto doc = mcp::json::parse(meta.body).as_object();
    EXPECT_EQ(doc.at("resource").as_string(), url_);
    EXPECT_EQ(doc.at("authorization_servers").at(0).as_string(), as_.issuer());
    EXPECT_EQ(mcp::to_json(doc.at("scopes_supported")), R"(["mcp:tools"])");

    auto none = list_tools("");
    EXPECT_EQ(none.status, 401);
    EXPECT_EQ(challenge(none), "Bearer resource_metadata=\"" + metadata_url + "\", scope=\"mcp:tools\"");

    auto ok = list_tools(token());
    ASSERT_EQ(ok.status, 200) << ok.body;
    EXPECT_GT(parse_reply(ok).result().at("tools").as_array().size(), 10u);

    auto wrong_audience = list_tools(token({{"aud", "http://127.0.0.1:1/mcp"}}));
    EXPECT_EQ(wrong_audience.status, 401);
    EXPECT_THAT(challenge(wrong_audience), HasSubstr("another audience"));

    auto good = token();
    auto tampered = good;
    tampered[good.rfind('.') + 3] = good[good.rfind('.') + 3] == 'A' ? 'B' : 'A';
    tokens_.push_back(tampered);
    auto bad_signature = list_tools(tampered);
    EXPECT_EQ(bad_signature.status, 401);
    EXPECT_THAT(challenge(bad_signature), HasSubstr("error=\"invalid_token\""));

    const auto none_token = base64url_encode(R"({"alg":"none","typ":"at+jwt"})") + "." +
                            good.substr(good.find('.') + 1, good.rfind('.') - good.find('.') - 1) + ".AA";
    tokens_.push_back(none_token);
    auto alg_none = list_tools(none_token);
    EXPECT_EQ(alg_none.status, 401);
    EXPECT_THAT(challenge(alg_none), HasSubstr("algorithm is not accepted"));

    auto no_scope = list_tools(token({{"scope", "openid"}}));
    EXPECT_EQ(no_scope.status, 403);
    EXPECT_THAT(challenge(no_scope), HasSubstr("error=\"insufficient_scope\", "));
    EXPECT_THAT(challenge(no_scope), HasSubstr("scope=\"mcp:tools\""));

    // The log names the subject as the request's principal, and the refusals without tokens.
    const auto log = log_text();
    EXPECT_THAT(log, HasSubstr(R"("principal":"carol")"));
    EXPECT_THAT(log, HasSubstr(R"("event":"unauthorized")"));
    EXPECT_THAT(log, HasSubstr(R"("auth":"oauth")"));
}

TEST_F(gateway_oauth, the_audit_log_names_the_subject_and_never_the_token) {
    const auto audit = dir_ / "audit.jsonl";
    start({"--oauth-issuer", as_.issuer(), "--audit-log", audit.string()});
    const auto t = token();
    const std::string body =
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"everything__echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
    auto r = mcp::http::fetch({.method = "POST",
                               .url = url_,
                               .headers = {{"Content-Type", "application/json"},
                                           {"Accept", "application/json, text/event-stream"},
                                           {"MCP-Protocol-Version", "2026-07-28"},
                                           {"Mcp-Method", "tools/call"},
                                           {"Mcp-Name", "everything__echo"},
                                           {"Authorization", "Bearer " + t}},
                               .body = body});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(text_of(parse_reply(r).result()), "hi");
    const auto records = gateway_process::text_of_file(audit);
    EXPECT_THAT(records, HasSubstr(R"("principal":"carol")"));
    EXPECT_EQ(records.find(t), std::string::npos);
    EXPECT_EQ(records.find(t.substr(t.rfind('.') + 1)), std::string::npos); // nor its signature
}

TEST_F(gateway_oauth, the_audience_option_names_the_resource) {
    start({"--oauth-issuer", as_.issuer(), "--oauth-audience", "https://tools.example.com/mcp"});
    auto meta = mcp::http::fetch(
        {.url = "http://127.0.0.1:" + std::to_string(port_) + "/.well-known/oauth-protected-resource/mcp"});
    ASSERT_EQ(meta.status, 200);
    EXPECT_EQ(mcp::json::parse(meta.body).at("resource").as_string(), "https://tools.example.com/mcp");
    EXPECT_EQ(list_tools(token({{"aud", "https://tools.example.com/mcp"}})).status, 200);
    EXPECT_EQ(list_tools(token()).status, 401); // its own URL is not the audience now
}

TEST_F(gateway_oauth, keys_out_of_reach_are_503_and_a_log_line_and_the_rest_is_served) {
    as_.set_mode(fake_issuer::mode::down);
    start({"--oauth-issuer", as_.issuer()});
    auto r = list_tools(token());
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(mcp::http::fetch({.url = "http://127.0.0.1:" + std::to_string(port_) + "/healthz"}).status,
              200);
    EXPECT_THAT(log_text(), HasSubstr("cannot load the keys of " + as_.issuer()));
    as_.set_mode(fake_issuer::mode::ok);
    EXPECT_TRUE(eventually([&] { return list_tools(token()).status == 200; }, std::chrono::seconds(10)));
}

TEST_F(gateway_oauth, options_that_do_not_fit_are_usage_errors) {
    for (std::vector<std::string> args :
         {std::vector<std::string>{"--oauth-audience", "https://x.example/mcp"},
          {"--oauth-issuer", "http://example.com"}, // http off loopback
          {"--oauth-issuer", as_.issuer(), "--stdio"}}) {
        raw_process p([&] {
            std::vector<std::string> argv{built("mcpxx"), "gateway", "--config",
                                          (dir_ / "mcp.json").string()};
            argv.insert(argv.end(), args.begin(), args.end());
            return argv;
        }());
        EXPECT_EQ(p.wait(std::chrono::seconds(20)), 2) << args.back() << "\n" << p.stderr_text();
    }
}

} // namespace
