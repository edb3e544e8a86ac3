// A server's transport as the manager keeps it: the HTTP client transport, watched for a server
// that has gone away, or a stdio server's, watched for what it prints that is not JSON-RPC.
//
// Over HTTP there is no connection whose end says "the server is gone": the client transport
// stays open when the server dies, and each request that cannot reach it is answered with a
// synthesized -32010 error whose data has no httpStatus (nothing answered at all: connection
// refused or reset, a timeout, a TLS failure). The manager wants to reconnect then, as it
// restarts a stdio server that exited; this wrapper tells it. (An expired session is answered
// with an httpStatus, 404, and renewed by mcp::client.) A transport that closes by itself (the
// end of an HTTP+SSE stream, a client whose session could not be renewed) is seen as usual
// through on_close; the
// wrapper keeps the last problem reported (on_error, or the message of the failed request) so
// that the manager can say why the connection was lost, and the reason the transport gave up
// on the server (on_error with severity::failure: it stopped reading what was sent to it).
#pragma once

#include <mcp/transport/transport_decorator.hpp>

#include <functional>
#include <mutex>
#include <string>

namespace mcp::host::detail {

class watched_transport : public transport_decorator {
public:
    /// Called (on the transport's thread; it must not block) each time a request failed because
    /// nothing answered. `why` is the failure's message (it never holds a header value).
    using lost_handler = std::function<void(const std::string& why)>;

    watched_transport(transport_ptr inner, lost_handler on_lost);

    void start(transport_handler handler) override;

    /// The last problem seen: an on_error text, or the message of a request nothing answered.
    std::string last_problem() const;
    /// Why the transport closed on its own initiative (on_error, severity::failure), or empty.
    std::string failure() const;
    /// The start (at most 200 bytes, control characters escaped) of the first incoming message
    /// that is not JSON at all: what a stdio server printed on stdout besides the protocol (a
    /// banner, a log line). Empty when there was none.
    std::string first_stray_output() const;

    /// The message of `m` when it is an error response meaning that nothing answered the
    /// request (code -32010 without data.httpStatus); else empty.
    static std::string unreachable_error(const jsonrpc::incoming_message& m);

private:
    /// Note `message` if it is not JSON (see first_stray_output); true when it is not.
    bool stray(std::string_view message);
    void remember(std::string problem);

    const lost_handler on_lost_;
    mutable std::mutex mu_;
    std::string last_problem_;
    std::string failure_;
    std::string stray_;
};

} // namespace mcp::host::detail
