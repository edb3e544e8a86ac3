// The client assertion of private_key_jwt (RFC 7523): a compact JWS whose ES256 / RS256
// signature verifies with the public key (checked here with OpenSSL directly), and keys that
// do not fit the algorithm refused without being quoted. DPoP proofs (RFC 9449): their header
// carries the public key they verify with, their claims bind method, URL, nonce and token.
#include "auth/dpop_signer.hpp"
#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

#include <mcp/json/base64.hpp>
#include <mcp/json/json.hpp>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <gtest/gtest.h>

namespace {

using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

std::string pem_of(EVP_PKEY* key) {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PKCS8PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    std::string pem(data, static_cast<std::size_t>(n));
    BIO_free(bio);
    return pem;
}

std::string unbase64url(std::string s) {
    for (auto& c : s) c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (s.size() % 4) s += '=';
    return mcp::base64::decode(s).value();
}

std::vector<std::string> parts(const std::string& jws) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t dot; (dot = jws.find('.', start)) != std::string::npos; start = dot + 1)
        out.push_back(jws.substr(start, dot - start));
    out.push_back(jws.substr(start));
    return out;
}

bool verifies(EVP_PKEY* key, const std::string& input, std::string sig) {
    if (EVP_PKEY_is_a(key, "EC")) {
        // JOSE R||S back to DER for OpenSSL.
        ECDSA_SIG* s = ECDSA_SIG_new();
        ECDSA_SIG_set0(s, BN_bin2bn(reinterpret_cast<const unsigned char*>(sig.data()), 32, nullptr),
                       BN_bin2bn(reinterpret_cast<const unsigned char*>(sig.data()) + 32, 32, nullptr));
        unsigned char* der = nullptr;
        const int n = i2d_ECDSA_SIG(s, &der);
        sig.assign(reinterpret_cast<char*>(der), static_cast<std::size_t>(n));
        OPENSSL_free(der);
        ECDSA_SIG_free(s);
    }
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const bool ok = EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
                    EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

void expect_signed(EVP_PKEY* key, const char* alg) {
    const std::string claims = R"({"iss":"client","sub":"client","aud":"https://as","jti":"1"})";
    const std::string jws = mcp::auth::detail::sign_jwt(pem_of(key), alg, mcp::json::parse(claims).as_object());
    const auto p = parts(jws);
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(mcp::json::parse(unbase64url(p[0])),
              mcp::json::parse(std::string(R"({"typ":"JWT","alg":")") + alg + R"("})"));
    EXPECT_EQ(unbase64url(p[1]), claims);
    const std::string sig = unbase64url(p[2]);
    if (std::string_view(alg) == "ES256") {
        EXPECT_EQ(sig.size(), 64u);
    }
    EXPECT_TRUE(verifies(key, p[0] + "." + p[1], sig));
    std::string tampered = sig;
    tampered[5] ^= 1;
    EXPECT_FALSE(verifies(key, p[0] + "." + p[1], tampered));
}

std::string refusal(std::string_view pem, std::string_view alg) {
    try {
        mcp::auth::detail::sign_jwt(pem, alg, {});
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(signed)";
}

} // namespace

TEST(ClientAssertion, Es256SignatureVerifies) {
    key_ptr key(EVP_EC_gen("P-256"), EVP_PKEY_free);
    ASSERT_TRUE(key);
    for (int i = 0; i < 20; ++i) expect_signed(key.get(), "ES256"); // R or S with leading zeros too
}

TEST(ClientAssertion, Rs256SignatureVerifies) {
    key_ptr key(EVP_RSA_gen(2048), EVP_PKEY_free);
    ASSERT_TRUE(key);
    expect_signed(key.get(), "RS256");
}

TEST(ClientAssertion, KeysThatDoNotFitAreRefusedWithoutQuotingThem) {
    key_ptr p384(EVP_EC_gen("P-384"), EVP_PKEY_free);
    key_ptr rsa(EVP_RSA_gen(2048), EVP_PKEY_free);
    EXPECT_NE(refusal(pem_of(p384.get()), "ES256").find("P-256"), std::string::npos);
    EXPECT_NE(refusal(pem_of(rsa.get()), "ES256").find("P-256"), std::string::npos);
    EXPECT_NE(refusal(pem_of(p384.get()), "RS256").find("RSA"), std::string::npos);
    EXPECT_NE(refusal(pem_of(rsa.get()), "none").find("unsupported"), std::string::npos);
    EXPECT_NE(refusal(pem_of(rsa.get()), "HS256").find("unsupported"), std::string::npos);
    const std::string garbage =
        "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n";
    const std::string why = refusal(garbage, "ES256");
    EXPECT_NE(why.find("not a PEM private key"), std::string::npos);
    EXPECT_EQ(why.find("c2VjcmV0"), std::string::npos);
}

namespace {

// The EC public key of a JWK {"crv":"P-256","kty":"EC","x","y"}, as OpenSSL reads it.
key_ptr key_of_jwk(const mcp::json::object& jwk) {
    const std::string x = unbase64url(std::string(jwk.at("x").as_string()));
    const std::string y = unbase64url(std::string(jwk.at("y").as_string()));
    std::string point = "\x04" + x + y;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("group", const_cast<char*>("P-256"), 0),
                           OSSL_PARAM_construct_octet_string("pub", point.data(), point.size()),
                           OSSL_PARAM_construct_end()};
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    EVP_PKEY* key = nullptr;
    EVP_PKEY_fromdata_init(ctx);
    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params);
    EVP_PKEY_CTX_free(ctx);
    return key_ptr(key, EVP_PKEY_free);
}

} // namespace

