// mcp/host/providers.hpp - where the host sends a server's requests for a model (sampling) and for
// the user's input (elicitation).
//
// A sampling provider wraps a model API. An OpenAI-compatible chat-completions provider needs an
// HTTP client; until one is part of mcpxx, declining_sampling_provider answers every request
// with an error that says what to configure, which is better than not declaring sampling: the
// server learns why instead of seeing a capability missing.
#pragma once

#include <mcp/protocol/elicitation.hpp>
#include <mcp/protocol/sampling.hpp>

#include <string>

namespace mcp::host {

class sampling_provider {
public:
    virtual ~sampling_provider() = default;
    /// Answer sampling/createMessage for `server`, or throw mcp::error (e.g. code -1 when the
    /// user or the provider declines).
    virtual create_message_result create_message(const std::string& server, const create_message_request& request) = 0;
};

/// Declines every request with mcp::error(-1, message).
class declining_sampling_provider : public sampling_provider {
public:
    explicit declining_sampling_provider(std::string reason = "sampling is not available: this host has no model "
                                                              "provider configured");
    create_message_result create_message(const std::string& server, const create_message_request& request) override;

private:
    std::string reason_;
};

class elicitation_responder {
public:
    virtual ~elicitation_responder() = default;
    /// Ask the user on behalf of `server`; accept (with content), decline or cancel.
    virtual elicit_result elicit(const std::string& server, const elicit_request& request) = 0;
    /// Whether URL-mode requests can be shown (declared as elicitation.url).
    virtual bool supports_url() const { return false; }
};

} // namespace mcp::host
