// WWW-Authenticate challenges and refusals (see challenge.hpp).
#include "auth/challenge.hpp"

namespace mcp::auth::detail {

namespace {

constexpr std::string_view dpop_algs = "RS256 PS256 ES256 EdDSA";

/// A quoted-string parameter value: RFC 6750 3 allows no '"' or '\' in error_description.
std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) out.push_back(c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ? '\'' : c);
    return out + "\"";
}

std::string joined(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}

} // namespace

challenge::challenge(std::string metadata_url, std::vector<std::string> required_scopes)
    : metadata_url_(std::move(metadata_url)), required_scopes_(std::move(required_scopes)) {}

std::string challenge::header(std::string_view scheme, std::string_view error, std::string_view description,
                              const std::vector<std::string>& scopes) const {
    std::string h(scheme);
    h += " resource_metadata=" + quoted(metadata_url_);
    if (!scopes.empty()) h += ", scope=" + quoted(joined(scopes));
    if (!error.empty()) h += ", error=" + quoted(error);
    if (!description.empty()) h += ", error_description=" + quoted(description);
    if (scheme == "DPoP") h += ", algs=" + quoted(dpop_algs);
    return h;
}

http::auth_decision challenge::no_token() const {
    return {.accepted = false,
            .status = 401,
            .headers = {{"WWW-Authenticate", header("Bearer", "", "", required_scopes_)}},
            .message = "Unauthorized: send an access token (Authorization: Bearer <token>)"};
}

http::auth_decision challenge::bad_request(std::string description) const {
    return {.accepted = false,
            .status = 400,
            .headers = {{"WWW-Authenticate", header("Bearer", "invalid_request", description, {})}},
            .message = "Bad Request: " + description};
}

http::auth_decision challenge::refuse(const token_failure& failure, bool dpop) const {
    if (failure.status == 503)
        return {.accepted = false,
                .status = 503,
                .headers = {{"Retry-After", "5"}},
                .message = failure.description};
    return {.accepted = false,
            .status = failure.status,
            .headers = {{"WWW-Authenticate",
                         header(dpop ? "DPoP" : "Bearer", failure.error, failure.description, {})}},
            .message = "Unauthorized: " + failure.description};
}

http::auth_decision challenge::insufficient_scope(const std::vector<std::string>& needed, bool dpop) const {
    return {.accepted = false,
            .status = 403,
            .headers = {{"WWW-Authenticate", header(dpop ? "DPoP" : "Bearer", "insufficient_scope",
                                                    "the token lacks a scope this request needs", needed)}},
            .message = "Forbidden: this request needs the scopes: " + joined(needed)};
}

} // namespace mcp::auth::detail
