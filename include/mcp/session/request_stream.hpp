// mcp/session/request_stream.hpp - where the messages of one request go when it is served without
// a session: a stateless HTTP request of the 2026-07-28 era has no connection to the client
// beyond its own response, which may be a stream (SSE) carrying the request's notifications
// before the response.
#pragma once

#include <mcp/jsonrpc/error.hpp>

#include <string>

namespace mcp {

class request_stream {
public:
    virtual ~request_stream() = default;
    /// A notification that belongs to the request (progress, a log message; every notification
    /// of a subscriptions/listen stream), as one serialized JSON-RPC message. Thread-safe; never
    /// called after respond().
    virtual void notify(std::string message) = 0;
    /// The response, exactly once: the serialized JSON-RPC result or error; `error` points to
    /// the error when it is one (a transport maps some codes to HTTP statuses), else null.
    virtual void respond(std::string message, const mcp::error* error) = 0;
};

} // namespace mcp
