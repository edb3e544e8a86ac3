// See oauth_login.hpp.
#include "oauth_login.hpp"

#include "commands.hpp"
#include "host_session.hpp"
#include "terminal.hpp"

#include <mcp/auth/loopback_redirect.hpp>

#include <boost/url/parse.hpp>

#include <ostream>
#include <stdexcept>

namespace mcpxx_cli {
namespace {

mcp::auth::loopback_options receiver_options(const mcp::host::oauth_settings* settings) {
    mcp::auth::loopback_options o;
    if (settings && !settings->redirect_uri.empty()) o = mcp::auth::loopback_options_for(settings->redirect_uri);
    if (settings && settings->callback_port) {
        // Claude Code's callbackPort: the redirect URI people register for it.
        o.port = *settings->callback_port;
        o.host = "localhost";
    }
    return o;
}

std::string state_of(const std::string& authorization_url) {
    const auto u = boost::urls::parse_absolute_uri(authorization_url);
    if (u)
        for (const auto& p : u->params())
            if (p.key == "state" && p.has_value) return std::string(p.value);
    throw std::runtime_error("the authorization URL carries no state");
}

} // namespace

struct browser_agent::impl {
    mcp::auth::loopback_options options;
    std::ostream& out;
    std::unique_ptr<mcp::auth::loopback_receiver> receiver;
};

browser_agent::browser_agent(const mcp::host::oauth_settings* settings, std::ostream& out)
    : impl_(std::make_unique<impl>(impl{receiver_options(settings), out, nullptr})) {}

browser_agent::~browser_agent() = default;

std::string browser_agent::redirect_uri() {
    // Listening from before the authorization server learns the URI until the redirect comes.
    if (!impl_->receiver) impl_->receiver = std::make_unique<mcp::auth::loopback_receiver>(impl_->options);
    return impl_->receiver->redirect_uri();
}

std::string browser_agent::authorize(const std::string& authorization_url, const mcp::cancellation_token& cancel) {
    redirect_uri();
    auto receiver = std::move(impl_->receiver);
    const auto state = state_of(authorization_url);
    const auto registration = cancel.on_cancel([r = receiver.get()] { r->cancel(); });
    mcp::auth::open_in_browser(authorization_url, impl_->out);
    impl_->out << "Waiting for the browser (Ctrl-C to give up)...\n" << std::flush;
    try {
        auto redirect = receiver->wait(state);
        cancel.remove_callback(registration);
        return redirect;
    } catch (...) {
        cancel.remove_callback(registration);
        throw;
    }
}

void sign_in_needed_agent::give_up() {
    needed_ = true;
    throw std::runtime_error("sign in first: run \"mcpxx login " + name_ + "\"");
}

std::string sign_in_needed_agent::redirect_uri() {
    if (pre_registered_) return "http://127.0.0.1/callback";
    give_up(); // before a client is registered for a redirect nobody would receive
}

std::string sign_in_needed_agent::authorize(const std::string&, const mcp::cancellation_token&) {
    give_up();
}

mcp::auth::client_authorizer_options authorizer_options(const mcp::host::oauth_settings* settings,
                                                        std::shared_ptr<mcp::auth::credential_store> store,
                                                        std::shared_ptr<mcp::auth::user_agent> agent) {
    mcp::auth::client_authorizer_options o;
    o.store = std::move(store);
    o.agent = std::move(agent);
    if (settings) {
        o.client_id = settings->client_id;
        o.client_secret = settings->client_secret;
        o.scopes = settings->scopes;
    }
    return o;
}

std::shared_ptr<mcp::auth::client_authorizer> oauth_clients::for_server(const mcp::host::server_config& server) {
    std::lock_guard lock(mu_);
    if (auto it = made_.find(server.name); it != made_.end()) return it->second.second;
    if (!store_tried_) {
        store_tried_ = true;
        try {
            store_ = std::make_shared<mcp::auth::file_credential_store>();
        } catch (const mcp::auth::credential_store_error&) {
            // No home: servers are reached without OAuth, and `mcpxx login` says why.
        }
    }
    if (!store_) return nullptr;
    auto agent = std::make_shared<sign_in_needed_agent>(server.name, server.oauth && !server.oauth->client_id.empty());
    auto authorizer = std::make_shared<mcp::auth::client_authorizer>(
        authorizer_options(server.oauth ? &*server.oauth : nullptr, store_, agent));
    made_[server.name] = {agent, authorizer};
    return authorizer;
}

bool oauth_clients::needs_sign_in(const std::string& server) const {
    std::lock_guard lock(mu_);
    const auto it = made_.find(server);
    return it != made_.end() && it->second.first->needed();
}

int sign_in(const std::string& shown_name, const std::string& url, const mcp::host::oauth_settings* settings,
            const mcp::cancellation_token& cancel, std::ostream& out) {
    using mcp::auth::auth_failure;
    std::shared_ptr<mcp::auth::file_credential_store> store;
    std::shared_ptr<browser_agent> agent;
    try {
        store = std::make_shared<mcp::auth::file_credential_store>();
        agent = std::make_shared<browser_agent>(settings, out);
    } catch (const std::exception& e) {
        print_error(e.what());
        return exit_usage;
    }
    mcp::auth::client_authorizer authorizer(authorizer_options(settings, store, agent));
    try {
        authorizer.login(url, cancel);
    } catch (const mcp::auth::authorization_error& e) {
        print_error("cannot sign in to " + shown_name + ": " + e.what());
        switch (e.reason()) {
        case auth_failure::cancelled:
            return exit_interrupted;
        case auth_failure::discovery:
            return exit_unavailable;
        case auth_failure::insecure_redirect:
            return exit_usage;
        default:
            return exit_negative;
        }
    } catch (const mcp::auth::credential_store_error& e) {
        print_error(e.what());
        return exit_usage;
    } catch (const std::exception& e) {
        print_error("cannot sign in to " + shown_name + ": " + e.what());
        return cancel.is_cancelled() ? exit_interrupted : exit_negative;
    }
    out << "Signed in to " << shown_name << "; the tokens are kept in " << store->folder().string() << "\n";
    return exit_ok;
}

} // namespace mcpxx_cli
