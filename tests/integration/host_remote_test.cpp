// The host manager with remote servers: our everything_server over Streamable HTTP and the legacy
// HTTP+SSE transport (a child process), an in-process mcp::http::server that checks the entry's
// headers, the automatic fallback, errors that never show a header value or a URL's secrets,
// reconnection when the server goes away (connection refused), a new session when it forgets
// the session (404), and a server that answers nothing.
#include <mcp/host/manager.hpp>
#include <mcp/host/transport_factory.hpp>
#include <mcp/http/server.hpp>

#include "support/child_server.hpp"
#include "support/http_test_server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

using namespace mcp::host;
using namespace std::chrono_literals;

const std::string bin = MCPXX_BINARY_DIR;

server_config remote(std::string name, std::string url, transport_kind kind = transport_kind::streamable_http,
                     std::map<std::string, std::string> headers = {}) {
    return {.name = std::move(name),
            .transport = kind,
            .url = std::move(url),
            .headers = std::move(headers),
            .source = "test"};
}

template <class F> bool eventually(F f, std::chrono::milliseconds limit = 20s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (f()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return f();
}

std::string text_of(const mcp::call_tool_result& r) {
    std::string s;
    for (const auto& c : r.content)
        if (auto* t = std::get_if<mcp::text_content>(&c)) s += t->text;
    return s;
}

manager_options options() {
    manager_options o;
    o.approval.approve_all = true;
    o.connect_timeout = 20s;
    o.call_timeout = 20s;
    return o;
}

/// An MCP server in this process, over HTTP, that wants `Authorization: Bearer <token>` and counts
/// what it serves. Can be stopped and started again on the same port.
struct guarded_server {
    mcp::server mcp;
    std::string token;
    std::atomic<int> refused{0};
    std::unique_ptr<mcp::http::server> http;
    unsigned short port = 0;

    /// `initialize_era_only`: no 2026-07-28, so that clients keep a session (Mcp-Session-Id).
    explicit guarded_server(std::string t, bool initialize_era_only = false)
        : mcp(server_options(initialize_era_only)), token(std::move(t)) {
        mcp.add_tool({.name = "hello", .description = "Say hello"},
                     [](const mcp::json::object&, mcp::context&) {
                         return mcp::call_tool_result{.content = {mcp::text("hello")}};
                     });
        start();
    }
    void start() {
        mcp::http::server_options o;
        o.port = port;
        o.authenticate = [this](const mcp::http::request_info& r) {
            const auto* a = r.header("Authorization");
            if (a && *a == "Bearer " + token) return mcp::http::auth_decision{.principal = "user"};
            ++refused;
            return mcp::http::auth_decision{.accepted = false, .status = 401, .message = "bad token"};
        };
        http.reset();
        http = std::make_unique<mcp::http::server>(mcp, o);
        http->start();
        port = http->port();
    }
    void stop() { http->stop(0ms); }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }

    static mcp::server_options server_options(bool initialize_era_only) {
        mcp::server_options o{.info = {.name = "guarded", .version = "1.0"}};
        if (initialize_era_only)
            o.revisions = {mcp::revision::v2025_11_25, mcp::revision::v2025_06_18,
                           mcp::revision::v2025_03_26};
        return o;
    }
};

TEST(host_remote, everything_server_over_streamable_http) {
    mcp::test::child_server s({bin + "/everything_server", "--http", "127.0.0.1:{port}"});
    ASSERT_TRUE(s.ready());
    manager m(options());
    m.add_server(remote("every", s.url("/mcp")));
    m.connect_all();
    const auto st = m.status("every");
    ASSERT_EQ(st.state, server_state::ready) << st.error;
    EXPECT_EQ(st.transport, transport_kind::streamable_http);
    EXPECT_EQ(st.protocol_version, mcp::revision::v2026_07_28); // our server speaks the newest
    EXPECT_GT(st.tools, 15u);
    EXPECT_EQ(st.resources, 20u);
    EXPECT_EQ(st.resource_templates, 2u);
    EXPECT_EQ(st.prompts, 4u);
    EXPECT_FALSE(st.pid);
    EXPECT_EQ(text_of(m.call_tool("every__echo", {{"text", "over http"}})), "over http");
    auto read = m.client("every")->read_resource("test://static/resource/1");
    ASSERT_EQ(read.contents.size(), 1u);
    // Progress comes back over the POST's SSE stream.
    std::atomic<int> updates{0};
    auto r = m.call_tool("every", "long_operation", {{"duration", 0.05}, {"steps", 3}},
                         {.on_progress = [&](const mcp::progress_update&) { ++updates; }});
    EXPECT_FALSE(r.is_error.value_or(false)) << text_of(r);
    EXPECT_GE(updates.load(), 2);
}

