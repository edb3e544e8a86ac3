// auth_bench: what OAuth costs a request on an mcp::auth::resource_server - the authenticate hook
// as mcp::http::server calls it, for a token seen before (the common case: a client sends the
// same token until it expires), and for first-seen RS256, ES256 and EdDSA tokens (a signature
// verification each). The authorization server is an mcp::http::server on 127.0.0.1 serving its
// metadata and JWKS; keys are made with OpenSSL here. Then stateless HTTP requests per second of
// echo_server --http with --oauth-issuer (every request carrying the same token) side by side
// with it without, both driven by bench/drivers/http_load (wrk; 2026-07-28 tools/call).
//
//   auth_bench [--iterations N] [--http-duration S] [--skip-http]
#include "auth/jose.hpp"

#include <mcp/auth/resource_server.hpp>
#include <mcp/http/server.hpp>
#include <mcp/server/server.hpp>

#include "support/loopback_port.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace mcp::auth::detail;
using clock_type = std::chrono::steady_clock;

struct issuer {
    std::vector<signing_key> keys;
    mcp::server empty{{.info = {"issuer", "1"}}};
    std::unique_ptr<mcp::http::server> http;
    std::string url;

    issuer() {
        for (auto [alg, kid] :
             {std::pair{jws_alg::rs256, "rs"}, {jws_alg::es256, "es"}, {jws_alg::eddsa, "ed"}})
            keys.push_back(generate_signing_key(alg, kid));
        mcp::http::server_options o;
        o.extra_routes = [this](const mcp::http::request_info& r, int& status,
                                std::vector<std::pair<std::string, std::string>>& headers,
                                std::string& body) {
            headers = {{"Content-Type", "application/json"}};
            status = 200;
            if (r.target == "/.well-known/oauth-authorization-server") {
                body = mcp::to_json(mcp::json::object{{"issuer", url}, {"jwks_uri", url + "/jwks"}});
            } else if (r.target == "/jwks") {
                mcp::json::array a;
                for (const auto& k : keys) a.push_back(k.public_jwk());
                body = mcp::to_json(mcp::json::object{{"keys", std::move(a)}});
            } else {
                status = 404;
            }
            return true;
        };
        http = std::make_unique<mcp::http::server>(empty, o);
        http->start();
        url = "http://127.0.0.1:" + std::to_string(http->port());
    }
};

std::string make_token(const signing_key& k, const std::string& iss, const std::string& aud, int n) {
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return sign_jws(k, {{"typ", "at+jwt"}},
                    {{"iss", iss},
                     {"aud", aud},
                     {"sub", "user-" + std::to_string(n)},
                     {"client_id", "bench-client"},
                     {"scope", "mcp:tools openid profile"},
                     {"jti", "jti-" + std::to_string(n)},
                     {"iat", now},
                     {"exp", now + 3600}});
}

mcp::http::request_info request(const std::string& token) {
    // What a Streamable HTTP POST carries, headers and all.
    return {.method = "POST",
            .target = "/mcp",
            .headers = {{"Host", "127.0.0.1:8080"},
                        {"Content-Type", "application/json"},
                        {"Accept", "application/json, text/event-stream"},
                        {"MCP-Protocol-Version", "2026-07-28"},
                        {"Mcp-Method", "tools/call"},
                        {"Mcp-Name", "echo"},
                        {"Authorization", "Bearer " + token}},
            .remote_address = "127.0.0.1"};
}

/// Mean microseconds per authenticate over `requests` (each used once, in order, `rounds` times).
double time_per_request(mcp::auth::resource_server& rs, const std::vector<mcp::http::request_info>& requests,
                        int rounds) {
    std::size_t accepted = 0;
    const auto t0 = clock_type::now();
    for (int r = 0; r < rounds; ++r)
        for (const auto& req : requests) accepted += rs.authenticate(req).accepted;
    const auto us = std::chrono::duration<double, std::micro>(clock_type::now() - t0).count();
    if (accepted != requests.size() * static_cast<std::size_t>(rounds)) {
        std::fprintf(stderr, "auth_bench: %zu of %zu requests were refused\n",
                     requests.size() * static_cast<std::size_t>(rounds) - accepted,
                     requests.size() * static_cast<std::size_t>(rounds));
        std::exit(1);
    }
    return us / static_cast<double>(requests.size() * static_cast<std::size_t>(rounds));
}

