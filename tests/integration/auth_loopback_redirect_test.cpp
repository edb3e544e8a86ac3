// The loopback redirect receiver at the wire: a browser's requests as raw bytes on a real socket.
// The redirect with the expected state ends the wait with the URL received; a wrong state, another
// path or method, a silent or oversized connection get their answer and the wait goes on; the
// timeout and cancel() end it with a clear error; afterwards nothing listens on the port.
#include <mcp/auth/loopback_redirect.hpp>

#include "support/loopback_port.hpp"
#include "support/raw_http_client.hpp"

#include <gtest/gtest.h>

#include <future>
#include <sstream>

namespace {

using namespace mcp::auth;
using namespace std::chrono_literals;
using mcp::test::raw_client;

const std::string state = "Zm9vYmFyYmF6cXV4";

std::future<std::string> wait_async(loopback_receiver& r, std::string expected = state) {
    return std::async(std::launch::async, [&r, expected] { return r.wait(expected); });
}

mcp::test::response get(std::uint16_t port, const std::string& target, const std::string& method = "GET") {
    raw_client c(port);
    c.send(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
           "\r\nUser-Agent: test\r\n\r\n");
    auto r = c.read_response();
    EXPECT_TRUE(r);
    EXPECT_TRUE(c.wait_eof()); // one request per connection, then closed
    return r.value_or(mcp::test::response{});
}

std::string error_of(std::future<std::string>& f) {
    try {
        f.get();
    } catch (const redirect_error& e) {
        return e.what();
    }
    return "";
}

TEST(auth_loopback_redirect, the_redirect_with_the_state_ends_the_wait) {
    loopback_receiver r;
    const auto port = r.port();
    ASSERT_NE(port, 0);
    EXPECT_EQ(r.redirect_uri(), "http://127.0.0.1:" + std::to_string(port) + "/callback");
    auto done = wait_async(r);
    const auto answer = get(port, "/callback?code=abc%2Fdef&state=" + state + "&iss=https%3A%2F%2Fauth.example");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.header("Content-Type"), "text/html; charset=utf-8");
    EXPECT_EQ(answer.header("Cache-Control"), "no-store");
    EXPECT_NE(answer.body.find("You can close this tab"), std::string::npos);
    EXPECT_EQ(done.get(), r.redirect_uri() + "?code=abc%2Fdef&state=" + state + "&iss=https%3A%2F%2Fauth.example");
    // Nothing listens any more.
    EXPECT_FALSE(mcp::test::loopback_port_accepts(port));
}

TEST(auth_loopback_redirect, a_wrong_state_is_refused_and_the_wait_goes_on) {
    loopback_receiver r;
    auto done = wait_async(r);
    auto answer = get(r.port(), "/callback?code=stolen&state=not-the-one");
    EXPECT_EQ(answer.status, 400);
    EXPECT_NE(answer.body.find("does not belong to the login in progress"), std::string::npos);
    answer = get(r.port(), "/callback?code=stolen"); // no state at all
    EXPECT_EQ(answer.status, 400);
    answer = get(r.port(), "/callback?code=good&state=" + state);
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(done.get(), r.redirect_uri() + "?code=good&state=" + state);
}

TEST(auth_loopback_redirect, other_paths_methods_and_bad_requests_get_their_status) {
    loopback_receiver r;
    auto done = wait_async(r);
    EXPECT_EQ(get(r.port(), "/favicon.ico").status, 404);
    EXPECT_EQ(get(r.port(), "/callback/x?state=" + state).status, 404);
    EXPECT_EQ(get(r.port(), "/callback?state=" + state, "POST").status, 405);
    {
        raw_client c(r.port());
        c.send("NONSENSE\r\n\r\n");
        EXPECT_EQ(c.read_response()->status, 400);
    }
    {
        raw_client c(r.port());
        c.send("GET /callback?state=" + state + " HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n");
        EXPECT_EQ(c.read_response()->status, 431);
    }
    // A connection that never sends anything (a browser's spare connection) holds nobody up.
    raw_client silent(r.port());
    EXPECT_EQ(get(r.port(), "/callback?error=access_denied&state=" + state).status, 200);
    EXPECT_EQ(done.get(), r.redirect_uri() + "?error=access_denied&state=" + state);
}

