// mcp::client: answering the server's requests for input (roots/list, sampling/createMessage,
// elicitation/create) with the handlers the user set. The same answers serve both eras: as
// server->client requests in the initialize era, and as the inputRequests of an input_required
// result in the stateless era (client_stateless.cpp).
#include "client/client_state.hpp"

namespace mcp {

// The handler is copied under the lock and run without it: a handler may take long (a human in
// the loop) or call back into the client (e.g. list_tools) without blocking anything else.
json::value client::impl::answer(std::string_view method, request_context& ctx, revision r) const {
    if (method == "roots/list") {
        roots_request_handler h;
        {
            std::lock_guard lock(mu);
            h = roots;
        }
        if (!h)
            throw error(error_code::method_not_found,
                        "Method not found: roots/list (this client offers no roots)");
        list_roots_result result{.roots = h(ctx)};
        return to_json(result, r);
    }
    if (method == "sampling/createMessage") {
        sampling_handler h;
        bool tools_ok = false;
        {
            std::lock_guard lock(mu);
            h = sampling;
            tools_ok = sampling_tools;
        }
        if (!h)
            throw error(error_code::method_not_found,
                        "Method not found: sampling/createMessage (this client does not sample)");
        auto req = from_json<create_message_request>(json::value(ctx.params()));
        // Servers MUST NOT send tools to a client that did not declare sampling.tools
        // (2025-11-25 client/sampling.mdx); the handler is spared a request it cannot serve.
        if (!req.tools.empty() && !tools_ok)
            throw error(
                error_code::invalid_params,
                "Invalid params: this client did not declare sampling.tools, but the request has tools");
        return to_json(h(req, ctx), r);
    }
    if (method == "elicitation/create") {
        elicitation_handler h;
        bool form = false, url = false;
        {
            std::lock_guard lock(mu);
            h = elicitation;
            form = elicitation_form;
            url = elicitation_url;
        }
        if (!h)
            throw error(error_code::method_not_found,
                        "Method not found: elicitation/create (this client does not elicit)");
        auto req = from_json<elicit_request>(json::value(ctx.params()));
        // An unsupported mode is answered -32602 (2025-11-25 client/elicitation.mdx).
        if ((req.mode == elicitation_mode::url && !url) || (req.mode == elicitation_mode::form && !form))
            throw error(error_code::invalid_params, "Invalid params: this client does not support " +
                                                        std::string(to_string(req.mode)) +
                                                        "-mode elicitation");
        return to_json(h(req, ctx), r);
    }
    throw error(error_code::method_not_found, "Method not found: " + std::string(method));
}

void client::impl::install_request_handlers(session& s) {
    std::weak_ptr<impl> weak = shared_from_this();
    for (const char* method : {"roots/list", "sampling/createMessage", "elicitation/create"}) {
        s.set_request_handler(method, [weak, method](request_context& ctx) -> json::value {
            auto self = weak.lock();
            if (!self) throw error(error_code::method_not_found, std::string("Method not found: ") + method);
            return self->answer(method, ctx, self->negotiated());
        });
    }
}

} // namespace mcp
