// The stateless era (2026-07-28) and sessionless serving: per-request _meta instead of a
// session, routing with the era's method set, multi-round-trip requests (MRTR) with a sealed
// requestState, and the decoration every result of the era carries (resultType, caching hints,
// serverInfo). Also handle_request, which serves a request that arrived without a session
// (Streamable HTTP) on the handler executor, through the engine's run_request.
#include "server/request_state.hpp"
#include "server/server_access.hpp"
#include "server/server_state.hpp"
#include "session/run_request.hpp"

#include <chrono>

namespace mcp {
namespace {

constexpr std::string_view meta_version = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view meta_capabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";
constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";

[[noreturn]] void invalid_params(const std::string& what) {
    throw error(error_code::invalid_params, "Invalid params: " + what);
}

json::array supported_versions(const server_options& opts) {
    json::array a;
    for (auto r : opts.revisions) a.emplace_back(to_string(r));
    return a;
}

// The caller of a stateless request, from its _meta; throws the era's errors.
std::shared_ptr<const caller_info> caller_from_meta(const json::object* meta, const server_options& opts,
                                                    std::optional<logging_level>& level) {
    if (!meta)
        invalid_params(
            "the request has no _meta; a request of protocol revision 2026-07-28 carries _meta with \"" +
            std::string(meta_version) + "\" and \"" + std::string(meta_capabilities) +
            "\" (clients of earlier revisions send initialize first)");
    const auto* version_v = meta->if_contains(meta_version);
    if (!version_v || !version_v->is_string())
        invalid_params("_meta[\"" + std::string(meta_version) + "\"] is required (a string)");
    const std::string_view requested = version_v->get_string();
    const auto r = parse_revision(requested);
    bool offered = false;
    for (auto o : opts.revisions) offered = offered || (r && o == *r);
    if (!r || !offered || is_initialize_era(*r))
        throw error(error_code::unsupported_protocol_version,
                    "Unsupported protocol version: " + std::string(requested) +
                        (r && offered ? " needs initialize (it is a revision of the initialize era)" : ""),
                    json::object{{"supported", supported_versions(opts)}, {"requested", requested}});
    const auto* caps_v = meta->if_contains(meta_capabilities);
    if (!caps_v || !caps_v->is_object())
        invalid_params("_meta[\"" + std::string(meta_capabilities) +
                       "\"] is required (an object; {} declares none)");
    auto who = std::make_shared<caller_info>();
    who->protocol_version = *r;
    who->stateless = true;
    who->capabilities_json = caps_v->get_object();
    try {
        who->capabilities = from_json<client_capabilities>(*caps_v);
        if (const auto* info = meta->if_contains(meta_client_info))
            who->client = from_json<implementation>(*info);
        if (const auto* l = meta->if_contains(meta_log_level)) level = from_json<logging_level>(*l);
    } catch (const error& e) {
        invalid_params(std::string("_meta: ") + e.what());
    }
    return who;
}

bool removed_in_stateless_era(std::string_view method) {
    return method == "initialize" || method == "ping" || method == "logging/setLevel" ||
           method == "resources/subscribe" || method == "resources/unsubscribe";
}

bool is_multi_round(std::string_view method) {
    return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

bool is_cacheable(std::string_view method) {
    return method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
           method == "resources/templates/list" || method == "resources/read" || method == "server/discover";
}

std::int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The round a multi-round request is in: answers carried in its requestState and sent in its
// inputResponses.
void open_round(detail::input_round& round, const request_context& rpc, const server::impl& srv,
                const std::string& principal) {
    const auto& p = rpc.params();
    if (const auto* state = p.if_contains("requestState"); state && !state->is_null()) {
        if (!state->is_string())
            invalid_params("\"requestState\" must be a string (echoed exactly as the server sent it)");
        std::string why;
        auto opened = detail::open_request_state(state->get_string(), srv.state_key,
                                                 detail::request_binding(rpc.method(), p), principal, why);
        if (!opened) invalid_params("\"requestState\" was rejected: " + why);
        round.offered = std::move(opened->answers);
        round.app_state = std::move(opened->app_state);
        round.round = opened->round + 1;
        if (round.round > srv.opts.max_input_rounds)
            invalid_params("the request took more than " + std::to_string(srv.opts.max_input_rounds) +
                           " rounds of input; start again");
    }
    if (const auto* responses = p.if_contains("inputResponses"); responses && !responses->is_null()) {
        if (!responses->is_object()) invalid_params("\"inputResponses\" must be an object of results by key");
        for (const auto& kv : responses->get_object()) {
            if (!kv.value().is_object())
                invalid_params("inputResponses[\"" + std::string(kv.key()) + "\"] must be a result object");
            round.offered[kv.key()] = kv.value();
        }
    }
}

json::object input_required_result(const input_required& need, const detail::input_round& round,
                                   const request_context& rpc, const server::impl& srv,
                                   const std::string& principal, revision r) {
    json::object requests;
    for (const auto& [key, request] : need.requests) {
        json::object entry;
        entry["method"] = method_of(request);
        if (const auto* e = std::get_if<elicit_request>(&request))
            entry["params"] = to_json(*e, r);
        else if (const auto* s = std::get_if<create_message_request>(&request))
            entry["params"] = to_json(*s, r);
        else
            entry["params"] = json::object();
        requests[key] = std::move(entry);
    }
    detail::request_state_payload payload;
    payload.binding = detail::request_binding(rpc.method(), rpc.params());
    payload.principal = principal;
    payload.expires_ms =
        unix_ms_now() +
        std::chrono::duration_cast<std::chrono::milliseconds>(srv.opts.request_state_ttl).count();
    payload.round = round.round;
    payload.answers = round.used;
    payload.app_state = round.next_app_state.is_null() ? round.app_state : round.next_app_state;
    json::object result;
    result["resultType"] = "input_required";
    result["inputRequests"] = std::move(requests);
    result["requestState"] = detail::seal_request_state(payload, srv.state_key);
    return result;
}

// What every result of the era carries: resultType, caching hints where the schema wants them,
// and the server's identity in _meta.
void decorate(json::value& result, std::string_view method, const server::impl& srv, revision r) {
    if (result.is_null()) result = json::object();
    auto* o = result.if_object();
    if (!o) return;
    if (!o->contains("resultType")) (*o)["resultType"] = "complete";
    if (is_cacheable(method) && (*o)["resultType"] == "complete") {
        const auto& hint = method == "resources/read" ? srv.opts.read_cache : srv.opts.list_cache;
        if (!o->contains("ttlMs")) (*o)["ttlMs"] = hint.ttl_ms;
        if (!o->contains("cacheScope")) (*o)["cacheScope"] = hint.scope;
    }
    auto& meta = (*o)["_meta"];
    if (!meta.is_object()) meta = json::object();
    meta.get_object()[meta_server_info] =
        r == revision::v2026_07_28 ? srv.server_info_2026 : to_json(srv.opts.info, r);
}

} // namespace

json::value server::impl::serve_stateless(request_context& rpc) {
    detail::call_state call;
    call.options = &opts;
    call.owner = this;
    call.caller = caller_from_meta(rpc.meta(), opts, call.level);
    const std::string method(rpc.method());
    const auto* m = find_method(method, true);
    if (!m)
        throw error(
            error_code::method_not_found,
            "Method not found: " + method +
                (removed_in_stateless_era(method) ? " (not part of protocol revision 2026-07-28)" : ""));
    if (const char* cap = capability_needed(method); cap && !offers(cap))
        throw error(error_code::method_not_found,
                    "Method not found: " + method + " (the server does not offer '" + cap + "')");
    const auto* origin = rpc.origin();
    const std::string principal = origin ? origin->principal : std::string();
    json::value result;
    if (is_multi_round(method)) {
        detail::input_round round;
        open_round(round, rpc, *this, principal);
        call.round = &round;
        try {
            result = m->fn(*this, rpc, call);
        } catch (const input_required& need) {
            result = input_required_result(need, round, rpc, *this, principal, call.caller->protocol_version);
        }
    } else {
        result = m->fn(*this, rpc, call);
    }
    if (!rpc.deferred()) decorate(result, method, *this, call.caller->protocol_version);
    return result;
}

json::value server::impl::serve_sessionless(request_context& rpc, revision r) {
    const std::string method(rpc.method());
    if (method == "initialize") {
        auto declared = declared_now();
        declared.resources_subscribe = false; // nothing could deliver the updates
        caller_info who;
        return initialize_result_json(*this, rpc.params(), declared, who);
    }
    if (method == "ping") return json::object();
    const auto* m = find_method(method, false);
    if (!m) throw error(error_code::method_not_found, "Method not found: " + method);
    if (const char* cap = capability_needed(method); cap && !offers(cap))
        throw error(error_code::method_not_found,
                    "Method not found: " + method + " (the server does not offer '" + cap + "')");
    if (method == "logging/setLevel")
        return json::object(); // accepted; there is no session to remember it in
    if (method == "resources/subscribe" || method == "resources/unsubscribe")
        throw error(error_code::method_not_found,
                    "Method not found: " + method +
                        " (this server keeps no sessions, so it cannot send updates)");
    detail::call_state call;
    call.options = &opts;
    call.owner = this;
    auto who = std::make_shared<caller_info>();
    who->protocol_version = r;
    call.caller = std::move(who);
    return m->fn(*this, rpc, call);
}

void server::impl::handle_request(jsonrpc::request request, std::shared_ptr<request_stream> stream,
                                  cancellation_token cancel, std::shared_ptr<const message_origin> origin,
                                  std::optional<revision> initialize_era) {
    exec->post([self = shared_from_this(), request = std::move(request), stream = std::move(stream),
                cancel = std::move(cancel), origin = std::move(origin), initialize_era]() mutable {
        const revision r = initialize_era.value_or(revision::v2026_07_28);
        json::object params =
            request.params.is_object() ? std::move(request.params.get_object()) : json::object();
        request_context rpc(stream, r, std::move(request.id), std::move(request.method), std::move(params),
                            cancel, std::move(origin));
        auto reply = detail::run_request(
            rpc,
            [&](request_context& ctx) {
                return self->receive(ctx, !initialize_era, [&]() -> json::value {
                    return initialize_era ? self->serve_sessionless(ctx, *initialize_era)
                                          : self->serve_stateless(ctx);
                });
            },
            [](const std::string&) {}); // nowhere to report it but the reply
        if (reply) stream->respond(std::move(reply->message), reply->error ? &*reply->error : nullptr);
    });
}

void detail::server_access::handle_request(server& s, jsonrpc::request request,
                                           std::shared_ptr<request_stream> stream, cancellation_token cancel,
                                           std::shared_ptr<const message_origin> origin,
                                           std::optional<revision> initialize_era) {
    s.impl_->handle_request(std::move(request), std::move(stream), std::move(cancel), std::move(origin),
                            initialize_era);
}

} // namespace mcp
