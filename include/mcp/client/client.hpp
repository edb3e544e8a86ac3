// mcp/client/client.hpp - an MCP client: connects to one server over any transport, in either era
// of the protocol, and offers every client->server call with typed results, helpers that walk
// all pages, handlers for the input a server asks for (sampling, elicitation, roots) and
// callbacks for its notifications.
//
//   mcp::client c({.info = {"my-host", "1.0"}});
//   c.connect(mcp::child_process_transport::spawn({.command = "./echo_server"}));
//   for (auto& t : c.list_all_tools()) std::cout << t.name << "\n";
//   auto r = c.call_tool("echo", {{"text", "hi"}});
//
// Two eras, one API. connect() asks for client_options::protocol_version, by default the newest
// revision (2026-07-28, the stateless era): it probes with server/discover and, when the server
// does not know that method, falls back to the initialize handshake of 2025-11-25 and earlier
// (see connect()). What differs between the eras is handled here, not by the caller:
//   * initialize era: one handshake, then a session; the server sends its own requests
//     (sampling, elicitation, roots) and notifications whenever it likes;
//   * stateless era (2026-07-28): no handshake; every request carries _meta with the protocol
//     version, the client's capabilities and identity (and the log level, see
//     set_logging_level); a server that needs input answers tools/call, prompts/get or
//     resources/read with an input_required result, which the client answers itself with the
//     same handlers and retries (multi round-trip requests); notifications come on a
//     subscriptions/listen stream the client keeps open (see client_options::listen).
//
// Structured output is checked: a tool listed with an `outputSchema` must answer with conforming
// `structuredContent`, or call_tool throws (see call_tool and client_options).
#pragma once

#include <mcp/protocol/types.hpp>
#include <mcp/session/session.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// Per-call options: timeout, progress, cancellation.
struct call_options {
    std::optional<std::chrono::milliseconds> timeout;
    std::function<void(const progress_update&)> on_progress;
    cancellation_token cancel;
    /// Extra members for params._meta.
    json::object meta;
};

/// Handlers of the input a server asks for: server->client requests in the initialize era, the
/// inputRequests of an input_required result in the stateless era (2026-07-28). A handler may
/// throw mcp::error: in the initialize era the server gets that error (e.g. code -1 when the user
/// rejects a sampling request); in the stateless era, where an answer can only be a result, the
/// call that needed the input fails with it. In the stateless era the request_context has no
/// peer (has_peer() is false) and its cancellation is the call's.
using sampling_handler =
    std::function<create_message_result(const create_message_request&, request_context&)>;
using elicitation_handler = std::function<elicit_result(const elicit_request&, request_context&)>;
using roots_handler = std::function<std::vector<root>()>;
/// A roots handler that sees the request (its _meta, its cancellation): for a host that answers
/// differently depending on what the server is doing (a gateway asking its own client).
using roots_request_handler = std::function<std::vector<root>(request_context&)>;

/// What a sampling handler supports, declared as sampling.tools / sampling.context.
struct sampling_support {
    bool tools = true;
    bool context = false;
};
/// The elicitation modes a handler answers, declared as elicitation.form / elicitation.url.
struct elicitation_modes {
    bool form = true;
    bool url = false;
};
/// What a roots handler declares: roots.listChanged (then call notify_roots_changed() after a change).
struct roots_support {
    bool list_changed = true;
};

/// Bounds of the walks over a server's pages (list_all_tools, list_all_resources,
/// list_all_resource_templates, list_all_prompts, and the walks the client makes by itself).
/// Each page is bounded by the message size limit (session_options::max_message_size), but a
/// server may answer every page with a fresh nextCursor: without these bounds a hostile or
/// broken server fills the client's memory (a walk that never ends). A walk that would pass a
/// bound stops there and throws mcp::error (code error_code::internal_error) naming the bound
/// and the numbers, e.g. "listing tools: the server sent 20000 items (in 1 page), more than
/// the 10000 client_options::listing.max_items allows"; its data is {"listing": "tools",
/// "bound": "max_items", "limit": 10000, "value": 20000, "pages": 1}. Nothing of the walk is
/// kept. A bound of 0 means "no bound" (for a trusted server whose catalogue is larger).
struct listing_limits {
    /// Pages of one walk: the request for page max_pages + 1 is never sent.
    std::size_t max_pages = 100;
    /// Items (tools, resources, templates, prompts) of one walk, all pages together.
    std::size_t max_items = 10000;
    /// Bytes of the pages' results (as JSON text), all pages together.
    std::size_t max_bytes = 16u << 20;
    /// Bytes of one nextCursor (an opaque token, usually a few dozen bytes; the client keeps
    /// every cursor of the walk to refuse a repeated one and sends each back).
    std::size_t max_cursor_size = 4096;
};

