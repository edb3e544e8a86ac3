// mcp/protocol/types.hpp - every MCP protocol type and its per-revision wire codec.
//
//   mcp::tool t{.name = "echo", .description = "Echo the input"};
//   json::object wire = mcp::to_json(t, mcp::revision::v2025_06_18); // what that revision defines
//   mcp::tool back = mcp::from_json<mcp::tool>(wire);                  // tolerant parse
#pragma once

#include <mcp/protocol/capabilities.hpp>
#include <mcp/protocol/codec.hpp>
#include <mcp/protocol/completion.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/elicitation.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/logging.hpp>
#include <mcp/protocol/metadata.hpp>
#include <mcp/protocol/notifications.hpp>
#include <mcp/protocol/prompt.hpp>
#include <mcp/protocol/resource.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/protocol/roots.hpp>
#include <mcp/protocol/sampling.hpp>
#include <mcp/protocol/tool.hpp>
