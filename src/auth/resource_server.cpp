// The resource server: the authenticate hook, its caches and the metadata routes (see
// mcp/auth/resource_server.hpp).
#include <mcp/auth/resource_server.hpp>

#include "auth/access_token.hpp"
#include "auth/challenge.hpp"
#include "auth/dpop.hpp"
#include "auth/introspection.hpp"
#include "auth/issuer_keys.hpp"

#include <mcp/json/json.hpp>

#include <boost/url/parse.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace mcp::auth {

namespace {

constexpr std::string_view well_known = "/.well-known/oauth-protected-resource";
constexpr std::size_t verified_cache_capacity = 10000;

/// Throws std::invalid_argument unless `url` is an absolute http(s) URL (http on loopback only).
boost::urls::url_view checked_url(const std::string& url, std::string_view what) {
    auto u = boost::urls::parse_uri(url);
    if (url.empty()) throw std::invalid_argument(std::string(what) + " is required");
    if (!u || !u->has_authority() || u->encoded_host().empty())
        throw std::invalid_argument(std::string(what) + " is not an absolute URL: " + url);
    if (u->has_fragment())
        throw std::invalid_argument(std::string(what) + " must not have a fragment: " + url);
    const auto host = u->encoded_host();
    const bool loopback = host == "localhost" || host == "127.0.0.1" || host == "[::1]";
    if (u->scheme() != "https" && !(u->scheme() == "http" && loopback))
        throw std::invalid_argument(std::string(what) + " must be https (http only on loopback): " + url);
    return *u;
}

std::optional<std::string_view> credentials(std::string_view authorization, std::string_view scheme) {
    if (authorization.size() <= scheme.size() || authorization[scheme.size()] != ' ') return std::nullopt;
    for (std::size_t i = 0; i < scheme.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(authorization[i])) !=
            std::tolower(static_cast<unsigned char>(scheme[i])))
            return std::nullopt;
    auto rest = authorization.substr(scheme.size());
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    if (rest.empty()) return std::nullopt;
    return rest;
}

/// Lets the cache be searched with the token as it came (no copy per request).
struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

std::string path_of(std::string_view target) {
    return std::string(target.substr(0, target.find_first_of("?#")));
}

} // namespace

/// What depends on the resource's URL, which may be known only once the server is bound.
struct resource_view {
    std::string origin;        ///< scheme://authority of the resource
    std::string resource_path; ///< its path ("" for the root)
    std::string metadata_doc;
    std::string metadata_url;
    detail::challenge challenge;
    detail::access_token_rules rules;
};

struct resource_server::impl {
    resource_server_options opts;
    std::unique_ptr<detail::issuer_keys> keys;
    std::unique_ptr<detail::introspector> introspection;
    detail::dpop_verifier dpop;

    mutable std::mutex view_mu;
    std::shared_ptr<const resource_view> current_view;

    struct cached {
        verified_token token;
        std::shared_ptr<const detail::key_set> keys; ///< verified with these
    };
    std::mutex cache_mu;
    std::unordered_map<std::string, cached, string_hash, std::equal_to<>> verified; ///< never logged

    explicit impl(resource_server_options o)
        : opts(std::move(o)), dpop(opts.dpop_proof_window, opts.dpop_replay_capacity) {}

    std::shared_ptr<const resource_view> view() const {
        std::lock_guard lock(view_mu);
        return current_view;
    }
    void set_view(const std::string& resource);
    detail::token_result verify(const resource_view& v, std::string_view token,
                                std::chrono::system_clock::time_point now);
    http::auth_decision check(const http::request_info& r);
    std::vector<std::string> scopes_needed(const http::request_info& r) const;
};

void resource_server::impl::set_view(const std::string& resource) {
    const auto res = checked_url(resource, "the resource");
    auto v = std::make_shared<resource_view>();
    v->origin = std::string(res.scheme()) + "://" + std::string(res.encoded_authority());
    v->resource_path = std::string(res.encoded_path());
    if (v->resource_path == "/") v->resource_path.clear();
    v->metadata_url = v->origin + std::string(well_known) + v->resource_path;
    std::vector<std::string> scopes = opts.scopes_supported;
    if (scopes.empty()) {
        scopes = opts.required_scopes;
        for (const auto& [tool, needed] : opts.tool_scopes)
            for (const auto& s : needed)
                if (std::find(scopes.begin(), scopes.end(), s) == scopes.end()) scopes.push_back(s);
    }
    json::object doc{{"resource", resource},
                     {"authorization_servers", json::array{json::string(opts.issuer)}},
                     {"bearer_methods_supported", json::array{"header"}},
                     {"dpop_signing_alg_values_supported", json::array{"RS256", "PS256", "ES256", "EdDSA"}}};
    if (!scopes.empty()) {
        json::array a;
        for (const auto& s : scopes) a.emplace_back(s);
        doc["scopes_supported"] = std::move(a);
    }
    v->metadata_doc = to_json(doc);
    v->challenge = detail::challenge(v->metadata_url, opts.required_scopes);
    v->rules = {opts.issuer,          opts.audience.empty() ? resource : opts.audience,
                opts.leeway,          opts.allow_untyped_tokens,
                opts.max_token_bytes, opts.unknown_key_wait};
    std::lock_guard lock(view_mu);
    current_view = std::move(v);
}

