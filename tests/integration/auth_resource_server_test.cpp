// mcp::auth::resource_server at the wire: an authorization server played by a test HTTP server
// (its metadata and JWKS, keys made with OpenSSL in the test), an mcp::http::server with the
// resource server installed, and requests over real sockets. Every bad token gets a clear 401 or
// 403 and nothing else changes: the next good token still works, and no token reaches a log.
#include "auth/jose.hpp"
#include "crypto/crypto.hpp"
#include "support/eventually.hpp"
#include "support/http_server_fixture.hpp"
// after the fixture: streamable_wire.hpp must come before http/http_server.hpp
#include "support/fake_issuer.hpp"
#include "support/http_test_server.hpp"
#include "support/loopback_port.hpp"

#include <mcp/auth/resource_server.hpp>
#include <mcp/http/fetch.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

using namespace std::chrono_literals;
using namespace mcp::auth::detail;
using mcp::json::object;
using mcp::test::fake_issuer;
using mcp::test::http_test_server;
using mcp::test::keys;
using mcp::test::signing_key;

namespace {

class auth_wire : public ::testing::Test {
protected:
    void TearDown() override {
        if (http) http->stop(0ms);
        // No line of the log names a token.
        std::lock_guard lock(log_mu);
        for (const auto& line : log_lines)
            for (const auto& t : tokens_sent) EXPECT_EQ(line.find(t), std::string::npos) << line;
    }

    void start(mcp::auth::resource_server_options o = {}) {
        port = mcp::test::free_loopback_port();
        resource = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
        if (o.issuer.empty()) o.issuer = as.issuer();
        o.resource = resource;
        as.audience = resource; // before any request reaches it
        if (o.required_scopes.empty()) o.required_scopes = {"mcp"};
        o.tool_scopes = {{"admin", {"admin"}}};
        o.log = [this](std::string_view line) {
            std::lock_guard lock(log_mu);
            log_lines.emplace_back(line);
        };
        mcp_server.add_tool({.name = "whoami", .input_schema = object{{"type", "object"}}},
                            [](const object&, mcp::context& ctx) {
                                return mcp::call_tool_result{.content = {mcp::text(ctx.principal())}};
                            });
        mcp_server.add_tool({.name = "admin", .input_schema = object{{"type", "object"}}},
                            [](const object&, mcp::context&) {
                                return mcp::call_tool_result{.content = {mcp::text("done")}};
                            });
        rs = std::make_unique<mcp::auth::resource_server>(o);
        started = rs->start();
        mcp::http::server_options h{.port = port, .stateful = false};
        h.refused_auth_per_second = 0; // this test sends many bad tokens on purpose
        rs->install(h);
        http = std::make_unique<mcp::http::server>(mcp_server, h);
        http->start();
    }

    object claims(object changes = {}) const {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        object c{{"iss", as.issuer()}, {"aud", resource}, {"sub", "alice"},       {"client_id", "cli"},
                 {"exp", now + 300},   {"iat", now},      {"scope", "mcp openid"}};
        for (auto& [k, v] : changes) c[k] = v;
        return c;
    }
    std::string token(const signing_key& k, object changes = {}, object header = {{"typ", "at+jwt"}}) {
        auto t = sign_jws(k, std::move(header), claims(std::move(changes)));
        tokens_sent.push_back(t);
        return t;
    }

    mcp::http::fetch_response call(std::optional<std::string> authorization, std::string tool = "whoami",
                                   mcp::http::header_list extra = {}) {
        mcp::http::fetch_request r{.method = "POST", .url = resource};
        r.headers = {{"Content-Type", "application/json"},
                     {"Accept", "application/json, text/event-stream"},
                     {"MCP-Protocol-Version", "2025-11-25"}};
        if (authorization) r.headers.emplace_back("Authorization", *authorization);
        for (auto& h : extra) r.headers.push_back(std::move(h));
        r.body = mcp::test::call_body(1, tool);
        return mcp::http::fetch(r);
    }
    std::string answer(const mcp::http::fetch_response& r) {
        auto v = mcp::json::parse(r.body);
        return std::string(v.at("result").at("content").at(0).at("text").as_string());
    }
    std::string challenge(const mcp::http::fetch_response& r) {
        return std::string(r.header("WWW-Authenticate").value_or(""));
    }

