// mcp/transport/memory.hpp - two transports connected back to back in one process, for tests
// and for embedding a server in its client. Messages are delivered asynchronously and in order
// by a thread per side, never from inside send().
#pragma once

#include <mcp/transport/transport.hpp>

#include <utility>

namespace mcp::memory_transport {

/// A connected pair: what one side sends, the other receives, in order, on that side's own
/// delivery thread (started by start(); messages sent earlier wait for it). Closing either side
/// closes both: the side that called close() drops what it has not delivered yet, the other
/// still receives what was sent before; then each gets on_close exactly once. A side may be
/// closed or destroyed from inside its own callbacks. set_max_message_size() is honoured
/// (larger messages go to on_error and are skipped).
std::pair<transport_ptr, transport_ptr> create_pair();

} // namespace mcp::memory_transport
