// mcp/host/sampling_review.hpp - the human in the loop for sampling.
//
// The sampling pages of the spec ask hosts to keep a person between a server and the model: to
// let the user see (and edit) what a server wants to send before it is sent, and see what the
// model answered before the server gets it, with the power to refuse at either point. A server
// asking for a completion spends the user's tokens and can try to steer the model, so the
// default in mcpxx is to ask.
//
// reviewed_sampling_provider puts a sampling_reviewer in front of and behind any
// sampling_provider. A refusal reaches the server as the spec's "user rejected" error (code -1)
// and the model is not asked (before) or its answer is dropped (after).
#pragma once

#include <mcp/host/providers.hpp>

#include <memory>
#include <optional>
#include <string>

namespace mcp::host {

/// Asks the user about one sampling request, twice. Called on the thread that answers the
/// server's request; may block while the user decides.
class sampling_reviewer {
public:
    virtual ~sampling_reviewer() = default;
    /// Before the model is asked: the request to send (as it came, or edited by the user), or
    /// nullopt to refuse it.
    virtual std::optional<create_message_request> review_request(const std::string& server,
                                                                 create_message_request request) = 0;
    /// After the model answered: true to give the answer to the server.
    virtual bool review_result(const std::string& server, const create_message_request& request,
                               const create_message_result& result) = 0;
};

/// The error a refused request gets: mcp::error(-1, "...") whose message says at which step the
/// user refused (the spec's code for a user-rejected sampling request).
inline constexpr int sampling_rejected_code = -1;

/// A sampling_provider that asks a reviewer before and after the provider it wraps.
class reviewed_sampling_provider : public sampling_provider {
public:
    /// Throws std::invalid_argument for a null provider or reviewer.
    reviewed_sampling_provider(std::shared_ptr<sampling_provider> provider,
                               std::shared_ptr<sampling_reviewer> reviewer);

    /// A request withdrawn while the user reviews it (control cancelled) is not sent to the
    /// model: the review's answer is dropped.
    create_message_result create_message(const std::string& server, const create_message_request& request,
                                         const request_control& control) override;
    bool supports_tools() const override { return provider_->supports_tools(); }

private:
    std::shared_ptr<sampling_provider> provider_;
    std::shared_ptr<sampling_reviewer> reviewer_;
};

} // namespace mcp::host
