// Internal state of an mcp::client, shared by the files of src/client.
#pragma once

#include <mcp/client/client.hpp>
#include <mcp/schema/validator.hpp>

#include <any>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace mcp {

namespace detail {
class listing_walk;
}

/// Watched by every client, with or without a callback: it voids the remembered outputSchemas.
inline constexpr char tools_list_changed_method[] = "notifications/tools/list_changed";
inline constexpr char prompts_list_changed_method[] = "notifications/prompts/list_changed";
inline constexpr char resources_list_changed_method[] = "notifications/resources/list_changed";
inline constexpr char resource_updated_method[] = "notifications/resources/updated";
inline constexpr char acknowledged_method[] = "notifications/subscriptions/acknowledged";

/// The _meta keys of the stateless era (2026-07-28 basic/index.mdx "_meta").
inline constexpr char meta_protocol_version[] = "io.modelcontextprotocol/protocolVersion";
inline constexpr char meta_client_capabilities[] = "io.modelcontextprotocol/clientCapabilities";
inline constexpr char meta_client_info[] = "io.modelcontextprotocol/clientInfo";
inline constexpr char meta_log_level[] = "io.modelcontextprotocol/logLevel";
inline constexpr char meta_subscription_id[] = "io.modelcontextprotocol/subscriptionId";

/// What one subscriptions/listen stream asks for (SubscriptionFilter).
struct listen_filter {
    bool tools = false;
    bool prompts = false;
    bool resources = false;
    std::set<std::string> uris;
    bool empty() const { return !tools && !prompts && !resources && uris.empty(); }
    bool operator==(const listen_filter&) const = default;
    json::object to_json() const;
    static listen_filter from_json(const json::object& o);
};

/// One subscriptions/listen request (see client_listen.cpp).
struct listen_attempt {
    std::uint64_t seq = 0;                 ///< order of creation: a newer attempt supersedes older ones
    std::optional<jsonrpc::request_id> id; ///< the request's id, once sent
    listen_filter asked;
    listen_filter granted; ///< from the acknowledgement
    cancellation_source cancel;
    bool acked = false;
    std::chrono::steady_clock::time_point acked_at;
    bool finished = false;
    bool after_break = false; ///< opened again after a stream broke: callbacks run on its acknowledgement
    std::optional<mcp::error> failure;
};

/// A complete listing kept for client_options::use_cache_hints (stateless era): the items
/// (a std::vector of the list's item type) and until when every page of it is fresh.
struct cached_listing {
    std::any items;
    std::chrono::steady_clock::time_point fresh_until;
};

struct client::impl : std::enable_shared_from_this<client::impl> {
    client_options opts;
    mutable std::mutex mu;
    std::shared_ptr<session> rpc;
    bool connected = false;
    /// Set once connect() has begun: distinguishes "not connected yet" from "closed" in errors.
    bool ever_connected = false;
    initialize_result init;
    revision version = latest_initialize_revision;
    /// Stateless era: connect() settled on 2026-07-28 (and `discovered` holds server/discover).
    bool stateless = false;
    std::optional<discover_result> discovered;
    /// Stateless era: the level set_logging_level() keeps for the _meta of every request.
    std::optional<logging_level> log_level;

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
    std::vector<std::function<void()>> renewed_callbacks;

    // --- a new session after the server forgot ours (initialize era; client_calls.cpp) ---
    /// The revision connect() asked initialize for: a renewal asks for it again.
    revision initialize_asked = latest_initialize_revision;
    /// Resources subscribed in this session (initialize era), subscribed again in a new one.
    std::set<std::string> session_subscriptions;
    /// Counts sessions started by renewal: a call that failed in session N renews only if no
    /// other call did already. Guarded by renew_mu (read under mu too).
    std::uint64_t session_generation = 0;
    std::mutex renew_mu;
    /// Start a new session on `s` unless one was started since generation `seen`; throws (after
    /// closing `s`) when the server refuses it. `cause` is the error that said the session expired.
    void renew_session(const std::shared_ptr<session>& s, std::uint64_t seen, const mcp::error& cause);
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

    // --- list caches (client_calls.cpp), keyed by method; voided by the matching list_changed ---
    std::map<std::string, cached_listing, std::less<>> list_cache;
    /// Bumped when a listing is voided: a walk that began before keeps nothing.
    std::uint64_t list_epoch = 0;

