// Internal state of an mcp::client, shared by the files of src/client.
#pragma once

#include <mcp/client/client.hpp>
#include <mcp/schema/validator.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mcp {

/// Watched by every client, with or without a callback: it voids the remembered outputSchemas.
inline constexpr char tools_list_changed_method[] = "notifications/tools/list_changed";

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
    roots_request_handler roots;
    bool roots_list_changed = false;

    std::map<std::string, std::vector<std::function<void(const json::object&)>>> notification_callbacks;
    std::vector<std::function<void()>> close_callbacks;
    /// What a tools/list said about one tool's outputSchema (see client_output_schemas.cpp).
    /// Immutable once built, shared between the cache and the calls that use it.
    struct output_check {
        /// The schema as listed: a re-listing that repeats it reuses `compiled`.
        json::object schema;
        /// Empty when the schema did not compile; `compile_error` says why.
        std::optional<schema::validator> compiled;
        std::string compile_error;
    };
    /// Tools listed with an outputSchema, by name. Filled by tools/list (only while
    /// opts.validate_structured_content), emptied by connect() and by
    /// notifications/tools/list_changed.
    std::map<std::string, std::shared_ptr<const output_check>, std::less<>> output_checks;
    /// Bumped whenever output_checks is emptied: a tools/list page requested before that may
    /// describe tools that no longer exist, so its schemas are not kept.
    std::uint64_t tools_epoch = 0;

    client_capabilities declared_capabilities(revision r) const;
    void install_notification(session& s, const std::string& method);
    /// roots/list, sampling/createMessage and elicitation/create, answered by the handlers set
    /// at the time each request arrives (method not found without one).
    void install_request_handlers(session& s);
    revision negotiated() const;
    /// The connected session, or an error naming the call.
    std::shared_ptr<session> live(std::string_view method) const;
    json::value call(std::string_view method, json::value params, const call_options& options) const;

    // --- output-schema checks (client_output_schemas.cpp) ---
    /// The current tools_epoch, to pass to remember_output_schemas with the page it asks for.
    std::uint64_t output_schema_epoch() const;
    /// Compile and keep the outputSchemas of one tools/list page. The first page (no cursor) of
    /// a listing replaces what was known; later pages add to it. Dropped if the cache was
    /// emptied since `epoch`. Never throws for a bad schema: that is reported by the call.
    void remember_output_schemas(const std::vector<tool>& tools, bool first_page, std::uint64_t epoch);
    /// Forget every schema (the server's tool list changed, or a new connection began).
    void forget_output_schemas();
    /// Throw mcp::error (invalid_params) if `result` breaks the outputSchema listed for `name`.
    /// `raw` is the result as received, attached to the error's data.
    void check_structured_content(const std::string& name, const call_tool_result& result, const json::value& raw) const;
};

} // namespace mcp
