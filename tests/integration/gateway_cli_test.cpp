// `mcpxx gateway` as a program: bearer tokens (401), per-token rate limits (429 with
// Retry-After), per-token tool filtering, Origin validation (403), /healthz, /metrics, JSON log
// lines on stderr, SIGTERM. Real process, real sockets, real server processes behind it.
#include "support/eventually.hpp"
#include "support/gateway_fixture.hpp"
#include "support/gateway_process.hpp"
#include "support/raw_process.hpp"

#include <gmock/gmock.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace {

using namespace mcp::test;
using mcp::json::object;
using testing::HasSubstr;
using testing::Not;
namespace fs = std::filesystem;

const std::string alice = "alice-token-0123456789";
const std::string bob = "bob-token-9876543210";

class gateway_cli : public testing::Test {
protected:
    void SetUp() override {
        dir_ = gateway_process::scratch_dir("mcpxx-gateway-cli-");
        // alice may see one tool and has a rate of her own; bob is a plain line.
        std::ofstream(dir_ / "tokens.json")
            << R"({"tokens": [{"token": ")" + alice +
                   R"(", "name": "alice", "tools": ["everything__echo"], "rate": 1000},)"
                   R"( {"token": ")" +
                   bob + R"(", "name": "bob"}]})";
    }
    void TearDown() override {
        if (proc_) {
            ::kill(proc_->pid(), SIGTERM); // a graceful stop, as an operator would
            proc_->wait(std::chrono::seconds(10));
        }
        proc_.reset();
        fs::remove_all(dir_);
    }

    /// Start the gateway with `args`; its port is read from what it prints.
    void start(std::vector<std::string> args) {
        auto g = gateway_process::start(dir_ / "mcp.json", args, dir_ / "log.jsonl");
        ASSERT_TRUE(g.process);
        proc_ = std::move(g.process);
        port_ = g.port;
        url_ = g.url;
    }

    std::string log_text() const { return gateway_process::text_of_file(dir_ / "log.jsonl"); }
    std::vector<object> log_lines() const {
        std::vector<object> out;
        std::istringstream in(log_text());
        std::string line;
        while (std::getline(in, line)) out.push_back(mcp::json::parse(line).as_object()); // each line is JSON
        return out;
    }

    mcp::http::fetch_response get(const std::string& path, mcp::http::header_list headers = {}) const {
        return mcp::http::fetch(
            {.url = "http://127.0.0.1:" + std::to_string(port_) + path, .headers = std::move(headers)});
    }
    /// A 2026-07-28 request (one POST), with `token` unless empty.
    rpc_reply post(const std::string& method, object params, const std::string& token,
                   mcp::http::header_list extra = {}, mcp::http::fetch_response* raw = nullptr) const {
        params["_meta"] = object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                 {"io.modelcontextprotocol/clientCapabilities", object{}}};
        mcp::http::header_list h{{"Content-Type", "application/json"},
                                 {"Accept", "application/json, text/event-stream"},
                                 {"MCP-Protocol-Version", "2026-07-28"},
                                 {"Mcp-Method", method}};
        if (auto n = mcp::find_string(params, "name")) h.emplace_back("Mcp-Name", std::string(*n));
        if (auto u = mcp::find_string(params, "uri")) h.emplace_back("Mcp-Name", std::string(*u));
        if (!token.empty()) h.emplace_back("Authorization", "Bearer " + token);
        for (auto& e : extra) h.push_back(std::move(e));
        const object body{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", std::move(params)}};
        auto r = mcp::http::fetch({.method = "POST",
                                   .url = url_,
                                   .headers = std::move(h),
                                   .body = mcp::to_json(mcp::json::value(body))});
        if (raw) *raw = r;
        return parse_reply(r);
    }

    fs::path dir_;
    std::unique_ptr<raw_process> proc_;
    unsigned short port_ = 0;
    std::string url_;
};

