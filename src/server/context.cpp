// mcp::context: the caller, logging, and input from the client in both eras (see context.hpp).
#include "server/server_state.hpp"

namespace mcp {

std::string_view method_of(const input_request& r) noexcept {
    switch (r.index()) {
    case 0:
        return "elicitation/create";
    case 1:
        return "sampling/createMessage";
    default:
        return "roots/list";
    }
}

const caller_info& context::caller() const noexcept {
    return *state_.caller;
}

const std::string& context::principal() const noexcept {
    if (const auto* o = rpc_.origin()) return o->principal;
    return state_.no_principal;
}

bool context::has_session() const noexcept {
    return state_.peer != nullptr;
}

server_session& context::session() const {
    if (!state_.peer)
        throw std::logic_error("mcp::context::session: this request was served without a session (" +
                               std::string(stateless() ? "protocol revision 2026-07-28 is stateless"
                                                       : "a sessionless HTTP server") +
                               "); use the context's own functions instead");
    return *state_.peer;
}

namespace {
// The correlation id the request carried (forwarding_meta::correlation_id), or null.
const json::value* correlation_of(const request_context& rpc) {
    const auto* m = rpc.meta();
    if (!m) return nullptr;
    const auto* v = m->if_contains(forwarding_meta::correlation_id);
    return v && (v->is_string() || v->is_number()) ? v : nullptr;
}
void add_meta(json::object& params, std::string_view key, json::value v) {
    auto& meta = params["_meta"];
    if (!meta.is_object()) meta = json::object();
    meta.get_object()[key] = std::move(v);
}
} // namespace

void context::log(logging_level level, json::value data, std::optional<std::string> logger) const {
    json::object params;
    if (state_.peer) {
        auto p = state_.peer->log_params(level, std::move(data), std::move(logger));
        if (!p) return;
        params = std::move(*p);
        if (const auto* id = correlation_of(rpc_)) add_meta(params, forwarding_meta::correlation_id, *id);
    } else {
        // Stateless era: only when the request asked for a level, and only on its own stream.
        // Without a session in the initialize era there is no level to filter with.
        if (stateless() && (!state_.level || !admits(*state_.level, level))) return;
        logging_message_notification n;
        n.level = level;
        n.logger = std::move(logger);
        n.data = std::move(data);
        params = to_json(n, protocol_version());
    }
    json::value p = std::move(params);
    if (state_.owner && state_.owner->has_senders()) {
        outgoing_call call{"notifications/message", p, false, principal()};
        state_.owner->send(call, [this](outgoing_call& c) -> json::value {
            rpc_.notify(std::string(c.method), std::move(c.params));
            return nullptr;
        });
        return;
    }
    rpc_.notify("notifications/message", std::move(p));
}

void context::progress(double progress, std::optional<double> total,
                       std::optional<std::string> message) const {
    if (!state_.owner || !state_.owner->has_senders() || !rpc_.wants_progress()) {
        rpc_.report_progress(progress, total, std::move(message));
        return;
    }
    json::object p{{"progressToken", rpc_.progress_token()}, {"progress", progress}};
    if (total) p["total"] = *total;
    if (message && protocol_version() >= revision::v2025_03_26) p["message"] = *message;
    json::value params = std::move(p);
    outgoing_call call{"notifications/progress", params, false, principal()};
    state_.owner->send(call, [this](outgoing_call& c) -> json::value {
        rpc_.notify(std::string(c.method), std::move(c.params));
        return nullptr;
    });
}

namespace {

/// A token cancelled when either of two is: the handler's own cancellation and the one an
/// ask() was given. The link is undone when this goes (the handler's token lives on).
class either_cancelled {
public:
    either_cancelled(cancellation_token first, cancellation_token second) {
        if (!second.can_be_cancelled()) {
            token_ = std::move(first);
            return;
        }
        token_ = source_.token();
        const auto forward = [source = source_](const std::string& why) mutable { source.cancel(why); };
        first_ = std::move(first);
        second_ = std::move(second);
        first_registration_ = first_.on_cancel(forward);
        second_registration_ = second_.on_cancel(forward);
    }
    ~either_cancelled() {
        first_.remove_callback(first_registration_);
        second_.remove_callback(second_registration_);
    }
    either_cancelled(const either_cancelled&) = delete;
    either_cancelled& operator=(const either_cancelled&) = delete;
    const cancellation_token& token() const noexcept { return token_; }

private:
    cancellation_source source_;
    cancellation_token token_, first_, second_;
    std::uint64_t first_registration_ = 0, second_registration_ = 0;
};

request_options client_request_options(const ask_options& options, const std::string& key,
                                       const cancellation_token& cancel, const request_context& rpc) {
    request_options o;
    o.timeout = options.timeout;
    o.cancel = cancel;            // when the call is cancelled, so is what it asked of the client
    o.related_request = rpc.id(); // on the call's own stream (Streamable HTTP)
    if (options.on_progress)
        o.on_progress = [report = options.on_progress, key](const progress_update& p) { report(key, p); };
    return o;
}

// Runs a request to the client on behalf of a handler, reporting failure as client_request_failed.
template <class F> auto to_client(std::string_view what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const error& e) {
        throw client_request_failed(error(e.code(), std::string(what) + " failed: " + e.what(), e.data()));
    }
}

// The capabilities a stateless client must have declared for `r`, added to `missing` (as a
// ClientCapabilities object, which is what -32021's data.requiredCapabilities is).
void require_capability(const input_request& r, const client_capabilities& caps, json::object& missing) {
    if (const auto* e = std::get_if<elicit_request>(&r)) {
        const bool url = e->mode == elicitation_mode::url;
        if (!caps.elicitation ||
            (url ? !caps.elicitation->supports_url() : !caps.elicitation->supports_form()))
            missing["elicitation"] = json::object{{url ? "url" : "form", json::object()}};
    } else if (const auto* s = std::get_if<create_message_request>(&r)) {
        if (!caps.sampling)
            missing["sampling"] = json::object();
        else if ((!s->tools.empty() || s->tool_choice) && !caps.sampling->tools)
            missing["sampling"] = json::object{{"tools", json::object()}};
    } else if (!caps.roots) {
        missing["roots"] = json::object();
    }
}

const char* result_type_name(const input_request& r) {
    switch (r.index()) {
    case 0:
        return "ElicitResult";
    case 1:
        return "CreateMessageResult";
    default:
        return "ListRootsResult";
    }
}

input_response parse_answer(const input_request& r, const json::value& v) {
    switch (r.index()) {
    case 0:
        return from_json<elicit_result>(v);
    case 1:
        return from_json<create_message_result>(v);
    default:
        return from_json<list_roots_result>(v);
    }
}

} // namespace