    // --- the subscriptions/listen stream (client_listen.cpp) ---
    // A recursive mutex: a request sent under it can complete on the same thread (a closed
    // session fails it at once), and its completion takes the mutex too.
    mutable std::recursive_mutex listen_mu;
    std::condition_variable_any listen_cv;
    std::map<std::uint64_t, std::shared_ptr<listen_attempt>> listen_attempts; ///< sent, not finished
    std::shared_ptr<listen_attempt> listen_current;                           ///< acknowledged
    std::uint64_t listen_seq = 0;
    std::set<std::string> subscribed;
    std::uint64_t listen_timer = 0; ///< a pending re-listen (timer_service id), 0 when none
    int listen_failures = 0;        ///< breaks in a row, for the back-off
    /// Generation of the connection: callbacks of an older session's listen are ignored.
    std::uint64_t connection_gen = 0;

    client_capabilities declared_capabilities(revision r) const;
    void install_notification(session& s, const std::string& method);
    /// roots/list, sampling/createMessage and elicitation/create, answered by the handlers set
    /// at the time each request arrives (method not found without one).
    void install_request_handlers(session& s);
    revision negotiated() const;
    /// The connected session, or an error naming the call.
    std::shared_ptr<session> live(std::string_view method) const;
    json::value call(std::string_view method, json::value params, const call_options& options);

    // --- the stateless era (client_stateless.cpp) ---
    bool is_stateless() const;
    /// params._meta of a 2026-07-28 request: version, capabilities, client info, log level.
    json::object request_meta(revision r) const;
    /// One request of the stateless era: _meta added, one retry after -32022 with a version both
    /// support, and for tools/call, prompts/get and resources/read the rounds of input_required.
    json::value call_stateless(const std::shared_ptr<session>& s, std::string_view method, json::value params,
                               const call_options& options);
    /// Every page of tools/list, over the wire (never from the cache): after a -32020 to
    /// tools/call, so that the transport learns the tools' x-mcp-header annotations.
    void relist_tools(const std::shared_ptr<session>& s, const call_options& options);
    /// One page of tools/list, counted by `bounds` when a walk asks for it (list_tools and
    /// list_all_tools; see client_calls.cpp).
    list_tools_result list_tools_page(const std::optional<std::string>& cursor, const call_options& options,
                                      detail::listing_walk* bounds);
    /// The newest revision of the stateless era that both this client and `supported` (the
    /// data of -32022, or supportedVersions) name.
    std::optional<revision> common_stateless_revision(const json::value& supported) const;
    /// Answer one inputRequests entry with the handler set now (throws mcp::error).
    json::value answer_input(std::string_view what, std::string_view key, const json::object& request,
                             const cancellation_token& cancel) const;

    // --- answering the server's requests for input (client_handlers.cpp) ---
    /// The result of roots/list, sampling/createMessage or elicitation/create, from the handler
    /// set now, in the wire form of `r`; throws mcp::error (-32601 without a handler).
    json::value answer(std::string_view method, request_context& ctx, revision r) const;

    // --- connecting (client_connect.cpp) ---
    /// What server/discover found.
    struct discover_outcome {
        std::optional<discover_result> result; ///< set when the server speaks the stateless era
        implementation server_info;            ///< from the result's _meta (or its serverInfo)
        revision version = revision::v2026_07_28;
        std::optional<mcp::error> legacy; ///< why the server is taken for one of the initialize era
    };
    /// The stateless era's connect: server/discover asking for `asked` (one retry after -32022).
    /// Throws for errors no fall back would cure.
    discover_outcome discover(const std::shared_ptr<session>& s, revision asked) const;
    /// The initialize era's connect: initialize asking for `asked`, notifications/initialized.
    void initialize(const std::shared_ptr<session>& s, revision asked);

    // --- subscriptions/listen (client_listen.cpp) ---
    /// What the listen stream should ask for now (called with listen_mu held).
    listen_filter wanted_filter() const;
    /// Open a listen stream for what is wanted now (superseding the current one), or close it
    /// when nothing is; returns the new attempt (null when none was opened).
    std::shared_ptr<listen_attempt> relisten(bool after_break);
    /// Wait until `a` (or a newer stream) is acknowledged or has failed; the granted filter of
    /// the stream that is current then, or the error.
    listen_filter await_listen(const std::shared_ptr<listen_attempt>& a, std::chrono::milliseconds timeout);
    void on_acknowledged(const json::object& params);
    void on_listen_done(const std::shared_ptr<listen_attempt>& a, std::uint64_t gen,
                        response_outcome outcome);
    /// Whether a notification belongs to the current listen stream (always true in the
    /// initialize era and for notifications without a subscription id).
    bool from_current_subscription(const json::object& params) const;
    /// Cancel every listen stream and pending re-listen (close, new connection).
    void stop_listening();
    /// A list_changed (or a broken stream) voids what was remembered of that list.
    void invalidate_lists(std::string_view notification);

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
    void check_structured_content(const std::string& name, const call_tool_result& result,
                                  const json::value& raw) const;
};

} // namespace mcp
