// An authorization server for tests, played by a test HTTP server: RFC 8414 metadata, a JWKS the
// test can change, break or take down, and an introspection endpoint; keys made with OpenSSL
// (once per process: RSA keys are slow to make).
#pragma once

#include "auth/jose.hpp"
#include "support/http_test_server.hpp"

#include <mcp/json/json.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace mcp::test {

using mcp::auth::detail::generate_signing_key;
using mcp::auth::detail::jws_alg;
using mcp::auth::detail::signing_key;

/// Keys are slow to make (RSA): once for all tests.
struct test_keys {
    signing_key rsa = generate_signing_key(jws_alg::rs256, "rsa1");
    signing_key rsa_pss = generate_signing_key(jws_alg::ps256, "pss1");
    signing_key ec = generate_signing_key(jws_alg::es256, "ec1");
    signing_key ed = generate_signing_key(jws_alg::eddsa, "ed1");
    signing_key rotated = generate_signing_key(jws_alg::rs256, "rsa2");
    signing_key stranger = generate_signing_key(jws_alg::rs256, "rsa1"); // same kid, other key
    signing_key client = generate_signing_key(jws_alg::es256);           // a DPoP client's key
};
inline const test_keys& keys() {
    static const test_keys k;
    return k;
}

/// The authorization server: RFC 8414 metadata and a JWKS the test can change, break or take down.
class fake_issuer {
public:
    enum class mode { ok, down, garbage };

    fake_issuer()
        : http_([this](const recorded_request& r, std::shared_ptr<core::response_writer> w) {
              serve(r, std::move(w));
          }) {
        publish({keys().rsa, keys().rsa_pss, keys().ec, keys().ed});
    }
    std::string issuer() const { return http_.url(""); }
    void publish(const std::vector<signing_key>& ks) {
        json::array a;
        for (const auto& k : ks) a.push_back(k.public_jwk());
        std::lock_guard lock(mu_);
        jwks_ = mcp::to_json(json::object{{"keys", std::move(a)}});
    }
    void set_mode(mode m) {
        std::lock_guard lock(mu_);
        mode_ = m;
    }
    int jwks_fetches() const { return jwks_fetches_.load(); }
    int introspections() const { return introspections_.load(); }
    std::string audience; ///< what introspection answers name as aud

private:
    void serve(const recorded_request& r, std::shared_ptr<core::response_writer> w) {
        std::lock_guard lock(mu_);
        if (mode_ == mode::down) return w->respond(503, {}, "down");
        if (r.target == "/.well-known/oauth-authorization-server")
            return w->respond(
                200, {{"Content-Type", "application/json"}},
                mcp::to_json(json::object{{"issuer", issuer()},
                                          {"jwks_uri", issuer() + "/jwks"},
                                          {"introspection_endpoint", issuer() + "/introspect"}}));
        if (r.target == "/introspect") {
            ++introspections_;
            // client_secret_basic of "rs" / "s3cret"
            if (r.header("Authorization") != "Basic cnM6czNjcmV0") return w->respond(401, {}, "");
            const bool good = r.body == "token=opaque-good-token-1&token_type_hint=access_token";
            json::object answer{{"active", good}};
            if (good) {
                answer["sub"] = "bob";
                answer["scope"] = "mcp";
                answer["aud"] = audience;
                answer["exp"] = std::chrono::duration_cast<std::chrono::seconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count() +
                                300;
            }
            return w->respond(200, {{"Content-Type", "application/json"}}, mcp::to_json(answer));
        }
        if (r.target == "/jwks") {
            ++jwks_fetches_;
            return w->respond(200, {{"Content-Type", "application/json"}},
                              mode_ == mode::garbage ? std::string("<html>not a key set") : jwks_);
        }
        w->respond(404, {}, "");
    }

    mutable std::mutex mu_;
    std::string jwks_;
    mode mode_ = mode::ok;
    std::atomic<int> jwks_fetches_{0};
    std::atomic<int> introspections_{0};
    http_test_server http_; // last: its thread calls serve() until it is destroyed
};

} // namespace mcp::test
