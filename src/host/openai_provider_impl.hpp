// The state of mcp::host::openai_sampling_provider, shared by its two files: openai_mapping.cpp
// (MCP <-> chat completions) and openai_provider.cpp (the HTTP exchange).
#pragma once

#include <mcp/host/providers.hpp>
#include <mcp/http/fetch.hpp>

#include <map>
#include <memory>
#include <string>

namespace mcp::host {

struct openai_sampling_provider::impl {
    openai_provider_options options;
    std::string endpoint; ///< {base_url}/chat/completions
    std::string display;  ///< the endpoint without user info, query or fragment, for messages
    std::unique_ptr<http::http_client> http;

    /// The names a request's tools have on the API ([A-Za-z0-9_-]{1,64}, unique) and back.
    struct tool_names {
        std::map<std::string, std::string> to_api, to_mcp;
    };
    static tool_names name_tools(const create_message_request& request);
};

} // namespace mcp::host
