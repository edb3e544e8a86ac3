// The issuer's key set and the thread that keeps it fresh (see issuer_keys.hpp).
#include "auth/issuer_keys.hpp"

#include <mcp/http/fetch.hpp>
#include <mcp/json/json.hpp>

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cstdio>

namespace mcp::auth::detail {

namespace {

constexpr std::size_t max_document_bytes = std::size_t{1} << 20;
constexpr std::size_t max_keys = 64;

json::object parse_object(const std::string& text, std::string_view what) {
    boost::system::error_code ec;
    auto v = parse_json(text, ec);
    if (!v || !v->is_object()) throw std::runtime_error(std::string(what) + " is not a JSON object");
    return std::move(v->as_object());
}

} // namespace

std::vector<const public_jwk*> key_set::candidates(std::string_view kid, jws_alg alg) const {
    std::vector<const public_jwk*> out;
    for (const auto& k : keys)
        if ((kid.empty() || k.kid == kid) && k.fits(alg)) out.push_back(&k);
    return out;
}

std::vector<std::string> metadata_urls(std::string_view issuer) {
    auto parsed = boost::urls::parse_uri(issuer);
    if (!parsed) return {};
    const std::string origin =
        std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_authority());
    std::string path(parsed->encoded_path());
    while (!path.empty() && path.back() == '/') path.pop_back();
    if (path.empty())
        return {origin + "/.well-known/oauth-authorization-server",
                origin + "/.well-known/openid-configuration"};
    return {origin + "/.well-known/oauth-authorization-server" + path,
            origin + "/.well-known/openid-configuration" + path,
            origin + path + "/.well-known/openid-configuration"};
}

issuer_keys::issuer_keys(issuer_keys_options options)
    : opts_(std::move(options)), jwks_uri_(opts_.jwks_uri) {}

issuer_keys::~issuer_keys() {
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    cancel_.cancel("the resource server is stopping");
    if (thread_.joinable()) thread_.join();
}

void issuer_keys::start() {
    std::lock_guard lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

bool issuer_keys::wait_loaded(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return keys_ != nullptr || stopping_; });
    return keys_ != nullptr;
}

std::shared_ptr<const key_set> issuer_keys::snapshot() const {
    std::lock_guard lock(mu_);
    return keys_;
}

std::shared_ptr<const key_set> issuer_keys::refresh_for_unknown_key(std::chrono::milliseconds wait) {
    std::unique_lock lock(mu_);
    const auto now = std::chrono::steady_clock::now();
    // A round that began since the limit counts as the refresh asked for: wait for it instead
    // of starting another (many requests with the same new kid share one fetch).
    const bool recent = rounds_ > 0 && now - last_round_start_ < opts_.min_refresh_interval;
    if (!recent && !refresh_requested_) {
        refresh_requested_ = true;
        cv_.notify_all();
    }
    if (refresh_requested_ || (rounds_ == 0 && thread_.joinable())) {
        const auto seen = rounds_;
        cv_.wait_for(lock, wait, [&] { return rounds_ != seen || stopping_; });
    }
    return keys_;
}

std::optional<std::string> issuer_keys::introspection_endpoint() const {
    std::lock_guard lock(mu_);
    return introspection_endpoint_;
}

std::string issuer_keys::last_error() const {
    std::lock_guard lock(mu_);
    return last_error_;
}

void issuer_keys::log(std::string_view line) const {
    if (opts_.log)
        opts_.log(line);
    else
        std::fprintf(stderr, "mcpxx auth: %.*s\n", static_cast<int>(line.size()), line.data());
}

void issuer_keys::run() {
    auto retry = std::chrono::seconds(1);
    std::unique_lock lock(mu_);
    while (!stopping_) {
        last_round_start_ = std::chrono::steady_clock::now();
        refresh_requested_ = false;
        lock.unlock();
        const auto error = fetch_once();
        lock.lock();
        if (stopping_) break;
        const bool was_failing = !last_error_.empty() || rounds_ == 0;
        ++rounds_;
        // One line per change of state, never one per request or per retry.
        if (!error.empty() && error != last_error_) log(error);
        if (error.empty() && was_failing && rounds_ > 1)
            log("the keys of " + opts_.issuer + " are available again");
        last_error_ = error;
        cv_.notify_all();
        // Failing: retry sooner (1 s, doubling up to a minute); fresh: wait the interval.
        std::chrono::seconds next = opts_.refresh_interval;
        if (!error.empty()) {
            next = std::min<std::chrono::seconds>(retry, opts_.refresh_interval);
            retry = std::min<std::chrono::seconds>(retry * 2, std::chrono::seconds(60));
        } else {
            retry = std::chrono::seconds(1);
        }
        cv_.wait_for(lock, next, [&] { return stopping_ || refresh_requested_; });
    }
}