    /// A refused token: 401, invalid_token, the description containing `why`; then a good token
    /// still gets through (nothing changed).
    void expect_refused(const std::string& authorization, std::string_view why) {
        auto r = call(authorization);
        EXPECT_EQ(r.status, 401) << why;
        EXPECT_NE(challenge(r).find("error=\"invalid_token\""), std::string::npos) << challenge(r);
        EXPECT_NE(challenge(r).find("resource_metadata=\"" + rs->metadata_url() + "\""), std::string::npos);
        EXPECT_NE(challenge(r).find(why), std::string::npos) << challenge(r);
        EXPECT_EQ(r.body.find(authorization.substr(7)), std::string::npos);
        auto good = call("Bearer " + token(keys().rsa));
        EXPECT_EQ(good.status, 200);
    }

    fake_issuer as;
    mcp::server mcp_server{{.info = {"protected", "1.0"}}};
    unsigned short port = 0;
    std::string resource;
    bool started = false;
    std::unique_ptr<mcp::auth::resource_server> rs;
    std::unique_ptr<mcp::http::server> http;
    std::mutex log_mu;
    std::vector<std::string> log_lines;
    std::vector<std::string> tokens_sent;
};

TEST_F(auth_wire, metadata_is_served_without_a_token_at_both_well_known_uris) {
    start();
    ASSERT_TRUE(started);
    for (auto path : {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}) {
        auto r = mcp::http::fetch({.url = "http://127.0.0.1:" + std::to_string(port) + path});
        ASSERT_EQ(r.status, 200) << path;
        EXPECT_EQ(r.header("Content-Type"), "application/json");
        auto doc = mcp::json::parse(r.body).as_object();
        EXPECT_EQ(doc.at("resource").as_string(), resource);
        EXPECT_EQ(doc.at("authorization_servers").at(0).as_string(), as.issuer());
        EXPECT_EQ(doc.at("bearer_methods_supported").at(0), "header");
        EXPECT_EQ(mcp::to_json(doc.at("scopes_supported")), R"(["mcp","admin"])");
    }
    EXPECT_EQ(rs->metadata_url(),
              "http://127.0.0.1:" + std::to_string(port) + "/.well-known/oauth-protected-resource/mcp");
}

TEST_F(auth_wire, no_token_is_401_with_the_metadata_url_and_no_error) {
    start();
    auto r = call(std::nullopt);
    EXPECT_EQ(r.status, 401);
    EXPECT_EQ(challenge(r), "Bearer resource_metadata=\"" + rs->metadata_url() + "\", scope=\"mcp\"");
    auto other_scheme = call("Basic YWxpY2U6c2VjcmV0");
    EXPECT_EQ(other_scheme.status, 401);
    EXPECT_EQ(challenge(other_scheme).find("error="), std::string::npos);
}

TEST_F(auth_wire, valid_tokens_of_every_algorithm_are_accepted_and_name_the_principal) {
    start();
    for (const auto* k : {&keys().rsa, &keys().rsa_pss, &keys().ec, &keys().ed}) {
        auto r = call("Bearer " + token(*k));
        ASSERT_EQ(r.status, 200) << jws_alg_name(k->alg) << " " << r.body;
        EXPECT_EQ(answer(r), "alice");
    }
    // Without sub (client credentials), the client is the principal; aud may be an array; the
    // scheme is case-insensitive.
    auto r = call("bearer " +
                  token(keys().ec, {{"sub", nullptr}, {"aud", mcp::json::array{"x", resource.c_str()}}}));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(answer(r), "cli");
    EXPECT_EQ(rs->keys(), 4u);
}

TEST_F(auth_wire, malformed_truncated_and_oversized_tokens) {
    start();
    const auto good = token(keys().rsa);
    expect_refused("Bearer abc", "not a JWT");
    expect_refused("Bearer a.b.c", "malformed");
    // Cut inside the signature (40 characters: 30 whole bytes), and inside the payload.
    expect_refused("Bearer " + good.substr(0, good.rfind('.') + 41), "signature does not verify");
    expect_refused("Bearer " + good.substr(0, good.find('.') + 9) + good.substr(good.rfind('.')),
                   "malformed");
    expect_refused("Bearer " + good.substr(0, good.rfind('.')), "not a JWT");
    expect_refused("Bearer " + std::string(9000, 'a'), "longer than 8192 bytes");
    auto twice = call("Bearer " + good, "whoami", {{"Authorization", "Bearer " + good}});
    EXPECT_EQ(twice.status, 400);
    EXPECT_NE(challenge(twice).find("invalid_request"), std::string::npos);
}

TEST_F(auth_wire, alg_none_and_hmac_with_the_public_key_are_refused) {
    start();
    const auto payload = base64url_encode(mcp::to_json(claims()));
    const auto none = base64url_encode(R"({"alg":"none","typ":"at+jwt"})") + "." + payload + ".";
    tokens_sent.push_back(none);
    expect_refused("Bearer " + none, "malformed"); // no signature at all
    expect_refused("Bearer " + none + "AA", "algorithm is not accepted");
    // HS256 "signed" with the RSA public key (as a JWK and as its modulus): the classic confusion.
    const auto pub = keys().rsa.public_jwk();
    for (const std::string& secret :
         std::vector<std::string>{mcp::to_json(pub), std::string(pub.at("n").as_string())}) {
        const auto input = base64url_encode(R"({"alg":"HS256","kid":"rsa1","typ":"at+jwt"})") + "." + payload;
        const auto hs = input + "." + base64url_encode(mcp::detail::hmac_sha256(secret, input));
        tokens_sent.push_back(hs);
        expect_refused("Bearer " + hs, "algorithm is not accepted");
    }
}

TEST_F(auth_wire, claims_that_do_not_hold) {
    start();
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    expect_refused("Bearer " + token(keys().rsa, {{"exp", now - 600}}), "has expired");
    expect_refused("Bearer " + token(keys().rsa, {{"exp", nullptr}}), "no expiry");
    expect_refused("Bearer " + token(keys().rsa, {{"nbf", now + 600}}), "not valid yet");
    expect_refused("Bearer " + token(keys().rsa, {{"iss", "https://evil.example"}}), "another issuer");
    expect_refused("Bearer " + token(keys().rsa, {{"aud", "https://other.example/mcp"}}), "another audience");
    expect_refused("Bearer " + token(keys().rsa, {{"sub", nullptr}, {"client_id", nullptr}}),
                   "neither a subject");
    expect_refused("Bearer " + token(keys().rsa, {}, {{"typ", "dpop+jwt"}}), "not an access token");
    // Within the leeway (60 s) an expiry just passed is still accepted.
    EXPECT_EQ(call("Bearer " + token(keys().rsa, {{"exp", now - 5}})).status, 200);
}

TEST_F(auth_wire, tampered_signature_and_payload) {
    start();
    const auto good = token(keys().ec);
    auto sig_at = good.rfind('.') + 5;
    auto tampered = good;
    tampered[sig_at] = tampered[sig_at] == 'A' ? 'B' : 'A';
    expect_refused("Bearer " + tampered, "signature does not verify");
    // Another payload under the original signature.
    const auto first = good.find('.');
    const auto forged = good.substr(0, first + 1) +
                        base64url_encode(mcp::to_json(claims({{"sub", "root"}}))) +
                        good.substr(good.rfind('.'));
    tokens_sent.push_back(forged);
    expect_refused("Bearer " + forged, "signature does not verify");
    // Signed by a key that claims a kid of the issuer.
    expect_refused("Bearer " + token(keys().stranger), "signature does not verify");
}

TEST_F(auth_wire, an_unknown_kid_refreshes_the_keys_and_a_rotation_is_followed) {
    start({.min_refresh_interval = 0s});
    const auto old_token = token(keys().rsa);
    ASSERT_EQ(call("Bearer " + old_token).status, 200); // verified, and remembered
    const auto before = as.jwks_fetches();
    as.publish({keys().rotated}); // the issuer rotates: rsa1 is gone, rsa2 is new
    auto r = call("Bearer " + token(keys().rotated));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(as.jwks_fetches(), before + 1);
    // The old key went with the rotation: a token it signed is refused now, even one seen before.
    auto old = call("Bearer " + old_token);
    EXPECT_EQ(old.status, 401);
    EXPECT_NE(challenge(old).find("a key this server does not know"), std::string::npos) << challenge(old);
}

TEST_F(auth_wire, unknown_kids_do_not_hammer_the_issuer) {
    start({.min_refresh_interval = 1h});
    const auto before = as.jwks_fetches();
    for (int i = 0; i < 5; ++i) {
        auto r = call("Bearer " + token(keys().rotated));
        EXPECT_EQ(r.status, 401);
        EXPECT_NE(challenge(r).find("a key this server does not know"), std::string::npos);
    }
    EXPECT_EQ(as.jwks_fetches(), before);
}

TEST_F(auth_wire, missing_scope_is_403_insufficient_scope) {
    start();
    auto r = call("Bearer " + token(keys().rsa, {{"scope", "openid"}}));
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(challenge(r),
              "Bearer resource_metadata=\"" + rs->metadata_url() +
                  "\", scope=\"mcp\", error=\"insufficient_scope\", error_description=\"the token "
                  "lacks a scope this request needs\"");
    // A tool that needs more: in the body (2025-11-25) and in the headers (2026-07-28).
    auto admin = call("Bearer " + token(keys().rsa), "admin");
    EXPECT_EQ(admin.status, 403);
    EXPECT_NE(challenge(admin).find("scope=\"mcp admin\""), std::string::npos);
    mcp::http::fetch_request stateless{.method = "POST", .url = resource};
    stateless.headers = {{"Content-Type", "application/json"},
                         {"Accept", "application/json, text/event-stream"},
                         {"MCP-Protocol-Version", "2026-07-28"},
                         {"Mcp-Method", "tools/call"},
                         {"Mcp-Name", "admin"},
                         {"Authorization", "Bearer " + token(keys().rsa)}};
    stateless.body = mcp::test::call_body(1, "admin", "{}", mcp::test::stateless_meta);
    auto by_header = mcp::http::fetch(stateless);
    EXPECT_EQ(by_header.status, 403);
    EXPECT_NE(challenge(by_header).find("scope=\"mcp admin\""), std::string::npos) << challenge(by_header);
    auto with_scope = call("Bearer " + token(keys().rsa, {{"scope", "mcp admin"}}), "admin");
    EXPECT_EQ(with_scope.status, 200);
    EXPECT_EQ(answer(with_scope), "done");
    // scp as an array counts as well.
    EXPECT_EQ(
        call("Bearer " + token(keys().rsa, {{"scope", nullptr}, {"scp", mcp::json::array{"mcp"}}})).status,
        200);
}

TEST_F(auth_wire, keys_down_at_start_is_503_and_one_log_line_then_recovers) {
    as.set_mode(fake_issuer::mode::down);
    start({.start_wait = 200ms});
    EXPECT_FALSE(started);
    auto r = call("Bearer " + token(keys().rsa));
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(r.header("Retry-After"), "5");
    EXPECT_NE(r.body.find("keys cannot be loaded"), std::string::npos);
    // The rest goes on: the metadata, and a request without a token gets its 401.
    EXPECT_EQ(mcp::http::fetch({.url = rs->metadata_url()}).status, 200);
    EXPECT_EQ(call(std::nullopt).status, 401);
    {
        std::lock_guard lock(log_mu);
        ASSERT_EQ(log_lines.size(), 1u);
        EXPECT_NE(log_lines[0].find("cannot load the keys of " + as.issuer()), std::string::npos)
            << log_lines[0];
        EXPECT_NE(log_lines[0].find("HTTP 503"), std::string::npos) << log_lines[0];
    }
    as.set_mode(fake_issuer::mode::ok);
    EXPECT_TRUE(mcp::test::eventually([&] { return rs->keys() == 4; }, 10s));
    EXPECT_EQ(call("Bearer " + token(keys().rsa)).status, 200);
    std::lock_guard lock(log_mu);
    EXPECT_EQ(log_lines.size(), 2u);
    EXPECT_NE(log_lines.back().find("available again"), std::string::npos);
}

TEST_F(auth_wire, a_garbage_key_set_is_503_and_named_in_the_log) {
    as.set_mode(fake_issuer::mode::garbage);
    start({.start_wait = 200ms});
    EXPECT_FALSE(started);
    EXPECT_EQ(call("Bearer " + token(keys().ec)).status, 503);
    std::lock_guard lock(log_mu);
    ASSERT_EQ(log_lines.size(), 1u);
    EXPECT_NE(log_lines[0].find("is not a JSON object"), std::string::npos) << log_lines[0];
}

TEST_F(auth_wire, a_metadata_document_for_another_issuer_is_refused) {
    // The same server under another name: its metadata names 127.0.0.1, not localhost (RFC 8414
    // 3.3: the document must be the issuer's own).
    auto localhost = as.issuer();
    localhost.replace(localhost.find("127.0.0.1"), 9, "localhost");
    start({.issuer = localhost, .start_wait = 200ms});
    EXPECT_FALSE(started);
    EXPECT_EQ(call("Bearer " + token(keys().rsa, {{"iss", localhost}})).status, 503);
    std::lock_guard lock(log_mu);
    ASSERT_FALSE(log_lines.empty());
    EXPECT_NE(log_lines[0].find("is for another issuer"), std::string::npos) << log_lines[0];
}

TEST_F(auth_wire, an_issuer_without_metadata_is_named_in_the_log) {
    start({.issuer = as.issuer() + "/tenant", .start_wait = 200ms});
    EXPECT_FALSE(started);
    std::lock_guard lock(log_mu);
    ASSERT_FALSE(log_lines.empty());
    EXPECT_NE(log_lines[0].find("no metadata found for issuer " + as.issuer() + "/tenant"), std::string::npos)
        << log_lines[0];
    EXPECT_NE(log_lines[0].find("/.well-known/openid-configuration/tenant answered HTTP 404"),
              std::string::npos)
        << log_lines[0];
}

TEST_F(auth_wire, opaque_tokens_are_introspected_and_cached) {
    start({.introspection_client_id = "rs", .introspection_client_secret = "s3cret"});
    tokens_sent = {"opaque-good-token-1", "opaque-bad-token-2"};
    auto r = call("Bearer opaque-good-token-1");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(answer(r), "bob");
    EXPECT_EQ(call("Bearer opaque-good-token-1").status, 200);
    EXPECT_EQ(as.introspections(), 1); // the second came from the cache
    auto bad = call("Bearer opaque-bad-token-2");
    EXPECT_EQ(bad.status, 401);
    EXPECT_NE(challenge(bad).find("not active"), std::string::npos) << challenge(bad);
    EXPECT_EQ(as.introspections(), 2);
}

TEST_F(auth_wire, without_introspection_an_opaque_token_is_refused_without_a_network_call) {
    start();
    tokens_sent = {"opaque-good-token-1"};
    expect_refused("Bearer opaque-good-token-1", "not a JWT");
    EXPECT_EQ(as.introspections(), 0);
}

TEST(auth_resource, the_resource_can_be_named_after_the_server_is_bound) {
    fake_issuer as;
    mcp::server s({.info = {"late", "1.0"}});
    mcp::auth::resource_server rs(
        {.issuer = as.issuer(), .required_scopes = {"mcp"}, .log = [](std::string_view) {}});
    ASSERT_TRUE(rs.start());
    mcp::http::server_options h{.port = 0};
    rs.install(h);
    mcp::http::server http(s, h);
    http.start();
    // Not named yet: no metadata, and tokens cannot be checked for an audience: 503 for now.
    EXPECT_EQ(mcp::http::fetch({.url = "http://127.0.0.1:" + std::to_string(http.port()) +
                                       "/.well-known/oauth-protected-resource/mcp"})
                  .status,
              503);
    auto early = mcp::http::fetch(
        {.method = "POST", .url = http.url(), .headers = {{"Authorization", "Bearer x.y.z"}}});
    EXPECT_EQ(early.status, 503);
    rs.set_resource(http.url());
    auto meta = mcp::http::fetch({.url = rs.metadata_url()});
    ASSERT_EQ(meta.status, 200);
    EXPECT_EQ(mcp::json::parse(meta.body).at("resource").as_string(), http.url());
    EXPECT_THROW(rs.set_resource("ftp://example.com/mcp"), std::invalid_argument);
    EXPECT_THROW(mcp::auth::resource_server({.issuer = "http://example.com"}),
                 std::invalid_argument); // http off loopback
    EXPECT_THROW(mcp::auth::resource_server({.issuer = ""}), std::invalid_argument);
    http.stop(0ms);
}

// ---- DPoP ----

class auth_dpop : public auth_wire {
protected:
    std::string bound_token() {
        return token(keys().rsa, {{"cnf", object{{"jkt", jwk_thumbprint(keys().client.public_jwk())}}}});
    }
    std::string proof(const std::string& access_token, object changes = {}, const signing_key* by = nullptr,
                      object header = {}) {
        const auto& k = by ? *by : keys().client;
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        object p{{"htm", "POST"},
                 {"htu", resource},
                 {"iat", now},
                 {"jti", mcp::detail::random_hex_id()},
                 {"ath", base64url_encode(mcp::detail::sha256(access_token))}};
        for (auto& [n, v] : changes) p[n] = v;
        if (header.empty()) header = {{"typ", "dpop+jwt"}, {"jwk", k.public_jwk()}};
        return sign_jws(k, std::move(header), p);
    }
    void expect_proof_refused(const std::string& t, const std::string& dpop, std::string_view why) {
        auto r = call("DPoP " + t, "whoami", {{"DPoP", dpop}});
        EXPECT_EQ(r.status, 401) << why;
        EXPECT_TRUE(challenge(r).starts_with("DPoP ")) << challenge(r);
        EXPECT_NE(challenge(r).find(why), std::string::npos) << challenge(r);
    }
};

TEST_F(auth_dpop, a_bound_token_with_its_proof_is_accepted_once) {
    start();
    const auto t = bound_token();
    const auto p = proof(t);
    auto r = call("DPoP " + t, "whoami", {{"DPoP", p}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(answer(r), "alice");
    expect_proof_refused(t, p, "used before");
    EXPECT_EQ(call("DPoP " + t, "whoami", {{"DPoP", proof(t)}}).status, 200); // a fresh proof
}

TEST_F(auth_dpop, every_proof_check) {
    start();
    const auto t = bound_token();
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    expect_proof_refused(t, proof(t, {{"htm", "GET"}}), "htm");
    expect_proof_refused(t, proof(t, {{"htu", "http://127.0.0.1:1/mcp"}}), "htu");
    expect_proof_refused(t, proof(t, {{"ath", base64url_encode(mcp::detail::sha256("other"))}}), "ath");
    expect_proof_refused(t, proof(t, {{"iat", now - 600}}), "iat");
    expect_proof_refused(t, proof(t, {{"jti", nullptr}}), "jti");
    expect_proof_refused(t, proof(t, {}, &keys().ec), "another key");
    expect_proof_refused(t, proof(t, {}, nullptr, {{"typ", "JWT"}, {"jwk", keys().client.public_jwk()}}),
                         "typ");
    expect_proof_refused(t, proof(t, {}, nullptr, {{"typ", "dpop+jwt"}}), "no jwk");
    // The jwk says one key, the signature is another's.
    expect_proof_refused(t,
                         proof(t, {}, &keys().ec, {{"typ", "dpop+jwt"}, {"jwk", keys().client.public_jwk()}}),
                         "does not verify");
    expect_proof_refused(t, "not.a.proof", "malformed");
    // A bound token as a plain bearer token, or without a proof.
    auto bearer = call("Bearer " + t);
    EXPECT_EQ(bearer.status, 401);
    EXPECT_NE(challenge(bearer).find("use Authorization: DPoP"), std::string::npos);
    EXPECT_EQ(call("DPoP " + t).status, 401);
    // The DPoP scheme with an unbound token.
    expect_proof_refused(token(keys().rsa), proof(token(keys().rsa)), "not DPoP-bound");
    // The query string is not part of htu; the path is.
    EXPECT_EQ(call("DPoP " + t, "whoami", {{"DPoP", proof(t, {{"htu", resource + "?x=1"}})}}).status, 200);
}

} // namespace
