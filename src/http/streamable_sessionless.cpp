// Requests mcp::http::server serves without a session: protocol revision 2026-07-28 (stateless,
// with its mirrored-header checks and subscriptions/listen streams) and a server without
// sessions in the initialize era (each request on its own, batches where the revision has them).
// See streamable_router.hpp.
#include "http/streamable_router.hpp"

#include "http/batch_triage.hpp"
#include "http/stateless_batch.hpp"
#include "http/stateless_stream.hpp"

#include "server/request_state.hpp"
#include "server/server_access.hpp"

namespace mcp::http {

using mcp::detail::server_access;

void server::impl::serve_sessionless(core::request& req, json::value&& message, revision era,
                                     const writer_ptr& w, std::string principal) {
    if (message.is_array()) {
        serve_sessionless_batch(req, std::move(message.get_array()), era, w, std::move(principal));
        return;
    }
    auto c = jsonrpc::classify(std::move(message));
    if (!c.msg) {
        respond_error(w, 400, c.err->code(), c.err->what(), c.id);
        return;
    }
    auto* request = std::get_if<jsonrpc::request>(&*c.msg);
    if (!request) { // notifications and responses need no answer without a session
        if (auto* n = std::get_if<jsonrpc::notification>(&*c.msg))
            server_access::handle_notification(*host->mcp, std::move(*n),
                                               origin_of(req, std::move(principal)), era);
        w->respond(202, {}, {});
        return;
    }
    run_request(std::move(*request), w, origin_of(req, std::move(principal)), era, false);
}

void server::impl::serve_sessionless_batch(core::request& req, json::array&& elements, revision era,
                                           const writer_ptr& w, std::string principal) {
    if (!allows_batches(era)) {
        respond_error(w, 400, error_code::invalid_request,
                      "Invalid Request: JSON-RPC batches are not part of protocol revision " +
                          std::string(to_string(era)) + " (send one message per POST)");
        return;
    }
    auto sorted = detail::triage_batch(std::move(elements));
    auto origin = origin_of(req, std::move(principal)); // one for every element
    std::vector<jsonrpc::request> requests;
    for (auto& e : sorted.kept) {
        auto c = jsonrpc::classify(std::move(e)); // valid: the triage checked it
        if (!c.msg) continue;
        if (auto* r = std::get_if<jsonrpc::request>(&*c.msg))
            requests.push_back(std::move(*r));
        else if (auto* n = std::get_if<jsonrpc::notification>(&*c.msg))
            server_access::handle_notification(*host->mcp, std::move(*n), origin, era);
        // responses need no answer without a session
    }
    auto& replies = sorted.replies; // errors for the elements that cannot run
    if (requests.empty() && replies.empty()) {
        w->respond(202, {}, {});
        return;
    }
    auto batch = std::make_shared<detail::stateless_batch>(w, requests.size(), std::move(replies), host);
    host->sessionless_responses->add(batch);
    arm_ticker();
    cancellation_source closed;
    w->on_close([closed]() mutable { closed.cancel("the client closed the stream"); });
    for (auto& r : requests)
        server_access::handle_request(*host->mcp, std::move(r), batch->member(), closed.token(), origin, era);
    batch->finish_if_done();
}

void server::impl::post_stateless(core::request& req, json::value&& message,
                                  const std::optional<std::string>& meta_version, const writer_ptr& w,
                                  std::string principal) {
    auto c = jsonrpc::classify(std::move(message));
    if (!c.msg) {
        respond_error(w, 400, c.err->code(), c.err->what(), c.id);
        return;
    }
    if (std::holds_alternative<jsonrpc::response>(*c.msg) ||
        std::holds_alternative<jsonrpc::error_response>(*c.msg)) {
        respond_error(w, 400, error_code::invalid_request,
                      "Bad Request: clients send no responses in protocol revision 2026-07-28");
        return;
    }
    if (auto* n = std::get_if<jsonrpc::notification>(&*c.msg)) {
        // Nothing for the server to do with one over HTTP; its middleware still see it.
        server_access::handle_notification(*host->mcp, std::move(*n), origin_of(req, std::move(principal)));
        w->respond(202, {}, {});
        return;
    }
    auto& request = std::get<jsonrpc::request>(*c.msg);
    if (meta_version) {
        json::object as_object{{"method", request.method}};
        if (request.params.is_object()) as_object["params"] = request.params;
        auto lookup = [this](const std::string& name) { return header_params_of(name); };
        if (auto mismatch = detail::check_mirrored_headers(req, as_object, *meta_version, lookup)) {
            respond_error(w, 400, error_code::header_mismatch, *mismatch, request.id);
            return;
        }
    }
    run_request(std::move(request), w, origin_of(req, std::move(principal)), std::nullopt, true);
}

void server::impl::run_request(jsonrpc::request&& request, const writer_ptr& w,
                               std::shared_ptr<const message_origin> origin, std::optional<revision> era,
                               bool stateless) {
    // A listen request is a stream that stays open, not work in progress.
    const bool counted = request.method != "subscriptions/listen";
    auto stream = std::make_shared<detail::stateless_stream>(w, stateless, host, counted);
    host->sessionless_responses->add(stream); // for keep-alive, until answered
    arm_ticker();
    cancellation_source closed;
    // Closing the response stream cancels the request (2026-07-28); once it is answered the
    // callback finds nothing left to cancel.
    w->on_close([closed]() mutable { closed.cancel("the client closed the stream"); });
    server_access::handle_request(*host->mcp, std::move(request), std::move(stream), closed.token(),
                                  std::move(origin), era);
}

std::shared_ptr<const std::vector<mcp::detail::header_parameter>>
server::impl::header_params_of(const std::string& name) {
    auto definition = host->mcp->find_tool(name);
    if (!definition) return nullptr;
    std::lock_guard lock(tools_mu);
    auto& slot = header_params[name];
    if (slot.first.lock() != definition) {
        slot.first = definition;
        // mcp::server refused the tool at registration if its annotations were invalid.
        slot.second = std::make_shared<const std::vector<mcp::detail::header_parameter>>(
            mcp::detail::read_header_annotations(definition->input_schema).params);
    }
    return slot.second;
}

} // namespace mcp::http