input_responses context::ask(const input_requests& requests, const ask_options& options) const {
    input_responses answers;
    if (!stateless()) {
        if (!state_.peer)
            throw client_request_failed(
                error(error_code::invalid_request,
                      "this server keeps no session, so it cannot ask the client for input"));
        auto& peer = *state_.peer;
        // What an intermediary needs to know about these requests (forwarding_meta): the key of
        // each, every input of this ask when there are several, the caller's correlation id.
        json::object all;
        if (requests.size() > 1)
            for (const auto& [key, request] : requests) {
                json::object entry{{"method", method_of(request)}};
                if (const auto* e = std::get_if<elicit_request>(&request))
                    entry["params"] = to_json(*e, protocol_version());
                else if (const auto* s = std::get_if<create_message_request>(&request))
                    entry["params"] = to_json(*s, protocol_version());
                else
                    entry["params"] = json::object();
                all[key] = std::move(entry);
            }
        const json::value* correlation = correlation_of(rpc_);
        auto hints = [&](const std::string& key, std::optional<json::object> meta) {
            json::object m = meta ? std::move(*meta) : json::object();
            m[forwarding_meta::input_key] = key;
            if (!all.empty()) m[forwarding_meta::input_requests] = all;
            if (correlation) m[forwarding_meta::correlation_id] = *correlation;
            return m;
        };
        const either_cancelled cancel(rpc_.cancellation(), options.cancel);
        // One after another: the initialize era has no batch of server->client requests, and a
        // user answering an elicitation is the slow part anyway.
        for (const auto& entry : requests) {
            // Named, not a structured binding: clang 14 (the fuzz build) cannot capture those.
            const auto& key = entry.first;
            const auto& request = entry.second;
            const auto opts = client_request_options(options, key, cancel.token(), rpc_);
            auto send_one = [&](const input_request& r) -> input_response {
                if (const auto* e = std::get_if<elicit_request>(&r)) {
                    auto x = *e;
                    x.meta = hints(key, std::move(x.meta));
                    return to_client("elicitation", [&] { return peer.elicit(x, opts); });
                }
                if (const auto* s = std::get_if<create_message_request>(&r)) {
                    auto x = *s;
                    x.meta = hints(key, std::move(x.meta));
                    return to_client("sampling", [&] { return peer.create_message(x, opts); });
                }
                return to_client("roots/list",
                                 [&] { return peer.list_roots(opts, hints(key, std::nullopt)); });
            };
            if (!state_.owner || !state_.owner->has_senders()) {
                answers.emplace(key, send_one(request));
                continue;
            }
            // Through the sending middleware: it sees (and may change) the request's params.
            json::value params =
                request.index() == 0   ? json::value(to_json(std::get<0>(request), protocol_version()))
                : request.index() == 1 ? json::value(to_json(std::get<1>(request), protocol_version()))
                                       : json::value(json::object());
            outgoing_call call{method_of(request), params, true, principal()};
            std::optional<input_response> answer;
            state_.owner->send(call, [&](outgoing_call& c) -> json::value {
                input_request changed = request;
                if (request.index() == 0)
                    changed = from_json<elicit_request>(c.params);
                else if (request.index() == 1)
                    changed = from_json<create_message_request>(c.params);
                answer = send_one(changed);
                return nullptr;
            });
            if (!answer)
                throw client_request_failed(
                    error(error_code::invalid_request,
                          "the request to the client was withheld by the server's middleware"));
            answers.emplace(key, std::move(*answer));
        }
        return answers;
    }

    // Stateless era: multi-round-trip requests.
    if (!state_.round)
        throw error(error_code::internal_error,
                    "Internal error: " + std::string(rpc_.method()) +
                        " asked the client for input, which protocol revision 2026-07-28 allows only in "
                        "tools/call, prompts/get and resources/read");
    json::object missing_caps;
    for (const auto& [key, request] : requests) require_capability(request, client_caps(), missing_caps);
    if (!missing_caps.empty()) {
        std::string names;
        for (const auto& kv : missing_caps) names += (names.empty() ? "" : ", ") + std::string(kv.key());
        throw error(error_code::missing_required_client_capability,
                    "Missing required client capability: " + names +
                        " (declare it in _meta[\"io.modelcontextprotocol/"
                        "clientCapabilities\"])",
                    json::object{{"requiredCapabilities", missing_caps}});
    }
    input_requests still_needed;
    for (const auto& [key, request] : requests) {
        const auto* offered = state_.round->offered.if_contains(key);
        if (!offered) {
            still_needed.emplace(key, request);
            continue;
        }
        try {
            answers.emplace(key, parse_answer(request, *offered));
        } catch (const error& e) {
            throw error(error_code::invalid_params, "Invalid params: inputResponses[\"" + key +
                                                        "\"] is not a valid " + result_type_name(request) +
                                                        " for " + std::string(method_of(request)) + ": " +
                                                        e.what());
        }
        state_.round->used[key] = *offered;
    }
    if (!still_needed.empty()) throw input_required{std::move(still_needed)};
    return answers;
}