detail::token_result resource_server::impl::verify(const resource_view& v, std::string_view token,
                                                   std::chrono::system_clock::time_point now) {
    auto current = keys->snapshot();
    {
        std::lock_guard lock(cache_mu);
        if (auto it = verified.find(token); it != verified.end()) {
            // Still valid, and the key set it was verified with is still the one held: a
            // rotation that dropped a key takes its tokens with it.
            if (it->second.token.expires > now && it->second.keys == current) return it->second.token;
            verified.erase(it);
        }
    }
    // Opaque tokens: the introspector's own cache, which keeps an answer for at most its TTL
    // (a revoked token must not live here until its exp).
    if (!detail::looks_like_jwt(token)) return introspection->introspect(token, v.rules.audience, now);
    auto result = detail::verify_access_token(token, v.rules, *keys, now);
    if (auto* ok = std::get_if<verified_token>(&result)) {
        auto used = keys->snapshot();
        std::lock_guard lock(cache_mu);
        if (verified.size() >= verified_cache_capacity) verified.clear(); // bounded; rebuilt as tokens come
        verified.emplace(std::string(token), cached{*ok, std::move(used)});
    }
    return result;
}

std::vector<std::string> resource_server::impl::scopes_needed(const http::request_info& r) const {
    std::vector<std::string> needed = opts.required_scopes;
    if (opts.tool_scopes.empty() || r.method != "POST") return needed;
    auto add_tool = [&](std::string_view name) {
        if (auto it = opts.tool_scopes.find(name); it != opts.tool_scopes.end())
            for (const auto& s : it->second)
                if (std::find(needed.begin(), needed.end(), s) == needed.end()) needed.push_back(s);
    };
    // 2026-07-28 requests name the tool in headers; earlier ones only in the body.
    const auto* method = r.header("Mcp-Method");
    const auto* name = r.header("Mcp-Name");
    if (method && name) {
        if (*method == "tools/call") add_tool(*name);
        return needed;
    }
    if (r.body.find("tools/call") == std::string_view::npos) return needed; // the cheap common case
    boost::system::error_code ec;
    auto v = parse_json(r.body, ec);
    if (!v) return needed;
    auto visit = [&](const json::value& m) {
        if (!m.is_object()) return;
        if (find_string(m.as_object(), "method") != std::string_view("tools/call")) return;
        if (const auto* p = find_object(m.as_object(), "params"))
            if (auto n = find_string(*p, "name")) add_tool(*n);
    };
    if (v->is_array())
        for (const auto& m : v->as_array()) visit(m);
    else
        visit(*v);
    return needed;
}

http::auth_decision resource_server::impl::check(const http::request_info& r) {
    const auto view_now = view();
    if (!view_now)
        return {.accepted = false,
                .status = 503,
                .headers = {{"Retry-After", "1"}},
                .message = "Service Unavailable: the server is starting"};
    const auto& challenge = view_now->challenge;
    if (const auto lines = r.header_count("Authorization"); lines > 1)
        return challenge.bad_request("send one Authorization header, not " + std::to_string(lines));
    const auto* authorization = r.header("Authorization");
    if (!authorization) return challenge.no_token();
    auto token = credentials(*authorization, "Bearer");
    const bool dpop_scheme = !token && (token = credentials(*authorization, "DPoP"));
    if (!token) return challenge.no_token();
    if (token->size() > opts.max_token_bytes)
        return challenge.refuse(
            {401, "invalid_token",
             "the token is longer than " + std::to_string(opts.max_token_bytes) + " bytes"},
            dpop_scheme);
    const auto now = std::chrono::system_clock::now();
    auto result = verify(*view_now, *token, now);
    if (auto* failure = std::get_if<detail::token_failure>(&result))
        return challenge.refuse(*failure, dpop_scheme);
    const auto& v = std::get<verified_token>(result);

    if (!v.jkt.empty() || dpop_scheme) {
        // RFC 9449 7: a bound token travels with the DPoP scheme and a proof; the DPoP scheme
        // with an unbound token is refused too (the client believes it is bound).
        if (v.jkt.empty())
            return challenge.refuse({401, "invalid_token", "the token is not DPoP-bound"}, true);
        if (!dpop_scheme)
            return challenge.refuse(
                {401, "invalid_token", "the token is DPoP-bound: use Authorization: DPoP"}, true);
        if (r.header_count("DPoP") != 1)
            return challenge.refuse({401, "invalid_dpop_proof", "send one DPoP proof header"}, true);
        const auto url = view_now->origin + path_of(r.target);
        if (auto why = dpop.check(*r.header("DPoP"), {r.method, url, *token, v.jkt}, now))
            return challenge.refuse({401, "invalid_dpop_proof", *why}, true);
    }
    const auto needed = scopes_needed(r);
    for (const auto& s : needed)
        if (std::find(v.scopes.begin(), v.scopes.end(), s) == v.scopes.end())
            return challenge.insufficient_scope(needed, dpop_scheme);
    return http::auth_decision{.accepted = true, .principal = v.principal()};
}