TEST_F(gateway_cli, NoTokenIs401AndATokenGetsIn) {
    start({"--token-file", (dir_ / "tokens.json").string(), "--approve-all"});
    mcp::http::fetch_response raw;
    auto none = post("tools/list", {}, "", {}, &raw);
    EXPECT_EQ(none.status, 401);
    EXPECT_THAT(std::string(raw.header("WWW-Authenticate").value_or("")), HasSubstr("Bearer"));
    ASSERT_TRUE(none.is_error());
    EXPECT_THAT(mcp::to_json(none.message), HasSubstr("Authorization: Bearer"));
    EXPECT_EQ(post("tools/list", {}, "not-a-known-token-at-all").status, 401);

    auto listed = post("tools/list", {}, bob);
    ASSERT_EQ(listed.status, 200) << mcp::to_json(listed.message);
    EXPECT_GT(listed.result().at("tools").as_array().size(), 10u);
    auto call =
        post("tools/call", {{"name", "everything__echo"}, {"arguments", object{{"text", "hi"}}}}, bob);
    EXPECT_EQ(text_of(call.result()), "hi");

    // alice's token sees only the tools its patterns allow.
    auto mine = post("tools/list", {}, alice);
    ASSERT_EQ(mine.result().at("tools").as_array().size(), 1u);
    auto other =
        post("tools/call", {{"name", "everything__add"}, {"arguments", object{{"a", 1}, {"b", 2}}}}, alice);
    ASSERT_TRUE(other.is_error());
    EXPECT_EQ(other.error_code(), mcp::error_code::invalid_params);

    // The log: JSON lines, the refusals (without the tokens) and the requests with their principal.
    bool refused = false, bobs_call = false;
    for (const auto& l : log_lines()) {
        EXPECT_TRUE(l.contains("time") && l.contains("level")) << mcp::to_json(mcp::json::value(l));
        const auto ev = mcp::find_string(l, "event").value_or("");
        refused |= ev == "unauthorized";
        bobs_call |= ev == "request" && mcp::find_string(l, "principal").value_or("") == "bob" &&
                     mcp::find_string(l, "target").value_or("") == "everything__echo";
    }
    EXPECT_TRUE(refused);
    EXPECT_TRUE(bobs_call);
    EXPECT_EQ(log_text().find(alice), std::string::npos);
    EXPECT_EQ(log_text().find(bob), std::string::npos);
}