std::string issuer_keys::fetch_text(const std::string& url) {
    http::fetch_request req{.url = url, .headers = {{"Accept", "application/json"}}};
    req.connect_timeout = std::chrono::seconds(5);
    req.timeout = std::chrono::seconds(10);
    req.ca_file = opts_.ca_file;
    req.verify_peer = opts_.verify_peer;
    req.max_response_bytes = max_document_bytes;
    req.cancel = cancel_.token();
    auto r = http::fetch(req);
    if (r.status != 200) throw std::runtime_error(url + " answered HTTP " + std::to_string(r.status));
    return std::move(r.body);
}

std::string issuer_keys::fetch_once() {
    try {
        std::string jwks_uri;
        {
            std::lock_guard lock(mu_);
            jwks_uri = jwks_uri_;
        }
        if (jwks_uri.empty()) {
            std::string failures;
            for (const auto& url : metadata_urls(opts_.issuer)) {
                std::string text;
                try {
                    text = fetch_text(url);
                } catch (const std::exception& e) {
                    failures += std::string(failures.empty() ? "" : "; ") + e.what();
                    continue;
                }
                auto meta = parse_object(text, "the metadata at " + url);
                // RFC 8414 3.3: the issuer in the document must be the one we asked about, or
                // anyone able to serve that URL could name keys for another issuer.
                if (find_string(meta, "issuer") != std::string_view(opts_.issuer))
                    throw std::runtime_error("the metadata at " + url + " is for another issuer");
                auto uri = find_string(meta, "jwks_uri");
                if (!uri) throw std::runtime_error("the metadata at " + url + " has no jwks_uri");
                std::lock_guard lock(mu_);
                jwks_uri_ = jwks_uri = std::string(*uri);
                if (auto intro = find_string(meta, "introspection_endpoint"))
                    introspection_endpoint_ = std::string(*intro);
                break;
            }
            if (jwks_uri.empty())
                throw std::runtime_error("no metadata found for issuer " + opts_.issuer + " (" + failures +
                                         ")");
        }
        auto doc = parse_object(fetch_text(jwks_uri), "the key set at " + jwks_uri);
        const auto* keys = find_array(doc, "keys");
        if (!keys) throw std::runtime_error("the key set at " + jwks_uri + " has no \"keys\" array");
        auto next = std::make_shared<key_set>();
        std::size_t skipped = 0;
        for (const auto& k : *keys) {
            if (next->keys.size() == max_keys) break;
            if (!k.is_object()) {
                ++skipped;
                continue;
            }
            if (find_string(k.as_object(), "use") == std::string_view("enc")) continue;
            try {
                next->keys.push_back(parse_public_jwk(k.as_object()));
            } catch (const jose_error&) {
                ++skipped; // another algorithm or key type: not ours to use
            }
        }
        if (next->keys.empty())
            throw std::runtime_error("the key set at " + jwks_uri + " has no usable signing key (" +
                                     std::to_string(skipped) + " skipped)");
        std::lock_guard lock(mu_);
        // The same keys as before keep the same set: what was verified with it stays verified.
        const auto same = [](const key_set& a, const key_set& b) {
            return std::equal(a.keys.begin(), a.keys.end(), b.keys.begin(), b.keys.end(),
                              [](const public_jwk& x, const public_jwk& y) {
                                  return x.kid == y.kid && x.thumbprint == y.thumbprint && x.alg == y.alg;
                              });
        };
        if (!keys_ || !same(*keys_, *next)) keys_ = std::move(next);
        return {};
    } catch (const mcp::error&) {
        return {}; // cancelled: stopping
    } catch (const std::exception& e) {
        return std::string("cannot load the keys of ") + opts_.issuer + ": " + e.what();
    }
}

} // namespace mcp::auth::detail
