// base64url, algorithm names, JSON Web Keys <-> EVP_PKEY and their thumbprints (see jose.hpp).
#include "auth/jose.hpp"

#include "crypto/crypto.hpp"

#include <mcp/json/base64.hpp>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>

#include <array>
#include <stdexcept>

namespace mcp::auth::detail {

namespace {

pkey_ptr own(EVP_PKEY* k) {
    return pkey_ptr(k, [](EVP_PKEY* p) { EVP_PKEY_free(p); });
}

struct bn_deleter {
    void operator()(BIGNUM* b) const noexcept { BN_free(b); }
};
using bn_ptr = std::unique_ptr<BIGNUM, bn_deleter>;

/// A required base64url member of a JWK, decoded.
std::string key_member(const json::object& jwk, std::string_view name) {
    auto text = find_string(jwk, name);
    if (!text) throw jose_error("the JWK has no \"" + std::string(name) + "\" string");
    auto bytes = base64url_decode(*text);
    if (!bytes || bytes->empty())
        throw jose_error("the JWK member \"" + std::string(name) + "\" is not base64url");
    return std::move(*bytes);
}

pkey_ptr from_params(const char* type, OSSL_PARAM_BLD* bld) {
    std::unique_ptr<OSSL_PARAM, decltype(&OSSL_PARAM_free)> params(OSSL_PARAM_BLD_to_param(bld),
                                                                   &OSSL_PARAM_free);
    OSSL_PARAM_BLD_free(bld);
    if (!params) throw jose_error(std::string("cannot build the ") + type + " key");
    std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(
        EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr), &EVP_PKEY_CTX_free);
    EVP_PKEY* key = nullptr;
    if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) != 1 || !key)
        throw jose_error(std::string("the JWK is not a valid ") + type + " public key");
    return own(key);
}

pkey_ptr rsa_key(const json::object& jwk) {
    const auto n = key_member(jwk, "n");
    const auto e = key_member(jwk, "e");
    bn_ptr bn_n(
        BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr));
    bn_ptr bn_e(
        BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr));
    if (!bn_n || !bn_e) throw jose_error("cannot read the RSA key");
    // RFC 7518 3.3: 2048 bits at least; smaller keys are forgeable in practice.
    if (BN_num_bits(bn_n.get()) < 2048) throw jose_error("the RSA key is shorter than 2048 bits");
    if (BN_num_bits(bn_n.get()) > 16384) throw jose_error("the RSA key is longer than 16384 bits");
    auto* bld = OSSL_PARAM_BLD_new();
    if (!bld || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) != 1 ||
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) != 1) {
        OSSL_PARAM_BLD_free(bld);
        throw jose_error("cannot build the RSA key");
    }
    return from_params("RSA", bld);
}

pkey_ptr ec_key(const json::object& jwk) {
    if (find_string(jwk, "crv") != "P-256") throw jose_error("the EC JWK is not on curve P-256");
    const auto x = key_member(jwk, "x");
    const auto y = key_member(jwk, "y");
    if (x.size() != 32 || y.size() != 32) throw jose_error("the P-256 JWK's x and y must be 32 bytes each");
    std::string point = "\x04" + x + y; // SEC 1 uncompressed form
    auto* bld = OSSL_PARAM_BLD_new();
    if (!bld || OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) != 1) {
        OSSL_PARAM_BLD_free(bld);
        throw jose_error("cannot build the EC key");
    }
    return from_params("EC", bld); // fromdata checks that the point is on the curve
}

pkey_ptr okp_key(const json::object& jwk) {
    if (find_string(jwk, "crv") != "Ed25519") throw jose_error("the OKP JWK is not an Ed25519 key");
    const auto x = key_member(jwk, "x");
    if (x.size() != 32) throw jose_error("the Ed25519 JWK's x must be 32 bytes");
    auto* key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                            reinterpret_cast<const unsigned char*>(x.data()), x.size());
    if (!key) throw jose_error("the JWK is not a valid Ed25519 public key");
    return own(key);
}