struct client_options {
    implementation info{"mcpxx-client", "0.1.0"};
    /// The revision connect() asks for, the newest the client will use.
    ///   * 2026-07-28 (the default): the stateless era. connect() sends server/discover and stays
    ///     in that era when the server answers it (or answers with an error only a 2026-07-28
    ///     server gives, such as -32022 with a version both support). Any other answer - "method
    ///     not found", another error, an HTTP 400/404 without a 2026-07-28 error, or silence for
    ///     `discover_timeout` - marks a server of the initialize era, and connect() falls back to
    ///     initialize with the newest initialize-era revision in `revisions` (none: connect fails).
    ///   * 2025-11-25 or older: the initialize era only; initialize asks for this revision and
    ///     the server may answer with an older one, which the client accepts if it is in
    ///     `revisions`.
    /// So the era can be forced: an initialize-era protocol_version never probes, and
    /// `revisions = {revision::v2026_07_28}` never falls back.
    revision protocol_version = latest_revision;
    std::vector<revision> revisions{revision::v2026_07_28, revision::v2025_11_25, revision::v2025_06_18,
                                    revision::v2025_03_26, revision::v2024_11_05};
    /// Declared capabilities beyond those implied by the handlers set (experimental, ...).
    json::object experimental;
    /// Timeout of each call unless call_options says otherwise. In the stateless era a call that
    /// takes several rounds of input gets this much for each round; the time its handlers take
    /// (a user filling in a form) is not counted.
    std::chrono::milliseconds timeout{60000};
    /// Stateless era probe: how long connect() waits for the answer to server/discover before it
    /// takes the server for one of the initialize era (which may ignore unknown requests).
    std::chrono::milliseconds discover_timeout{10000};
    /// Stateless era: the requests one call may send - the first and its retries after
    /// input_required - before it fails because the server keeps asking for input.
    int max_input_rounds = 16;
    /// Stateless era: keep one subscriptions/listen request open for the notifications the
    /// server offers (tools, prompts and resources list_changed, where its capabilities say
    /// listChanged) and for the resources subscribe() names. Without it, on_*_list_changed
    /// callbacks never run and subscribe() fails. connect() waits for the stream's
    /// acknowledgement (at most the smaller of `timeout` and `discover_timeout`; without one it
    /// returns anyway), so that a change made after connect() returns is delivered.
    bool listen = true;
    /// Stateless era: list_all_tools / list_all_prompts / list_all_resources /
    /// list_all_resource_templates answer from the previous complete listing while every page
    /// of it is fresh by the server's ttlMs and no list_changed notification (nor a break of
    /// the listen stream, nor a new connect()) has voided it. A ttlMs of 0, the usual value,
    /// means "ask again every time".
    bool use_cache_hints = true;
    /// Check each call's structuredContent against the outputSchema its tool was listed with
    /// (the spec's "clients SHOULD validate structured results"); see client::call_tool. When
    /// false, tools/list compiles no schema and call_tool returns every result as received.
    bool validate_structured_content = true;
    /// Bounds of the walks over pages (see listing_limits).
    listing_limits listing;
    session_options session;
};

class client {
public:
    explicit client(client_options options = {});
    ~client();
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    // --- handlers for the server's requests for input; they decide the capabilities declared
    // (in initialize, or in every request's _meta in the stateless era). Set them before
    // connect() for the initialize era; in the stateless era a change applies from the next call.
    /// e.g. `set_sampling_handler(h, {.tools = false})`, `set_elicitation_handler(h, {.url = true})`.
    void set_sampling_handler(sampling_handler handler, sampling_support support = {});
    void set_elicitation_handler(elicitation_handler handler, elicitation_modes modes = {});
    /// Offer roots (see roots_support).
    void set_roots_handler(roots_handler handler, roots_support support = {});
    void set_roots_request_handler(roots_request_handler handler, roots_support support = {});
    void set_roots(std::vector<root> roots);
    /// notifications/roots/list_changed (initialize era). The stateless era has no such
    /// notification (a server asks for the roots each time it needs them): nothing is sent.
    void notify_roots_changed();

