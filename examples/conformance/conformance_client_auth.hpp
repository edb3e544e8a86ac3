// The auth/* scenarios of conformance_client: an mcp::auth::client_authorizer whose user
// agent is a GET of the authorization URL that reads the redirect (the mock authorization
// server approves at once), and the pre-registered client of MCP_CONFORMANCE_CONTEXT if any.
#pragma once

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/json/json.hpp>

#include <memory>

namespace conformance {

/// An authorizer for the scenario: `context` is MCP_CONFORMANCE_CONTEXT (or null).
std::shared_ptr<mcp::auth::client_authorizer> scenario_authorizer(const mcp::json::value& context);

} // namespace conformance
