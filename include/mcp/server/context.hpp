// mcp/server/context.hpp - what every server-side handler (tool, resource reader, prompt,
// completion) is given: the caller, cancellation, progress, logging, and input from the client
// (sampling, elicitation, roots).
//
// One API for both protocol eras. Asking the client for input is a server->client request in the
// initialize era (2024-11-05 .. 2025-11-25) and a multi-round-trip request (MRTR) in the
// stateless era (2026-07-28): there the handler is run again when the client retries with the
// answers. The author writes the same code for both:
//
//     auto answers = ctx.ask({{"user_name", mcp::form_elicitation("Your name?", schema)},
//                             {"greeting", sampling_request}});
//
// returns when every answer is in. In the stateless era, an ask() whose answers the client has
// not sent yet ends the handler (by throwing mcp::input_required, which the server turns into an
// InputRequiredResult) and the handler runs again from the start on the retry, where the same
// ask() returns the answers. So in a handler that asks for input, work done before the ask runs
// once per round: keep it free of side effects that must not repeat (or carry what you need in
// the request state, see set_request_state), and ask with the same keys each round.
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/schema/from_type.hpp>
#include <mcp/session/session.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mcp {

class server_session;

/// Thrown by context::sample / elicit / roots / ask when the request to the client cannot be
/// made or fails (initialize era). It is not an mcp::error on purpose: escaping a tool, it becomes
/// a tool result with isError: true (the model can act on it) rather than a protocol error.
class client_request_failed : public std::runtime_error {
public:
    explicit client_request_failed(const mcp::error& cause)
        : std::runtime_error(cause.what()), cause_(cause) {}
    const mcp::error& cause() const noexcept { return cause_; }

private:
    mcp::error cause_;
};

/// The answer to a typed elicitation: the user's action and, when accepted, the form as a T.
template <class T> struct elicitation {
    elicit_action action = elicit_action::cancel;
    std::optional<T> content; ///< set exactly when action is accept
    bool accepted() const noexcept { return action == elicit_action::accept; }
};

/// roots/list has no parameters.
struct roots_request {
    bool operator==(const roots_request&) const = default;
};
/// Input a handler needs from the client, and the client's answer to it (same alternative order).
using input_request = std::variant<elicit_request, create_message_request, roots_request>;
using input_response = std::variant<elicit_result, create_message_result, list_roots_result>;
using input_requests = std::map<std::string, input_request>;
using input_responses = std::map<std::string, input_response>;
/// The JSON-RPC method of a request for input ("elicitation/create", ...).
std::string_view method_of(const input_request& r) noexcept;

/// Thrown by context::ask in the stateless era while the client has not answered `requests`.
/// Deliberately not a std::exception: a handler's `catch (const std::exception&)` must not
/// swallow it (a `catch (...)` must rethrow it). The server answers with InputRequiredResult.
struct input_required {
    input_requests requests;
};

/// _meta keys through which an mcpxx server tells an intermediary (mcp::host::gateway) what its
/// requests to the client are for, in the initialize era where the wire has no such link:
namespace forwarding_meta {
/// On sampling/createMessage, elicitation/create and roots/list sent by context::ask: the key
/// the handler asked with (a gateway turning the request into an InputRequiredResult of
/// 2026-07-28 keeps the handler's own key).
inline constexpr std::string_view input_key = "dev.mcpxx/inputKey";
/// Also on those requests when one ask() wanted several inputs: all of them, as the
/// InputRequests object of 2026-07-28 ({key: {method, params}}), although the initialize era
/// sends them one after another; a gateway can then ask its own client for all in one round.
inline constexpr std::string_view input_requests = "dev.mcpxx/inputRequests";
/// Set by a requester in a request's _meta; an mcpxx server copies it into the _meta of every
/// request to the client and every log message a handler sends on that request's behalf, so a
/// gateway knows which of its calls they belong to.
inline constexpr std::string_view correlation_id = "dev.mcpxx/correlationId";
/// Set by an intermediary in a request's _meta: the capabilities of the client it acts for (a
/// ClientCapabilities object). For that request an mcpxx server reads context::client_caps()
/// as these, less what the intermediary itself did not declare: a tool that adapts to what the
/// client can answer adapts to the end client, not to the gateway.
inline constexpr std::string_view client_capabilities = "dev.mcpxx/clientCapabilities";
} // namespace forwarding_meta