TEST(DpopProof, SignedByTheKeyInItsHeaderAndBoundToTheRequestAndToken) {
    mcp::auth::detail::dpop_signer signer;
    signer.set_nonce("https://mcp.example.com/other", "server-nonce-1");
    const std::string jws = signer.proof("POST", "https://MCP.example.com:443/mcp?q=1#f", "the-access-token");
    const auto p = parts(jws);
    ASSERT_EQ(p.size(), 3u);
    const auto header = mcp::json::parse(unbase64url(p[0])).as_object();
    EXPECT_EQ(header.at("typ"), "dpop+jwt");
    EXPECT_EQ(header.at("alg"), "ES256");
    const auto& jwk = header.at("jwk").as_object();
    EXPECT_EQ(jwk.at("kty"), "EC");
    EXPECT_FALSE(jwk.contains("d")); // never the private part
    const auto claims = mcp::json::parse(unbase64url(p[1])).as_object();
    EXPECT_EQ(claims.at("htm"), "POST");
    EXPECT_EQ(claims.at("htu"), "https://mcp.example.com/mcp"); // no query, no fragment
    EXPECT_EQ(claims.at("nonce"), "server-nonce-1");            // the origin's nonce
    std::string ath = mcp::base64::encode(mcp::detail::sha256("the-access-token"));
    while (ath.back() == '=') ath.pop_back();
    for (auto& c : ath) c = c == '+' ? '-' : c == '/' ? '_' : c;
    EXPECT_EQ(claims.at("ath").as_string(), ath);
    EXPECT_GE(claims.at("jti").as_string().size(), 32u);
    auto key = key_of_jwk(jwk);
    ASSERT_TRUE(key);
    EXPECT_TRUE(verifies(key.get(), p[0] + "." + p[1], unbase64url(p[2])));

    // Each proof is new; one for the token endpoint of another origin has no nonce or ath.
    const auto other =
        mcp::json::parse(unbase64url(parts(signer.proof("POST", "https://as.example.com/token"))[1]))
            .as_object();
    EXPECT_NE(other.at("jti"), claims.at("jti"));
    EXPECT_FALSE(other.contains("nonce"));
    EXPECT_FALSE(other.contains("ath"));
}
