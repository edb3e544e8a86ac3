// mcp::client in the stateless era (2026-07-28): the _meta every request carries, the retry
// after -32022 (UnsupportedProtocolVersionError) and multi round-trip requests (MRTR): an
// input_required result answered with the handlers and the request sent again
// (basic/patterns/mrtr.mdx, "Client Requirements").
#include "client/client_state.hpp"
#include "client/listing_walk.hpp"

#include <mcp/session/request_stream.hpp>

#include <set>

namespace mcp {

namespace {

// Where a handler's notifications would go while it answers an input request: nowhere. The
// stateless era has no channel from the client to the server outside its own requests.
class no_stream final : public request_stream {
public:
    void notify(std::string) override {}
    void respond(std::string, const mcp::error*) override {}
};

bool is_multi_round(std::string_view method) {
    return method == "tools/call" || method == "prompts/get" || method == "resources/read";
}

// "tools/call 'add'", "resources/read 'mem://a'": what a message names as the call.
std::string describe_call(std::string_view method, const json::value& params) {
    std::string what(method);
    if (const auto* o = params.if_object()) {
        auto name = find_string(*o, method == "resources/read" ? "uri" : "name");
        if (name) what += " '" + std::string(*name) + "'";
    }
    return what;
}

std::string join_versions(const json::value& supported) {
    std::string out;
    if (const auto* a = supported.if_array())
        for (const auto& v : *a)
            if (v.is_string()) out += (out.empty() ? "" : ", ") + std::string(v.get_string());
    return out.empty() ? "none" : out;
}

[[noreturn]] void malformed(const std::string& what, const std::string& why) {
    throw error(error_code::invalid_params,
                "the server's input_required answer to " + what + " is malformed: " + why);
}

} // namespace

bool client::impl::is_stateless() const {
    std::lock_guard lock(mu);
    return stateless;
}

json::object client::impl::request_meta(revision r) const {
    const auto caps = declared_capabilities(r);
    json::object meta;
    meta[meta_protocol_version] = to_string(r);
    meta[meta_client_capabilities] = to_json(caps, r);
    meta[meta_client_info] = to_json(opts.info, r);
    std::lock_guard lock(mu);
    if (log_level) meta[meta_log_level] = to_string(*log_level);
    return meta;
}

std::optional<revision> client::impl::common_stateless_revision(const json::value& supported) const {
    std::optional<revision> best;
    const auto* a = supported.if_array();
    if (!a) return best;
    for (const auto& v : *a) {
        if (!v.is_string()) continue;
        auto r = parse_revision(v.get_string());
        if (!r || is_initialize_era(*r)) continue;
        bool ours = *r == opts.protocol_version;
        for (auto mine : opts.revisions) ours = ours || mine == *r;
        if (ours && (!best || *r > *best)) best = r;
    }
    return best;
}

json::value client::impl::answer_input(std::string_view what, std::string_view key,
                                       const json::object& request, const cancellation_token& cancel) const {
    const std::string label = "input '" + std::string(key) + "'";
    auto method = find_string(request, "method");
    if (!method)
        malformed(std::string(what), "inputRequests[\"" + std::string(key) + "\"] has no \"method\"");
    if (*method != "elicitation/create" && *method != "sampling/createMessage" && *method != "roots/list")
        malformed(std::string(what),
                  "inputRequests[\"" + std::string(key) + "\"] asks for '" + std::string(*method) +
                      "', which is not one of elicitation/create, sampling/createMessage, roots/list");
    json::object params;
    if (const auto* p = request.if_contains("params"); p && !p->is_null()) {
        if (!p->is_object())
            malformed(std::string(what),
                      "inputRequests[\"" + std::string(key) + "\"].params is not an object");
        params = p->get_object();
    }
    request_context ctx(std::make_shared<no_stream>(), revision::v2026_07_28,
                        jsonrpc::request_id(std::string(key)), std::string(*method), std::move(params),
                        cancel);
    try {
        return answer(*method, ctx, revision::v2026_07_28);
    } catch (const error& e) {
        if (e.code() == error_code::method_not_found)
            throw error(error_code::method_not_found,
                        std::string(what) + " needs input this client cannot give: the server asks for " +
                            std::string(*method) + " (" + label + "), and " +
                            (*method == "roots/list" ? "this client offers no roots (no roots handler is set)"
                             : *method == "sampling/createMessage"
                                 ? "this client does not sample (no sampling handler is set)"
                                 : "this client does not elicit (no elicitation handler is set)"));
        throw error(e.code(),
                    std::string(what) + ": " + label + " (" + std::string(*method) + ") failed: " + e.what(),
                    e.data());
    }
}

json::value client::impl::call_stateless(const std::shared_ptr<session>& s, std::string_view method,
                                         json::value params, const call_options& options) {
    if (!params.is_object()) params = json::object();
    const std::string what = describe_call(method, params);
    bool version_retried = false;
    bool headers_retried = false;
    int rounds = 0;
    for (;;) {
        if (options.cancel.is_cancelled())
            throw error(error_code::request_cancelled,
                        options.cancel.reason().empty() ? "Request cancelled" : options.cancel.reason());
        const revision r = negotiated();
        json::value p = params;
        auto& meta = p.get_object()["_meta"];
        if (!meta.is_object()) meta = json::object();
        for (const auto& kv : options.meta) meta.get_object()[kv.key()] = kv.value();
        // The protocol's own keys last: a caller's meta cannot contradict them.
        for (const auto& kv : request_meta(r)) meta.get_object()[kv.key()] = kv.value();
        request_options o;
        o.timeout = options.timeout.value_or(opts.timeout);
        o.on_progress = options.on_progress;
        o.cancel = options.cancel;
        json::value result;
        try {
            result = s->call(std::string(method), std::move(p), std::move(o));
        } catch (const error& e) {
            if (e.code() == error_code::header_mismatch && method == "tools/call") {
                // The Mcp-Param-* headers the transport derives from the tool's listed inputSchema
                // were missing (the tool was never listed) or are stale: list the tools again
                // and retry once (2026-07-28 basic/transports/streamable-http.mdx, "Client
                // Behavior": the client SHOULD call tools/list, then retry with the headers).
                if (headers_retried)
                    throw error(e.code(),
                                what +
                                    ": the server refused the request's headers again after the tools "
                                    "were listed anew: " +
                                    e.what(),
                                e.data());
                headers_retried = true;
                try {
                    relist_tools(s, options);
                } catch (const error& l) {
                    throw error(e.code(),
                                std::string(e.what()) +
                                    " (listing the tools to learn the headers failed: " + l.what() + ")",
                                e.data());
                }
                continue;
            }
            if (e.code() != error_code::unsupported_protocol_version) throw;
            const json::value* supported = nullptr;
            if (const auto* d = e.data().if_object()) supported = d->if_contains("supported");
            const auto next = supported ? common_stateless_revision(*supported) : std::nullopt;
            if (next && !version_retried) {
                // Once per call: a server that refuses the version it named itself is not
                // retried forever.
                version_retried = true;
                std::lock_guard lock(mu);
                version = *next;
                continue;
            }
            throw error(
                e.code(),
                what + ": the server does not support protocol version " + std::string(to_string(r)) +
                    " (it supports: " + join_versions(supported ? *supported : json::value()) + ")" +
                    (next ? ", and refused it again when asked a second time" : "; no version both speak"),
                e.data());
        }
        auto* o_result = result.if_object();
        if (!o_result) return result;
        const auto* type = o_result->if_contains("resultType");
        // An absent resultType means "complete" (servers of earlier revisions never send one).
        if (!type || type->is_null()) return result;
        if (!type->is_string())
            throw error(error_code::invalid_params,
                        "the server's answer to " + what + " has a resultType that is not a string");
        const std::string_view kind = type->get_string();
        if (kind == "complete") return result;
        if (kind != "input_required")
            throw error(error_code::invalid_params,
                        "the server answered " + what + " with resultType '" + std::string(kind) +
                            "', which this client does not know (it knows complete and input_required)");
        if (!is_multi_round(method))
            malformed(
                what,
                "protocol revision 2026-07-28 allows input_required only on tools/call, prompts/get and "
                "resources/read");
        if (++rounds >= opts.max_input_rounds)
            throw error(error_code::internal_error,
                        what + ": the server still asked for input after " + std::to_string(rounds) +
                            " requests; the client gave up (client_options::max_input_rounds)");
        const json::value* requests = o_result->if_contains("inputRequests");
        const json::value* state = o_result->if_contains("requestState");
        if (requests && requests->is_null()) requests = nullptr;
        if (state && state->is_null()) state = nullptr;
        if (!requests && !state) malformed(what, "it has neither inputRequests nor requestState");
        if (requests && !requests->is_object()) malformed(what, "inputRequests is not an object");
        if (state && !state->is_string()) malformed(what, "requestState is not a string");
        json::object responses;
        if (requests) {
            for (const auto& kv : requests->get_object()) {
                if (!kv.value().is_object())
                    malformed(what, "inputRequests[\"" + std::string(kv.key()) + "\"] is not an object");
                responses[kv.key()] = answer_input(what, kv.key(), kv.value().get_object(), options.cancel);
            }
        }
        // The retry: the same params with this round's answers and the state echoed exactly.
        // Neither may leak into any other request, so they live in this call's copy only.
        auto& po = params.get_object();
        if (requests)
            po["inputResponses"] = std::move(responses);
        else
            po.erase("inputResponses");
        if (state)
            po["requestState"] = *state;
        else
            po.erase("requestState");
    }
}

void client::impl::relist_tools(const std::shared_ptr<session>& s, const call_options& options) {
    call_options o;
    o.timeout = options.timeout;
    o.cancel = options.cancel;
    const auto epoch = output_schema_epoch();
    detail::listing_walk bounds(opts.listing, "tools", "tools");
    std::optional<std::string> cursor;
    for (bool first = true;; first = false) {
        json::value params = json::object();
        if (cursor) params.get_object()["cursor"] = *cursor;
        auto result = call_stateless(s, "tools/list", std::move(params), o);
        bounds.count(result);
        auto page = from_json<list_tools_result>(result);
        if (opts.validate_structured_content) remember_output_schemas(page.tools, first, epoch);
        if (!page.next_cursor) break;
        cursor = std::move(page.next_cursor);
    }
    // A cached listing is older than this one.
    std::lock_guard lock(mu);
    list_cache.erase("tools/list");
}

} // namespace mcp
