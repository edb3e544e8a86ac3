// OAuth for the servers mcpxx talks to: one client_authorizer per remote server, over the
// user's credential store ($XDG_CONFIG_HOME/mcpxx/credentials), with the entry's `oauth`
// settings (client id, secret, scopes, callback port). Signing in opens the browser and waits
// for the redirect on 127.0.0.1; connecting never does: a server that needs a sign-in fails
// with a message saying to run `mcpxx login NAME`, and a command on a terminal offers to.
#pragma once

#include <mcp/auth/client_authorizer.hpp>
#include <mcp/auth/file_credential_store.hpp>
#include <mcp/host/config.hpp>

#include <atomic>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mcpxx_cli {

/// The user step for `mcpxx login`: the browser, and the loopback receiver (a free port, or
/// the entry's callbackPort / redirectUri).
class browser_agent : public mcp::auth::user_agent {
public:
    /// Throws mcp::auth::redirect_error for a redirectUri that is not loopback http.
    explicit browser_agent(const mcp::host::oauth_settings* settings, std::ostream& out);
    ~browser_agent() override;
    std::string redirect_uri() override;
    std::string authorize(const std::string& authorization_url, const mcp::cancellation_token& cancel) override;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// The user step while connecting: notes that a sign-in is needed and gives up at once, before
/// anything is registered, with a message naming the command that signs in. For a
/// pre-registered client (`clientId`) the authorizer asks for the redirect URI when it only
/// refreshes a token too, so then redirect_uri() answers (an address nobody is sent to) and
/// authorize() gives up.
class sign_in_needed_agent : public mcp::auth::user_agent {
public:
    sign_in_needed_agent(std::string server_name, bool pre_registered)
        : name_(std::move(server_name)), pre_registered_(pre_registered) {}
    std::string redirect_uri() override;
    std::string authorize(const std::string&, const mcp::cancellation_token&) override;
    bool needed() const noexcept { return needed_; }

private:
    [[noreturn]] void give_up();
    std::string name_;
    bool pre_registered_;
    std::atomic<bool> needed_{false};
};

/// The options of the authorizer of `server` (`settings` may be null: no `oauth` entry).
mcp::auth::client_authorizer_options authorizer_options(const mcp::host::oauth_settings* settings,
                                                        std::shared_ptr<mcp::auth::credential_store> store,
                                                        std::shared_ptr<mcp::auth::user_agent> agent);

/// The authorizers of one command's remote servers, made when each first connects.
class oauth_clients {
public:
    /// For manager_options::authorizer. Null when there is no credential store (no home):
    /// then the server is reached without OAuth.
    std::shared_ptr<mcp::auth::client_authorizer> for_server(const mcp::host::server_config& server);
    /// Whether `server` failed to connect because it needs a sign-in.
    bool needs_sign_in(const std::string& server) const;

private:
    mutable std::mutex mu_;
    std::shared_ptr<mcp::auth::file_credential_store> store_;
    bool store_tried_ = false;
    std::map<std::string, std::pair<std::shared_ptr<sign_in_needed_agent>,
                                    std::shared_ptr<mcp::auth::client_authorizer>>> made_;
};

/// Sign in to `server` (a configured remote entry, or a URL with no settings) in the browser
/// and keep the tokens in the user's store. Progress and the URL go to `out`. Returns an exit
/// code (commands.hpp) after printing what went wrong: 2 for a redirect URI or store that
/// cannot be used, 130 when cancelled, 3 when the server or its authorization server cannot be
/// found, 1 when the authorization server refused.
int sign_in(const std::string& shown_name, const std::string& url, const mcp::host::oauth_settings* settings,
            const mcp::cancellation_token& cancel, std::ostream& out);

} // namespace mcpxx_cli
