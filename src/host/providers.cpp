// The sampling provider that declines (see mcp/host/providers.hpp).
#include <mcp/host/providers.hpp>
#include <mcp/jsonrpc/error.hpp>

namespace mcp::host {

declining_sampling_provider::declining_sampling_provider(std::string reason) : reason_(std::move(reason)) {}

create_message_result declining_sampling_provider::create_message(const std::string&,
                                                                  const create_message_request&,
                                                                  const request_control&) {
    // -1 is what the spec's examples use for a sampling request the client will not serve.
    throw error(-1, reason_);
}

} // namespace mcp::host
