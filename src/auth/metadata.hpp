// auth/metadata.hpp - the two discovery documents an MCP client reads, parsed and checked:
// Protected Resource Metadata (RFC 9728) and authorization server metadata (RFC 8414 / OpenID
// Connect discovery). Each check failure is an authorization_error naming what was wrong.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth::detail {

struct resource_metadata {
    std::string resource;
    std::vector<std::string> authorization_servers;
    std::vector<std::string> scopes_supported;
};

/// Parses a PRM document fetched from `from` (for messages) for the server `server_url`.
/// Throws authorization_error: discovery (not JSON, no authorization_servers) or
/// resource_mismatch (`resource` absent or naming another server).
resource_metadata parse_resource_metadata(std::string_view body, std::string_view server_url,
                                          std::string_view from);

struct server_metadata {
    std::string issuer;
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string registration_endpoint; ///< empty: no DCR
    std::vector<std::string> scopes_supported;
    std::vector<std::string> token_endpoint_auth_methods; ///< empty: not said (RFC 8414 default client_secret_basic)
    std::vector<std::string> grant_types; ///< empty: not said (RFC 8414 default authorization_code, implicit)
    bool client_id_metadata_document_supported = false;
    bool iss_parameter_supported = false;
    bool dpop_es256 = false; ///< dpop_signing_alg_values_supported lists ES256
    bool defaults = false; ///< 2025-03-26 fallback: no document, default endpoints
};

/// Parses an authorization server metadata document looked up for `expected_issuer`.
/// Throws authorization_error: discovery (not JSON, endpoints missing or not https/loopback),
/// issuer_mismatch (`issuer` differs, by simple string comparison), pkce_unsupported (S256
/// not in code_challenge_methods_supported, or that list absent).
server_metadata parse_authorization_metadata(std::string_view body, std::string_view expected_issuer,
                                             std::string_view from);

/// The 2025-03-26 defaults for a server without metadata: /authorize, /token, /register at
/// the MCP server's origin.
server_metadata default_metadata(std::string_view origin);

/// Serialization for the credential store's discovery_state.
std::string to_json_text(const server_metadata& m);
server_metadata server_metadata_from_json_text(std::string_view text);

} // namespace mcp::auth::detail