TEST_F(gateway_cli, TheAuditLogSaysWhichTokensPrincipalCalled) {
    const auto audit = dir_ / "audit.jsonl";
    start({"--token-file", (dir_ / "tokens.json").string(), "--approve-all", "--audit-log", audit.string(),
           "--redact"});
    const object arguments{{"name", "everything__echo"}, {"arguments", object{{"text", "pin 1234"}}}};
    EXPECT_EQ(text_of(post("tools/call", arguments, bob).result()), "pin 1234");
    EXPECT_EQ(text_of(post("tools/call", arguments, alice).result()), "pin 1234");
    std::ifstream in(audit);
    std::vector<object> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(mcp::json::parse(l).as_object());
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].at("principal"), "bob");
    EXPECT_EQ(lines[1].at("principal"), "alice");
    for (const auto& l : lines) {
        EXPECT_EQ(l.at("server"), "everything");
        EXPECT_EQ(l.at("tool"), "echo");
        EXPECT_EQ(l.at("outcome"), "ok");
        EXPECT_FALSE(l.contains("arguments"));
        EXPECT_THAT(std::string(l.at("argumentsDigest").as_string()), testing::StartsWith("hmac-sha256:"));
    }
    // One key for the installation: the same arguments, the same digest, whoever called.
    EXPECT_EQ(lines[0].at("argumentsDigest"), lines[1].at("argumentsDigest"));
    const auto key = dir_ / "xdg-config" / "mcpxx" / "audit-key";
    ASSERT_TRUE(fs::is_regular_file(key));
    EXPECT_EQ(fs::status(key).permissions(), fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(gateway_cli, ATokensPatternsLimitPromptsAndResourcesToo) {
    std::ofstream(dir_ / "mcp.json") << R"({"mcpServers": {"everything": {"command": ")" +
                                            built("everything_server") + R"("}, "echo": {"command": ")" +
                                            built("echo_server") + R"("}}})";
    // carol may use the echo server only; dave sees everything's tools but one resource.
    const std::string carol = "carol-token-0123456789", dave = "dave-token-0123456789";
    std::ofstream(dir_ / "limited.json")
        << R"({"tokens": [{"token": ")" + carol +
               R"(", "name": "carol", "tools": ["echo__*"]},)"
               R"( {"token": ")" +
               dave +
               R"(", "name": "dave", "tools": ["everything__*"],)"
               R"( "resources": ["mcpxx://everything/test://static/resource/1"]},)"
               R"( {"token": ")" +
               bob + R"(", "name": "bob"}]})";
    start({"--token-file", (dir_ / "limited.json").string(), "--approve-all"});
    const std::string resource = "mcpxx://everything/test://static/resource/1";
    const std::string tmpl = "mcpxx://everything/test://static/resource/{id}";

    // bob: no patterns, everything.
    EXPECT_EQ(post("prompts/list", {}, bob).result().at("prompts").as_array().size(), 4u);
    EXPECT_EQ(post("resources/templates/list", {}, bob).result().at("resourceTemplates").as_array().size(),
              2u);

    // carol: echo's tool, and nothing of the everything server: no prompts, resources, templates.
    auto tools = post("tools/list", {}, carol).result().at("tools").as_array();
    ASSERT_EQ(tools.size(), 1u);
    EXPECT_EQ(tools[0].at("name"), "echo__echo");
    EXPECT_TRUE(post("prompts/list", {}, carol).result().at("prompts").as_array().empty());
    EXPECT_TRUE(post("resources/list", {}, carol).result().at("resources").as_array().empty());
    EXPECT_TRUE(
        post("resources/templates/list", {}, carol).result().at("resourceTemplates").as_array().empty());
    // Hidden things are answered as unknown ones are.
    auto hidden_read = post("resources/read", {{"uri", resource}}, carol);
    auto unknown_read = post("resources/read", {{"uri", "mcpxx://nowhere/x"}}, carol);
    ASSERT_TRUE(hidden_read.is_error() && unknown_read.is_error()) << mcp::to_json(hidden_read.message);
    EXPECT_EQ(hidden_read.error_code(), unknown_read.error_code());
    EXPECT_THAT(mcp::to_json(hidden_read.message), HasSubstr("Resource not found: " + resource));
    auto hidden_prompt = post("prompts/get", {{"name", "everything__simple_prompt"}}, carol);
    ASSERT_TRUE(hidden_prompt.is_error());
    EXPECT_EQ(hidden_prompt.error_code(), mcp::error_code::invalid_params);
    EXPECT_THAT(mcp::to_json(hidden_prompt.message), HasSubstr("Unknown prompt: everything__simple_prompt"));
    auto hidden_completion =
        post("completion/complete",
             {{"ref", object{{"type", "ref/prompt"}, {"name", "everything__complex_prompt"}}},
              {"argument", object{{"name", "style"}, {"value", "f"}}}},
             carol);
    ASSERT_TRUE(hidden_completion.is_error());
    EXPECT_THAT(mcp::to_json(hidden_completion.message), HasSubstr("Unknown prompt"));
    auto hidden_template = post("completion/complete",
                                {{"ref", object{{"type", "ref/resource"}, {"uri", tmpl}}},
                                 {"argument", object{{"name", "id"}, {"value", "1"}}}},
                                carol);
    ASSERT_TRUE(hidden_template.is_error());
    EXPECT_THAT(mcp::to_json(hidden_template.message), HasSubstr("Unknown resource template"));
    EXPECT_EQ(
        post("tools/call", {{"name", "echo__echo"}, {"arguments", object{{"text", "ok"}}}}, carol).status,
        200);

    // dave: everything's tools and prompts, and the one resource his "resources" patterns name.
    EXPECT_EQ(post("prompts/list", {}, dave).result().at("prompts").as_array().size(), 4u);
    auto listed = post("resources/list", {}, dave).result().at("resources").as_array();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].at("uri").as_string(), resource);
    EXPECT_FALSE(post("resources/read", {{"uri", resource}}, dave).is_error());
    EXPECT_TRUE(
        post("resources/read", {{"uri", "mcpxx://everything/test://static/resource/3"}}, dave).is_error());
    EXPECT_TRUE(
        post("resources/templates/list", {}, dave).result().at("resourceTemplates").as_array().empty());

    // dave's listen stream: its acknowledgement grants the resource he may see, not the other.
    const std::string other = "mcpxx://everything/test://static/resource/3";
    object listen{{"notifications",
                   object{{"resourceSubscriptions", mcp::json::array{resource.c_str(), other.c_str()}}}},
                  {"_meta", object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                   {"io.modelcontextprotocol/clientCapabilities", object{}}}}};
    std::string stream;
    try {
        mcp::http::fetch({.method = "POST",
                          .url = url_,
                          .headers = {{"Content-Type", "application/json"},
                                      {"Accept", "application/json, text/event-stream"},
                                      {"MCP-Protocol-Version", "2026-07-28"},
                                      {"Mcp-Method", "subscriptions/listen"},
                                      {"Authorization", "Bearer " + dave}},
                          .body = mcp::to_json(mcp::json::value(object{{"jsonrpc", "2.0"},
                                                                       {"id", 7},
                                                                       {"method", "subscriptions/listen"},
                                                                       {"params", std::move(listen)}})),
                          .timeout = std::chrono::seconds(20),
                          .on_body = [&](std::string_view bytes) {
                              stream.append(bytes);
                              return stream.find("acknowledged") == std::string::npos ||
                                     stream.find("\n\n", stream.find("acknowledged")) == std::string::npos;
                          }});
    } catch (const std::exception&) {
    }
    ASSERT_THAT(stream, HasSubstr("notifications/subscriptions/acknowledged"));
    EXPECT_THAT(stream, HasSubstr(resource));
    EXPECT_THAT(stream, Not(HasSubstr(other)));
}

