// http/client/transport_deliver.cpp - incoming messages on their way to the session: what the
// transport learns from them (the negotiated revision, the tools' x-mcp-header annotations),
// the tools/list filtering of 2026-07-28, completing awaited requests, and the synthesized
// errors for requests whose exchange failed.
#include "transport_impl.hpp"

namespace mcp::http {

using namespace detail;
using role = stream_state::role;
using body_kind = stream_state::body_kind;

void client_transport::impl::deliver(const stream_ptr& st, std::string_view text) {
    auto m = jsonrpc::incoming_message::parse(text);
    if (m.kind == jsonrpc::kind::batch) {
        for (auto& e : m.value.get_array()) {
            if (shutting_down) return;
            deliver_value(st, jsonrpc::incoming_message::from_value(std::move(e)));
        }
        return;
    }
    if (!m.value.is_null() || !m.error) {
        deliver_value(st, std::move(m));
        return;
    }
    // Not JSON: the session fails the request it answers (or answers the parse error).
    const auto unusable = m.unusable_response;
    emit(std::move(m));
    // A response that cannot be used still answers its request: this stream is done with it.
    if (unusable) {
        const request_id rid{*unusable};
        stateless_requests.erase(rid);
        tools_list_ids.erase(rid);
        answered(rid);
    }
}

void client_transport::impl::deliver_value(const stream_ptr& st, jsonrpc::incoming_message m) {
    (void)st;
    std::optional<request_id> answer_to;
    bool renewal_lost = false; // an initialize that was to start a new session failed
    if (m.value.is_object()) {
        auto& o = m.value.get_object();
        if (!o.contains("method") && (o.contains("result") || o.contains("error"))) {
            answer_to = m.id;
            if (answer_to) {
                auto* result = o.if_contains("result");
                if (initialize_id && *answer_to == *initialize_id) {
                    initialize_id.reset();
                    if (result && result->is_object()) {
                        if (auto pv = find_string(result->get_object(), "protocolVersion"))
                            negotiated = std::string(*pv);
                    } else {
                        renewal_lost = true;
                    }
                }
                if (tools_list_ids.erase(*answer_to) && result && result->is_object()) {
                    // 2026-07-28: tools with invalid x-mcp-header annotations are excluded, and the
                    // valid annotations become the Mcp-Param-* headers of later calls.
                    auto f = filter_tools(result->get_object());
                    for (const auto& [name, why] : f.dropped) {
                        warn("tool \"" + name + "\" excluded from tools/list: " + why);
                        tool_params.erase(name);
                    }
                    for (const auto& name : f.listed) tool_params.erase(name);
                    for (auto& [name, params] : f.annotated) tool_params[name] = std::move(params);
                    if (!f.dropped.empty()) m.text = {}; // the text no longer says what the value does
                }
                stateless_requests.erase(*answer_to);
            }
        }
    }
    emit(std::move(m));
    if (answer_to) answered(*answer_to);
    if (renewal_lost) renewal_failed();
}

void client_transport::impl::answered(const request_id& id) {
    auto it = awaiting_owner.find(id);
    if (it == awaiting_owner.end()) return;
    const auto serial = it->second;
    awaiting_owner.erase(it);
    auto s = streams.find(serial);
    if (s == streams.end()) return;
    auto st = s->second;
    st->awaiting.erase(id);
    if (st->awaiting.empty() && st->r == role::post && st->body != body_kind::json) {
        // The stream has done its job. Let the loop finish what it holds first (usually the
        // end of the stream, which keeps the connection for reuse), then close it if the
        // server keeps it open.
        loop->post([self = shared_from_this(), st] {
            if (!st->finished) self->end_stream(st);
        });
    }
}

http_failure client_transport::impl::failure_of(const stream_ptr& st, const std::string& url_display) const {
    http_failure f;
    f.url = url_display;
    f.status = st->status;
    if (st->status != 0) {
        f.message = status_message(st->status, st->body == body_kind::other ? std::string_view() : st->reason,
                                   url_display);
        f.body = st->body_bytes.substr(0, error_body_bytes * 4); // trimmed to 512 valid bytes later
        f.www_authenticate = st->www_authenticate;
    }
    return f;
}

void client_transport::impl::fail_awaiting(const stream_ptr& st, const http_failure& f) {
    const auto ids = std::move(st->awaiting);
    st->awaiting.clear();
    for (const auto& id : ids) {
        if (auto it = awaiting_owner.find(id); it != awaiting_owner.end() && it->second == st->serial)
            awaiting_owner.erase(it);
        stateless_requests.erase(id);
        tools_list_ids.erase(id);
        const bool initialize = initialize_id && *initialize_id == id;
        if (initialize) initialize_id.reset();
        emit(synthesize_error(id, f));
        if (initialize) renewal_failed();
    }
}

} // namespace mcp::http