TEST(host_remote, legacy_sse_entry_automatic_fallback_and_no_fallback_when_typed) {
    mcp::test::child_server s({bin + "/everything_server", "--http", "127.0.0.1:{port}", "--legacy-sse"});
    ASSERT_TRUE(s.ready());
    manager m(options());
    m.add_server(remote("sse", s.url("/sse"), transport_kind::sse));
    auto untyped = remote("untyped", s.url("/sse"));
    untyped.sse_fallback = true; // a bare url: Streamable HTTP first, then HTTP+SSE
    m.add_server(untyped);
    m.add_server(remote("typed", s.url("/sse"))); // "type": "http": no fallback
    m.connect_all();
    auto sse = m.status("sse");
    ASSERT_EQ(sse.state, server_state::ready) << sse.error;
    EXPECT_EQ(sse.transport, transport_kind::sse);
    // Our legacy endpoint serves whatever era the client speaks (here the newest).
    EXPECT_EQ(sse.protocol_version, mcp::revision::v2026_07_28);
    EXPECT_GT(sse.tools, 15u);
    auto fell_back = m.status("untyped");
    ASSERT_EQ(fell_back.state, server_state::ready) << fell_back.error;
    EXPECT_EQ(fell_back.transport, transport_kind::sse); // what it turned out to speak
    EXPECT_EQ(text_of(m.call_tool("untyped", "echo", {{"text", "via fallback"}})), "via fallback");
    EXPECT_EQ(text_of(m.call_tool("sse", "echo", {{"text", "via sse"}})), "via sse");
    auto typed = m.status("typed");
    EXPECT_EQ(typed.state, server_state::failed);
    EXPECT_NE(typed.error.find("HTTP 4"), std::string::npos) << typed.error;
}

TEST(host_remote, headers_are_sent_and_never_shown) {
    guarded_server srv("s3cret-token");
    manager m(options());
    m.add_server(remote("good", srv.url(), transport_kind::streamable_http,
                        {{"Authorization", "Bearer s3cret-token"}}));
    m.add_server(
        remote("bad", srv.url(), transport_kind::streamable_http, {{"Authorization", "Bearer wr0ng-token"}}));
    m.add_server(remote("broken-header", srv.url(), transport_kind::streamable_http,
                        {{"X-Key", "a\r\nInjected: h4x"}}));
    m.add_server(remote("not-http", "ftp://user:pa55word@example.com/mcp?key=qu3ry#frag"));
    m.connect_all();
    auto good = m.status("good");
    ASSERT_EQ(good.state, server_state::ready) << good.error;
    EXPECT_EQ(text_of(m.call_tool("good", "hello", {})), "hello");

    auto bad = m.status("bad");
    EXPECT_EQ(bad.state, server_state::failed);
    EXPECT_EQ(bad.error, "bad token"); // the server's own JSON-RPC error, with its 401
    EXPECT_GE(srv.refused.load(), 1);
    auto broken = m.status("broken-header");
    EXPECT_EQ(broken.state, server_state::failed);
    EXPECT_NE(broken.error.find("\"X-Key\""), std::string::npos) << broken.error;
    auto ftp = m.status("not-http");
    EXPECT_EQ(ftp.state, server_state::failed);
    EXPECT_EQ(ftp.error, "not a valid URL: \"ftp://example.com/mcp\" (an http:// or https:// URL is needed)");
    for (const auto& s : m.servers())
        for (const char* secret : {"s3cret", "wr0ng", "h4x", "pa55word", "qu3ry"})
            EXPECT_EQ(s.error.find(secret), std::string::npos) << s.name << ": " << s.error;
}