TEST_F(gateway_cli, OverTheRateIs429WithRetryAfter) {
    start({"--token-file", (dir_ / "tokens.json").string(), "--rate", "0.5", "--burst", "2"});
    EXPECT_EQ(post("tools/list", {}, bob).status, 200);
    EXPECT_EQ(post("tools/list", {}, bob).status, 200);
    mcp::http::fetch_response raw;
    auto third = post("tools/list", {}, bob, {}, &raw);
    EXPECT_EQ(third.status, 429);
    ASSERT_TRUE(raw.header("Retry-After"));
    EXPECT_GE(std::stoi(std::string(*raw.header("Retry-After"))), 1);
    ASSERT_TRUE(third.is_error());
    EXPECT_EQ(third.error_code(), mcp::error_code::rate_limited);
    // The initialize era too: bob's initialize is over the rate as well.
    auto init = mcp::http::fetch(
        {.method = "POST",
         .url = url_,
         .headers = {{"Content-Type", "application/json"},
                     {"Accept", "application/json, text/event-stream"},
                     {"Authorization", "Bearer " + bob}},
         .body = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                 R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"});
    EXPECT_EQ(init.status, 429);
    EXPECT_TRUE(init.header("Retry-After"));
    EXPECT_EQ(mcp::json::parse(init.body).at("error").at("code"), mcp::error_code::rate_limited);
    EXPECT_EQ(mcp::error_code::rate_limited,
              429); // the code is the status, outside JSON-RPC's reserved range
    // Per token: alice (a rate of her own) is not held back by bob's bucket.
    EXPECT_EQ(post("tools/list", {}, alice).status, 200);
    // Counted in the metrics as refusals, not as requests or errors of what they named: the
    // servers behind never saw them.
    auto m = get("/metrics", {{"Authorization", "Bearer " + bob}});
    EXPECT_THAT(m.body, HasSubstr("mcp_refused_total{method=\"tools/list\",reason=\"rate_limited\"} 1"));
    EXPECT_THAT(m.body, HasSubstr("mcp_refused_total{method=\"initialize\",reason=\"rate_limited\"} 1"));
    EXPECT_THAT(m.body, HasSubstr("mcp_requests_total{method=\"tools/list\"} 3")); // bob 2, alice 1
    EXPECT_THAT(m.body, HasSubstr("mcp_errors_total{method=\"tools/list\"} 0"));
    EXPECT_THAT(m.body, Not(HasSubstr("mcp_requests_total{method=\"initialize\"")));
    bool logged = false;
    for (const auto& l : log_lines()) logged |= mcp::find_string(l, "outcome").value_or("") == "rate_limited";
    EXPECT_TRUE(logged) << log_text();
}

TEST_F(gateway_cli, NotificationsAreNotRateLimited) {
    // One request a second, no burst: the notifications of a session must neither be refused
    // nor take the token the next request needs.
    start({"--token-file", (dir_ / "tokens.json").string(), "--rate", "1", "--burst", "1"});
    auto send = [&](const std::string& body, const std::string& session) {
        mcp::http::header_list h{{"Content-Type", "application/json"},
                                 {"Accept", "application/json, text/event-stream"},
                                 {"Authorization", "Bearer " + bob}};
        if (!session.empty()) {
            h.emplace_back("Mcp-Session-Id", session);
            h.emplace_back("MCP-Protocol-Version", "2025-11-25");
        }
        return mcp::http::fetch({.method = "POST", .url = url_, .headers = std::move(h), .body = body});
    };
    auto init = send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
                     R"("2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
                     "");
    ASSERT_EQ(init.status, 200) << init.body;
    const std::string session(init.header("Mcp-Session-Id").value_or(""));
    ASSERT_FALSE(session.empty());
    std::this_thread::sleep_for(1100ms); // the bucket is full again: one request
    EXPECT_EQ(send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session).status, 202);
    EXPECT_EQ(
        send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})", session)
            .status,
        202);
    auto list = send(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", session);
    EXPECT_EQ(list.status, 200) << list.body;
    EXPECT_THAT(list.body, HasSubstr("everything__echo"));
}

