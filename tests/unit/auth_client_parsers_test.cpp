// The parsers and checks of the OAuth client, without a network: WWW-Authenticate (RFC 9110),
// PKCE S256 (the RFC 7636 appendix B vector), canonical resource URIs and well-known metadata
// locations (RFC 9728, RFC 8414, OpenID Connect discovery), the checks on Protected Resource
// Metadata and authorization server metadata, and the in-memory store.
#include "auth/metadata.hpp"
#include "auth/urls.hpp"

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/auth/pkce.hpp>
#include <mcp/auth/www_authenticate.hpp>

#include <gtest/gtest.h>

#include <set>

namespace auth = mcp::auth;
using auth::auth_failure;

namespace {

auth_failure failure_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const auth::authorization_error& e) {
        return e.reason();
    }
    ADD_FAILURE() << "no authorization_error";
    return auth_failure::cancelled;
}

std::string invalid_message(std::string_view field) {
    try {
        auth::parse_www_authenticate(field);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

// ---- WWW-Authenticate

TEST(WwwAuthenticate, BearerWithQuotedAndTokenParameters) {
    const auto c = auth::parse_www_authenticate(
        R"(Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write", error=insufficient_scope)");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].scheme, "Bearer");
    EXPECT_EQ(c[0].param("resource_metadata"), "https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
    EXPECT_EQ(c[0].param("scope"), "files:read files:write");
    EXPECT_EQ(c[0].param("error"), "insufficient_scope");
    EXPECT_FALSE(c[0].param("realm").has_value());
}

TEST(WwwAuthenticate, NamesAndSchemesAreCaseInsensitiveAndEscapesAreRead) {
    const auto c = auth::parse_www_authenticate(R"(bEaReR Scope="a \"quoted\" b, with comma" , REALM = x)");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_NE(auth::find_challenge(c, "Bearer"), nullptr);
    EXPECT_EQ(c[0].param("scope"), R"(a "quoted" b, with comma)");
    EXPECT_EQ(c[0].param("realm"), "x");
}

TEST(WwwAuthenticate, SeveralChallengesAndToken68) {
    const auto c = auth::parse_www_authenticate(
        R"(Basic realm="simple", Newauth realm="apps", type=1, title="Login to \"apps\"", Token dXNlcjpwdw==, Bearer scope="mcp")");
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].param("realm"), "simple");
    EXPECT_EQ(c[1].scheme, "Newauth");
    EXPECT_EQ(c[1].params.size(), 3u);
    EXPECT_EQ(c[1].param("title"), R"(Login to "apps")");
    EXPECT_EQ(c[2].token68, "dXNlcjpwdw==");
    ASSERT_NE(auth::find_challenge(c, "bearer"), nullptr);
    EXPECT_EQ(auth::find_challenge(c, "bearer")->param("scope"), "mcp");
}

TEST(WwwAuthenticate, Token68MayEndInPadding) {
    const auto c = auth::parse_www_authenticate("Bearer abc=, Basic eA==");
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].token68, "abc=");
    EXPECT_EQ(c[1].token68, "eA==");
}

TEST(WwwAuthenticate, BareSchemeAndEmptyListElements) {
    const auto c = auth::parse_www_authenticate(" , Bearer, , DPoP algs=\"ES256\"");
    ASSERT_EQ(c.size(), 2u);
    EXPECT_TRUE(c[0].params.empty());
    EXPECT_EQ(c[1].param("algs"), "ES256");
    EXPECT_TRUE(auth::parse_www_authenticate("").empty());
}

TEST(WwwAuthenticate, MalformedFieldsAreRefusedWithoutRepeatingThem) {
    for (const std::string_view bad : {R"(Bearer scope="never closed)", R"(Bearer scope="a", =b)", "Bearer =x",
                                       "Bearer scope=\"a\" junk", "Bearer scope=\"tab\x01\"", "\"quoted\""}) {
        const std::string m = invalid_message(bad);
        EXPECT_NE(m.find("malformed WWW-Authenticate"), std::string::npos) << bad << ": " << m;
    }
    // The message says where, never what: a secret in the field stays out of logs.
    EXPECT_EQ(invalid_message(R"(Bearer secret="s3cr3t-value)").find("s3cr3t"), std::string::npos);
}

