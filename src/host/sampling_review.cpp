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

create_message_result reviewed_sampling_provider::create_message(const std::string& server,
                                                                 const create_message_request& request) {
    auto approved = reviewer_->review_request(server, request);
    if (!approved)
        throw mcp::error(sampling_rejected_code,
                         "the user rejected the sampling request: it was not sent to a model");
    auto result = provider_->create_message(server, *approved);
    if (!reviewer_->review_result(server, *approved, result))
        throw mcp::error(sampling_rejected_code,
                         "the user rejected the model's answer: it is not given to the server");
    return result;
}

} // namespace mcp::host
