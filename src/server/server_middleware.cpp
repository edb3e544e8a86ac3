// The chains of middleware around what an mcp::server receives and sends (see
// mcp/server/middleware.hpp): adding them, and running a call through them.
#include <mcp/server/server.hpp>

#include "server/server_access.hpp"
#include "server/server_state.hpp"

namespace mcp {

namespace {

/// Copy-on-write: a chain being run keeps the vector it started with.
template <class Middleware> void append(std::shared_ptr<const std::vector<Middleware>>& chain, Middleware m) {
    auto next = chain ? std::make_shared<std::vector<Middleware>>(*chain)
                      : std::make_shared<std::vector<Middleware>>();
    next->push_back(std::move(m));
    chain = std::move(next);
}

} // namespace

void server::use(receiving_middleware m) {
    std::lock_guard lock(impl_->middleware_mu);
    append(impl_->receivers, std::move(m));
}

void server::use_sending(sending_middleware m) {
    std::lock_guard lock(impl_->middleware_mu);
    append(impl_->senders, std::move(m));
}

void server::use_notifications(notification_middleware m) {
    std::lock_guard lock(impl_->middleware_mu);
    append(impl_->notification_watchers, std::move(m));
}

void server::impl::receive_notification(std::string_view method, json::object& params,
                                        const message_origin* origin, bool stateless,
                                        const std::function<void()>& deliver) const {
    std::shared_ptr<const std::vector<notification_middleware>> chain;
    {
        std::lock_guard lock(middleware_mu);
        chain = notification_watchers;
    }
    if (!chain || chain->empty()) {
        deliver();
        return;
    }
    incoming_notification n(method, params, origin, stateless);
    std::function<void(std::size_t, incoming_notification&)> step = [&](std::size_t i,
                                                                        incoming_notification& c) {
        if (i == chain->size()) {
            deliver();
            return;
        }
        (*chain)[i](c, [&step, i](incoming_notification& c2) { step(i + 1, c2); });
    };
    step(0, n);
}

void detail::server_access::handle_notification(server& s, jsonrpc::notification notification,
                                                std::shared_ptr<const message_origin> origin,
                                                std::optional<revision> initialize_era) {
    if (!notification.params.is_object()) notification.params = json::object{};
    s.impl_->receive_notification(notification.method, notification.params.get_object(), origin.get(),
                                  !initialize_era, [] {});
}

json::value server::impl::receive(request_context& rpc, bool stateless,
                                  const std::function<json::value()>& inner) const {
    std::shared_ptr<const std::vector<receiving_middleware>> chain;
    {
        std::lock_guard lock(middleware_mu);
        chain = receivers;
    }
    if (!chain || chain->empty()) return inner();
    incoming_call call(rpc, stateless);
    std::function<json::value(std::size_t, incoming_call&)> step = [&](std::size_t i,
                                                                       incoming_call& c) -> json::value {
        if (i == chain->size()) return inner();
        return (*chain)[i](c, [&step, i](incoming_call& c2) { return step(i + 1, c2); });
    };
    return step(0, call);
}

bool server::impl::has_senders() const {
    std::lock_guard lock(middleware_mu);
    return senders && !senders->empty();
}

json::value server::impl::send(outgoing_call& call,
                               const std::function<json::value(outgoing_call&)>& inner) const {
    std::shared_ptr<const std::vector<sending_middleware>> chain;
    {
        std::lock_guard lock(middleware_mu);
        chain = senders;
    }
    if (!chain || chain->empty()) return inner(call);
    std::function<json::value(std::size_t, outgoing_call&)> step = [&](std::size_t i,
                                                                       outgoing_call& c) -> json::value {
        if (i == chain->size()) return inner(c);
        return (*chain)[i](c, [&step, i](outgoing_call& c2) { return step(i + 1, c2); });
    };
    return step(0, call);
}

} // namespace mcp
