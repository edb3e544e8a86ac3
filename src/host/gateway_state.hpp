// Internal state of mcp::host::gateway, shared by its files:
//   gateway.cpp            construction, the manager's hooks, health, subscriptions, closing
//   gateway_catalogue.cpp  the catalogue: names, publishing into the mcp::server, URI rewriting
//   gateway_forward.cpp    forwarding calls (both eras, MRTR), routing the servers' requests
//   gateway_call.cpp       one forwarded call and the registry of calls
//   gateway_roots.cpp      roots outside a call: the clients' union, their changes passed on
#pragma once

#include <mcp/host/catalogue.hpp>
#include <mcp/host/gateway.hpp>
#include <mcp/protocol/uri_template.hpp>

#include "host/gateway_call.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <thread>

namespace mcp::host {

struct gateway::impl : std::enable_shared_from_this<gateway::impl> {
    gateway_options opts;
    std::shared_ptr<executor> exec; ///< the server's handlers, and requests to servers for 2026-07-28 calls
    std::unique_ptr<mcp::server> srv;
    std::unique_ptr<manager> mgr;
    detail::call_registry calls;

    // ---- the published catalogue (gateway_catalogue.cpp) ----
    struct published_tool {
        route to;
        tool definition; ///< as published (the gateway's name)
    };
    struct published_prompt {
        route to;
        prompt definition;
        bool completions = false;
    };
    struct published_resource {
        route to;
        resource definition;
    };
    struct published_template {
        route to;
        resource_template definition;
        std::optional<uri_template> compiled; ///< the published template, for routing
        bool completions = false;
    };
    mutable std::shared_mutex routes_mu;
    std::map<std::string, published_tool> tools;
    std::map<std::string, published_prompt> prompts;
    std::map<std::string, published_resource> resources;
    std::map<std::string, published_template> templates;
    std::map<std::string, std::string> label_of;  ///< server -> its part of qualified URIs
    std::map<std::string, std::string> server_of; ///< the reverse
    /// Every qualified prompt name given, kept for the gateway's lifetime (tools: the manager's).
    catalogue_names prompt_names;
    std::mutex sync_mu; ///< one catalogue rebuild at a time

    /// Rebuild the catalogue from the manager and publish the differences (one list_changed per
    /// kind that changed).
    void sync();
    /// The URI the gateway shows for `uri` of `server`, and back.
    std::string outer_uri(const std::string& server, const std::string& uri) const;
    std::optional<route> inner_uri(const std::string& outer) const;
    /// Rewrite the URIs in results (resource links, embedded resources, read contents).
    void rewrite(const std::string& server, call_tool_result& r) const;
    void rewrite(const std::string& server, get_prompt_result& r) const;
    void rewrite(const std::string& server, read_resource_result& r) const;

    // ---- forwarding (gateway_forward.cpp) ----
    struct call_hooks {
        json::object meta; ///< the correlation id
        std::function<void(const progress_update&)> on_progress;
        cancellation_token cancel;
        std::string principal; ///< the caller's, for the audit log
    };
    /// Run `run` (a request to `server`) for the handler of `ctx`, in the caller's era.
    /// `state`: members kept in the requestState of every later round (2026-07-28).
    template <class R>
    R forward(context& ctx, const std::string& server, const std::function<R(const call_hooks&)>& run,
              json::object state = {});
    /// Ask the user of the client behind `ctx` (form elicitation) whether `request` may run;
    /// see gateway.hpp. Throws input_required (2026-07-28, first round) as ctx.elicit does.
    /// False with `why_not` set when the call may not run: the user said no, or could not be
    /// asked (the client declares no form elicitation, or its request failed).
    bool ask_approval(context& ctx, const approval_request& request, std::string& why_not);
    call_tool_result call_tool(const route& to, const json::object& arguments, context& ctx);
    get_prompt_result get_prompt(const route& to, const std::map<std::string, std::string>& arguments,
                                 context& ctx);
    read_resource_result read_resource(const std::string& server, const std::string& uri, context& ctx);
    complete_result complete(const std::string& server, completion_reference ref, const std::string& argument,
                             const std::string& value,
                             const std::map<std::string, std::string>& context_args);
    /// The call a server's request (sampling, elicitation, roots, log message) was made for: the
    /// one its correlation id names, else the only call in flight on that server; null when
    /// there is none or it cannot be told.
    std::shared_ptr<detail::forwarded_call> call_of(const std::string& server,
                                                    const json::object* meta) const;
    /// A server's request for input (sampling, elicitation, roots), asked of the client whose
    /// call it serves (`call`, from call_of: null is outside a call). Withdrawn from the client
    /// when `control` is cancelled; the client's progress on it goes to control.report_progress.
    /// Returns nullopt when the client cannot be asked: outside a call, and roots/list of a
    /// client that declares no roots.
    std::optional<input_response> route_input(const std::shared_ptr<detail::forwarded_call>& call,
                                              input_request request, const json::object* meta,
                                              const request_control& control);
    void route_log(const std::string& server, const logging_message_notification& message);

    // ---- roots outside a call (gateway_roots.cpp) ----
    /// The answer to a server's roots/list outside a call: the union of the roots of the
    /// connected clients that declare roots, else the manager's (see gateway.hpp).
    std::vector<root> roots_outside_calls() const;
    /// Tell the servers their roots changed (from a task on the executor: the caller may be a
    /// client's session, which must not wait for the servers).
    void announce_roots_changed();
    /// The server's hooks that keep the servers' roots in step with the clients'.
    void watch_client_roots();

    // ---- parked calls: the sweeper that cancels those whose client never came back ----
    std::mutex sweeper_mu;
    std::condition_variable sweeper_cv;
    bool closing = false;
    std::thread sweeper;
    void sweep_loop();
    void wake_sweeper();

    // ---- resource subscriptions made at the servers ----
    std::mutex subs_mu;
    /// (server, its URI) -> the client it was made on (a restart needs it made again).
    std::map<std::pair<std::string, std::string>, std::weak_ptr<mcp::client>> subscriptions;
    void subscribe(const std::string& outer_uri);
    /// The gateway's own middleware (subscriptions made at the servers), added by start() so
    /// that middleware the user added before (authentication, rate limits) run first.
    void install_middleware();
    std::once_flag middleware_once;
    void resubscribe(const std::string& server);

    void event(json::object e) const {
        if (opts.on_event) opts.on_event(e);
    }
};

} // namespace mcp::host