TEST_F(gateway_cli, ForeignOriginIs403) {
    start({});
    auto r = post("tools/list", {}, "", {{"Origin", "http://evil.example"}});
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(post("tools/list", {}, "", {{"Origin", "http://localhost:3000"}}).status, 200);
}

// Bad tokens as fast as a client can send them (measured before: 277k log lines, 37 MB in 5 s
// against --token-file --rate 5): after the address's budget of refusals every request is 429
// before authentication, and the log stays a few lines long.
TEST_F(gateway_cli, AFloodOfBadTokensIsCutShortAndItsLogIsBounded) {
    start({"--token-file", (dir_ / "tokens.json").string(), "--rate", "5"});
    int unauthorized = 0, limited = 0;
    const auto began = std::chrono::steady_clock::now();
    for (int i = 0; i < 300; ++i) {
        mcp::http::fetch_response raw;
        const auto r = post("tools/list", {}, "bad-token-number-" + std::to_string(i), {}, &raw);
        if (r.status == 401) ++unauthorized;
        if (r.status == 429) {
            ++limited;
            EXPECT_TRUE(raw.header("Retry-After"));
        }
    }
    // The budget: a burst of 20, then one a second; the bound follows the time the loop really
    // took (a loaded CI under a sanitizer may take many seconds for it).
    const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    EXPECT_GE(unauthorized, 20);
    EXPECT_LE(unauthorized, 20 + static_cast<int>(std::ceil(elapsed)) + 1) << elapsed << " s";
    EXPECT_EQ(unauthorized + limited, 300);
    std::size_t refusal_lines = 0, lines = 0;
    for (const auto& l : log_lines()) { // still JSON, every line
        ++lines;
        refusal_lines += mcp::find_string(l, "event").value_or("") == "unauthorized";
    }
    EXPECT_EQ(refusal_lines, static_cast<std::size_t>(unauthorized));
    // Besides one line per refusal (the application's), a few: start-up, the one saying the
    // address went over, and no line per 429.
    EXPECT_LT(lines, static_cast<std::size_t>(unauthorized) + 30) << log_text().substr(0, 3000);
    EXPECT_THAT(log_text(), HasSubstr("too many refused authentications"));
}