namespace {
std::string next_key(std::map<std::string, int>& uses, const char* base) {
    const int n = ++uses[base];
    return n == 1 ? std::string(base) : std::string(base) + "-" + std::to_string(n);
}
} // namespace

create_message_result context::sample(const create_message_request& request,
                                      const input_options& options) const {
    auto k = options.key ? *options.key : next_key(state_.key_uses, "sampling");
    auto answers = ask({{k, request}}, {.timeout = options.timeout});
    return std::get<create_message_result>(answers.at(k));
}

elicit_result context::elicit(const elicit_request& request, const input_options& options) const {
    auto k = options.key ? *options.key : next_key(state_.key_uses, "elicitation");
    auto answers = ask({{k, request}}, {.timeout = options.timeout});
    return std::get<elicit_result>(answers.at(k));
}

elicit_result context::elicit(std::string message, json::object requested_schema) const {
    return elicit(form_elicitation(std::move(message), std::move(requested_schema)));
}

std::vector<root> context::roots(const input_options& options) const {
    auto k = options.key ? *options.key : next_key(state_.key_uses, "roots");
    auto answers = ask({{k, roots_request{}}}, {.timeout = options.timeout});
    return std::get<list_roots_result>(answers.at(k)).roots;
}

const json::value& context::request_state() const noexcept {
    return state_.round ? state_.round->app_state : state_.local_state;
}

void context::set_request_state(json::value state) const {
    if (state_.round)
        state_.round->next_app_state = std::move(state);
    else
        state_.local_state = std::move(state);
}

} // namespace mcp