/// One http_load run (it prints its line) of echo_server on a free port; with `key`, the server
/// takes --oauth-issuer and every request a token signed by it.
void drive(const std::string& label, int seconds, const std::string& issuer_url, const signing_key* key) {
    const std::string build = MCPXX_BINARY_DIR;
    const auto port = std::to_string(mcp::test::free_loopback_port());
    const std::string url = "http://127.0.0.1:" + port + "/mcp";
    std::string cmd = build + "/bench/drivers/http_load --url " + url +
                      " --session stateless --protocol-version 2026-07-28 --warmup 2 --duration " +
                      std::to_string(seconds) + " --label '" + label + "'";
    if (key) cmd += " --header 'Authorization: Bearer " + make_token(*key, issuer_url, url, 1) + "'";
    cmd += " -- " + build + "/echo_server --http 127.0.0.1:" + port + " --stateless";
    if (key) cmd += " --oauth-issuer " + issuer_url + " --oauth-scope mcp:tools";
    cmd += " 2>/dev/null";
    std::fflush(stdout);
    if (std::system(cmd.c_str()) != 0) std::printf("%s: the run failed\n", label.c_str());
}

} // namespace

int main(int argc, char** argv) {
    int iterations = 200000;
    int http_seconds = 10;
    bool skip_http = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--iterations" && i + 1 < argc)
            iterations = std::max(1000, std::atoi(argv[++i]));
        else if (a == "--http-duration" && i + 1 < argc)
            http_seconds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--skip-http")
            skip_http = true;
    }

    issuer as;
    const std::string resource = "http://127.0.0.1:8080/mcp";
    mcp::auth::resource_server rs({.issuer = as.url, .resource = resource, .required_scopes = {"mcp:tools"}});
    if (!rs.start()) {
        std::fprintf(stderr, "auth_bench: the keys did not load\n");
        return 1;
    }

    std::printf("%-44s %12s\n", "authenticate (one request)", "us/request");
    {
        const std::vector<mcp::http::request_info> one{request(make_token(as.keys[0], as.url, resource, 0))};
        (void)rs.authenticate(one[0]); // first sight: verified and remembered
        std::printf("%-44s %12.3f\n", "RS256 token seen before (cached)",
                    time_per_request(rs, one, iterations));
    }
    const char* names[] = {"RS256 token seen for the first time", "ES256 token seen for the first time",
                           "EdDSA token seen for the first time"};
    for (std::size_t k = 0; k < as.keys.size(); ++k) {
        const int n = as.keys[k].alg == jws_alg::rs256 ? 300 : 3000; // RSA signing here is slow
        std::vector<mcp::http::request_info> fresh;
        for (int i = 0; i < n; ++i)
            fresh.push_back(request(make_token(as.keys[k], as.url, resource, 1000000 * int(k + 1) + i)));
        std::printf("%-44s %12.3f\n", names[k], time_per_request(rs, fresh, 1));
    }

    if (skip_http) return 0;
    const bool have_driver =
        std::filesystem::exists(std::string(MCPXX_BINARY_DIR) + "/bench/drivers/http_load") &&
        std::filesystem::exists(std::string(MCPXX_BINARY_DIR) + "/echo_server") &&
        std::system("command -v wrk > /dev/null") == 0;
    if (!have_driver) {
        std::printf("\nHTTP req/s: skipped (needs bench/drivers/http_load, echo_server and wrk)\n");
        return 0;
    }
    std::printf("\nStateless HTTP (2026-07-28 tools/call, 32 connections), echo_server --http:\n");
    drive("without authorization", http_seconds, as.url, nullptr);
    drive("with --oauth-issuer (RS256 token)", http_seconds, as.url, &as.keys[0]);
    return 0;
}