resource_server::resource_server(resource_server_options options)
    : impl_(std::make_shared<impl>(std::move(options))) {
    auto& o = impl_->opts;
    checked_url(o.issuer, "the issuer");
    if (o.leeway > std::chrono::minutes(5)) o.leeway = std::chrono::minutes(5);
    if (o.leeway < std::chrono::seconds(0)) o.leeway = std::chrono::seconds(0);
    if (!o.log) // stdio, not <iostream>: the example servers keep their start-up small
        o.log = [](std::string_view line) {
            std::fprintf(stderr, "mcpxx auth: %.*s\n", static_cast<int>(line.size()), line.data());
        };
    if (!o.resource.empty()) impl_->set_view(o.resource);
    impl_->keys = std::make_unique<detail::issuer_keys>(
        detail::issuer_keys_options{o.issuer, o.jwks_uri, o.keys_refresh_interval, o.min_refresh_interval,
                                    o.ca_file, o.verify_peer, o.log});
    const bool introspects = !o.introspection_client_id.empty();
    auto* keys = impl_->keys.get();
    impl_->introspection = std::make_unique<detail::introspector>(
        detail::introspection_options{o.introspection_client_id, o.introspection_client_secret, o.issuer,
                                      o.introspection_timeout, o.introspection_cache_ttl, 10000, o.ca_file,
                                      o.verify_peer},
        [endpoint = o.introspection_endpoint, introspects, keys]() -> std::optional<std::string> {
            if (!introspects) return std::nullopt;
            if (!endpoint.empty()) return endpoint;
            return keys->introspection_endpoint();
        });
}

void resource_server::set_resource(std::string resource) {
    impl_->set_view(resource);
}

resource_server::~resource_server() = default;

bool resource_server::start() {
    impl_->keys->start();
    return impl_->keys->wait_loaded(impl_->opts.start_wait);
}

void resource_server::install(http::server_options& options) {
    options.authenticate = authenticator();
    add_metadata_routes(options);
}

std::function<http::auth_decision(const http::request_info&)> resource_server::authenticator() const {
    return [self = impl_](const http::request_info& r) { return self->check(r); };
}

void resource_server::add_metadata_routes(http::server_options& options) {
    options.extra_routes = [self = impl_, next = std::move(options.extra_routes)](
                               const http::request_info& r, int& status,
                               std::vector<std::pair<std::string, std::string>>& headers, std::string& body) {
        const auto path = path_of(r.target);
        const auto view = self->view();
        if (view && (path == std::string(well_known) + view->resource_path || path == well_known)) {
            if (r.method != "GET" && r.method != "HEAD") {
                status = 405;
                headers = {{"Allow", "GET, HEAD"}, {"Content-Type", "text/plain"}};
                body = "Method Not Allowed: the metadata is read with GET\n";
                return true;
            }
            status = 200;
            // Public, and read by browser-based clients too.
            headers = {{"Content-Type", "application/json"},
                       {"Cache-Control", "max-age=3600"},
                       {"Access-Control-Allow-Origin", "*"}};
            body = view->metadata_doc;
            return true;
        }
        return next ? next(r, status, headers, body) : false;
    };
}

http::auth_decision resource_server::authenticate(const http::request_info& request) {
    return impl_->check(request);
}

std::string resource_server::metadata() const {
    auto v = impl_->view();
    return v ? v->metadata_doc : std::string();
}

std::string resource_server::metadata_url() const {
    auto v = impl_->view();
    return v ? v->metadata_url : std::string();
}

std::size_t resource_server::keys() const {
    auto set = impl_->keys->snapshot();
    return set ? set->keys.size() : 0;
}

} // namespace mcp::auth
