// JWS compact serialization: split and decode, verify, sign (see jose.hpp).
#include "auth/jose.hpp"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

namespace mcp::auth::detail {

namespace {

struct md_ctx_deleter {
    void operator()(EVP_MD_CTX* c) const noexcept { EVP_MD_CTX_free(c); }
};
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, md_ctx_deleter>;

struct ecdsa_sig_deleter {
    void operator()(ECDSA_SIG* s) const noexcept { ECDSA_SIG_free(s); }
};
using ecdsa_sig_ptr = std::unique_ptr<ECDSA_SIG, ecdsa_sig_deleter>;

json::object decode_object(std::string_view part, const char* what) {
    auto bytes = base64url_decode(part);
    if (!bytes) throw jose_error(std::string("the token's ") + what + " is not base64url");
    boost::system::error_code ec;
    auto v = parse_json(*bytes, ec);
    if (!v || !v->is_object()) throw jose_error(std::string("the token's ") + what + " is not a JSON object");
    return std::move(v->as_object());
}

/// JOSE carries an ES256 signature as r || s (32 bytes each, RFC 7518 3.4); OpenSSL wants DER.
std::optional<std::string> jose_to_der(std::string_view rs) {
    if (rs.size() != 64) return std::nullopt;
    ecdsa_sig_ptr sig(ECDSA_SIG_new());
    auto* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(rs.data()), 32, nullptr);
    auto* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(rs.data()) + 32, 32, nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return std::nullopt;
    }
    const int len = i2d_ECDSA_SIG(sig.get(), nullptr);
    if (len <= 0) return std::nullopt;
    std::string der(static_cast<std::size_t>(len), '\0');
    auto* p = reinterpret_cast<unsigned char*>(der.data());
    i2d_ECDSA_SIG(sig.get(), &p);
    return der;
}

std::string der_to_jose(std::string_view der) {
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    ecdsa_sig_ptr sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())));
    if (!sig) throw jose_error("the ECDSA signature could not be read");
    std::string out(64, '\0');
    auto* o = reinterpret_cast<unsigned char*>(out.data());
    if (BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), o, 32) != 32 ||
        BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), o + 32, 32) != 32)
        throw jose_error("the ECDSA signature does not fit P-256");
    return out;
}

/// Set up `ctx` for `alg` (digest and RSA padding); verify == false signs.
bool init_digest(EVP_MD_CTX* ctx, jws_alg alg, EVP_PKEY* key, bool verify) {
    const EVP_MD* md = alg == jws_alg::eddsa ? nullptr : EVP_sha256(); // Ed25519 hashes itself
    EVP_PKEY_CTX* pctx = nullptr;
    const int ok = verify ? EVP_DigestVerifyInit(ctx, &pctx, md, nullptr, key)
                          : EVP_DigestSignInit(ctx, &pctx, md, nullptr, key);
    if (ok != 1) return false;
    if (alg == jws_alg::ps256) // RFC 7518 3.5: MGF1 with SHA-256, salt as long as the hash
        return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
               EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1 &&
               EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) == 1;
    if (alg == jws_alg::rs256) return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1;
    return true;
}

} // namespace

std::string_view jws_token::alg_name() const noexcept {
    auto alg = find_string(header, "alg");
    return alg ? *alg : std::string_view{};
}

jws_token parse_jws(std::string_view compact, std::size_t max_bytes) {
    if (compact.size() > max_bytes)
        throw jose_error("the token is longer than " + std::to_string(max_bytes) + " bytes");
    const auto first = compact.find('.');
    const auto second = first == std::string_view::npos ? first : compact.find('.', first + 1);
    if (second == std::string_view::npos || compact.find('.', second + 1) != std::string_view::npos)
        throw jose_error("the token is not a JWS in compact form (three parts separated by dots)");
    jws_token t;
    t.header = decode_object(compact.substr(0, first), "header");
    t.payload = decode_object(compact.substr(first + 1, second - first - 1), "payload");
    auto sig = base64url_decode(compact.substr(second + 1));
    if (!sig || sig->empty()) throw jose_error("the token's signature is missing or not base64url");
    t.signature = std::move(*sig);
    t.signing_input = std::string(compact.substr(0, second));
    if (!find_string(t.header, "alg")) throw jose_error("the token's header has no \"alg\"");
    return t;
}

bool verify_signature(jws_alg alg, const public_jwk& key, std::string_view signing_input,
                      std::string_view signature) {
    if (!key.key || !key.fits(alg)) return false;
    // An RSA signature is exactly as long as the modulus (RFC 8017 sections 8.1.2, 8.2.2).
    // OpenSSL also takes a shorter one as the same number with its leading zero bytes dropped,
    // so a token whose signature starts with 0x00 would verify with that byte removed too: a
    // second spelling of one signed token.
    if ((alg == jws_alg::rs256 || alg == jws_alg::ps256) &&
        signature.size() != static_cast<std::size_t>(EVP_PKEY_get_size(key.key.get())))
        return false;
    std::string der;
    if (alg == jws_alg::es256) {
        auto converted = jose_to_der(signature);
        if (!converted) return false;
        der = std::move(*converted);
        signature = der;
    }
    md_ctx_ptr ctx(EVP_MD_CTX_new());
    if (!ctx || !init_digest(ctx.get(), alg, key.key.get(), true)) return false;
    return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                            signature.size(), reinterpret_cast<const unsigned char*>(signing_input.data()),
                            signing_input.size()) == 1;
}

std::string sign_jws(const signing_key& key, json::object header, const json::object& payload) {
    header["alg"] = jws_alg_name(key.alg);
    if (!key.kid.empty() && !header.contains("kid")) header["kid"] = key.kid;
    std::string input = base64url_encode(to_json(header)) + "." + base64url_encode(to_json(payload));
    md_ctx_ptr ctx(EVP_MD_CTX_new());
    if (!ctx || !init_digest(ctx.get(), key.alg, key.key.get(), false))
        throw jose_error("cannot start signing");
    std::size_t len = 0;
    const auto* data = reinterpret_cast<const unsigned char*>(input.data());
    if (EVP_DigestSign(ctx.get(), nullptr, &len, data, input.size()) != 1) throw jose_error("signing failed");
    std::string sig(len, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len, data, input.size()) !=
        1)
        throw jose_error("signing failed");
    sig.resize(len);
    if (key.alg == jws_alg::es256) sig = der_to_jose(sig);
    return input + "." + base64url_encode(sig);
}

std::string sign_jwt(std::string_view private_key_pem, std::string_view alg, const json::object& claims) {
    const auto a = parse_jws_alg(alg);
    if (!a)
        throw std::invalid_argument("unsupported signing algorithm (RS256, PS256, ES256 and EdDSA are)");
    return sign_jws(read_signing_key_pem(private_key_pem, *a), json::object{{"typ", "JWT"}}, claims);
}

} // namespace mcp::auth::detail
