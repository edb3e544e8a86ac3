// mcp::auth::client_authorizer: the public calls (see client_authorizer.hpp for the order of
// things); the flow itself is in authorizer_flow.cpp and authorizer_grants.cpp.
#include "auth/authorizer_impl.hpp"

namespace mcp::auth {

using namespace detail;

namespace detail {

challenge_info read_challenge(std::string_view field, const std::function<void(std::string_view)>& log) {
    challenge_info info;
    if (field.empty()) return info;
    try {
        const auto all = parse_www_authenticate(field);
        const challenge* c = find_challenge(all, "Bearer");
        if (!c) c = find_challenge(all, "DPoP");
        if (!c) return info;
        info.resource_metadata = std::string(c->param("resource_metadata").value_or(""));
        info.scope = std::string(c->param("scope").value_or(""));
        info.error = std::string(c->param("error").value_or(""));
    } catch (const std::invalid_argument& e) {
        if (log) log(std::string("ignored the WWW-Authenticate field: ") + e.what());
    }
    return info;
}

} // namespace detail

client_authorizer::client_authorizer(client_authorizer_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {}

client_authorizer::~client_authorizer() = default;

const std::shared_ptr<credential_store>& client_authorizer::store() const noexcept {
    return impl_->store;
}

std::optional<std::string> client_authorizer::authorization(std::string_view server_url,
                                                            const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    auto k = impl_->known(server);
    if (!k) return std::nullopt;
    auto t = impl_->store->load_tokens(k->first);
    if (!t) return std::nullopt;
    if (!impl_->expiring(*t)) return bearer(*t);
    std::lock_guard lock(impl_->flow);
    if (auto again = impl_->store->load_tokens(k->first); again && !impl_->expiring(*again))
        return bearer(*again);
    if (auto fresh = impl_->refresh(k->first, k->second, *t, cancel)) return bearer(*fresh);
    return std::nullopt;
}

std::string client_authorizer::handle_challenge(std::string_view server_url, int status,
                                                std::string_view www_authenticate,
                                                const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    const challenge_info ch = read_challenge(www_authenticate, impl_->opts.log);
    bool step_up = false;
    if (status == 403) {
        if (ch.error != "insufficient_scope")
            throw authorization_error(auth_failure::authorization_denied,
                                      "the server refused the request (403) without asking for more scope");
        std::lock_guard lock(impl_->counts_mu);
        if (++impl_->step_ups[server] > impl_->opts.max_step_up)
            throw authorization_error(auth_failure::step_up_limit,
                                      "the server still asks for more scope after " +
                                          std::to_string(impl_->opts.max_step_up) +
                                          " step-up authorizations");
        step_up = true;
    }
    const std::uint64_t seen = impl_->generation_of(server);
    std::lock_guard lock(impl_->flow);
    if (!step_up) {
        auto k = impl_->known(server);
        if (k && impl_->generation_of(server) != seen) {
            // Another flow obtained tokens while this challenge waited for it: try those.
            if (auto t = impl_->store->load_tokens(k->first)) return bearer(*t);
        }
        // A token that expired or was revoked: a refresh may do without the user.
        if (k) {
            if (auto t = impl_->store->load_tokens(k->first)) {
                impl_->store->erase_tokens(k->first);
                if (auto fresh = impl_->refresh(k->first, k->second, *t, cancel)) return bearer(*fresh);
            }
        }
    }
    return impl_->authorize(server, ch, step_up, cancel);
}

void client_authorizer::note_success(std::string_view server_url) {
    std::string server;
    try {
        server = canonical_resource_uri(server_url);
    } catch (const std::invalid_argument&) {
        return;
    }
    std::lock_guard lock(impl_->counts_mu);
    impl_->step_ups.erase(server);
}

std::string client_authorizer::dpop_proof(std::string_view method, std::string_view url,
                                          std::string_view authorization) {
    if (authorization.substr(0, 5) != "DPoP ") return {};
    auto signer = impl_->current_dpop();
    if (!signer) return {};
    try {
        return signer->proof(method, url, authorization.substr(5));
    } catch (const std::exception& e) {
        impl_->log(std::string("no DPoP proof: ") + e.what());
        return {};
    }
}

void client_authorizer::note_dpop_nonce(std::string_view url, std::string_view nonce) {
    // A nonce is an opaque token of the server's; one that could not travel in a JWT claim
    // or that is unreasonably long is not kept.
    if (nonce.empty() || nonce.size() > 512) return;
    for (char c : nonce)
        if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e) return;
    if (auto signer = impl_->current_dpop()) {
        try {
            signer->set_nonce(url, std::string(nonce));
        } catch (const std::invalid_argument&) {
        }
    }
}

void client_authorizer::login(std::string_view server_url, const cancellation_token& cancel) {
    const std::string server = canonical_resource_uri(server_url);
    std::lock_guard lock(impl_->flow);
    impl_->authorize(server, {}, false, cancel);
}

void client_authorizer::logout(std::string_view server_url, bool forget_client) {
    const std::string server = canonical_resource_uri(server_url);
    auto ds = impl_->store->load_discovery(server);
    if (!ds) return;
    const store_key key{server, ds->issuer};
    impl_->store->erase_tokens(key);
    impl_->store->erase_pending(key);
    if (forget_client) {
        impl_->store->erase_client(key);
        impl_->store->erase_discovery(server);
    }
}

} // namespace mcp::auth