TEST_F(gateway_cli, HealthAndMetrics) {
    start({"--token-file", (dir_ / "tokens.json").string()});
    // Without a token (a load balancer's probe): the status and nothing else.
    auto probe = get("/healthz");
    ASSERT_EQ(probe.status, 200);
    EXPECT_EQ(probe.body, "{\"status\":\"ok\"}\n");
    EXPECT_EQ(get("/healthz", {{"Authorization", "Bearer not-a-known-token-at-all"}}).body,
              "{\"status\":\"ok\"}\n");
    auto h = get("/healthz", {{"Authorization", "Bearer " + bob}});
    ASSERT_EQ(h.status, 200);
    EXPECT_THAT(std::string(h.header("Content-Type").value_or("")), HasSubstr("application/json"));
    const auto health = mcp::json::parse(h.body).as_object();
    EXPECT_EQ(health.at("status").as_string(), "ok");
    const auto& s = health.at("servers").as_array().at(0).as_object();
    EXPECT_EQ(s.at("name").as_string(), "everything");
    EXPECT_EQ(s.at("state").as_string(), "ready");
    EXPECT_GT(s.at("tools").to_number<std::int64_t>(), 10);

    EXPECT_EQ(get("/metrics").status, 401); // metrics need a token when tokens are configured
    post("tools/call", {{"name", "everything__echo"}, {"arguments", object{{"text", "m"}}}}, bob);
    auto m = get("/metrics", {{"Authorization", "Bearer " + bob}});
    ASSERT_EQ(m.status, 200);
    EXPECT_THAT(std::string(m.header("Content-Type").value_or("")), HasSubstr("text/plain; version=0.0.4"));
    EXPECT_THAT(m.body, HasSubstr("# TYPE mcp_request_duration_seconds histogram"));
    EXPECT_THAT(m.body,
                HasSubstr("mcp_requests_total{method=\"tools/call\",server=\"everything\",tool=\"echo\"} 1"));
    EXPECT_THAT(m.body,
                HasSubstr("mcp_request_duration_seconds_bucket{method=\"tools/call\",server=\"everything\","
                          "tool=\"echo\",le=\"+Inf\"} 1"));
    // One series per server for "up", whatever its state; the state as one gauge per state.
    EXPECT_THAT(m.body, HasSubstr("mcpxx_gateway_server_up{server=\"everything\"} 1\n"));
    EXPECT_THAT(m.body, HasSubstr("mcpxx_gateway_server_state{server=\"everything\",state=\"ready\"} 1\n"));
    for (const char* state : {"starting", "restarting", "failed", "stopped"})
        EXPECT_THAT(m.body, HasSubstr("mcpxx_gateway_server_state{server=\"everything\",state=\"" +
                                      std::string(state) + "\"} 0\n"));
    EXPECT_THAT(m.body, HasSubstr("mcpxx_gateway_unauthorized_total 1"));

    // Made-up tool names: one label for all of them in the metrics, clipped in the log.
    for (int i = 0; i < 30; ++i)
        post("tools/call", {{"name", std::string(2000, 'x') + std::to_string(i)}, {"arguments", object{}}},
             bob);
    m = get("/metrics", {{"Authorization", "Bearer " + bob}});
    EXPECT_THAT(m.body, HasSubstr("mcp_errors_total{method=\"tools/call\",tool=\"(unknown)\"} 30"));
    EXPECT_LT(m.body.size(), 20000u);
    EXPECT_EQ(m.body.find("xxxx"), std::string::npos);
    bool clipped = false;
    for (const auto& l : log_lines()) {
        const auto target = mcp::find_string(l, "target").value_or("");
        EXPECT_LT(target.size(), 260u);
        clipped |= target.find("... (1801 more bytes)") != std::string_view::npos;
        EXPECT_LT(mcp::find_string(l, "message").value_or("").size(), 260u);
    }
    EXPECT_TRUE(clipped) << log_text().substr(0, 3000);
}

