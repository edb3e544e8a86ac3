// The HTTP exchanges of the OAuth client (see oauth_exchange.hpp).
#include "auth/oauth_exchange.hpp"

#include "auth/jose.hpp"
#include "crypto/crypto.hpp"

#include <mcp/json/base64.hpp>
#include <mcp/json/json.hpp>

#include <algorithm>
#include <cctype>
#include <initializer_list>

namespace mcp::auth::detail {

namespace {

// An OAuth error code is a short printable token; anything else is not repeated.
std::string oauth_error_of(std::string_view body) {
    boost::system::error_code ec;
    auto v = parse_json(body, ec);
    if (!v || !v->is_object()) return {};
    auto e = find_string(v->get_object(), "error");
    if (!e || e->size() > 64) return {};
    for (char c : *e)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return {};
    return std::string(*e);
}

// The JSON object of a successful answer (empty when the body is not one); for any status not
// in `ok`, an authorization_error naming `what` failed, with the OAuth error code if any.
json::object answer_object(const http::fetch_response& resp, std::initializer_list<int> ok,
                           auth_failure reason, const std::string& what) {
    if (std::find(ok.begin(), ok.end(), resp.status) == ok.end()) {
        const auto code = oauth_error_of(resp.body);
        throw authorization_error(reason, what + " failed: HTTP " + std::to_string(resp.status) +
                                              (code.empty() ? "" : " (" + code + ")"));
    }
    boost::system::error_code ec;
    auto v = parse_json(resp.body, ec);
    if (v && v->is_object()) return std::move(v->get_object());
    return {};
}

bool listed(const std::vector<std::string>& v, std::string_view s) {
    for (const auto& e : v)
        if (e == s) return true;
    return false;
}

} // namespace

http::fetch_response oauth_exchange::send(http::fetch_request request, const cancellation_token& cancel,
                                          auth_failure on_failure) {
    request.timeout = opts_.timeout;
    request.verify_peer = opts_.verify_peer;
    request.ca_file = opts_.ca_file;
    request.max_response_bytes = 1u << 20;
    request.cancel = cancel;
    try {
        return http_.fetch(request);
    } catch (const http::fetch_error& e) {
        throw authorization_error(on_failure, e.what());
    } catch (const mcp::error&) {
        throw authorization_error(auth_failure::cancelled, "the authorization was cancelled");
    }
}

std::optional<std::string> oauth_exchange::get_document(const std::string& url,
                                                        const cancellation_token& cancel) {
    http::fetch_request r;
    r.url = url;
    r.headers = {{"Accept", "application/json"}};
    auto resp = send(std::move(r), cancel, auth_failure::discovery);
    if (resp.status != 200) return std::nullopt;
    return std::move(resp.body);
}

client_registration oauth_exchange::register_client(const server_metadata& as,
                                                    const std::string& redirect_uri,
                                                    const cancellation_token& cancel) {
    // The method asked for: none when the server takes it (a native app keeps no secret
    // safely), else what it lists first of the two secret methods; basic when it says nothing.
    const auto& methods = as.token_endpoint_auth_methods;
    std::string method = "client_secret_basic";
    if (listed(methods, "none"))
        method = "none";
    else if (!methods.empty() && !listed(methods, "client_secret_basic") &&
             listed(methods, "client_secret_post"))
        method = "client_secret_post";

    json::object body;
    body["client_name"] = opts_.client_name;
    body["redirect_uris"] = json::array{json::value(redirect_uri)};
    body["grant_types"] = json::array{"authorization_code", "refresh_token"};
    body["response_types"] = json::array{"code"};
    body["token_endpoint_auth_method"] = method;
    if (!opts_.application_type.empty()) body["application_type"] = opts_.application_type;

    http::fetch_request r;
    r.method = "POST";
    r.url = as.registration_endpoint;
    r.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    r.body = to_json(body);
    auto resp = send(std::move(r), cancel, auth_failure::registration);
    const std::string where = display_url(as.registration_endpoint);
    const json::object answer =
        answer_object(resp, {200, 201}, auth_failure::registration, "client registration at " + where);
    auto id = find_string(answer, "client_id");
    if (!id || id->empty())
        throw authorization_error(auth_failure::registration,
                                  "the registration response from " + where + " has no client_id");
    client_registration c;
    c.client_id = std::string(*id);
    c.client_secret = std::string(find_string(answer, "client_secret").value_or(""));
    c.token_endpoint_auth_method = std::string(find_string(answer, "token_endpoint_auth_method")
                                                   .value_or(c.client_secret.empty() ? "none" : method));
    if (c.client_secret.empty()) c.token_endpoint_auth_method = "none";
    c.redirect_uris = {redirect_uri};
    if (auto exp = find_int(answer, "client_secret_expires_at"); exp && *exp > 0)
        c.secret_expires_at = std::chrono::system_clock::time_point(std::chrono::seconds(*exp));
    return c;
}

std::string oauth_exchange::client_assertion(const std::string& client_id,
                                             const std::string& audience) const {
    // RFC 7523 section 3: the client is issuer and subject, the authorization server's issuer
    // the audience; short-lived and unique.
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    json::object claims{{"iss", client_id}, {"sub", client_id}, {"aud", audience},
                        {"iat", now},       {"exp", now + 300}, {"jti", mcp::detail::random_hex_id()}};
    try {
        return sign_jwt(opts_.client_private_key_pem, opts_.client_signing_algorithm, claims);
    } catch (const std::exception& e) {
        throw authorization_error(auth_failure::token_request, e.what());
    }
}

token_set oauth_exchange::request_tokens(const server_metadata& as, const client_registration& client,
                                         param_list grant, const cancellation_token& cancel,
                                         dpop_signer* dpop) {
    http::fetch_request r;
    r.method = "POST";
    r.url = as.token_endpoint;
    r.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
    if (client.token_endpoint_auth_method == "client_secret_basic") {
        // RFC 6749 section 2.3.1: both parts form-encoded before the Basic encoding.
        const std::string id = form_encode({{"", client.client_id}}).substr(1);
        const std::string secret = form_encode({{"", client.client_secret}}).substr(1);
        r.headers.emplace_back("Authorization", "Basic " + mcp::base64::encode(id + ":" + secret));
    } else if (client.token_endpoint_auth_method == "private_key_jwt") {
        grant.emplace_back("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        grant.emplace_back("client_assertion", client_assertion(client.client_id, as.issuer));
    } else {
        grant.emplace_back("client_id", client.client_id);
        if (client.token_endpoint_auth_method == "client_secret_post")
            grant.emplace_back("client_secret", client.client_secret);
    }
    r.body = form_encode(grant);
    http::fetch_response resp;
    for (int attempt = 0;; ++attempt) {
        http::fetch_request one = r;
        if (dpop) one.headers.emplace_back("DPoP", dpop->proof("POST", as.token_endpoint));
        resp = send(std::move(one), cancel, auth_failure::token_request);
        // RFC 9449 section 8: the server wants a nonce of its own in the proof; once.
        auto nonce = resp.header("DPoP-Nonce");
        if (!dpop || attempt > 0 || resp.status != 400 || !nonce ||
            oauth_error_of(resp.body) != "use_dpop_nonce")
            break;
        dpop->set_nonce(as.token_endpoint, std::string(*nonce));
    }
    const std::string where = display_url(as.token_endpoint);
    const json::object answer =
        answer_object(resp, {200}, auth_failure::token_request, "the token request to " + where);
    auto access = find_string(answer, "access_token");
    if (!access || access->empty())
        throw authorization_error(auth_failure::token_request,
                                  "the token response from " + where + " has no access_token");
    for (char c : *access)
        if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e)
            throw authorization_error(auth_failure::token_request,
                                      "the access token from " + where + " cannot travel in a header");
    token_set t;
    t.access_token = std::string(*access);
    t.token_type = std::string(find_string(answer, "token_type").value_or("Bearer"));
    t.refresh_token = std::string(find_string(answer, "refresh_token").value_or(""));
    t.scope = std::string(find_string(answer, "scope").value_or(""));
    if (auto in = find_int(answer, "expires_in"); in && *in > 0)
        t.expires_at = std::chrono::system_clock::now() + std::chrono::seconds(*in);
    return t;
}

} // namespace mcp::auth::detail
