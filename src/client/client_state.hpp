// Internal state of an mcp::client, shared by the files of src/client.
#pragma once

#include <mcp/client/client.hpp>
#include <mcp/schema/validator.hpp>

#include <map>
#include <mutex>

namespace mcp {

struct client::impl : std::enable_shared_from_this<client::impl> {
    client_options opts;
    mutable std::mutex mu;
    std::shared_ptr<session> rpc;
    bool connected = false;
    /// Set once connect() has begun: distinguishes "not connected yet" from "closed" in errors.
    bool ever_connected = false;
    initialize_result init;
    revision version = latest_initialize_revision;

    sampling_handler sampling;
    bool sampling_tools = false;
    bool sampling_context = false;
    elicitation_handler elicitation;
    bool elicitation_form = true;
    bool elicitation_url = false;
    roots_handler roots;
    bool roots_list_changed = false;

    std::map<std::string, std::vector<std::function<void(const json::object&)>>> notification_callbacks;
    std::vector<std::function<void()>> close_callbacks;
    /// Tools listed with an outputSchema, by name, with the schema compiled once per tools/list.
    /// No validator means the schema did not compile: structuredContent must still be present.
    std::map<std::string, std::optional<schema::validator>, std::less<>> output_validators;

    client_capabilities declared_capabilities(revision r) const;
    void install_notification(session& s, const std::string& method);
    /// roots/list, sampling/createMessage and elicitation/create, answered by the handlers set
    /// at the time each request arrives (method not found without one).
    void install_request_handlers(session& s);
    revision negotiated() const;
    /// The connected session, or an error naming the call.
    std::shared_ptr<session> live(std::string_view method) const;
    json::value call(std::string_view method, json::value params, const call_options& options) const;
};

} // namespace mcp
