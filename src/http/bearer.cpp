// Static bearer tokens (see mcp/http/bearer.hpp).
#include <mcp/http/bearer.hpp>

#include "crypto/crypto.hpp"

#include <stdexcept>

namespace mcp::http {

namespace {

std::optional<std::string_view> bearer_credentials(std::string_view authorization) {
    static constexpr std::string_view scheme = "bearer";
    if (authorization.size() <= scheme.size()) return std::nullopt;
    for (std::size_t i = 0; i < scheme.size(); ++i)
        if (static_cast<char>(std::tolower(static_cast<unsigned char>(authorization[i]))) != scheme[i])
            return std::nullopt;
    auto rest = authorization.substr(scheme.size());
    if (rest.front() != ' ') return std::nullopt;
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    if (rest.empty()) return std::nullopt;
    return rest;
}

} // namespace

bearer_tokens::bearer_tokens() : by_digest_(std::make_shared<std::map<std::string, std::string>>()) {}

void bearer_tokens::add(std::string_view token, std::string principal) {
    if (token.size() < 8) throw std::invalid_argument("a bearer token must have at least 8 characters");
    for (char c : token)
        if (c <= ' ' || c > '~')
            throw std::invalid_argument("a bearer token must be printable ASCII without spaces");
    // Copy on write: authenticators handed out earlier keep their snapshot.
    auto next = std::make_shared<std::map<std::string, std::string>>(*by_digest_);
    if (!next->emplace(mcp::detail::sha256_hex(token), std::move(principal)).second)
        throw std::invalid_argument("the same bearer token twice");
    by_digest_ = std::move(next);
}

bool bearer_tokens::empty() const noexcept {
    return by_digest_->empty();
}

std::size_t bearer_tokens::size() const noexcept {
    return by_digest_->size();
}

std::optional<std::string> bearer_tokens::principal_of(std::string_view authorization) const {
    auto token = bearer_credentials(authorization);
    if (!token) return std::nullopt;
    // Looked up by digest: no comparison ever runs over the secret itself.
    auto it = by_digest_->find(mcp::detail::sha256_hex(*token));
    if (it == by_digest_->end()) return std::nullopt;
    return it->second;
}

std::function<auth_decision(const request_info&)> bearer_tokens::authenticator(
    std::string realm, std::function<void(const request_info&, std::string_view reason)> on_refused) const {
    return [tokens = *this, realm = std::move(realm),
            on_refused = std::move(on_refused)](const request_info& r) {
        if (const auto lines = r.header_count("Authorization");
            lines > 1) { // which one would count? (RFC 6750 3.1: invalid_request)
            if (on_refused) on_refused(r, "repeated Authorization header");
            return auth_decision{.accepted = false,
                                 .status = 400,
                                 .headers = {{"WWW-Authenticate",
                                              "Bearer realm=\"" + realm + "\", error=\"invalid_request\""}},
                                 .message = "Bad Request: send one Authorization header, not " +
                                            std::to_string(lines)};
        }
        const auto* h = r.header("Authorization");
        if (h)
            if (auto who = tokens.principal_of(*h))
                return auth_decision{.accepted = true, .principal = std::move(*who)};
        if (on_refused) on_refused(r, h ? "unknown token" : "no token");
        return auth_decision{.accepted = false,
                             .status = 401,
                             .headers = {{"WWW-Authenticate", "Bearer realm=\"" + realm + "\""}},
                             .message = h ? "Unauthorized: the token is not accepted"
                                          : "Unauthorized: send Authorization: Bearer <token>"};
    };
}

} // namespace mcp::http
