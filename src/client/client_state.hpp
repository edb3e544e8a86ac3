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
    /// Output schemas of listed tools, compiled once per tools/list.
    std::map<std::string, schema::validator, std::less<>> output_validators;

    client_capabilities declared_capabilities() const;
    void install_notification(session& s, const std::string& method);
    revision negotiated() const;
    /// The connected session, or an error naming the call.
    std::shared_ptr<session> live(std::string_view method) const;
    json::value call(std::string_view method, json::value params, const call_options& options) const;
};

} // namespace mcp
