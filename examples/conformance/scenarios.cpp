// add_conformance_features: every feature of the conformance server scenarios on one server.
#include "scenarios.hpp"

namespace conformance {

mcp::server_options server_options() {
    return mcp::server_options{.info = {.name = "mcpxx-conformance-server", .version = "0.1.0"}};
}

void add_conformance_features(mcp::server& server) {
    add_conformance_tools(server);
    add_conformance_resources(server);
    add_conformance_prompts(server);
    add_stateless_features(server);
}

} // namespace conformance
