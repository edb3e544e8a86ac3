// mcp/host/providers.hpp - where the host sends a server's requests for a model (sampling) and for
// the user's input (elicitation).
//
// A sampling provider wraps a model API. openai_sampling_provider speaks the chat-completions
// API that OpenAI and most local model servers (llama.cpp, vLLM, Ollama, LM Studio...) offer;
// declining_sampling_provider answers every request with an error that says what to configure,
// which is better than not declaring sampling: the server learns why instead of seeing a
// capability missing.
//
// Both are given a request_control with each request: the server may withdraw its request
// (notifications/cancelled, or its connection ends) while the model or the user is still at
// it, and may have asked to hear how far along the answer is.
#pragma once

#include <mcp/protocol/elicitation.hpp>
#include <mcp/protocol/sampling.hpp>
#include <mcp/jsonrpc/cancellation.hpp>
#include <mcp/session/session.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::host {

/// What a provider may use while it answers one request of a server, besides the request.
struct request_control {
    /// Cancelled when the server withdraws its request (notifications/cancelled) or its
    /// connection ends: the answer will not be read, so stop asking the model or the user and
    /// return or throw (what is returned then is dropped). Never cancelled when default-made.
    cancellation_token cancellation;
    /// Sends the server notifications/progress for its request (`progress` must increase from
    /// one call to the next); null when the server did not ask for progress. Valid until the
    /// provider returns, and harmless after.
    std::function<void(const progress_update&)> report_progress;
};

class sampling_provider {
public:
    virtual ~sampling_provider() = default;
    /// Answer sampling/createMessage for `server`, or throw mcp::error (e.g. code -1 when the
    /// user or the provider declines).
    virtual create_message_result create_message(const std::string& server,
                                                 const create_message_request& request,
                                                 const request_control& control) = 0;
    /// Whether requests may carry `tools` and `toolChoice` (declared as sampling.tools).
    virtual bool supports_tools() const { return false; }
};

/// Declines every request with mcp::error(-1, message).
class declining_sampling_provider : public sampling_provider {
public:
    explicit declining_sampling_provider(std::string reason =
                                             "sampling is not available: this host has no model "
                                             "provider configured");
    create_message_result create_message(const std::string& server, const create_message_request& request,
                                         const request_control& control) override;

private:
    std::string reason_;
};

struct openai_provider_options {
    /// The API's base URL; requests go to `{base_url}/chat/completions`. E.g.
    /// "https://api.openai.com/v1" or "http://127.0.0.1:8080/v1" (llama.cpp's server).
    std::string base_url;
    /// The model names this provider may use; the first is the default. A request's
    /// modelPreferences.hints are tried in order, each as a case-insensitive substring of these
    /// names (the spec's rule); the first hint that matches picks the model.
    std::vector<std::string> models;
    /// The API key, sent as `Authorization: Bearer <key>` and nowhere else (never in a message
    /// or a log). Empty: no Authorization (local servers rarely want one).
    std::string api_key;
    /// Name resolution, TCP connection and TLS handshake.
    std::chrono::milliseconds connect_timeout{10000};
    /// The whole exchange: models are slow, but a request must end.
    std::chrono::milliseconds timeout{120000};
    /// Extra fields sent on every request (e.g. {"Openai-Organization", "..."}); like the key,
    /// their values are never shown.
    std::vector<std::pair<std::string, std::string>> headers;
    /// TLS: verify the server's certificate (on by default); extra trusted CAs (PEM file).
    bool verify_peer = true;
    std::string ca_file;
};

/// Answers sampling/createMessage with an OpenAI-compatible chat-completions endpoint.
///
/// The request: the system prompt as a "system" message; user and assistant text as message
/// content (a string for one text block, content parts otherwise); images as `image_url` parts
/// with a data: URL and audio (wav or mp3) as `input_audio` parts, in user messages only (the
/// API has no other place for them); tool_use blocks as the assistant's `tool_calls`, and
/// tool_result blocks as "tool" messages; `max_tokens`, `temperature`, `stop`; the request's
/// tools as `function` tools and toolChoice as `tool_choice` (auto/required/none). Tool names
/// outside [A-Za-z0-9_-]{1,64} are renamed on the way out and back. What the API cannot carry
/// (an image from the assistant, audio other than wav/mp3, a non-text tool result) is
/// error_code::invalid_params, naming the message and block. includeContext, metadata and the
/// cost/speed/intelligence priorities have no equivalent and are not sent.
///
/// The answer: the first choice's text (and refusal) as text, its tool_calls as tool_use blocks
/// (arguments must be a JSON object), finish_reason stop/length/tool_calls as stopReason
/// endTurn/maxTokens/toolUse (others as they are), and the model the API names. An HTTP error
/// status, a connection failure or timeout, or a body that is not a chat completion throws
/// mcp::error(internal_error) with a message naming the endpoint (without query or user info)
/// and the API's own error message, and data {"httpStatus", "url"} where there is one.
/// Thread-safe; connections are kept alive between requests.
class openai_sampling_provider : public sampling_provider {
public:
    /// Throws std::invalid_argument for a base URL that is not http(s), no model, or a header
    /// that cannot be sent.
    explicit openai_sampling_provider(openai_provider_options options);
    ~openai_sampling_provider() override;

    /// When `control`'s cancellation fires (the server withdrew its request, or its connection
    /// ended), the HTTP exchange is aborted wherever it is - its connection to the model is
    /// closed - and this throws mcp::error(error_code::request_cancelled); a request withdrawn
    /// before it is called is never sent.
    create_message_result create_message(const std::string& server, const create_message_request& request,
                                         const request_control& control) override;
    bool supports_tools() const override { return true; }

    /// The model a request gets (see openai_provider_options::models).
    std::string choose_model(const create_message_request& request) const;
    /// The JSON body POSTed for `request`. Throws mcp::error(invalid_params) for content the API
    /// cannot carry.
    json::object request_body(const create_message_request& request) const;
    /// The result read from a chat-completions response body. Throws mcp::error(internal_error)
    /// when it is not one.
    create_message_result read_response(std::string_view body, const create_message_request& request) const;

    struct impl;

private:
    std::unique_ptr<impl> impl_;
};

class elicitation_responder {
public:
    virtual ~elicitation_responder() = default;
    /// Ask the user on behalf of `server`; accept (with content), decline or cancel. When
    /// `control` is cancelled, the question should be taken away from the user.
    virtual elicit_result elicit(const std::string& server, const elicit_request& request,
                                 const request_control& control) = 0;
    /// Whether URL-mode requests can be shown (declared as elicitation.url).
    virtual bool supports_url() const { return false; }
};

} // namespace mcp::host
