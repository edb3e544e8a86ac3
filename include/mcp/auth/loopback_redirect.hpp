// mcp/auth/loopback_redirect.hpp - the user's step of an OAuth authorization code flow on the
// user's own machine (RFC 8252 section 7.3): a browser opens the authorization URL, and the
// authorization server sends it back to a server this program runs on 127.0.0.1.
//
//   mcp::auth::loopback_receiver receiver;             // listening now, on a port the OS picks
//   auto uri = receiver.redirect_uri();                // "http://127.0.0.1:49213/callback"
//   ... build the authorization URL with redirect_uri = uri and a fresh state ...
//   mcp::auth::open_in_browser(authorization_url);
//   std::string redirect = receiver.wait(state);       // "http://127.0.0.1:49213/callback?code=...&state=..."
//
// The receiver answers every request it gets while it waits:
//   - GET of the callback path whose `state` is the one expected: a page saying the browser tab
//     may be closed (or that the authorization server refused, when the redirect carries
//     `error`), and wait() returns the URL received; the flow reads `code`, `iss` or `error`.
//   - the callback path with another or no `state`: 400 and a page saying so, and it keeps
//     waiting. A stale tab of an earlier attempt, or a page that made the browser request the
//     callback, must not end the login the user is doing; a wrong state is never accepted.
//   - any other path (a browser asks for /favicon.ico): 404; another method: 405; a request
//     that is malformed or larger than 8 KiB: 400 or 431. It keeps waiting.
// Each connection gets a few seconds to send its request (browsers open spare connections that
// never send one), and several are served at once. wait() ends with the redirect, or throws
// redirect_error after the timeout or cancel(); the listening socket is closed when the
// receiver is destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::auth {

/// The redirect did not arrive (timeout, cancel) or a redirect URI that cannot be served here.
class redirect_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct loopback_options {
    /// 0: a port the OS picks (the default, as RFC 8252 recommends). A fixed port is for
    /// authorization servers that only accept a registered redirect URI (`callbackPort`).
    std::uint16_t port = 0;
    /// The host name in redirect_uri(): "127.0.0.1" (RFC 8252 prefers the address), or what a
    /// configured redirect URI says ("localhost", served on 127.0.0.1; "[::1]", served on ::1).
    std::string host = "127.0.0.1";
    std::string path = "/callback";
    /// How long wait() waits for the redirect: the user has to sign in.
    std::chrono::milliseconds timeout = std::chrono::minutes(5);
    /// How long one connection may take to send its request.
    std::chrono::milliseconds request_timeout = std::chrono::seconds(10);
};

/// The options for a configured redirect URI (`redirectUri`): it must be `http://` to a
/// loopback address (127.0.0.1, [::1] or localhost, which is served on 127.0.0.1) with a port;
/// anything else is a redirect_error, since a redirect to another machine would hand the code
/// to it.
loopback_options loopback_options_for(std::string_view redirect_uri);

class loopback_receiver {
public:
    /// Listens now on 127.0.0.1 (::1 for host "[::1]"); throws redirect_error when the port cannot be had.
    explicit loopback_receiver(loopback_options options = {});
    ~loopback_receiver();
    loopback_receiver(const loopback_receiver&) = delete;
    loopback_receiver& operator=(const loopback_receiver&) = delete;

    /// "http://127.0.0.1:PORT/callback" (with the options' host and path).
    std::string redirect_uri() const;
    std::uint16_t port() const noexcept;

    /// Waits for the redirect carrying `expected_state` and returns the URL it asked for (the
    /// redirect URI with its query). Throws redirect_error after the timeout or cancel().
    /// Called once.
    std::string wait(std::string_view expected_state);
    /// Ends a wait() in progress (from another thread) or the next one.
    void cancel();

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

/// Ask the desktop to open `url` in the browser: `xdg-open URL` as a child process (no shell),
/// when there is a display and xdg-open is on PATH. Writes the URL to `out` either way, so
/// that a user on another machine (ssh) or without a browser can open it by hand. Returns
/// whether a browser was asked. Never waits for the browser.
bool open_in_browser(std::string_view url, std::ostream& out);

} // namespace mcp::auth