TEST(WwwAuthenticate, SizesAreBounded) {
    std::string big = "Bearer scope=\"" + std::string(auth::max_www_authenticate_bytes, 'a') + "\"";
    EXPECT_NE(invalid_message(big).find("exceeds the limit"), std::string::npos);
    std::string many = "Bearer ";
    for (int i = 0; i < 70; ++i) many += (i ? ", p" : "p") + std::to_string(i) + "=v";
    EXPECT_NE(invalid_message(many).find("more than 64"), std::string::npos);
    std::string schemes;
    for (int i = 0; i < 40; ++i) schemes += (i ? ", S" : "S") + std::to_string(i);
    EXPECT_NE(invalid_message(schemes).find("more than 32"), std::string::npos);
}

// ---- PKCE

TEST(Pkce, Rfc7636AppendixBVector) {
    EXPECT_EQ(auth::pkce_s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST(Pkce, FreshPairsAreWellFormedAndDistinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 50; ++i) {
        const auto p = auth::make_pkce_pair();
        ASSERT_EQ(p.verifier.size(), 43u); // 32 bytes, base64url without padding
        for (char c : p.verifier) ASSERT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
        EXPECT_EQ(p.challenge, auth::pkce_s256_challenge(p.verifier));
        EXPECT_TRUE(seen.insert(p.verifier).second);
    }
}

// ---- URLs

TEST(ResourceUri, CanonicalForm) {
    EXPECT_EQ(auth::canonical_resource_uri("HTTPS://MCP.Example.COM:443/mcp/#frag"), "https://mcp.example.com/mcp");
    EXPECT_EQ(auth::canonical_resource_uri("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    EXPECT_EQ(auth::canonical_resource_uri("http://h:80/"), "http://h");
    EXPECT_EQ(auth::canonical_resource_uri("https://h/a/b?x=1"), "https://h/a/b?x=1");
    EXPECT_THROW(auth::canonical_resource_uri("ftp://h/x"), std::invalid_argument);
    EXPECT_THROW(auth::canonical_resource_uri("/relative"), std::invalid_argument);
}

TEST(WellKnown, ProtectedResourceMetadataLocations) {
    using V = std::vector<std::string>;
    EXPECT_EQ(auth::detail::protected_resource_metadata_urls("https://h/public/mcp"),
              (V{"https://h/.well-known/oauth-protected-resource/public/mcp",
                 "https://h/.well-known/oauth-protected-resource"}));
    EXPECT_EQ(auth::detail::protected_resource_metadata_urls("https://h:8443/"),
              (V{"https://h:8443/.well-known/oauth-protected-resource"}));
}

TEST(WellKnown, AuthorizationServerMetadataLocationsInTheSpecsOrder) {
    using V = std::vector<std::string>;
    EXPECT_EQ(auth::detail::authorization_metadata_urls("https://auth.example.com/tenant1"),
              (V{"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                 "https://auth.example.com/.well-known/openid-configuration/tenant1",
                 "https://auth.example.com/tenant1/.well-known/openid-configuration"}));
    EXPECT_EQ(auth::detail::authorization_metadata_urls("https://auth.example.com"),
              (V{"https://auth.example.com/.well-known/oauth-authorization-server",
                 "https://auth.example.com/.well-known/openid-configuration"}));
}

TEST(WellKnown, ResourceMatching) {
    using auth::detail::resource_matches;
    EXPECT_TRUE(resource_matches("https://h/mcp", "https://h/mcp"));
    EXPECT_TRUE(resource_matches("https://H/mcp/", "https://h/mcp"));
    EXPECT_TRUE(resource_matches("https://h", "https://h/mcp"));
    EXPECT_TRUE(resource_matches("https://h/a", "https://h/a/mcp"));
    EXPECT_FALSE(resource_matches("https://h/ab", "https://h/a")); // not on a segment boundary
    EXPECT_FALSE(resource_matches("https://h/mcp/other", "https://h/mcp"));
    EXPECT_FALSE(resource_matches("https://evil.example.com/mcp", "https://h/mcp"));
    EXPECT_FALSE(resource_matches("http://h/mcp", "https://h/mcp"));
    EXPECT_FALSE(resource_matches("not a url", "https://h/mcp"));
}

TEST(RedirectUri, LoopbackOrHttpsOnly) {
    using auth::detail::acceptable_redirect_uri;
    EXPECT_TRUE(acceptable_redirect_uri("http://127.0.0.1:49152/callback"));
    EXPECT_TRUE(acceptable_redirect_uri("http://[::1]:8080/cb"));
    EXPECT_TRUE(acceptable_redirect_uri("http://localhost:3000/callback"));
    EXPECT_TRUE(acceptable_redirect_uri("https://app.example.com/oauth/callback"));
    EXPECT_FALSE(acceptable_redirect_uri("http://example.com/callback"));
    EXPECT_FALSE(acceptable_redirect_uri("http://192.168.1.5/callback"));
    EXPECT_FALSE(acceptable_redirect_uri("http://127.0.0.1.evil.com/callback"));
    EXPECT_FALSE(acceptable_redirect_uri("myapp://callback"));
    EXPECT_FALSE(acceptable_redirect_uri("https://app.example.com/cb#fragment"));
}

TEST(Query, ParametersAndFormEncoding) {
    const auto q = auth::detail::query_params("http://127.0.0.1/cb?code=a%2Bb&state=x%20y&iss=https%3A%2F%2Fas");
    EXPECT_EQ(q.at("code"), "a+b");
    EXPECT_EQ(q.at("state"), "x y");
    EXPECT_EQ(q.at("iss"), "https://as");
    EXPECT_EQ(auth::detail::form_encode({{"a", "x y&z"}, {"b", "é/="}}), "a=x%20y%26z&b=%C3%A9%2F%3D");
    const std::string u = auth::detail::with_query("https://as/authorize?prompt=consent", {{"state", "a&b"}});
    EXPECT_EQ(auth::detail::query_params(u).at("state"), "a&b");
    EXPECT_EQ(auth::detail::query_params(u).at("prompt"), "consent");
}

// ---- metadata

TEST(ResourceMetadata, AcceptedWhenItNamesTheServer) {
    const auto m = auth::detail::parse_resource_metadata(
        R"({"resource":"https://h/mcp","authorization_servers":["https://as.example.com"],"scopes_supported":["a","b"]})",
        "https://h/mcp", "https://h/.well-known/oauth-protected-resource/mcp");
    EXPECT_EQ(m.resource, "https://h/mcp");
    EXPECT_EQ(m.authorization_servers.front(), "https://as.example.com");
    EXPECT_EQ(m.scopes_supported.size(), 2u);
}

TEST(ResourceMetadata, RefusedForAnotherResourceOrWithoutAuthorizationServer) {
    const std::string where = "https://h/.well-known/oauth-protected-resource";
    EXPECT_EQ(failure_of([&] {
                  auth::detail::parse_resource_metadata(
                      R"({"resource":"https://evil.example.com/mcp","authorization_servers":["https://as"]})",
                      "https://h/mcp", where);
              }),
              auth_failure::resource_mismatch);
    EXPECT_EQ(failure_of([&] {
                  auth::detail::parse_resource_metadata(R"({"authorization_servers":["https://as"]})",
                                                        "https://h/mcp", where);
              }),
              auth_failure::resource_mismatch);
    EXPECT_EQ(failure_of([&] {
                  auth::detail::parse_resource_metadata(R"({"resource":"https://h/mcp","authorization_servers":[]})",
                                                        "https://h/mcp", where);
              }),
              auth_failure::discovery);
    EXPECT_EQ(failure_of([&] { auth::detail::parse_resource_metadata("<html>", "https://h/mcp", where); }),
              auth_failure::discovery);
}

namespace {
std::string as_metadata(std::string_view issuer, std::string_view pkce = R"(,"code_challenge_methods_supported":["S256"])",
                        std::string_view endpoint_host = "https://as.example.com") {
    return R"({"issuer":")" + std::string(issuer) + R"(","authorization_endpoint":")" + std::string(endpoint_host) +
           R"(/authorize","token_endpoint":")" + std::string(endpoint_host) + R"(/token")" + std::string(pkce) +
           R"(,"authorization_response_iss_parameter_supported":true,"client_id_metadata_document_supported":true})";
}
} // namespace

TEST(AuthorizationMetadata, AcceptedForItsIssuer) {
    const auto m = auth::detail::parse_authorization_metadata(as_metadata("https://as.example.com/t1"),
                                                              "https://as.example.com/t1", "https://x");
    EXPECT_EQ(m.issuer, "https://as.example.com/t1");
    EXPECT_EQ(m.token_endpoint, "https://as.example.com/token");
    EXPECT_TRUE(m.registration_endpoint.empty());
    EXPECT_TRUE(m.iss_parameter_supported);
    EXPECT_TRUE(m.client_id_metadata_document_supported);
    // The store's copy reads back the same.
    const auto again = auth::detail::server_metadata_from_json_text(auth::detail::to_json_text(m));
    EXPECT_EQ(again.issuer, m.issuer);
    EXPECT_EQ(again.authorization_endpoint, m.authorization_endpoint);
    EXPECT_TRUE(again.iss_parameter_supported);
}

TEST(AuthorizationMetadata, IssuerMustMatchByStringComparison) {
    EXPECT_EQ(failure_of([] {
                  auth::detail::parse_authorization_metadata(as_metadata("https://evil.example.com"),
                                                             "https://as.example.com", "https://x");
              }),
              auth_failure::issuer_mismatch);
    // A trailing slash is another issuer (RFC 8414 section 3.3: identical).
    EXPECT_EQ(failure_of([] {
                  auth::detail::parse_authorization_metadata(as_metadata("https://as.example.com/"),
                                                             "https://as.example.com", "https://x");
              }),
              auth_failure::issuer_mismatch);
}

TEST(AuthorizationMetadata, PkceS256IsRequired) {
    EXPECT_EQ(failure_of([] {
                  auth::detail::parse_authorization_metadata(as_metadata("https://as", ""), "https://as",
                                                             "https://x");
              }),
              auth_failure::pkce_unsupported);
    EXPECT_EQ(failure_of([] {
                  auth::detail::parse_authorization_metadata(
                      as_metadata("https://as", R"(,"code_challenge_methods_supported":["plain"])"), "https://as",
                      "https://x");
              }),
              auth_failure::pkce_unsupported);
}

TEST(AuthorizationMetadata, EndpointsMustBeHttpsOrLoopback) {
    EXPECT_EQ(failure_of([] {
                  auth::detail::parse_authorization_metadata(
                      as_metadata("https://as", R"(,"code_challenge_methods_supported":["S256"])", "http://as.example.com"),
                      "https://as", "https://x");
              }),
              auth_failure::discovery);
    EXPECT_NO_THROW(auth::detail::parse_authorization_metadata(
        as_metadata("https://as", R"(,"code_challenge_methods_supported":["S256"])", "http://127.0.0.1:9000"),
        "https://as", "https://x"));
}

// ---- store

TEST(MemoryStore, KeepsRecordsPerServerAndIssuer) {
    auth::memory_store s;
    const auth::store_key a{"https://h/mcp", "https://as1"}, b{"https://h/mcp", "https://as2"};
    s.save_tokens(a, {.access_token = "t1"});
    EXPECT_EQ(s.load_tokens(a)->access_token, "t1");
    EXPECT_FALSE(s.load_tokens(b).has_value());
    s.save_client(b, {.client_id = "c2"});
    EXPECT_EQ(s.load_client(b)->client_id, "c2");
    EXPECT_FALSE(s.load_client(a).has_value());
    s.erase_tokens(a);
    EXPECT_FALSE(s.load_tokens(a).has_value());
    s.save_discovery("https://h/mcp", {.issuer = "https://as2"});
    EXPECT_EQ(s.load_discovery("https://h/mcp")->issuer, "https://as2");
    s.erase_discovery("https://h/mcp");
    EXPECT_FALSE(s.load_discovery("https://h/mcp").has_value());
}
