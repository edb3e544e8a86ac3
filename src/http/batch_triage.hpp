// A JSON-RPC batch (protocol revision 2025-03-26) sorted before any of it runs, the same way
// with or without a session. JSON-RPC 2.0 (section 6) answers each element on its own, so an
// element that cannot run gets its own error response and the rest go on:
//   - an element that is no valid message: its error (id null when it could not be read);
//   - initialize: it must not be part of a batch (2025-03-26 lifecycle);
//   - a request whose id an earlier request of the batch has: both would be answered under one
//     id, and the client could not tell the answers apart, so only the first runs.
#pragma once

#include <mcp/json/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace mcp::http::detail {

struct batch_triage {
    json::array kept;                 ///< the valid elements to serve, in their order
    std::vector<std::string> replies; ///< error responses to the others
    std::size_t requests = 0;         ///< how many of `kept` are requests
};

batch_triage triage_batch(json::array&& elements);

} // namespace mcp::http::detail
