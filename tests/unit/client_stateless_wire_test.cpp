// mcp::client wire tests of the stateless era (2026-07-28): the server/discover probe and the
// fall back to initialize, the _meta every request carries (version, capabilities from the
// handlers, client info, log level), the methods the era removed, and the retry after -32022.
// The test plays the server; every message the client writes is checked against the schema.
#include "client_stateless_fixture.hpp"

#include <thread>

using namespace std::chrono_literals;
using mcp::revision;
using mcp::json::object;
namespace json = mcp::json;
using mcp::test::stateless_wire;

namespace {

mcp::create_message_result sample_nothing(const mcp::create_message_request&, mcp::request_context&) {
    return {.content = {mcp::text_content{.text = "x"}}, .model = "m"};
}
mcp::elicit_result elicit_nothing(const mcp::elicit_request&, mcp::request_context&) {
    return {};
}

TEST_F(stateless_wire, connect_discovers_and_sends_nothing_else) {
    auto probe = connect(R"({"tools":{},"logging":{}})");
    EXPECT_EQ(mcp::to_json(probe), R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{)"
                                   R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                                   R"("io.modelcontextprotocol/clientCapabilities":{},)"
                                   R"("io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}})");
    EXPECT_TRUE(c->stateless());
    EXPECT_EQ(c->protocol_version(), revision::v2026_07_28);
    EXPECT_EQ(c->server().protocol_version, "2026-07-28");
    EXPECT_EQ(c->server().server_info.name, "srv"); // from the result's _meta
    EXPECT_TRUE(c->server().capabilities.tools);
    EXPECT_TRUE(c->server().capabilities.logging);
    ASSERT_TRUE(c->discovery());
    EXPECT_EQ(c->discovery()->supported_versions, std::vector<std::string>{"2026-07-28"});
    EXPECT_EQ(c->discovery()->cache_scope, "private");
    // No initialize, no notifications/initialized, and no listen (nothing declares listChanged).
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(stateless_wire, a_server_info_outside_meta_is_read_too) {
    make();
    auto done = start([this] { c->connect(wire); });
    auto probe = expect_request("server/discover");
    reply(probe, R"({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},)"
                 R"("serverInfo":{"name":"draft-server","version":"2"},"ttlMs":0,"cacheScope":"public"})");
    done.get();
    EXPECT_EQ(c->server().server_info.name, "draft-server");
}

TEST_F(stateless_wire, every_request_carries_meta_with_the_handlers_capabilities) {
    make();
    c->set_roots({{.uri = "file:///tmp"}});
    c->set_sampling_handler(sample_nothing, {.tools = true});
    c->set_elicitation_handler(elicit_nothing, {.form = true, .url = true});
    auto probe = connect();
    const std::string caps = R"({"roots":{},"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}}})";
    EXPECT_EQ(mcp::to_json(meta_of(probe).at("io.modelcontextprotocol/clientCapabilities")), caps);
    auto call = start([this] { return c->list_tools(); });
    auto req = expect_request("tools/list");
    EXPECT_EQ(mcp::to_json(meta_of(req).at("io.modelcontextprotocol/clientCapabilities")), caps);
    EXPECT_EQ(meta_of(req).at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    EXPECT_EQ(mcp::to_json(meta_of(req).at("io.modelcontextprotocol/clientInfo")),
              R"({"name":"t","version":"1"})");
    EXPECT_FALSE(meta_of(req).contains("io.modelcontextprotocol/logLevel"));
    reply(req, R"({"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"private"})");
    call.get();
    // A handler set later is declared from the next request on.
    c->set_elicitation_handler(elicit_nothing, {.form = true});
    auto again = start([this] { return c->list_prompts(); });
    req = expect_request("prompts/list");
    EXPECT_EQ(mcp::to_json(meta_of(req).at("io.modelcontextprotocol/clientCapabilities").at("elicitation")),
              R"({"form":{}})");
    reply(req, R"({"resultType":"complete","prompts":[],"ttlMs":0,"cacheScope":"private"})");
    again.get();
}

TEST_F(stateless_wire, call_options_meta_joins_but_cannot_override_the_protocol_keys) {
    connect();
    mcp::call_options o;
    o.meta = {{"com.example/trace", "abc"}, {"io.modelcontextprotocol/protocolVersion", "1999-01-01"}};
    auto call = start([&] { return c->list_tools(std::nullopt, o); });
    auto req = expect_request("tools/list");
    EXPECT_EQ(meta_of(req).at("com.example/trace"), "abc");
    EXPECT_EQ(meta_of(req).at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    reply(req, R"({"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"private"})");
    call.get();
}