/// How context::ask puts its questions to the client.
struct ask_options {
    /// How long each request to the client may take (initialize era); unset: the session's
    /// default.
    std::optional<std::chrono::milliseconds> timeout;
    /// Withdraws the questions when cancelled, besides the handler's own cancellation (which
    /// always does): the client is sent notifications/cancelled for each request still open and
    /// ask() throws client_request_failed (request_cancelled). For an intermediary whose own
    /// requester withdrew the question it is passing on.
    cancellation_token cancel;
    /// Asks the client for progress on each request (a progressToken in its _meta) and delivers
    /// the client's notifications/progress here, with the key of the input they are about
    /// (initialize era; the stateless era has no request to report on).
    std::function<void(const std::string& key, const progress_update&)> on_progress;
};

/// How context::sample / elicit / roots put one question to the client.
struct input_options {
    /// How long the request to the client may take (initialize era); unset: the session's default.
    std::optional<std::chrono::milliseconds> timeout;
    /// The input's key (stateless era: its key in inputRequests); unset: "sampling",
    /// "elicitation" or "roots", numbered from the second use on in one run ("sampling-2").
    std::optional<std::string> key;
};

/// Who sent the request being handled.
struct caller_info {
    revision protocol_version = latest_initialize_revision;
    implementation client;            ///< clientInfo (may be empty in the stateless era)
    client_capabilities capabilities; ///< as parsed
    json::object capabilities_json;   ///< as sent
    bool stateless = false;           ///< a request of the 2026-07-28 era
};

namespace detail {
struct call_state; // the server's per-request state behind a context (src/server)
}

class context {
public:
    /// Built by the server for each request it serves.
    context(request_context& rpc, detail::call_state& state) : rpc_(rpc), state_(state) {}

    // --- the caller ---
    const caller_info& caller() const noexcept;
    revision protocol_version() const noexcept { return caller().protocol_version; }
    const implementation& client_info() const noexcept { return caller().client; }
    const client_capabilities& client_caps() const noexcept { return caller().capabilities; }
    /// True for a request of the stateless era (2026-07-28): no session, input through MRTR.
    bool stateless() const noexcept { return caller().stateless; }
    const request_context& rpc() const noexcept { return rpc_; }
    /// params._meta of the request, or null.
    const json::object* meta() const noexcept { return rpc_.meta(); }
    /// HTTP headers, address and authenticated principal of the request, when it came over HTTP.
    const message_origin* origin() const noexcept { return rpc_.origin(); }
    /// The authenticated principal ("" when none): who handle stores and request states are bound to.
    const std::string& principal() const noexcept;
    /// Whether the request came on a session (initialize era); session() throws otherwise.
    bool has_session() const noexcept;
    server_session& session() const;

    // --- cancellation and progress ---
    bool cancelled() const noexcept { return rpc_.cancelled(); }
    const cancellation_token& cancellation() const noexcept { return rpc_.cancellation(); }
    /// notifications/progress, sent only if the caller asked for progress.
    void progress(double progress, std::optional<double> total = std::nullopt,
                  std::optional<std::string> message = std::nullopt) const;

    /// Close the connection that carries this request's SSE stream without ending the request:
    /// the client reconnects (GET with Last-Event-ID, after the server's `retry`) and receives
    /// the rest, including the result. For long-running tools over Streamable HTTP (2025-11-25
    /// polling) so that no connection is held. False when the transport cannot do it. A no-op
    /// (false) for a session of 2025-06-18 or older, whose client expects the stream to stay
    /// open until the response: the stream stays open and the result arrives on it.
    bool close_sse_stream() const { return rpc_.close_stream(); }