TEST(host_remote, a_bad_url_is_explained_in_plain_words) {
    const auto problem = [](const std::string& url) {
        server_config s;
        s.name = "r";
        s.transport = transport_kind::streamable_http;
        s.url = url;
        return check_startable(s).value_or("(startable)");
    };
    EXPECT_EQ(problem("127.0.0.1:21555/mcp"),
              "not a valid URL: \"127.0.0.1:21555/mcp\" (an http:// or https:// URL is needed)");
    EXPECT_EQ(problem("localhost:8080/mcp"),
              "not a valid URL: \"localhost:8080/mcp\" (an http:// or https:// URL is needed)");
    EXPECT_EQ(problem("http://exa mple.com/mcp"),
              "not a valid URL: \"http://exa mple.com/mcp\" (a URL cannot contain spaces)");
    EXPECT_EQ(problem("http://a/%zz"),
              "not a valid URL: \"http://a/%zz\" (expected http(s)://HOST[:PORT]/PATH, with "
              "special characters percent-encoded)");
    EXPECT_EQ(problem("http:///mcp"), "not a valid URL: \"http:///mcp\" (it has no host)");
    EXPECT_EQ(problem(""), "not a valid URL: \"\" (it is empty)");
    EXPECT_EQ(problem("https://127.0.0.1:8443/mcp"), "(startable)");
}

TEST(host_remote, url_for_display_drops_user_info_query_and_fragment) {
    EXPECT_EQ(url_for_display("https://u:p@api.example.com:8443/v1/mcp?token=x#f"),
              "https://api.example.com:8443/v1/mcp");
    EXPECT_EQ(url_for_display("http://127.0.0.1/mcp"), "http://127.0.0.1/mcp");
    EXPECT_EQ(url_for_display("no scheme user:pw@host/p?x=1"), "host/p");
    EXPECT_EQ(url_for_display("a b://u:p@h/x?t"), "a b://h/x");
}

TEST(host_remote, reconnects_when_the_server_went_away_and_came_back) {
    guarded_server srv("t");
    auto o = options();
    o.restart = {.max_attempts = 100, .initial_delay = 20ms, .max_delay = 100ms};
    std::atomic<int> changes{0};
    o.on_catalogue_changed = [&](const std::string&) { ++changes; };
    manager m(o);
    m.add_server(remote("r", srv.url(), transport_kind::streamable_http, {{"Authorization", "Bearer t"}}));
    m.connect_all();
    ASSERT_EQ(m.status("r").state, server_state::ready) << m.status("r").error;

    srv.stop();
    // Nothing answers: the call fails at once (-32010), and the manager starts reconnecting.
    try {
        m.call_tool("r", "hello", {});
        ADD_FAILURE() << "the call went through to a stopped server";
    } catch (const mcp::error& e) {
        EXPECT_TRUE(e.code() == mcp::error_code::http_error || e.code() == mcp::error_code::connection_closed)
            << e.what();
    }
    ASSERT_TRUE(eventually([&] { return m.status("r").state == server_state::restarting; }))
        << to_string(m.status("r").state);
    // Why: the loss, or (once a reconnection was tried) that reconnecting failed.
    const auto why = m.status("r").error;
    EXPECT_TRUE(why.find("connection lost: cannot connect to " + srv.url()) != std::string::npos ||
                why.find("cannot connect to " + srv.url()) == 0)
        << why;
    EXPECT_THROW(m.client("r"), mcp::error);

    srv.start(); // the same port
    ASSERT_TRUE(m.wait_ready("r", 20s)) << m.status("r").error;
    EXPECT_EQ(m.status("r").restarts, 1);
    EXPECT_EQ(text_of(m.call_tool("r", "hello", {})), "hello");
    // up, down, up again (told after the state changed: wait for it)
    EXPECT_TRUE(eventually([&] { return changes.load() >= 3; })) << changes.load();
}