TEST_F(gateway_cli, SigtermStopsTheGatewayAndItsServers) {
    start({});
    const auto health = mcp::json::parse(get("/healthz").body).as_object();
    const int child = static_cast<int>(health.at("servers").as_array()[0].as_object().at("pid").as_int64());
    ASSERT_EQ(::kill(child, 0), 0);
    ASSERT_EQ(::kill(proc_->pid(), SIGTERM), 0);
    auto code = proc_->wait(std::chrono::seconds(15));
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0);
    EXPECT_TRUE(wait_until([&] { return ::kill(child, 0) != 0; }, 5s))
        << "the server process outlived the gateway";
    bool stopped = false;
    for (const auto& l : log_lines()) stopped |= mcp::find_string(l, "event").value_or("") == "stopped";
    EXPECT_TRUE(stopped);
}

// A server that answers every tools/list with 20,000 tools and a fresh nextCursor: the
// gateway's walk stops at client_options::listing.max_items, says so, stays small, and serves
// the other server.
TEST_F(gateway_cli, AServerThatPagesForeverIsRefusedAndTheOthersServed) {
    std::ofstream(dir_ / "mcp.json") << R"({"mcpServers": {"everything": {"command": ")" +
                                            built("everything_server") + R"("}, "rogue": {"command": ")" +
                                            built("rogue_server") + R"(", "args": ["endless-pages"]}}})";
    const auto began = std::chrono::steady_clock::now();
    start({});
    EXPECT_LT(std::chrono::steady_clock::now() - began, 20s);
    const auto health = mcp::json::parse(get("/healthz").body).as_object();
    std::string rogue_error;
    for (const auto& s : health.at("servers").as_array()) {
        const auto& o = s.as_object();
        if (o.at("name") == "everything") {
            EXPECT_EQ(o.at("state"), "ready");
        }
        if (o.at("name") == "rogue") {
            EXPECT_NE(o.at("state"), "ready");
            rogue_error = mcp::find_string(o, "error").value_or("");
        }
    }
    EXPECT_THAT(rogue_error, HasSubstr("listing tools: the server sent 20000 items (in 1 page), more than "
                                       "the 10000 client_options::listing.max_items allows"));
    auto list = post("tools/list", {}, "");
    ASSERT_EQ(list.status, 200);
    EXPECT_FALSE(list.result().at("tools").as_array().empty());
    // Its peak memory: a few pages of 2.4 MB, never the gigabytes of an endless walk.
    std::ifstream status("/proc/" + std::to_string(proc_->pid()) + "/status");
    std::size_t peak_kb = 0;
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) peak_kb = std::stoull(line.substr(6));
    EXPECT_GT(peak_kb, 0u);
    EXPECT_LT(peak_kb, 300u * 1024) << "peak RSS " << peak_kb << " kB";
}

// A server that never answers initialize: SIGTERM while the gateway waits for it (60 s) stops
// the gateway at once, and the server process with it.
TEST_F(gateway_cli, SigtermWhileAServerStartsStopsTheGatewayAtOnce) {
    std::ofstream(dir_ / "mcp.json") << R"({"mcpServers": {"slow": {"command": ")" + built("rogue_server") +
                                            R"(", "args": ["silent"]}}})";
    const std::string cmd = "exec '" + built("mcpxx") + "' gateway --config '" +
                            (dir_ / "mcp.json").string() + "' --listen 127.0.0.1:0 --timeout 60 2>>'" +
                            (dir_ / "log.jsonl").string() + "'";
    proc_ = std::make_unique<raw_process>(std::vector<std::string>{"/bin/sh", "-c", cmd});
    // Signalled only once the gateway says it is starting its servers: its stop handlers are in
    // place by then (before that SIGTERM's default action would end it, which is not tested here).
    ASSERT_TRUE(mcp::test::eventually(
        [&] {
            for (const auto& l : log_lines())
                if (mcp::find_string(l, "event").value_or("") == "starting") return true;
            return false;
        },
        std::chrono::seconds(20)))
        << log_text();
    std::this_thread::sleep_for(200ms); // into start(): the silent server is being initialized
    ASSERT_EQ(::kill(proc_->pid(), SIGTERM), 0);
    const auto sent = std::chrono::steady_clock::now();
    auto code = proc_->wait(std::chrono::seconds(15));
    ASSERT_TRUE(code) << "the gateway ignored SIGTERM while starting; log:\n" << log_text();
    // The grace period: http.stop(5 s) once serving; a child's stop is at most its own grace.
    EXPECT_LT(std::chrono::steady_clock::now() - sent, 6s);
    EXPECT_EQ(*code, 0);
    bool stopped = false;
    for (const auto& l : log_lines()) stopped |= mcp::find_string(l, "event").value_or("") == "stopped";
    EXPECT_TRUE(stopped) << log_text();
    proc_.reset();
}

