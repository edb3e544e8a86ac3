// JWS signing over OpenSSL 3 (see jws.hpp). ECDSA signatures come out of OpenSSL DER-encoded;
// JWS wants R and S as two fixed-size big-endian integers (RFC 7518 section 3.4).
#include "auth/jws.hpp"

#include "auth/base64url.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <stdexcept>

namespace mcp::auth::detail {

namespace {

struct pkey_free {
    void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct md_ctx_free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct bio_free {
    void operator()(BIO* b) const { BIO_free(b); }
};
struct ecdsa_sig_free {
    void operator()(ECDSA_SIG* s) const { ECDSA_SIG_free(s); }
};

std::unique_ptr<EVP_PKEY, pkey_free> read_private_key(std::string_view pem) {
    std::unique_ptr<BIO, bio_free> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    if (!bio) throw std::runtime_error("out of memory reading a private key");
    std::unique_ptr<EVP_PKEY, pkey_free> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!key) throw std::invalid_argument("the client's private key is not a PEM private key");
    return key;
}

std::string sign_bytes(EVP_PKEY* key, std::string_view input) {
    std::unique_ptr<EVP_MD_CTX, md_ctx_free> ctx(EVP_MD_CTX_new());
    std::size_t len = 0;
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()),
                       input.size()) != 1)
        throw std::runtime_error("signing the client assertion failed");
    std::string sig(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
        throw std::runtime_error("signing the client assertion failed");
    sig.resize(len);
    return sig;
}

std::string der_to_jose(const std::string& der, std::size_t part) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    std::unique_ptr<ECDSA_SIG, ecdsa_sig_free> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())));
    if (!sig) throw std::runtime_error("signing the client assertion failed");
    const BIGNUM* r = nullptr;
    const BIGNUM* s = nullptr;
    ECDSA_SIG_get0(sig.get(), &r, &s);
    std::string out(2 * part, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    if (BN_bn2binpad(r, o, static_cast<int>(part)) < 0 || BN_bn2binpad(s, o + part, static_cast<int>(part)) < 0)
        throw std::runtime_error("signing the client assertion failed");
    return out;
}

} // namespace

struct signing_key::key {
    std::unique_ptr<EVP_PKEY, pkey_free> pkey;
};

signing_key signing_key::from_pem(std::string_view pem, std::string_view alg) {
    if (alg != "ES256" && alg != "RS256")
        throw std::invalid_argument("unsupported client assertion algorithm (ES256 and RS256 are)");
    auto pkey = read_private_key(pem);
    if (alg == "ES256") {
        char group[32] = {};
        std::size_t glen = 0;
        if (!EVP_PKEY_is_a(pkey.get(), "EC") ||
            EVP_PKEY_get_utf8_string_param(pkey.get(), "group", group, sizeof group, &glen) != 1 ||
            std::string_view(group, glen) != "prime256v1")
            throw std::invalid_argument("ES256 needs a P-256 EC private key");
    } else if (!EVP_PKEY_is_a(pkey.get(), "RSA") || EVP_PKEY_get_bits(pkey.get()) < 2048) {
        throw std::invalid_argument("RS256 needs an RSA private key of 2048 bits or more");
    }
    signing_key k;
    k.key_ = std::make_shared<key>(key{std::move(pkey)});
    k.alg_ = std::string(alg);
    return k;
}

signing_key signing_key::generate_es256() {
    std::unique_ptr<EVP_PKEY, pkey_free> pkey(EVP_EC_gen("P-256"));
    if (!pkey) throw std::runtime_error("generating a P-256 key failed");
    signing_key k;
    k.key_ = std::make_shared<key>(key{std::move(pkey)});
    k.alg_ = "ES256";
    return k;
}

std::string signing_key::public_jwk() const {
    BIGNUM* x = nullptr;
    BIGNUM* y = nullptr;
    if (!EVP_PKEY_is_a(key_->pkey.get(), "EC") || EVP_PKEY_get_bn_param(key_->pkey.get(), "qx", &x) != 1 ||
        EVP_PKEY_get_bn_param(key_->pkey.get(), "qy", &y) != 1) {
        BN_free(x);
        throw std::runtime_error("only EC keys have a public JWK here");
    }
    std::string xs(32, '\0'), ys(32, '\0');
    BN_bn2binpad(x, reinterpret_cast<unsigned char*>(xs.data()), 32);
    BN_bn2binpad(y, reinterpret_cast<unsigned char*>(ys.data()), 32);
    BN_free(x);
    BN_free(y);
    // Members in lexicographic order: this text is also the input of the RFC 7638 thumbprint.
    return R"({"crv":"P-256","kty":"EC","x":")" + base64url(xs) + R"(","y":")" + base64url(ys) + R"("})";
}

std::string signing_key::sign(std::string_view header_json, std::string_view claims_json) const {
    const std::string input = base64url(header_json) + "." + base64url(claims_json);
    std::string sig = sign_bytes(key_->pkey.get(), input);
    if (alg_ == "ES256") sig = der_to_jose(sig, 32);
    return input + "." + base64url(sig);
}

std::string sign_jwt(std::string_view private_key_pem, std::string_view alg, std::string_view claims_json) {
    const signing_key k = signing_key::from_pem(private_key_pem, alg);
    return k.sign(R"({"alg":")" + std::string(alg) + R"(","typ":"JWT"})", claims_json);
}

} // namespace mcp::auth::detail
