// mcp/server/context.hpp - what every server-side handler (tool, resource reader, prompt,
// completion) is given: the caller, cancellation, progress, logging, and the requests a server
// may send back to the client (sampling, elicitation, roots).
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/schema/from_type.hpp>
#include <mcp/session/session.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

class server_session;

/// Thrown by context::sample / elicit / roots when the request to the client cannot be made or
/// fails. It is not an mcp::error on purpose: escaping a tool, it becomes a tool result with
/// isError: true (the model can act on it) rather than a protocol error of the tools/call.
class client_request_failed : public std::runtime_error {
public:
    explicit client_request_failed(const mcp::error& cause)
        : std::runtime_error(cause.what()), cause_(cause) {}
    const mcp::error& cause() const noexcept { return cause_; }

private:
    mcp::error cause_;
};

/// The answer to a typed elicitation: the user's action and, when accepted, the form as a T.
template <class T>
struct elicitation {
    elicit_action action = elicit_action::cancel;
    std::optional<T> content; ///< set exactly when action is accept
    bool accepted() const noexcept { return action == elicit_action::accept; }
};

class context {
public:
    context(request_context& rpc, std::shared_ptr<server_session> peer) : rpc_(rpc), peer_(std::move(peer)) {}

    // --- the caller ---
    revision protocol_version() const;
    const implementation& client_info() const;
    const client_capabilities& client_caps() const;
    const request_context& rpc() const noexcept { return rpc_; }
    /// params._meta of the request, or null.
    const json::object* meta() const noexcept { return rpc_.meta(); }
    server_session& session() const noexcept { return *peer_; }

    // --- cancellation and progress ---
    bool cancelled() const noexcept { return rpc_.cancelled(); }
    const cancellation_token& cancellation() const noexcept { return rpc_.cancellation(); }
    /// notifications/progress, sent only if the caller asked for progress.
    void progress(double progress, std::optional<double> total = std::nullopt,
                  std::optional<std::string> message = std::nullopt) const {
        rpc_.report_progress(progress, total, std::move(message));
    }

    // --- logging to the client (notifications/message, filtered by the client's level) ---
    void log(logging_level level, json::value data, std::optional<std::string> logger = std::nullopt) const;

    // --- requests to the client; they throw mcp::error when the client lacks the capability ---
    create_message_result sample(const create_message_request& request,
                                 std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;
    elicit_result elicit(const elicit_request& request,
                         std::optional<std::chrono::milliseconds> timeout = std::nullopt) const;
    /// Form-mode elicitation: a message and a flat object schema.
    elicit_result elicit(std::string message, json::object requested_schema) const;
    std::vector<root> roots() const;

    /// Typed form-mode elicitation: the requestedSchema is built from T (once per type; T must
    /// be flat: booleans, numbers, strings, enums), the answer is validated against it and
    /// converted to a T. An answer that does not fit throws client_request_failed.
    template <schema::elicitable T>
    elicitation<T> elicit(std::string message, std::optional<std::chrono::milliseconds> timeout = std::nullopt) const {
        elicit_request request;
        request.message = std::move(message);
        request.requested_schema = schema::elicitation_schema_of<T>();
        const elicit_result r = elicit(request, timeout);
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
            throw client_request_failed(
                error(error_code::invalid_params, std::string("The elicitation answer does not fit: ") + e.what()));
        }
        return out;
    }

private:
    request_context& rpc_;
    std::shared_ptr<server_session> peer_;
};

using tool_context = context;

} // namespace mcp