TEST_F(gateway_cli, HealthIs503WhenNoServerIsUp) {
    std::ofstream(dir_ / "mcp.json") << R"({"mcpServers": {"gone": {"command": "/nonexistent/server"}}})";
    start({"--token-file", (dir_ / "tokens.json").string()});
    auto probe = get("/healthz");
    EXPECT_EQ(probe.status, 503);
    EXPECT_EQ(probe.body, "{\"status\":\"down\"}\n"); // no names, errors or paths without a token
    auto h = get("/healthz", {{"Authorization", "Bearer " + bob}});
    EXPECT_EQ(h.status, 503);
    const auto health = mcp::json::parse(h.body).as_object();
    EXPECT_EQ(health.at("status").as_string(), "down");
    // Not given up: the gateway tries it again for as long as it runs.
    EXPECT_EQ(health.at("servers").as_array()[0].as_object().at("state").as_string(), "restarting");
    // The endpoint still answers, with an empty catalogue.
    auto list = post("tools/list", {}, bob);
    ASSERT_EQ(list.status, 200);
    EXPECT_TRUE(list.result().at("tools").as_array().empty());
}

TEST_F(gateway_cli, ServesStdioToo) {
    raw_process p(
        {built("mcpxx"), "gateway", "--stdio", "--approve-all", "--config", (dir_ / "mcp.json").string()});
    ASSERT_TRUE(
        p.write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
                "\n"));
    auto init = p.read_line(std::chrono::seconds(20));
    ASSERT_TRUE(init) << p.stderr_text();
    EXPECT_THAT(*init, HasSubstr("mcpxx-gateway"));
    ASSERT_TRUE(
        p.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                "\n"
                R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"everything__echo",)"
                R"("arguments":{"text":"over stdio"}}})"
                "\n"));
    auto call = p.read_line(std::chrono::seconds(10));
    ASSERT_TRUE(call);
    EXPECT_THAT(*call, HasSubstr("over stdio"));
    p.close_stdin();
    auto code = p.wait(std::chrono::seconds(15));
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0);
}

TEST_F(gateway_cli, RefusesToListenBeyondLoopbackWithoutTokens) {
    raw_process p(
        {built("mcpxx"), "gateway", "--config", (dir_ / "mcp.json").string(), "--listen", "0.0.0.0:0"});
    auto code = p.wait(std::chrono::seconds(10));
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 2);
    EXPECT_THAT(p.stderr_text(), HasSubstr("needs tokens"));
}

TEST_F(gateway_cli, ABrokenTokenFileIsAUsageError) {
    std::ofstream(dir_ / "bad.json") << R"({"tokens": [{"token": "short"}]})";
    raw_process p({built("mcpxx"), "gateway", "--config", (dir_ / "mcp.json").string(), "--token-file",
                   (dir_ / "bad.json").string()});
    auto code = p.wait(std::chrono::seconds(10));
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 2);
    EXPECT_THAT(p.stderr_text(), HasSubstr("tokens[0]: a bearer token must have at least 8 characters"));
}

TEST_F(gateway_cli, ATimeoutThatIsNotAPositiveNumberIsAUsageError) {
    for (const char* timeout : {"-5", "0", "soon"}) {
        raw_process p(
            {built("mcpxx"), "gateway", "--config", (dir_ / "mcp.json").string(), "--timeout", timeout});
        auto code = p.wait(std::chrono::seconds(10));
        ASSERT_TRUE(code) << timeout;
        EXPECT_EQ(*code, 2) << timeout;
        EXPECT_THAT(p.stderr_text(),
                    HasSubstr(std::string("--timeout: must be a number of seconds above 0 and at "
                                          "most 86400, not \"") +
                              timeout + "\""));
    }
}

} // namespace