TEST_F(stateless_wire, the_log_level_is_kept_and_sent_with_every_request) {
    connect(R"({"logging":{}})");
    c->set_logging_level(mcp::logging_level::warning); // logging/setLevel is gone: nothing is sent
    EXPECT_TRUE(next(50ms).is_null());
    std::vector<std::string> logs;
    std::mutex mu;
    c->on_log_message([&](const mcp::logging_message_notification& n) {
        std::lock_guard l(mu);
        logs.push_back(n.data.as_string().c_str());
    });
    mcp::call_options ordered; // with progress, the result follows the notifications sent before it
    ordered.on_progress = [](const mcp::progress_update&) {};
    auto call = start([&] { return c->call_tool("x", {}, ordered); });
    auto req = expect_request("tools/call");
    EXPECT_EQ(meta_of(req).at("io.modelcontextprotocol/logLevel"), "warning");
    wire->inject(
        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"boom"}})");
    reply(req, R"({"resultType":"complete","content":[]})");
    call.get();
    std::lock_guard l(mu);
    EXPECT_EQ(logs, std::vector<std::string>{"boom"});
}

TEST_F(stateless_wire, ping_is_a_server_discover_and_removed_notifications_are_not_sent) {
    make();
    c->set_roots({{.uri = "file:///tmp"}});
    connect();
    auto p = start([this] { c->ping(); });
    auto req = expect_request("server/discover");
    reply(req, mcp::test::discover_result_json());
    p.get();
    c->notify_roots_changed(); // notifications/roots/list_changed is gone in 2026-07-28
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(stateless_wire, unsupported_version_is_retried_once_with_a_version_both_speak) {
    connect();
    auto call = start([this] { return c->list_tools(); });
    auto first = expect_request("tools/list");
    reply_error(first, R"({"code":-32022,"message":"Unsupported protocol version",)"
                       R"("data":{"supported":["2025-11-25","2026-07-28"],"requested":"2026-07-28"}})");
    auto retry = expect_request("tools/list");
    EXPECT_NE(retry.at("id"), first.at("id"));
    EXPECT_EQ(meta_of(retry).at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
    reply(retry, R"({"resultType":"complete","tools":[{"name":"a","inputSchema":{"type":"object"}}],)"
                 R"("ttlMs":0,"cacheScope":"private"})");
    EXPECT_EQ(call.get().tools.size(), 1u);

    // Refused again after the retry: a clear error, no third attempt.
    auto again = start([this] { return c->list_tools(); });
    for (int i = 0; i < 2; ++i)
        reply_error(
            expect_request("tools/list"),
            R"({"code":-32022,"message":"no","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}})");
    try {
        again.get();
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::unsupported_protocol_version);
        EXPECT_NE(std::string(e.what()).find("refused it again"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(next(50ms).is_null());
}

TEST_F(stateless_wire, unsupported_version_without_a_common_one_fails_without_retry) {
    connect();
    auto call = start([this] { return c->call_tool("x"); });
    reply_error(
        expect_request("tools/call"),
        R"({"code":-32022,"message":"no","data":{"supported":["2099-01-01"],"requested":"2026-07-28"}})");
    try {
        call.get();
        ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::unsupported_protocol_version);
        const std::string what = e.what();
        EXPECT_NE(what.find("tools/call 'x'"), std::string::npos) << what;
        EXPECT_NE(what.find("2099-01-01"), std::string::npos) << what;
        EXPECT_NE(what.find("no version both speak"), std::string::npos) << what;
        EXPECT_TRUE(e.data().is_object());
    }
    EXPECT_TRUE(next(50ms).is_null());
}

// ---- the probe and the fall back to initialize ------------------------------------------------

// Runs connect() against a server whose answer to server/discover is `answer` (a JSON-RPC
// response member: "result":... or "error":...; empty = no answer). Returns the connect error
// (nullopt when connect succeeded), and sets `initialized` when the client fell back.
struct probe_outcome {
    std::optional<mcp::error> failure;
    bool initialized = false;
};

struct probe : stateless_wire {
    probe_outcome run(const std::string& answer) {
        if (!c) make();
        auto done = start([this]() -> std::optional<mcp::error> {
            try {
                c->connect(wire);
                return std::nullopt;
            } catch (const mcp::error& e) {
                return e;
            }
        });
        auto discover = expect_request("server/discover");
        if (!answer.empty()) wire->inject(R"({"jsonrpc":"2.0","id":1,)" + answer + "}");
        probe_outcome out;
        // A fall back sends initialize (after the probe's cancellation when it timed out).
        for (;;) {
            auto text = wire->next(std::chrono::milliseconds(answer.empty() ? 3000 : 100));
            if (!text) break;
            auto msg = mcp::json::parse(*text);
            if (msg.at("method") == "notifications/cancelled") {
                EXPECT_EQ(msg.at("params").at("requestId"), 1);
                continue;
            }
            EXPECT_EQ(msg.at("method"), "initialize") << *text;
            EXPECT_EQ(msg.at("params").at("protocolVersion"), "2025-11-25");
            wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(msg.at("id")) +
                         R"(,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                         R"("serverInfo":{"name":"legacy","version":"1"}}})");
            out.initialized = true;
            break;
        }
        out.failure = done.get();
        if (out.initialized && !out.failure) {
            EXPECT_FALSE(c->stateless());
            EXPECT_EQ(c->server().server_info.name, "legacy");
        }
        return out;
    }
};