    // --- notification callbacks ---
    // In the stateless era the list_changed and resource-updated notifications come on the
    // subscriptions/listen stream (client_options::listen), only for what the server declares
    // (listChanged) or agreed to (subscribe()). If that stream breaks and is opened again, the
    // client cannot know what changed meanwhile: it then runs the list_changed callbacks of
    // everything the new stream covers, and on_resource_updated for every subscribed resource.
    void on_tools_list_changed(std::function<void()> cb);
    void on_resources_list_changed(std::function<void()> cb);
    void on_prompts_list_changed(std::function<void()> cb);
    void on_resource_updated(std::function<void(const std::string& uri)> cb);
    /// Log messages. In the stateless era they come only while a request is running, and only
    /// after set_logging_level() (each request then asks for that level).
    void on_log_message(std::function<void(const logging_message_notification&)> cb);
    /// notifications/elicitation/complete (2025-11-25 only).
    void on_elicitation_complete(std::function<void(const std::string& elicitation_id)> cb);
    /// Any other notification, by method. notifications/progress and notifications/cancelled are
    /// handled by the session itself (call_options::on_progress, cancellation) and never get here.
    void on_notification(std::string method, std::function<void(const json::object& params)> cb);
    void on_close(std::function<void()> cb);
    /// The server forgot the session and the client started a new one (initialize era over
    /// Streamable HTTP: HTTP 404 for the Mcp-Session-Id, after which the 2025-11-25 transport
    /// page says the client MUST initialize again). The client does it by itself, on the
    /// thread of the call that met the 404: initialize with the same capabilities and revision
    /// as connect(), notifications/initialized, then it subscribes again to the resources
    /// subscribe() named and sets the logging level set_logging_level() set, and sends the
    /// failed request once more when the server refused it (a request whose answer was lost
    /// with the session may have run: it fails, with code -32010 and data.sessionExpired).
    /// Then `cb` runs (on that thread): whatever else the old session held on the server is
    /// gone, and the server may have changed (list again). If the new initialize fails, the
    /// connection is closed (on_close) and the call fails naming both errors.
    void on_session_renewed(std::function<void()> cb);

    // --- lifecycle ---
    /// Connect: settle the era (see client_options::protocol_version) and either discover the
    /// server (stateless era: server/discover, then the subscriptions/listen stream if any) or
    /// initialize it. Throws mcp::error if the server refuses, if no revision both speak exists,
    /// or if the connection fails; the connection is closed then. Errors of the stateless era:
    ///   * -32022 from the server, naming versions of which none is one this client speaks
    ///     and no fall back is allowed: "the server supports protocol versions X, Y; this client
    ///     speaks Z" (data: the server's error data);
    ///   * a server of the initialize era when `revisions` holds no initialize-era revision:
    ///     "the server does not speak protocol revision 2026-07-28 (server/discover failed:
    ///     ...)", with the probe's error code;
    ///   * errors that no fall back would cure are passed on as they are: a closed connection,
    ///     an HTTP failure without a status or with 401/403 (-32010), -32020, -32021;
    ///   * a server that answers nothing at all: -32001 after discover_timeout + timeout, "the
    ///     server answered nothing: server/discover got no answer within 10000 ms
    ///     (client_options::discover_timeout), then initialize none within 60000 ms
    ///     (client_options::timeout)"; after such a silent probe, an initialize that fails
    ///     otherwise is reported with its own code as "server/discover got no answer within N
    ///     ms (...), and the fall back to initialize failed: <its message>".
    /// The result is the server's initialize result, or in the stateless era the same facts
    /// from server/discover (protocolVersion "2026-07-28", the capabilities and instructions,
    /// serverInfo from the result's _meta); see also discovery().
    const initialize_result& connect(transport_ptr transport);
    void close();
    bool connected() const;
    const initialize_result& server() const;
    /// The revision in use: negotiated by initialize, or 2026-07-28 in the stateless era.
    revision protocol_version() const;
    /// True when connected in the stateless era (2026-07-28).
    bool stateless() const;
    /// The server/discover result (stateless era): supportedVersions, capabilities,
    /// instructions, caching hints and _meta (whose "io.modelcontextprotocol/serverInfo"
    /// server().server_info holds). nullopt in the initialize era.
    std::optional<discover_result> discovery() const;
    mcp::session& rpc() const;

