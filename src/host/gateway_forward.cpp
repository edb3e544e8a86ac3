// Forwarding a client's call to the server behind the gateway, in both protocol eras, and
// routing what the server sends on that call's behalf (input requests, log messages) back to
// the client that made it.
//
// Initialize-era clients: the handler makes the request to the server itself and waits; the
// server's sampling / elicitation / roots requests are asked of the client from the thread that
// received them, through the waiting handler's context (a server->client request of the
// client's session). 2026-07-28 clients: the request to the server runs on the executor and
// the handler waits for it or for an input request; an input request becomes ctx.ask(), which
// either finds the client's answer in this round or ends the handler with an
// InputRequiredResult, leaving the call parked (still running at the server, waiting for that
// answer) until the client's retry names it through the requestState.
#include "crypto/crypto.hpp"
#include "host/gateway_state.hpp"
#include "server/request_state.hpp"

#include <mcp/session/executor.hpp>

namespace mcp::host {

namespace {

using clock = std::chrono::steady_clock;

void strip_hints(std::optional<json::object>& meta) {
    if (!meta) return;
    meta->erase(forwarding_meta::input_key);
    meta->erase(forwarding_meta::input_requests);
    meta->erase(forwarding_meta::correlation_id);
    if (meta->empty()) meta.reset();
}

void strip_hints(input_request& r) {
    if (auto* e = std::get_if<elicit_request>(&r)) strip_hints(e->meta);
    if (auto* s = std::get_if<create_message_request>(&r)) strip_hints(s->meta);
}

/// One entry of forwarding_meta::input_requests ({method, params}) as an input_request.
std::optional<input_request> parse_batch_entry(const json::value& v) {
    const auto* o = v.if_object();
    if (!o) return std::nullopt;
    const auto method = find_string(*o, "method").value_or("");
    const json::value params = o->contains("params") ? o->at("params") : json::value(json::object());
    try {
        if (method == "elicitation/create") return input_request(from_json<elicit_request>(params));
        if (method == "sampling/createMessage")
            return input_request(from_json<create_message_request>(params));
        if (method == "roots/list") return input_request(roots_request{});
    } catch (const error&) {
    }
    return std::nullopt;
}

std::string_view key_base(const input_request& r) {
    switch (r.index()) {
    case 0:
        return "elicitation";
    case 1:
        return "sampling";
    default:
        return "roots";
    }
}

} // namespace

template <class R>
R gateway::impl::forward(context& ctx, const std::string& server,
                         const std::function<R(const call_hooks&)>& run, json::object state) {
    using detail::forwarded_call;
    auto hooks_for = [](const std::shared_ptr<forwarded_call>& call, const context& c) {
        call_hooks h;
        h.meta[forwarding_meta::correlation_id] = call->id;
        h.meta[forwarding_meta::client_capabilities] = c.caller().capabilities_json;
        h.cancel = call->cancel.token();
        h.principal = call->principal;
        if (c.rpc().wants_progress())
            h.on_progress = [weak = std::weak_ptr<forwarded_call>(call)](const progress_update& p) {
                if (auto c = weak.lock())
                    c->with_context([&](context& x) { x.progress(p.progress, p.total, p.message); });
            };
        return h;
    };

    if (!ctx.stateless()) {
        // Initialize era: the handler waits for the server itself.
        auto call = std::make_shared<forwarded_call>(mcp::detail::random_hex_id(), server, ctx.principal(),
                                                     false, ctx.client_caps().roots.has_value());
        calls.add(call);
        call->attach(ctx);
        struct cleanup {
            impl& self;
            std::shared_ptr<forwarded_call>& call;
            ~cleanup() {
                call->detach();
                self.calls.remove(call->id);
            }
        } done{*this, call};
        auto hooks = hooks_for(call, ctx);
        hooks.cancel = ctx.cancellation(); // the client cancelling cancels the server's request
        return run(hooks);
    }

    // 2026-07-28: the request to the server may outlive this handler (parked between rounds).
    std::shared_ptr<forwarded_call> call;
    if (const auto* state = ctx.request_state().if_object())
        if (auto id = find_string(*state, "call")) {
            switch (calls.resume(std::string(*id), ctx.principal(), call)) {
            case detail::call_registry::resume_status::resumed:
                break;
            case detail::call_registry::resume_status::busy:
                throw error(error_code::invalid_params,
                            "Invalid params: this call is being continued by another request already");
            case detail::call_registry::resume_status::other_principal:
                throw error(error_code::invalid_params,
                            "Invalid params: requestState belongs to another client");
            case detail::call_registry::resume_status::unknown:
                // Expired, or answered by a gateway that restarted: start again, as a server's
                // handler does each round (answers this request carries are used again).
                break;
            }
        }
    if (!call) {
        call = std::make_shared<forwarded_call>(mcp::detail::random_hex_id(), server, ctx.principal(), true,
                                                ctx.client_caps().roots.has_value());
        auto result = std::make_shared<std::optional<R>>();
        call->result = result;
        calls.add(call);
        call->attach(ctx); // before the request starts: what it sends at once finds the context
        exec->post([call, result, run, hooks = hooks_for(call, ctx)] {
            try {
                result->emplace(run(hooks));
                call->finish(nullptr);
            } catch (...) {
                call->finish(std::current_exception());
            }
            call->fail_inputs(
                error(error_code::request_cancelled, "the call this request belongs to has ended"));
        });
    } else {
        call->attach(ctx);
    }
    state["call"] = call->id;
    ctx.set_request_state(std::move(state));
    auto end = [&](const error& why) {
        call->detach();
        call->cancel.cancel(why.what());
        call->fail_inputs(why);
        calls.remove(call->id);
    };
    for (;;) {
        switch (call->wait(ctx.cancellation())) {
        case forwarded_call::event::cancelled: {
            const error why(error_code::request_cancelled, "the client cancelled the request");
            end(why);
            throw why;
        }
        case forwarded_call::event::done: {
            call->detach();
            calls.remove(call->id);
            if (auto f = call->failure()) std::rethrow_exception(f);
            return std::move(**std::static_pointer_cast<std::optional<R>>(call->result));
        }
        case forwarded_call::event::input:
            break;
        }
        auto inputs = call->unanswered();
        input_requests asked;
        for (const auto& in : inputs) asked.emplace(in->key, in->request);
        // What the server's handler will ask next, so that the client answers it in this round.
        for (const auto& in : inputs)
            for (const auto& kv : in->batch)
                if (!asked.count(std::string(kv.key())))
                    if (auto r = parse_batch_entry(kv.value()))
                        asked.emplace(std::string(kv.key()), std::move(*r));
        input_responses answers;
        try {
            answers = ctx.ask(asked);
        } catch (const input_required&) {
            call->detach();
            if (!calls.park(call, clock::now() + opts.input_wait, opts.max_waiting_calls)) {
                const error why(error_code::internal_error,
                                "Internal error: too many calls are waiting for input at this gateway (" +
                                    std::to_string(opts.max_waiting_calls) + "); try again later");
                end(why);
                throw why;
            }
            wake_sweeper();
            throw;
        } catch (const error& e) {
            // The client cannot answer (a capability it did not declare, an answer of the wrong
            // shape): the call cannot go on, and the client learns why.
            end(e);
            throw;
        }
        for (const auto& in : inputs)
            if (auto it = answers.find(in->key); it != answers.end())
                call->settle(*in, std::move(it->second));
    }
}

// ------------------------------------------------------------------------------- the methods

namespace {
/// The key of the approval question among a round's inputs (other keys are the servers').
constexpr std::string_view approval_input_key = "dev.mcpxx/approval";
} // namespace

bool gateway::impl::ask_approval(context& ctx, const approval_request& request, std::string& why_not) {
    const auto& caps = ctx.client_caps().elicitation;
    if (!caps || !caps->supports_form()) {
        // Nobody to ask: the policy's "no", said as it is (not as the user's).
        why_not = "the call needs the user's approval, and this client cannot be asked (it does not declare "
                  "form elicitation)";
        return false;
    }
    std::string message = "Run the tool \"" + request.tool + "\" of the server \"" + request.server + "\"";
    if (!request.server_trusted) message += " (a server you have not marked trusted)";
    message += "?\nArguments: " + to_json(json::value(request.arguments));
    if (request.definition && request.definition->description)
        message += "\nThe tool says: " + *request.definition->description;
    const json::object schema{
        {"type", "object"},
        {"properties", json::object{{"run", json::object{{"type", "boolean"},
                                                         {"title", "Run this tool call"},
                                                         {"description",
                                                          "Yes to let the gateway run the call as shown"}}}}},
        {"required", json::array{"run"}}};
    try {
        const auto answer = ctx.elicit({.message = std::move(message), .requested_schema = schema},
                                       {.key = std::string(approval_input_key)});
        const auto* run = answer.action == elicit_action::accept && answer.content
                              ? answer.content->if_contains("run")
                              : nullptr;
        if (run && run->is_bool() && run->get_bool()) return true;
        why_not = answer.action == elicit_action::cancel ? "the user dismissed the approval question"
                                                         : "the user denied the call";
        return false;
    } catch (const client_request_failed& e) {
        // The client could not ask (refused, timed out): not approved.
        why_not = std::string("the call needs the user's approval, and asking the client's user failed: ") +
                  e.what();
        return false;
    }
}

call_tool_result gateway::impl::call_tool(const route& to, const json::object& arguments, context& ctx) {
    // The human in the loop: a call the policy does not allow by itself is put to the user of
    // the calling client (form elicitation) before it reaches the server. A 2026-07-28 client
    // answers in a second round; the approval then travels in the sealed requestState, bound to
    // this exact call (its digest), so that later rounds neither ask again nor run another call.
    std::optional<bool> user_decision;
    std::string why_not;
    json::object state;
    if (auto request = mgr->approval_needed(to.server, to.name, arguments)) {
        const std::string digest =
            mcp::detail::sha256_hex(to.server + '\n' + to.name + '\n' + to_json(json::value(arguments)));
        const auto* earlier = ctx.request_state().if_object();
        const bool approved_before =
            earlier && find_string(*earlier, "approved").value_or("") == std::string_view(digest);
        user_decision = approved_before || ask_approval(ctx, *request, why_not);
        if (*user_decision) state["approved"] = digest;
    }
    std::function<call_tool_result(const call_hooks&)> run = [self = weak_from_this(), to, arguments,
                                                              user_decision, why_not](const call_hooks& h) {
        auto gw = self.lock();
        if (!gw) throw error(error_code::connection_closed, "the gateway is closing");
        tool_call_options o;
        o.meta = h.meta;
        o.on_progress = h.on_progress;
        o.cancel = h.cancel;
        o.user_decision = user_decision;
        o.denial_reason = why_not;
        o.principal = h.principal;
        return gw->mgr->call_tool(to.server, to.name, arguments, std::move(o));
    };
    try {
        auto r = forward(ctx, to.server, run, std::move(state));
        if (opts.qualify_names) rewrite(to.server, r);
        return r;
    } catch (const call_denied& e) {
        // The policy said no and the client's user did too (or could not be asked). The model
        // reads why.
        return error_result(std::string("The gateway did not run this call: ") + e.what() +
                            " (a call runs when the gateway's policy allows it - --approve-all, or read-only "
                            "tools of trusted servers - or when the user approves it through a client that "
                            "can ask, with form elicitation)");
    } catch (const error& e) {
        if (e.code() != error_code::connection_closed) throw;
        return error_result(std::string("The server behind this tool is not available: ") + e.what());
    }
}

get_prompt_result gateway::impl::get_prompt(const route& to,
                                            const std::map<std::string, std::string>& arguments,
                                            context& ctx) {
    std::function<get_prompt_result(const call_hooks&)> run = [self = weak_from_this(), to,
                                                               arguments](const call_hooks& h) {
        auto gw = self.lock();
        if (!gw) throw error(error_code::connection_closed, "the gateway is closing");
        return gw->mgr->client(to.server)->get_prompt(
            to.name, arguments, {.on_progress = h.on_progress, .cancel = h.cancel, .meta = h.meta});
    };
    auto r = forward(ctx, to.server, run);
    if (opts.qualify_names) rewrite(to.server, r);
    return r;
}

read_resource_result gateway::impl::read_resource(const std::string& server, const std::string& uri,
                                                  context& ctx) {
    std::function<read_resource_result(const call_hooks&)> run = [self = weak_from_this(), server,
                                                                  uri](const call_hooks& h) {
        auto gw = self.lock();
        if (!gw) throw error(error_code::connection_closed, "the gateway is closing");
        return gw->mgr->client(server)->read_resource(
            uri, {.on_progress = h.on_progress, .cancel = h.cancel, .meta = h.meta});
    };
    read_resource_result r;
    try {
        r = forward(ctx, server, run);
    } catch (const error& e) {
        if (!opts.qualify_names) throw;
        // The client knows the resource by the gateway's URI: say that one, never the server's
        // (in the message and in data.uri, as "Resource not found" has it).
        const std::string outer = outer_uri(server, uri);
        std::string message = e.what();
        for (auto at = message.find(uri); at != std::string::npos; at = message.find(uri, at + outer.size()))
            message.replace(at, uri.size(), outer);
        json::value data = e.data();
        if (auto* d = data.if_object())
            if (auto inner = find_string(*d, "uri")) (*d)["uri"] = outer_uri(server, std::string(*inner));
        throw error(e.code(), std::move(message), std::move(data));
    }
    if (opts.qualify_names) rewrite(server, r);
    return r;
}

complete_result gateway::impl::complete(const std::string& server, completion_reference ref,
                                        const std::string& argument, const std::string& value,
                                        const std::map<std::string, std::string>& context_args) {
    complete_request req;
    req.ref = std::move(ref);
    req.argument = {argument, value};
    if (!context_args.empty()) req.context_arguments = context_args;
    return mgr->client(server)->complete(req);
}

// ---------------------------------------------------- what the servers send on a call's behalf

std::shared_ptr<detail::forwarded_call> gateway::impl::call_of(const std::string& server,
                                                               const json::object* meta) const {
    std::shared_ptr<detail::forwarded_call> call;
    bool correlated = false;
    if (meta)
        if (auto id = find_string(*meta, forwarding_meta::correlation_id)) {
            correlated = true;
            call = calls.find(std::string(*id));
        }
    // A server that does not say: the one call in flight on it, if there is exactly one.
    if (!call && !correlated) call = calls.only_call_on(server);
    if (!call || call->server != server) return nullptr;
    return call;
}

std::optional<input_response> gateway::impl::route_input(const std::shared_ptr<detail::forwarded_call>& call,
                                                         input_request request, const json::object* meta,
                                                         const request_control& control) {
    if (!call) return std::nullopt;
    std::string key;
    json::object batch;
    if (meta) {
        if (auto k = find_string(*meta, forwarding_meta::input_key)) key = std::string(*k);
        if (const auto* b = find_object(*meta, forwarding_meta::input_requests)) batch = *b;
    }
    strip_hints(request);
    const bool is_roots = request.index() == 2;
    if (key.empty()) key = call->next_key(key_base(request));

    if (!call->stateless) {
        // The server withdrawing its request withdraws ours from the client (which is sent
        // notifications/cancelled), and the client's progress on ours is the server's.
        ask_options ask{.cancel = control.cancellation};
        if (control.report_progress)
            ask.on_progress = [report = control.report_progress](const std::string&,
                                                                 const progress_update& p) { report(p); };
        std::optional<input_response> answer;
        bool no_roots = false;
        const bool attached = call->with_context([&](context& c) {
            if (is_roots && !c.client_caps().roots) {
                no_roots = true;
                return;
            }
            try {
                auto answers = c.ask({{key, request}}, ask);
                answer = std::move(answers.at(key));
            } catch (const client_request_failed& e) {
                throw error(e.cause().code(), e.what(), e.cause().data());
            }
        });
        if (!attached)
            throw error(error_code::request_cancelled, "the call this request belongs to has ended");
        if (no_roots) return std::nullopt;
        return answer;
    }
    if (is_roots && !call->caller_has_roots) return std::nullopt;
    // 2026-07-28: the question waits for the client's next round. Withdrawn, it is answered at
    // once (the server reads no answer) and left out of the rounds to come.
    auto in = call->add_input(std::move(key), std::move(request), std::move(batch));
    auto answer = in->answer.get_future();
    const auto registration = control.cancellation.on_cancel(
        [weak_call = std::weak_ptr<detail::forwarded_call>(call),
         weak_input = std::weak_ptr<detail::pending_input>(in)](const std::string& why) {
            auto c = weak_call.lock();
            auto input = weak_input.lock();
            if (c && input)
                c->withdraw(*input,
                            error(error_code::request_cancelled,
                                  "the server withdrew its request" + (why.empty() ? "" : ": " + why)));
        });
    struct unregister {
        const cancellation_token& token;
        std::uint64_t registration;
        ~unregister() { token.remove_callback(registration); }
    } done{control.cancellation, registration};
    return answer.get(); // throws the error the call ended with, or the withdrawal
}

void gateway::impl::route_log(const std::string& server, const logging_message_notification& m) {
    std::optional<std::string> logger = m.logger;
    if (opts.qualify_names) logger = logger ? server + "/" + *logger : server;
    if (m.meta)
        if (auto id = find_string(*m.meta, forwarding_meta::correlation_id)) {
            // On the stream of the call it belongs to (dropped while a 2026-07-28 call is parked:
            // there is no stream then).
            if (auto call = calls.find(std::string(*id)))
                call->with_context([&](context& c) { c.log(m.level, m.data, logger); });
            return;
        }
    srv->log(m.level, m.data, logger);
}

} // namespace mcp::host