std::string bn_param(const EVP_PKEY* key, const char* name, std::size_t pad_to = 0) {
    BIGNUM* raw = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &raw) != 1) throw jose_error("cannot read a key parameter");
    bn_ptr bn(raw);
    const auto size = std::max<std::size_t>(pad_to, static_cast<std::size_t>(BN_num_bytes(bn.get())));
    std::string out(size, '\0');
    if (BN_bn2binpad(bn.get(), reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(size)) < 0)
        throw jose_error("cannot write a key parameter");
    return out;
}

} // namespace

// base64url is base64 with two other characters and no padding: mcp::base64 does the work
// (its decoder is strict and canonical too).
std::string base64url_encode(std::string_view bytes) {
    std::string out = base64::encode(bytes);
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (auto& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    if (text.size() % 4 == 1) return std::nullopt; // no byte ends there
    std::string standard(text);
    for (auto& c : standard) {
        if (c == '+' || c == '/' || c == '=') return std::nullopt; // not of this alphabet
        c = c == '-' ? '+' : c == '_' ? '/' : c;
    }
    standard.append((4 - standard.size() % 4) % 4, '=');
    return base64::decode(standard);
}

std::optional<jws_alg> parse_jws_alg(std::string_view name) noexcept {
    if (name == "RS256") return jws_alg::rs256;
    if (name == "PS256") return jws_alg::ps256;
    if (name == "ES256") return jws_alg::es256;
    if (name == "EdDSA") return jws_alg::eddsa;
    return std::nullopt;
}

std::string_view jws_alg_name(jws_alg alg) noexcept {
    switch (alg) {
    case jws_alg::rs256:
        return "RS256";
    case jws_alg::ps256:
        return "PS256";
    case jws_alg::es256:
        return "ES256";
    case jws_alg::eddsa:
        return "EdDSA";
    }
    return "";
}

bool public_jwk::fits(jws_alg a) const noexcept {
    if (alg && *alg != a) return false;
    switch (a) {
    case jws_alg::rs256:
    case jws_alg::ps256:
        return kty == "RSA";
    case jws_alg::es256:
        return kty == "EC";
    case jws_alg::eddsa:
        return kty == "OKP";
    }
    return false;
}

public_jwk parse_public_jwk(const json::object& jwk) {
    public_jwk out;
    auto kty = find_string(jwk, "kty");
    if (!kty) throw jose_error("the JWK has no \"kty\"");
    out.kty = std::string(*kty);
    if (jwk.contains("d"))
        throw jose_error("the JWK holds a private key; a key set publishes public keys only");
    if (auto kid = find_string(jwk, "kid")) out.kid = std::string(*kid);
    if (auto use = find_string(jwk, "use")) out.use = std::string(*use);
    if (auto alg = find_string(jwk, "alg")) {
        out.alg = parse_jws_alg(*alg);
        if (!out.alg) throw jose_error("the JWK is for an algorithm not accepted here");
    }
    if (out.kty == "RSA")
        out.key = rsa_key(jwk);
    else if (out.kty == "EC")
        out.key = ec_key(jwk);
    else if (out.kty == "OKP")
        out.key = okp_key(jwk);
    else
        throw jose_error("the JWK's key type is not RSA, EC or OKP");
    out.thumbprint = jwk_thumbprint(jwk);
    return out;
}

std::string jwk_thumbprint(const json::object& jwk) {
    // RFC 7638 3.2: the required members, sorted, no whitespace.
    static constexpr std::array<std::string_view, 3> rsa{"e", "kty", "n"};
    static constexpr std::array<std::string_view, 4> ec{"crv", "kty", "x", "y"};
    static constexpr std::array<std::string_view, 3> okp{"crv", "kty", "x"};
    const auto kty = find_string(jwk, "kty");
    auto canonical = [&](auto const& names) {
        std::string out = "{";
        for (auto name : names) {
            auto value = find_string(jwk, name);
            if (!value) throw jose_error("the JWK has no \"" + std::string(name) + "\" string");
            if (out.size() > 1) out.push_back(',');
            append_json_string(out, name);
            out.push_back(':');
            append_json_string(out, *value);
        }
        return out + "}";
    };
    std::string text;
    if (kty == "RSA")
        text = canonical(rsa);
    else if (kty == "EC")
        text = canonical(ec);
    else if (kty == "OKP")
        text = canonical(okp);
    else
        throw jose_error("the JWK's key type is not RSA, EC or OKP");
    return base64url_encode(mcp::detail::sha256(text));
}

json::object signing_key::public_jwk() const {
    json::object jwk;
    auto* k = key.get();
    switch (alg) {
    case jws_alg::rs256:
    case jws_alg::ps256:
        jwk["kty"] = "RSA";
        jwk["n"] = base64url_encode(bn_param(k, OSSL_PKEY_PARAM_RSA_N));
        jwk["e"] = base64url_encode(bn_param(k, OSSL_PKEY_PARAM_RSA_E));
        break;
    case jws_alg::es256:
        jwk["kty"] = "EC";
        jwk["crv"] = "P-256";
        jwk["x"] = base64url_encode(bn_param(k, OSSL_PKEY_PARAM_EC_PUB_X, 32));
        jwk["y"] = base64url_encode(bn_param(k, OSSL_PKEY_PARAM_EC_PUB_Y, 32));
        break;
    case jws_alg::eddsa: {
        std::string x(32, '\0');
        std::size_t len = x.size();
        if (EVP_PKEY_get_raw_public_key(k, reinterpret_cast<unsigned char*>(x.data()), &len) != 1 ||
            len != 32)
            throw jose_error("cannot read the Ed25519 public key");
        jwk["kty"] = "OKP";
        jwk["crv"] = "Ed25519";
        jwk["x"] = base64url_encode(x);
        break;
    }
    }
    if (!kid.empty()) jwk["kid"] = kid;
    jwk["alg"] = jws_alg_name(alg);
    jwk["use"] = "sig";
    return jwk;
}

signing_key generate_signing_key(jws_alg alg, std::string kid) {
    EVP_PKEY* key = nullptr;
    switch (alg) {
    case jws_alg::rs256:
    case jws_alg::ps256:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", std::size_t{2048});
        break;
    case jws_alg::es256:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
        break;
    case jws_alg::eddsa:
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
        break;
    }
    if (!key) throw jose_error("key generation failed");
    return signing_key{alg, std::move(kid), own(key)};
}

signing_key read_signing_key_pem(std::string_view pem, jws_alg alg) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                  BIO_free);
    if (!bio) throw std::runtime_error("out of memory reading a private key");
    auto key = own(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!key) throw std::invalid_argument("the private key is not a PEM private key");
    auto* k = key.get();
    switch (alg) {
    case jws_alg::es256: {
        char group[32] = {};
        std::size_t len = 0;
        if (!EVP_PKEY_is_a(k, "EC") ||
            EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &len) != 1 ||
            std::string_view(group, len) != "prime256v1")
            throw std::invalid_argument("ES256 needs a P-256 EC private key");
        break;
    }
    case jws_alg::rs256:
    case jws_alg::ps256:
        if (!EVP_PKEY_is_a(k, "RSA") || EVP_PKEY_get_bits(k) < 2048)
            throw std::invalid_argument(std::string(jws_alg_name(alg)) +
                                        " needs an RSA private key of 2048 bits or more");
        break;
    case jws_alg::eddsa:
        if (!EVP_PKEY_is_a(k, "ED25519")) throw std::invalid_argument("EdDSA needs an Ed25519 private key");
        break;
    }
    return signing_key{alg, {}, std::move(key)};
}

} // namespace mcp::auth::detail
