// mcp/jsonrpc/wire_message.hpp - a JSON-RPC message as it crosses the transport seam.
//
// Incoming: whoever reads the bytes (a transport, the HTTP router) parses them once into an
// incoming_message, and every layer above reads its kind, id and method from there: nobody parses
// the text again or reads the id a second way. Outgoing: the engine hands a transport the text it
// wrote with what it already knows (kind, id, method, params, the incoming request the message
// belongs to), so no transport parses its own output back.
#pragma once

#include <mcp/jsonrpc/message.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

/// Where one incoming message came from, when the transport knows more than "the peer": for
/// HTTP the request's headers and address, and the principal an authentication layer accepted.
/// Handlers see it through request_context::origin() (and mcp::context on the server).
struct message_origin {
    std::vector<std::pair<std::string, std::string>> headers; ///< as received; names keep their case
    std::string remote_address;                               ///< e.g. "127.0.0.1"
    std::string principal; ///< authenticated user or client ("" when there is no authentication)
    /// Value of the first header named `name` (ASCII case-insensitive), or nullptr.
    const std::string* header(std::string_view name) const noexcept;
};

} // namespace mcp

namespace mcp::jsonrpc {

enum class kind : std::uint8_t { request, notification, response, error, batch, invalid };

/// The one id reader: a string or an integer (that fits int64). Null, fractions, objects... are
/// not ids.
std::optional<request_id> read_id(const json::value& v);

/// One incoming message, parsed once by whoever read its bytes.
struct incoming_message {
    json::value value; ///< the message: an object, an array for a batch; null when unreadable
    jsonrpc::kind kind = kind::invalid; ///< a batch's elements are looked at by its receiver
    std::optional<request_id> id;       ///< a request's or response's id, when readable (also when invalid)
    std::optional<mcp::error> error;    ///< kind::invalid: what the peer is answered
    /// kind::invalid: a message that could not be used (over the size limit, not JSON) which a
    /// shallow scan (envelope_scan) found to be the response to our request with this id: the
    /// receiver fails that request with `error` at once and answers nothing.
    std::optional<std::int64_t> unusable_response;
    std::string_view text; ///< the bytes it was read from, valid during delivery only (tracing); may be empty
    std::shared_ptr<const message_origin> origin; ///< where it came from, when the transport knows
    /// Set by a transport that is also an mcp::inline_reader: nothing else is buffered after this
    /// message, so the receiver may handle it on the reading thread (see inline_reader).
    bool reader_idle = false;

    /// A request's or notification's method; empty otherwise.
    std::string_view method() const noexcept;
    /// A request's or notification's params (null when absent, or for other kinds).
    const json::value& params() const noexcept;

    /// Parse `text`. Not JSON: kind::invalid with a parse error (-32700), or, when a shallow scan
    /// shows a response to one of our requests, with unusable_response set. Never throws.
    static incoming_message parse(std::string_view text);
    /// Read a value parsed elsewhere (kind, id, what is wrong with it).
    static incoming_message from_value(json::value v);
    /// A message that arrived but cannot be delivered (oversize, a broken frame): `e` is what the
    /// peer is answered, or, with `response_id`, how our request `response_id` fails.
    static incoming_message refused(mcp::error e, std::optional<std::int64_t> response_id = std::nullopt);
};

/// classify() for a message already looked at: moves its parts out without reading them again.
/// Not for a batch (classify each element).
classify_result classify(incoming_message&& m);

/// The ids of the requests in `m` (itself, or a batch's elements).
std::vector<request_id> request_ids(const incoming_message& m);

/// One outgoing message: the text the engine wrote and what it knew when it wrote it.
struct outgoing_message {
    std::string text;                   ///< one complete JSON text, without framing
    jsonrpc::kind kind = kind::invalid; ///< what `text` is
    /// A request: its id. A response or error (or a batch of them): the incoming request it answers
    /// (for a batch, its first request). Absent for an error to a message whose id was unreadable.
    std::optional<request_id> id;
    std::string method; ///< a request's or notification's method
    json::value params; ///< a request's or notification's params (moved in, not copied); a batch's elements
    /// A request or notification sent while handling this incoming request (progress, a log
    /// message, sampling asked by its handler): transports with a channel per request use it.
    std::optional<request_id> related;

    outgoing_message() = default;
    /// For senders that only have text (a relay, a test): kind, id, method and params are read
    /// from it.
    outgoing_message(std::string text); // NOLINT(google-explicit-constructor)
    outgoing_message(const char* text) : outgoing_message(std::string(text)) {} // NOLINT
};

/// A notification, written (`related`: see outgoing_message::related).
outgoing_message notification_message(std::string method, json::value params,
                                      std::optional<request_id> related = std::nullopt);

} // namespace mcp::jsonrpc
