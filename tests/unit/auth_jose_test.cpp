// JOSE over OpenSSL: base64url, JWK <-> key, RFC 7638 thumbprints (the RFC's own example), and
// JWS sign/verify round trips for every algorithm, with what must fail: another key, a changed
// byte, a key of the wrong type, an oversized or malformed token.
#include "auth/jose.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace mcp::auth::detail;

TEST(auth_jose, base64url_round_trip_and_strictness) {
    for (std::string s : std::vector<std::string>{"", "f", "fo", "foo", "foob", "fooba", "foobar",
                                                  std::string("\xff\xfe\x00", 3)})
        EXPECT_EQ(base64url_decode(base64url_encode(s)), s);
    EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
    EXPECT_FALSE(base64url_decode("Zm9v=")); // padding
    EXPECT_FALSE(base64url_decode("Zm+v"));  // standard alphabet
    EXPECT_FALSE(base64url_decode("Z"));     // no byte ends there
    EXPECT_FALSE(base64url_decode("Zh"));    // stray bits: "Zg" is the canonical "f"
    EXPECT_EQ(base64url_decode("Zg"), "f");
}

TEST(auth_jose, rfc7638_thumbprint_example) {
    // RFC 7638 section 3.1.
    auto jwk =
        mcp::json::parse(
            R"({"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"})")
            .as_object();
    EXPECT_EQ(jwk_thumbprint(jwk), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    auto key = parse_public_jwk(jwk);
    EXPECT_EQ(key.kid, "2011-04-29");
    EXPECT_EQ(key.thumbprint, "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    EXPECT_TRUE(key.fits(jws_alg::rs256));
    EXPECT_FALSE(key.fits(jws_alg::ps256)); // the JWK names RS256
    EXPECT_FALSE(key.fits(jws_alg::es256));
}

class jws_round_trip : public ::testing::TestWithParam<jws_alg> {};

TEST_P(jws_round_trip, signs_and_verifies_and_refuses_changes) {
    const auto alg = GetParam();
    auto signer = generate_signing_key(alg, "k1");
    auto other = generate_signing_key(alg, "k2");
    auto pub = parse_public_jwk(signer.public_jwk());
    auto other_pub = parse_public_jwk(other.public_jwk());
    EXPECT_EQ(pub.kid, "k1");
    const auto token = sign_jws(signer, {{"typ", "at+jwt"}}, {{"sub", "alice"}, {"n", 1}});
    auto t = parse_jws(token);
    EXPECT_EQ(t.alg_name(), jws_alg_name(alg));
    EXPECT_EQ(mcp::find_string(t.header, "kid"), "k1");
    EXPECT_EQ(mcp::find_string(t.payload, "sub"), "alice");
    EXPECT_TRUE(verify_signature(alg, pub, t.signing_input, t.signature));
    EXPECT_FALSE(verify_signature(alg, other_pub, t.signing_input, t.signature));
    auto tampered = t.signature;
    tampered[tampered.size() / 2] ^= 1;
    EXPECT_FALSE(verify_signature(alg, pub, t.signing_input, tampered));
    EXPECT_FALSE(verify_signature(alg, pub, t.signing_input + "x", t.signature));
    EXPECT_FALSE(verify_signature(alg, pub, t.signing_input, t.signature.substr(1)));
    for (auto wrong : {jws_alg::rs256, jws_alg::ps256, jws_alg::es256, jws_alg::eddsa})
        if (wrong != alg) {
            EXPECT_FALSE(verify_signature(wrong, pub, t.signing_input, t.signature));
        }
}

// An RSA signature is as long as the modulus: one whose first byte is 0 verifies only whole,
// never with that byte dropped (which OpenSSL alone would accept as the same number), nor with a
// zero byte put in front. About one signature in 256 starts with 0; the loop finds one.
TEST(auth_jose, rsa_signature_of_the_wrong_length_is_refused) {
    for (auto alg : {jws_alg::rs256, jws_alg::ps256}) {
        auto signer = generate_signing_key(alg, "k1");
        auto pub = parse_public_jwk(signer.public_jwk());
        std::optional<jws_token> leading_zero;
        for (int n = 0; n < 4000 && !leading_zero; ++n) {
            auto t = parse_jws(sign_jws(signer, {{"typ", "at+jwt"}}, {{"n", n}}));
            if (t.signature.front() == '\0') leading_zero = std::move(t);
        }
        ASSERT_TRUE(leading_zero) << jws_alg_name(alg);
        const auto& t = *leading_zero;
        EXPECT_TRUE(verify_signature(alg, pub, t.signing_input, t.signature));
        EXPECT_FALSE(verify_signature(alg, pub, t.signing_input, t.signature.substr(1)));
        EXPECT_FALSE(verify_signature(alg, pub, t.signing_input, std::string(1, '\0') + t.signature));
    }
}

INSTANTIATE_TEST_SUITE_P(auth_jose, jws_round_trip,
                         ::testing::Values(jws_alg::rs256, jws_alg::ps256, jws_alg::es256, jws_alg::eddsa),
                         [](const auto& info) { return std::string(jws_alg_name(info.param)); });

TEST(auth_jose, the_algorithm_set_is_closed) {
    for (auto name : {"none", "HS256", "HS512", "RS512", "ES384", "", "rs256"})
        EXPECT_FALSE(parse_jws_alg(name)) << name;
}

TEST(auth_jose, malformed_tokens_are_named) {
    auto expect_error = [](std::string_view token, std::string_view words) {
        try {
            (void)parse_jws(token, 100);
            ADD_FAILURE() << "accepted " << token;
        } catch (const jose_error& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    expect_error(std::string(101, 'a'), "longer than 100 bytes");
    expect_error("abc", "compact form");
    expect_error("a.b.c.d", "compact form");
    expect_error("e30.e30.", "signature");
    expect_error("e30.e30.AA", "no \"alg\"");
    expect_error("!!.e30.AA", "header is not base64url");
    expect_error("WzFd.e30.AA", "header is not a JSON object");
    expect_error("eyJhbGciOiJub25lIn0.bm90IGpzb24.AA", "payload is not a JSON object");
}

TEST(auth_jose, bad_keys_are_refused) {
    auto expect_error = [](std::string_view jwk, std::string_view words) {
        try {
            (void)parse_public_jwk(mcp::json::parse(jwk).as_object());
            ADD_FAILURE() << "accepted " << jwk;
        } catch (const jose_error& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    expect_error(R"({"n":"AQAB"})", "kty");
    expect_error(R"({"kty":"oct","k":"AQAB"})", "not RSA, EC or OKP");
    expect_error(R"({"kty":"RSA","n":"AQAB","e":"AQAB"})", "shorter than 2048");
    expect_error(R"({"kty":"RSA","e":"AQAB"})", "\"n\"");
    expect_error(R"({"kty":"EC","crv":"P-384","x":"AA","y":"AA"})", "P-256");
    expect_error(
        R"({"kty":"EC","crv":"P-256","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","y":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"})",
        "not a valid EC public key");
    expect_error(R"({"kty":"OKP","crv":"Ed448","x":"AA"})", "Ed25519");
    expect_error(R"({"kty":"OKP","crv":"Ed25519","x":"AA","d":"AA"})", "private key");
    expect_error(R"({"kty":"OKP","crv":"Ed25519","x":"AA","alg":"HS256"})", "algorithm");
}

} // namespace
