#include <mcp/host/sampling_review.hpp>

#include <mcp/jsonrpc/error.hpp>

#include <stdexcept>

namespace mcp::host {

reviewed_sampling_provider::reviewed_sampling_provider(std::shared_ptr<sampling_provider> provider,
                                                       std::shared_ptr<sampling_reviewer> reviewer)
    : provider_(std::move(provider)), reviewer_(std::move(reviewer)) {
    if (!provider_) throw std::invalid_argument("reviewed_sampling_provider: no provider to wrap");
    if (!reviewer_) throw std::invalid_argument("reviewed_sampling_provider: no reviewer");
}

namespace {
/// The server withdrew its request while the user or the model was at it: nothing more is
/// asked of either (the server reads no answer).
void stop_if_withdrawn(const request_control& control) {
    if (control.cancellation.is_cancelled())
        throw mcp::error(error_code::request_cancelled, "the server withdrew its sampling request");
}
} // namespace

create_message_result reviewed_sampling_provider::create_message(const std::string& server,
                                                                 const create_message_request& request,
                                                                 const request_control& control) {
    auto approved = reviewer_->review_request(server, request);
    stop_if_withdrawn(control);
    if (!approved)
        throw mcp::error(sampling_rejected_code,
                         "the user rejected the sampling request: it was not sent to a model");
    auto result = provider_->create_message(server, *approved, control);
    stop_if_withdrawn(control);
    if (!reviewer_->review_result(server, *approved, result))
        throw mcp::error(sampling_rejected_code,
                         "the user rejected the model's answer: it is not given to the server");
    return result;
}

} // namespace mcp::host
