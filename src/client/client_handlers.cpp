// mcp::client: answering the server's requests (roots/list, sampling/createMessage,
// elicitation/create) with the handlers the user set.
#include "client/client_state.hpp"

namespace mcp {

namespace {

// The handler is copied under the lock and run without it: a handler may take long (a human
// in the loop) or call back into the client (e.g. list_tools) without blocking anything else.
template <class Handler>
Handler snapshot(const std::weak_ptr<client::impl>& weak, Handler client::impl::*member,
                 std::shared_ptr<client::impl>& self) {
    self = weak.lock();
    if (!self) return {};
    std::lock_guard lock(self->mu);
    return (*self).*member;
}

} // namespace

void client::impl::install_request_handlers(session& s) {
    std::weak_ptr<impl> weak = shared_from_this();

    s.set_request_handler("roots/list", [weak](request_context& ctx) -> json::value {
        std::shared_ptr<impl> self;
        auto h = snapshot(weak, &impl::roots, self);
        if (!h) throw error(error_code::method_not_found, "Method not found: roots/list (this client offers no roots)");
        list_roots_result r{.roots = h(ctx)};
        return to_json(r, self->negotiated());
    });

    s.set_request_handler("sampling/createMessage", [weak](request_context& ctx) -> json::value {
        std::shared_ptr<impl> self;
        auto h = snapshot(weak, &impl::sampling, self);
        if (!h)
            throw error(error_code::method_not_found,
                        "Method not found: sampling/createMessage (this client does not sample)");
        auto req = from_json<create_message_request>(json::value(ctx.params()));
        bool tools_ok = false;
        {
            std::lock_guard lock(self->mu);
            tools_ok = self->sampling_tools;
        }
        // Servers MUST NOT send tools to a client that did not declare sampling.tools
        // (2025-11-25 client/sampling.mdx); the handler is spared a request it cannot serve.
        if (!req.tools.empty() && !tools_ok)
            throw error(error_code::invalid_params,
                        "Invalid params: this client did not declare sampling.tools, but the request has tools");
        return to_json(h(req, ctx), self->negotiated());
    });

    s.set_request_handler("elicitation/create", [weak](request_context& ctx) -> json::value {
        std::shared_ptr<impl> self;
        auto h = snapshot(weak, &impl::elicitation, self);
        if (!h)
            throw error(error_code::method_not_found,
                        "Method not found: elicitation/create (this client does not elicit)");
        auto req = from_json<elicit_request>(json::value(ctx.params()));
        bool form = false, url = false;
        {
            std::lock_guard lock(self->mu);
            form = self->elicitation_form;
            url = self->elicitation_url;
        }
        // An unsupported mode is answered -32602 (2025-11-25 client/elicitation.mdx).
        if ((req.mode == elicitation_mode::url && !url) || (req.mode == elicitation_mode::form && !form))
            throw error(error_code::invalid_params, "Invalid params: this client does not support " +
                                                        std::string(to_string(req.mode)) + "-mode elicitation");
        return to_json(h(req, ctx), self->negotiated());
    });
}

} // namespace mcp