TEST(host_remote, a_forgotten_session_is_renewed_by_the_client) {
    guarded_server srv("t", /*initialize_era_only=*/true); // sessions exist only in that era
    std::atomic<int> probes{0}, initializes{0}, lists{0};
    srv.mcp.use([&](mcp::incoming_call& call, const mcp::receive_next& next) {
        if (call.method() == "server/discover") ++probes;
        if (call.method() == "initialize") ++initializes;
        if (call.method() == "tools/list") ++lists;
        return next(call);
    });
    auto o = options();
    o.restart = {.max_attempts = 100, .initial_delay = 20ms, .max_delay = 100ms};
    manager m(o);
    m.add_server(remote("r", srv.url(), transport_kind::streamable_http, {{"Authorization", "Bearer t"}}));
    m.connect_all();
    ASSERT_EQ(m.status("r").state, server_state::ready) << m.status("r").error;
    ASSERT_EQ(initializes.load(), 1);
    ASSERT_EQ(lists.load(), 1);
    // A new server on the same port knows nothing of the session: its 404 makes the client
    // start a new session by itself (initialize, no probe), and the call goes through.
    srv.stop();
    srv.start();
    EXPECT_EQ(text_of(m.call_tool("r", "hello", {})), "hello");
    EXPECT_EQ(initializes.load(), 2);
    EXPECT_EQ(probes.load(), 1);
    EXPECT_EQ(m.status("r").state, server_state::ready);
    EXPECT_EQ(m.status("r").restarts, 0); // no reconnection was needed
    // The manager lists the server again: it may have changed while the session was lost.
    EXPECT_TRUE(eventually([&] { return lists.load() == 2; })) << lists.load();
    EXPECT_EQ(m.status("r").protocol_version, mcp::revision::v2025_11_25);
}

TEST(host_remote, a_server_that_stays_away_is_given_up) {
    guarded_server srv("t");
    auto o = options();
    o.restart = {.max_attempts = 2, .initial_delay = 10ms, .max_delay = 20ms};
    manager m(o);
    m.add_server(remote("r", srv.url(), transport_kind::streamable_http, {{"Authorization", "Bearer t"}}));
    m.connect_all();
    ASSERT_EQ(m.status("r").state, server_state::ready);
    srv.stop();
    EXPECT_THROW(m.call_tool("r", "hello", {}), mcp::error);
    ASSERT_TRUE(eventually([&] { return m.status("r").state == server_state::failed; }));
    EXPECT_NE(m.status("r").error.find("gave up after 2 restarts"), std::string::npos) << m.status("r").error;
}

TEST(host_remote, a_server_that_answers_nothing_fails_within_the_connect_timeout_saying_why) {
    // Accepts every request and answers none (server/discover, then initialize).
    mcp::test::silent_http_server silent;
    auto o = options();
    o.connect_timeout = 1s;
    manager m(o);
    m.add_server(remote("quiet", silent.url(), transport_kind::streamable_http));
    std::thread t([&] { m.connect_all(); });
    // While it waits, the status says what for.
    ASSERT_TRUE(eventually([&] { return m.status("quiet").error.find("still connecting after") == 0; }, 5s))
        << m.status("quiet").error;
    EXPECT_EQ(m.status("quiet").state, server_state::starting);
    const auto t0 = std::chrono::steady_clock::now();
    t.join();
    const auto s = m.status("quiet");
    EXPECT_EQ(s.state, server_state::failed) << s.error;
    // server/discover for half of connect_timeout, then initialize: all within connect_timeout.
    EXPECT_EQ(s.error, "no answer to server/discover and initialize within 1 s");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
    EXPECT_EQ(silent.server().requests(mcp::test::http_test_server::rpc_is("initialize")).size(), 1u);
}

} // namespace