TEST_F(probe, a_legacy_servers_errors_lead_to_initialize) {
    for (const char* answer :
         {R"("error":{"code":-32601,"message":"Method not found"})",
          R"("error":{"code":-32602,"message":"Invalid request parameters"})",
          R"("error":{"code":-32600,"message":"Received request before initialization"})",
          R"("error":{"code":-32000,"message":"Bad Request: Server not initialized"})",
          R"("error":{"code":-32010,"message":"HTTP 400 Bad Request","data":{"httpStatus":400}})",
          R"("result":{})", R"("result":{"supportedVersions":"2026-07-28"})"}) {
        wire = std::make_shared<mcp::test::scripted_transport>();
        c.reset();
        auto out = run(answer);
        EXPECT_TRUE(out.initialized) << answer;
        EXPECT_FALSE(out.failure) << answer << ": " << (out.failure ? out.failure->what() : "");
    }
}

TEST_F(probe, silence_leads_to_initialize_after_the_discover_timeout) {
    opts.discover_timeout = 100ms;
    auto out = run("");
    EXPECT_TRUE(out.initialized);
    EXPECT_FALSE(out.failure);
}

TEST_F(probe, a_dual_era_server_without_2026_leads_to_initialize) {
    auto out = run(R"("error":{"code":-32022,"message":"Unsupported protocol version",)"
                   R"("data":{"supported":["2025-11-25","2025-06-18"],"requested":"2026-07-28"}})");
    EXPECT_TRUE(out.initialized);
    EXPECT_FALSE(out.failure);
}

TEST_F(probe, errors_no_fall_back_would_cure_are_reported_as_they_are) {
    const std::pair<const char*, int> cases[] = {
        {R"("error":{"code":-32022,"message":"no","data":{"supported":["2099-01-01"],"requested":"2026-07-28"}})",
         mcp::error_code::unsupported_protocol_version},
        {R"("error":{"code":-32021,"message":"Missing required client capability","data":{}})",
         mcp::error_code::missing_required_client_capability},
        {R"("error":{"code":-32010,"message":"connection refused","data":{"url":"http://127.0.0.1:1/mcp"}})",
         mcp::error_code::http_error},
        {R"("error":{"code":-32010,"message":"HTTP 401 Unauthorized","data":{"httpStatus":401}})",
         mcp::error_code::http_error},
    };
    for (const auto& [answer, code] : cases) {
        wire = std::make_shared<mcp::test::scripted_transport>();
        c.reset();
        auto out = run(answer);
        EXPECT_FALSE(out.initialized) << answer;
        ASSERT_TRUE(out.failure) << answer;
        EXPECT_EQ(out.failure->code(), code) << answer;
        EXPECT_TRUE(wire->closed()) << answer;
    }
}

TEST_F(probe, a_stateless_only_client_does_not_fall_back) {
    opts.revisions = {revision::v2026_07_28};
    auto out = run(R"("error":{"code":-32601,"message":"Method not found: server/discover"})");
    EXPECT_FALSE(out.initialized);
    ASSERT_TRUE(out.failure);
    EXPECT_EQ(out.failure->code(), mcp::error_code::method_not_found);
    const std::string what = out.failure->what();
    EXPECT_NE(what.find("does not speak protocol revision 2026-07-28"), std::string::npos) << what;
    EXPECT_NE(what.find("Method not found: server/discover"), std::string::npos) << what;
    EXPECT_TRUE(wire->closed());
}

TEST_F(probe, a_version_both_speak_is_asked_for_again) {
    make();
    auto done = start([this] { c->connect(wire); });
    auto first = expect_request("server/discover");
    reply_error(first, R"({"code":-32022,"message":"try another","data":{"supported":["2026-07-28"],)"
                       R"("requested":"2026-07-28"}})");
    auto second = expect_request("server/discover");
    EXPECT_NE(second.at("id"), first.at("id"));
    reply(second, mcp::test::discover_result_json());
    done.get();
    EXPECT_TRUE(c->stateless());
}

TEST_F(probe, a_connection_that_closes_during_the_probe_fails_connect) {
    make();
    auto done = start([this]() -> std::optional<mcp::error> {
        try {
            c->connect(wire);
        } catch (const mcp::error& e) {
            return e;
        }
        return std::nullopt;
    });
    expect_request("server/discover");
    wire->close();
    auto failure = done.get();
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->code(), mcp::error_code::connection_closed);
    EXPECT_FALSE(c->connected());
}

TEST_F(stateless_wire, calls_after_close_fail_and_a_new_connect_starts_over) {
    connect();
    c->close();
    EXPECT_THROW(c->list_tools(), mcp::error);
    wire = std::make_shared<mcp::test::scripted_transport>();
    auto probe = connect();
    EXPECT_EQ(probe.at("method"), "server/discover");
    EXPECT_TRUE(c->stateless());
}

} // namespace
