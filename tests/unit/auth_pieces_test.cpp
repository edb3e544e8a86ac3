// The small pieces of the resource server: where an issuer's metadata is looked for (RFC 8414 /
// OpenID Connect order), htu comparison, scope claims, form encoding, challenge quoting, and the
// DPoP replay cache's bound.
#include "auth/challenge.hpp"
#include "auth/dpop.hpp"
#include "auth/introspection.hpp"
#include "auth/issuer_keys.hpp"
#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

#include <gtest/gtest.h>

namespace {

using namespace mcp::auth::detail;

TEST(auth_pieces, metadata_urls_in_the_specified_order) {
    EXPECT_EQ(metadata_urls("https://as.example.com"),
              (std::vector<std::string>{"https://as.example.com/.well-known/oauth-authorization-server",
                                        "https://as.example.com/.well-known/openid-configuration"}));
    EXPECT_EQ(metadata_urls("https://as.example.com/"), metadata_urls("https://as.example.com"));
    EXPECT_EQ(metadata_urls("https://as.example.com:8443/realms/tools"),
              (std::vector<std::string>{
                  "https://as.example.com:8443/.well-known/oauth-authorization-server/realms/tools",
                  "https://as.example.com:8443/.well-known/openid-configuration/realms/tools",
                  "https://as.example.com:8443/realms/tools/.well-known/openid-configuration"}));
    EXPECT_TRUE(metadata_urls("not a url").empty());
}

TEST(auth_pieces, htu_comparison) {
    EXPECT_TRUE(same_htu("https://Server.Example.com/mcp", "https://server.example.com:443/mcp"));
    EXPECT_TRUE(same_htu("http://127.0.0.1:80/mcp?x=1#f", "http://127.0.0.1/mcp"));
    EXPECT_FALSE(same_htu("https://server.example.com/mcp", "http://server.example.com/mcp"));
    EXPECT_FALSE(same_htu("https://server.example.com/mcp", "https://server.example.com/MCP"));
    EXPECT_FALSE(same_htu("https://server.example.com:8443/mcp", "https://server.example.com/mcp"));
    EXPECT_FALSE(same_htu("/mcp", "/mcp"));
}

TEST(auth_pieces, scopes_from_scope_or_scp) {
    EXPECT_EQ(token_scopes(mcp::json::parse(R"({"scope":"a  b c"})").as_object()),
              (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(token_scopes(mcp::json::parse(R"({"scp":["a",1,"b"]})").as_object()),
              (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(token_scopes(mcp::json::parse(R"({"scp":"a b"})").as_object()),
              (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(token_scopes(mcp::json::parse(R"({"scope":7})").as_object()).empty());
}

TEST(auth_pieces, form_encoding) {
    EXPECT_EQ(form_encode("a-b_c.d~e"), "a-b_c.d~e");
    EXPECT_EQ(form_encode("a b+c/=&\xc3\xa9"), "a%20b%2Bc%2F%3D%26%C3%A9");
}

TEST(auth_pieces, challenge_values_stay_quoted_strings) {
    challenge c("https://s.example/.well-known/oauth-protected-resource/mcp", {"a", "b"});
    auto d = c.refuse({401, "invalid_token", "the \"alg\" is \\ odd\r\n"}, false);
    ASSERT_EQ(d.headers.size(), 1u);
    EXPECT_EQ(d.headers[0].second,
              "Bearer resource_metadata=\"https://s.example/.well-known/oauth-protected-resource/mcp\", "
              "error=\"invalid_token\", error_description=\"the 'alg' is ' odd''\"");
    EXPECT_EQ(c.no_token().headers[0].second,
              "Bearer resource_metadata=\"https://s.example/.well-known/oauth-protected-resource/mcp\", "
              "scope=\"a b\"");
    auto unavailable = c.refuse({503, "", "later"}, false);
    EXPECT_EQ(unavailable.status, 503);
    EXPECT_EQ(unavailable.headers[0].first, "Retry-After");
}

TEST(auth_pieces, the_replay_cache_is_bounded_and_each_proof_is_spent_once) {
    const auto client = generate_signing_key(jws_alg::eddsa);
    const auto jkt = jwk_thumbprint(client.public_jwk());
    const std::string token = "the-access-token";
    const std::string url = "https://s.example/mcp";
    const auto now = std::chrono::system_clock::now();
    const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    auto proof = [&](const std::string& jti) {
        return sign_jws(client, {{"typ", "dpop+jwt"}, {"jwk", client.public_jwk()}},
                        {{"htm", "POST"},
                         {"htu", url},
                         {"iat", secs},
                         {"jti", jti},
                         {"ath", base64url_encode(mcp::detail::sha256(token))}});
    };
    dpop_verifier v(std::chrono::seconds(60), 2);
    const dpop_request req{"POST", url, token, jkt};
    const auto p1 = proof("1"), p2 = proof("2"), p3 = proof("3");
    EXPECT_FALSE(v.check(p1, req, now));
    EXPECT_EQ(v.check(p1, req, now), "the DPoP proof was used before");
    EXPECT_FALSE(v.check(p2, req, now));
    EXPECT_FALSE(v.check(p3, req, now)); // the oldest (1) makes way
    EXPECT_EQ(v.check(p3, req, now), "the DPoP proof was used before");
    // Once the window has passed, a proof is refused for its iat, whatever the cache holds.
    EXPECT_EQ(v.check(proof("4"), req, now + std::chrono::minutes(5)),
              "the DPoP proof's iat is outside the accepted window");
}

} // namespace