TEST(auth_loopback_redirect, the_page_of_a_refusal_says_so_without_markup_from_the_url) {
    loopback_receiver r;
    auto done = wait_async(r);
    const auto answer = get(r.port(), "/callback?error=%3Cscript%3E&state=" + state);
    EXPECT_EQ(answer.status, 200);
    EXPECT_NE(answer.body.find("Sign-in refused"), std::string::npos);
    EXPECT_EQ(answer.body.find("<script>"), std::string::npos);
    done.get();
}

TEST(auth_loopback_redirect, no_redirect_within_the_timeout_is_an_error) {
    loopback_receiver r({.timeout = 200ms});
    raw_client silent(r.port()); // connected, says nothing: the wait still ends
    auto done = wait_async(r);
    EXPECT_EQ(error_of(done), "the browser did not come back from the authorization server within 200 ms");
    EXPECT_TRUE(silent.wait_eof()); // closed with the receiver's wait
}

TEST(auth_loopback_redirect, cancel_ends_the_wait) {
    loopback_receiver r;
    auto done = wait_async(r);
    r.cancel();
    EXPECT_EQ(error_of(done), "the login was cancelled before the browser came back");
    // And a receiver cancelled before it waits does not wait.
    loopback_receiver early;
    early.cancel();
    EXPECT_THROW(early.wait(state), redirect_error);
}

TEST(auth_loopback_redirect, a_fixed_port_and_path_from_a_configured_redirect_uri) {
    const auto port = mcp::test::free_loopback_port();
    auto o = loopback_options_for("http://localhost:" + std::to_string(port) + "/oauth/cb");
    EXPECT_EQ(o.port, port);
    EXPECT_EQ(o.host, "localhost");
    EXPECT_EQ(o.path, "/oauth/cb");
    loopback_receiver r(o);
    EXPECT_EQ(r.redirect_uri(), "http://localhost:" + std::to_string(port) + "/oauth/cb");
    auto done = wait_async(r);
    EXPECT_EQ(get(port, "/callback?state=" + state).status, 404);
    EXPECT_EQ(get(port, "/oauth/cb?code=1&state=" + state).status, 200);
    EXPECT_EQ(done.get(), r.redirect_uri() + "?code=1&state=" + state);
    // The port is taken while a receiver listens on it: a second one says so.
    loopback_receiver holder(o);
    try {
        loopback_receiver second(o);
        ADD_FAILURE() << "two receivers on one port";
    } catch (const redirect_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot listen on 127.0.0.1 port " + std::to_string(port)),
                  std::string::npos)
            << e.what();
    }
}

TEST(auth_loopback_redirect, a_redirect_uri_to_another_machine_is_refused) {
    const auto error = [](const std::string& uri) {
        try {
            loopback_options_for(uri);
        } catch (const redirect_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(error("http://example.com:8080/callback"),
              "the redirect URI must point to this machine (127.0.0.1, [::1] or localhost), not to another host");
    // A host name that starts like the address (Boost.URL 1.81 stops reading it at the address).
    EXPECT_EQ(error("http://127.0.0.1.example.com:8080/callback"), "the redirect URI is not a URL");
    EXPECT_EQ(error("http://localhost.example.com:8080/callback"),
              "the redirect URI must point to this machine (127.0.0.1, [::1] or localhost), not to another host");
    EXPECT_EQ(error("http://10.0.0.1:8080/callback"),
              "the redirect URI must point to this machine (127.0.0.1, [::1] or localhost), not to another host");
    EXPECT_EQ(error("https://127.0.0.1:8080/callback"),
              "the redirect URI must be http:// to this machine (127.0.0.1, [::1] or localhost)");
    EXPECT_EQ(error("http://127.0.0.1/callback"), "the redirect URI needs a port");
    EXPECT_EQ(error("http://127.0.0.1:80/callback?x=1"), "the redirect URI must be a bare http://host:port/path");
    EXPECT_EQ(error("not a url"), "the redirect URI is not a URL");
    EXPECT_EQ(error("http://[::1]:8080/cb"), "");
    EXPECT_EQ(error("http://LOCALHOST:8080/cb"), "");
}

TEST(auth_loopback_redirect, without_a_display_the_url_is_printed) {
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    std::ostringstream out;
    EXPECT_FALSE(open_in_browser("https://auth.example.com/authorize?x=1", out));
    EXPECT_EQ(out.str(), "Open this address in a browser to sign in:\n  https://auth.example.com/authorize?x=1\n");
}

} // namespace
