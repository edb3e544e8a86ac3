// mcp/http/request_authorizer.hpp - what the HTTP client transport asks of an authorizer: the
// Authorization value of each request, the answer to a challenge, DPoP proofs. The transport
// sits below the OAuth layer; mcp::auth::client_authorizer implements this interface.
#pragma once

#include <mcp/jsonrpc/cancellation.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::http {

class request_authorizer {
public:
    virtual ~request_authorizer() = default;

    /// The Authorization field value for a request to `server_url`; nullopt when there is none.
    virtual std::optional<std::string> authorization(std::string_view server_url,
                                                     const cancellation_token& cancel = {}) = 0;
    /// The server answered `status` (401 or 403) with `www_authenticate` (may be empty): the
    /// Authorization value to repeat the request with. Blocks (never called on an I/O thread);
    /// throws when no authorization can be had.
    virtual std::string handle_challenge(std::string_view server_url, int status,
                                         std::string_view www_authenticate,
                                         const cancellation_token& cancel = {}) = 0;
    /// A request with the current authorization succeeded.
    virtual void note_success(std::string_view server_url) = 0;
    /// A proof-of-possession header value for a `method` request to `url` carrying
    /// `authorization` ("" when none is needed). Never touches the network.
    virtual std::string dpop_proof(std::string_view method, std::string_view url,
                                   std::string_view authorization) = 0;
    /// A DPoP-Nonce the server at `url` sent.
    virtual void note_dpop_nonce(std::string_view url, std::string_view nonce) = 0;
};

} // namespace mcp::http
