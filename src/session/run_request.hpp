// Running one request's handler and writing its reply: the one place where what a handler
// returns or throws becomes a JSON-RPC message. The engine runs a session's requests through it
// (session_impl.hpp run_handler), the server the requests it serves without a session
// (src/server/stateless.cpp), so both eras answer alike.
#pragma once

#include <mcp/jsonrpc/message.hpp>
#include <mcp/session/session.hpp>

#include <optional>
#include <string>

namespace mcp::detail {

/// A serialized reply, and the error it carries when it is one (a transport maps some codes).
struct request_reply {
    std::string message;
    std::optional<mcp::error> error;
};

/// Run `handler` on `ctx` and serialize its result, or the mcp::error it threw. Any other
/// exception becomes -32603 "Internal error" (its text stays on this side: `diagnose` gets it).
/// Empty when the handler deferred its answer (the deferred_reply sends it later).
template <class Diagnose>
std::optional<request_reply> run_request(request_context& ctx, const request_handler& handler,
                                         Diagnose&& diagnose) {
    request_reply out;
    try {
        json::value result = handler(ctx);
        if (ctx.deferred()) return std::nullopt;
        jsonrpc::serialize_result(out.message, ctx.id(), result);
        return out;
    } catch (const mcp::error& e) {
        out.error = e;
    } catch (const std::exception& e) {
        diagnose("handler for " + std::string(ctx.method()) + " threw: " + e.what());
        out.error.emplace(error_code::internal_error, "Internal error");
    } catch (...) {
        out.error.emplace(error_code::internal_error, "Internal error");
    }
    if (ctx.deferred()) return std::nullopt; // the deferred reply answers (or its destructor does)
    jsonrpc::serialize_error(out.message, ctx.id(), *out.error);
    return out;
}

} // namespace mcp::detail
