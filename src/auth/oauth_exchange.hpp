// auth/oauth_exchange.hpp - the HTTP exchanges of the OAuth client: metadata GETs, Dynamic
// Client Registration (RFC 7591) and token requests (authorization code, refresh), with the
// token endpoint authentication the registration calls for. Bodies of failures are never put
// in messages whole: only an OAuth `error` code, which is a short token.
#pragma once

#include "auth/dpop_signer.hpp"
#include "auth/metadata.hpp"
#include "auth/urls.hpp"

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/http/fetch.hpp>

#include <optional>
#include <string>

namespace mcp::auth::detail {

class oauth_exchange {
public:
    explicit oauth_exchange(const client_authorizer_options& options) : opts_(options) {}

    /// GET `url` (Accept: application/json): the body on 200, nullopt on any other status
    /// (404 and friends: try the next location). Throws authorization_error(discovery) when
    /// no response came at all, (cancelled) when cancelled.
    std::optional<std::string> get_document(const std::string& url, const cancellation_token& cancel);

    /// RFC 7591 registration at `as.registration_endpoint`.
    client_registration register_client(const server_metadata& as, const std::string& redirect_uri,
                                        const cancellation_token& cancel);

    /// A token request (grant parameters in `grant`); client authentication per `client`.
    /// With `dpop`, the request carries a proof (the token is bound to its key) and a
    /// use_dpop_nonce answer is followed by one retry with the server's nonce.
    token_set request_tokens(const server_metadata& as, const client_registration& client, param_list grant,
                             const cancellation_token& cancel, dpop_signer* dpop = nullptr);

private:
    /// A private_key_jwt assertion (RFC 7523) of `client_id` for `audience`.
    std::string client_assertion(const std::string& client_id, const std::string& audience) const;
    http::fetch_response send(http::fetch_request request, const cancellation_token& cancel,
                              auth_failure on_failure);

    const client_authorizer_options& opts_;
    http::http_client http_;
};

} // namespace mcp::auth::detail