    // --- calls ---
    /// ping (initialize era). The stateless era has no ping: the client sends server/discover
    /// instead, which every server of that era answers, and ignores its result.
    void ping(call_options options = {});
    /// One page of tools/list. Also remembers the outputSchema of each tool on the page, compiled
    /// once here (a schema that a later listing repeats is not compiled again), for call_tool to
    /// check results against. The first page (no cursor) replaces what was remembered; later
    /// pages add to it. A schema without `$schema` is read as JSON Schema 2020-12 when 2025-11-25
    /// is negotiated and as draft-07 before it, as the spec says. A schema that does not compile
    /// does not fail the listing: calls to that tool report it. notifications/tools/list_changed
    /// or a new connect() forgets every schema until the next listing, and a page requested
    /// before a list_changed arrived is not remembered (it may describe the old list).
    list_tools_result list_tools(std::optional<std::string> cursor = std::nullopt, call_options options = {});
    /// Every page of tools/list (remembering outputSchemas as list_tools does).
    std::vector<tool> list_all_tools(call_options options = {});
    /// tools/call. A result with `isError: true` is returned as received: a failed tool made no
    /// promise about its output. Otherwise, if client_options::validate_structured_content is on
    /// and the latest listing (see list_tools) gave `name` an outputSchema, the result is checked
    /// and a violation throws mcp::error with code error_code::invalid_params (-32602, as the
    /// TypeScript SDK does) and one of these messages:
    ///   - "tool 'NAME' was listed with an outputSchema but returned no structuredContent"
    ///   - "structuredContent of tool 'NAME' does not match its outputSchema: at /sum: expected
    ///     number, got string; at (root): ..." (instance location and message of the first five
    ///     errors, then "; and more" if there are others; "(root)" is the empty JSON pointer)
    ///   - "tool 'NAME' was listed with an outputSchema that cannot be compiled, so its
    ///     structuredContent cannot be checked: <the compile error>"
    /// The error's data is an object: "tool" (the name), "errors" (an array of {instanceLocation,
    /// keywordLocation, message}) or "schemaError" (the compile error), and "result" (the result
    /// as received, so that a caller may still show its content).
    /// A tool the client has not listed (since connect() and the last list_changed) is not
    /// checked, since there is nothing to check it against: call list_all_tools() first. The
    /// client never lists on its own, since that would hide a round trip, and a paginated walk,
    /// inside a call (except after a -32020 over HTTP, see below).
    /// Stateless era: an input_required result is answered with the handlers (each
    /// inputRequests entry: elicitation/create, sampling/createMessage, roots/list) and the call
    /// is sent again, with a new id, the answers as inputResponses and the requestState echoed
    /// exactly (left out when the server sent none), until a complete result or
    /// client_options::max_input_rounds. The call's timeout applies to each round, its
    /// progress callback sees every round (progress may start again at each), and cancelling it
    /// stops the round in flight or the next one. Errors: -32601 when the server asks for input
    /// no handler gives ("... asks for elicitation/create (input 'k'); this client does not
    /// elicit"), -32602 for a malformed input_required result, -32603 after too many rounds, or
    /// the error a handler threw.
    /// Stateless era over HTTP: a -32020 (HeaderMismatch: the Mcp-Param-* headers the transport
    /// derives from the tool's listed inputSchema were missing - the tool was never listed - or
    /// stale) makes the client list every page of tools/list anew and send the call once more,
    /// as the Streamable HTTP page advises; a second -32020 fails the call ("... the server
    /// refused the request's headers again after the tools were listed anew: ...").
    call_tool_result call_tool(const std::string& name, json::object arguments = {},
                               call_options options = {});
    list_resources_result list_resources(std::optional<std::string> cursor = std::nullopt,
                                         call_options options = {});
    std::vector<resource> list_all_resources(call_options options = {});
    list_resource_templates_result list_resource_templates(std::optional<std::string> cursor = std::nullopt,
                                                           call_options options = {});
    std::vector<resource_template> list_all_resource_templates(call_options options = {});
    /// resources/read (in the stateless era it may take rounds of input, as call_tool).
    read_resource_result read_resource(const std::string& uri, call_options options = {});
    /// resources/subscribe (initialize era). In the stateless era: the URI joins the resources
    /// of the subscriptions/listen stream, which is opened again with the new set; returns once
    /// the server acknowledged it (within the call's timeout). Throws if the server offers no
    /// subscriptions (resources.subscribe), if client_options::listen is off, or if the
    /// acknowledgement leaves the URI out ("the server did not agree to send updates of URI").
    void subscribe(const std::string& uri, call_options options = {});
    /// resources/unsubscribe (initialize era); in the stateless era the URI leaves the listen
    /// stream's set (the stream is opened again without it, or closed when nothing is left).
    void unsubscribe(const std::string& uri, call_options options = {});
    list_prompts_result list_prompts(std::optional<std::string> cursor = std::nullopt,
                                     call_options options = {});
    std::vector<prompt> list_all_prompts(call_options options = {});
    /// prompts/get (in the stateless era it may take rounds of input, as call_tool).
    get_prompt_result get_prompt(const std::string& name, std::map<std::string, std::string> arguments = {},
                                 call_options options = {});
    complete_result complete(const complete_request& request, call_options options = {});
    /// logging/setLevel (initialize era). The stateless era has no such method: the client keeps
    /// the level and puts it in the _meta of every later request ("io.modelcontextprotocol/
    /// logLevel"), which is how a server of that era learns it; nothing is sent now.
    void set_logging_level(logging_level level, call_options options = {});

    struct impl;

private:
    std::shared_ptr<impl> impl_;
};

} // namespace mcp