    // --- logging to the client (notifications/message, filtered by the client's level; in the
    //     stateless era only when the request set _meta logLevel, and on the request's stream) ---
    void log(logging_level level, json::value data, std::optional<std::string> logger = std::nullopt) const;

    // --- input from the client ---
    /// Ask the client for every input in `requests` and return the answers by key (see the top of
    /// this file for how it works in each era). Keys are yours; keep them stable across rounds.
    /// Throws: client_request_failed (initialize era: no capability, refused, timeout);
    /// mcp::error -32021 with data.requiredCapabilities (stateless era, capability not declared)
    /// or -32602 (stateless era, an answer of the wrong shape); input_required (stateless era,
    /// answers still missing: let it propagate).
    /// `options`: a timeout per request, a cancellation of its own, progress from the client
    /// (see ask_options), e.g. `ctx.ask(inputs, {.timeout = 30s})`.
    input_responses ask(const input_requests& requests, const ask_options& options = {}) const;

    /// One input at a time (see input_options), e.g. `ctx.sample(req, {.timeout = 30s})`.
    create_message_result sample(const create_message_request& request,
                                 const input_options& options = {}) const;
    elicit_result elicit(const elicit_request& request, const input_options& options = {}) const;
    /// Form-mode elicitation: a message and a flat object schema.
    elicit_result elicit(std::string message, json::object requested_schema) const;
    std::vector<root> roots(const input_options& options = {}) const;

    /// Typed form-mode elicitation: the requestedSchema is built from T (once per type; T must
    /// be flat: booleans, numbers, strings, enums), the answer is validated against it and
    /// converted to a T. An answer that does not fit throws client_request_failed.
    template <schema::elicitable T>
    elicitation<T> elicit(std::string message, const input_options& options = {}) const {
        elicit_request request;
        request.message = std::move(message);
        request.requested_schema = schema::elicitation_schema_of<T>();
        const elicit_result r = elicit(request, options);
        elicitation<T> out{r.action, std::nullopt};
        if (r.action != elicit_action::accept) return out;
        const json::value content = r.content ? json::value(*r.content) : json::value(json::object{});
        if (auto errors = schema::validator_of<T>().validate(content); !errors.empty())
            throw client_request_failed(error(error_code::invalid_params,
                                              "The elicitation answer does not match the requested schema: " +
                                                  schema::summarize(errors)));
        try {
            out.content = type_codec<T>::from_value(content);
        } catch (const conversion_error& e) {
            throw client_request_failed(error(
                error_code::invalid_params, std::string("The elicitation answer does not fit: ") + e.what()));
        }
        return out;
    }

    /// Application state carried from one round of a multi-round request to the next (inside the
    /// integrity-protected requestState in the stateless era; kept in memory otherwise). Null on
    /// the first round.
    const json::value& request_state() const noexcept;
    /// Set what request_state() returns in the next round (call it before an ask()).
    ///
    /// In the stateless era the state travels through the client: it is part of the
    /// requestState token of the InputRequiredResult, which the client sends back with its
    /// answers. The token is signed (HMAC-SHA256, bound to the request, the principal and an
    /// expiry), so the client cannot alter or replay it, but it is NOT encrypted: the client, and
    /// whatever logs its traffic, can read the state (base64url of JSON). Put no secrets in it -
    /// no credentials, tokens or data the caller may not see; keep those on the server (e.g. in
    /// an mcp::handle_store) and carry only a reference here. The answers the handler already
    /// consumed travel in the same token, equally readable.
    void set_request_state(json::value state) const;

private:
    request_context& rpc_;
    detail::call_state& state_;
};

using tool_context = context;

} // namespace mcp
