// mcp/transport/memory.hpp - two transports connected back to back in one process, for tests
// and for embedding a server in its client. Messages are delivered asynchronously and in order
// by a thread per side, never from inside send().
#pragma once

#include <mcp/transport/transport.hpp>

#include <utility>

namespace mcp::memory_transport {

/// A connected pair: what one side sends, the other receives. Closing either closes both.
std::pair<transport_ptr, transport_ptr> create_pair();

} // namespace mcp::memory_transport
