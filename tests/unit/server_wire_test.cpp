// Wire tests of mcp::server: a scripted client sends real JSON-RPC text and checks the replies.
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"

#include <gtest/gtest.h>

#include <thread>

using namespace std::chrono_literals;
using mcp::json::object;
using mcp::json::value;

namespace {

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

struct server_fixture : ::testing::Test {
    std::unique_ptr<mcp::server> srv;
    std::shared_ptr<mcp::test::scripted_transport> wire = std::make_shared<mcp::test::scripted_transport>();
    std::unique_ptr<mcp::test::wire_peer> client;
    std::shared_ptr<mcp::server_session> peer;

    void make(mcp::server_options o = {}) {
        o.info = {.name = "wire",
                  .version = "1.0",
                  .title = "Wire server",
                  .description = "for tests",
                  .website_url = "https://example.invalid"};
        o.instructions = "be nice";
        srv = std::make_unique<mcp::server>(std::move(o));
    }
    void connect() {
        peer = srv->connect(wire);
        client = std::make_unique<mcp::test::wire_peer>(wire);
    }
    void add_echo() {
        srv->add_tool({.name = "echo",
                       .title = "Echo",
                       .input_schema = obj_schema({{"text", {{"type", "string"}}}}),
                       .annotations = mcp::tool_annotations{.read_only_hint = true}},
                      [](const object& a, mcp::context&) {
                          return mcp::call_tool_result{
                              .content = {mcp::text(std::string(a.at("text").as_string()))}};
                      });
    }
    void TearDown() override {
        if (peer) peer->close();
    }
};

TEST_F(server_fixture, initialize_echoes_each_supported_revision) {
    for (auto r : {mcp::revision::v2024_11_05, mcp::revision::v2025_03_26, mcp::revision::v2025_06_18,
                   mcp::revision::v2025_11_25}) {
        make();
        add_echo();
        wire = std::make_shared<mcp::test::scripted_transport>();
        connect();
        auto res = client->initialize(r);
        EXPECT_EQ(res.at("protocolVersion").as_string(), mcp::to_string(r));
        const auto& info = res.at("serverInfo").as_object();
        EXPECT_EQ(info.at("name"), "wire");
        // title arrived in 2025-06-18, description/websiteUrl in 2025-11-25, instructions in 2025-03-26.
        EXPECT_EQ(info.contains("title"), r >= mcp::revision::v2025_06_18) << mcp::to_string(r);
        EXPECT_EQ(info.contains("websiteUrl"), r >= mcp::revision::v2025_11_25) << mcp::to_string(r);
        EXPECT_EQ(res.contains("instructions"), r >= mcp::revision::v2025_03_26) << mcp::to_string(r);
        EXPECT_TRUE(res.at("capabilities").as_object().contains("tools"));
        EXPECT_FALSE(res.at("capabilities").as_object().contains("prompts")); // nothing registered
        peer->close();
    }
}

TEST_F(server_fixture, unknown_version_gets_a_counter_offer_of_the_newest) {
    make();
    connect();
    auto res = client->result("initialize", object{{"protocolVersion", "1999-01-01"},
                                                   {"capabilities", object{}},
                                                   {"clientInfo", {{"name", "x"}, {"version", "1"}}}});
    EXPECT_EQ(res.at("protocolVersion"), "2025-11-25");
}

TEST_F(server_fixture, requests_before_initialize_are_refused_but_ping_works) {
    make();
    add_echo();
    connect();
    auto r = client->request("tools/list");
    EXPECT_EQ(r.at("error").at("code"), -32600);
    EXPECT_TRUE(client->request("ping").contains("result"));
    client->initialize();
    EXPECT_TRUE(client->request("tools/list").contains("result"));
    auto again = client->request("initialize", object{{"protocolVersion", "2025-11-25"},
                                                      {"capabilities", object{}},
                                                      {"clientInfo", {{"name", "x"}, {"version", "1"}}}});
    EXPECT_EQ(again.at("error").at("code"), -32600);
}

TEST_F(server_fixture, initialize_with_bad_params_is_invalid_params) {
    make();
    connect();
    EXPECT_EQ(client->request("initialize", object{{"capabilities", object{}}}).at("error").at("code"),
              -32602);
    EXPECT_EQ(client
                  ->request("initialize", object{{"protocolVersion", "2025-11-25"},
                                                 {"capabilities", 5},
                                                 {"clientInfo", {{"name", "x"}, {"version", "1"}}}})
                  .at("error")
                  .at("code"),
              -32602);
}

TEST_F(server_fixture, undeclared_capability_methods_are_not_found) {
    make();
    connect();
    client->initialize();
    EXPECT_EQ(client->request("tools/list").at("error").at("code"), -32601);
    EXPECT_EQ(client->request("prompts/list").at("error").at("code"), -32601);
    EXPECT_EQ(client->request("resources/subscribe", object{{"uri", "x://y"}}).at("error").at("code"),
              -32601);
}

TEST_F(server_fixture, tools_list_pages_and_rejects_bad_cursors) {
    mcp::server_options o;
    o.page_size = 2;
    make(o);
    for (const char* n : {"a", "b", "c", "d", "e"})
        srv->add_tool({.name = n}, [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    connect();
    client->initialize();
    std::vector<std::string> names;
    value cursor;
    for (int pages = 0; pages < 10; ++pages) {
        object params;
        if (!cursor.is_null()) params["cursor"] = cursor;
        auto res = client->result("tools/list", params);
        for (auto& t : res.at("tools").as_array()) names.emplace_back(t.at("name").as_string());
        if (!res.contains("nextCursor")) break;
        cursor = res.at("nextCursor");
    }
    EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
    EXPECT_EQ(client->request("tools/list", object{{"cursor", "garbage!"}}).at("error").at("code"), -32602);
    EXPECT_EQ(client->request("tools/list", object{{"cursor", 5}}).at("error").at("code"), -32602);
}

TEST_F(server_fixture, tool_definitions_follow_the_revision) {
    make();
    srv->add_tool({.name = "t",
                   .title = "T",
                   .input_schema = obj_schema(),
                   .output_schema = obj_schema(),
                   .annotations = mcp::tool_annotations{.read_only_hint = true},
                   .icons = {{.src = "https://example.invalid/i.png"}}},
                  [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    connect();
    client->initialize(mcp::revision::v2024_11_05);
    auto t = client->result("tools/list").at("tools").at(0).as_object();
    EXPECT_TRUE(t.contains("inputSchema"));
    for (const char* absent : {"title", "outputSchema", "annotations", "icons"})
        EXPECT_FALSE(t.contains(absent)) << absent;
}

TEST_F(server_fixture, tools_call_results_and_errors) {
    make();
    add_echo();
    srv->add_tool({.name = "boom"}, [](const object&, mcp::context&) -> mcp::call_tool_result {
        throw std::runtime_error("disk on fire");
    });
    srv->add_tool({.name = "protocol_error"}, [](const object&, mcp::context&) -> mcp::call_tool_result {
        throw mcp::error(-32602, "you did it wrong");
    });
    srv->add_tool({.name = "structured", .output_schema = obj_schema({{"n", {{"type", "integer"}}}})},
                  [](const object&, mcp::context&) {
                      return mcp::call_tool_result{.content = {mcp::text(R"({"n":1})")},
                                                   .structured_content = object{{"n", 1}}};
                  });
    connect();
    client->initialize();
    auto ok = client->result("tools/call", object{{"name", "echo"}, {"arguments", {{"text", "hi"}}}});
    EXPECT_EQ(mcp::to_json(ok), R"({"content":[{"type":"text","text":"hi"}]})");
    auto boom = client->result("tools/call", object{{"name", "boom"}});
    EXPECT_EQ(boom.at("isError"), true);
    EXPECT_EQ(boom.at("content").at(0).at("text"), "disk on fire");
    EXPECT_EQ(client->request("tools/call", object{{"name", "protocol_error"}}).at("error").at("code"),
              -32602);
    auto unknown = client->request("tools/call", object{{"name", "nope"}});
    EXPECT_EQ(unknown.at("error").at("code"), -32602);
    EXPECT_EQ(unknown.at("error").at("message"), "Unknown tool: nope");
    EXPECT_EQ(
        client->request("tools/call", object{{"name", "echo"}, {"arguments", "text"}}).at("error").at("code"),
        -32602);
    EXPECT_EQ(client->request("tools/call", object{{"arguments", object{}}}).at("error").at("code"), -32602);
    auto s = client->result("tools/call", object{{"name", "structured"}});
    EXPECT_EQ(s.at("structuredContent").at("n"), 1);
}

TEST_F(server_fixture, structured_content_is_not_sent_to_old_revisions) {
    make();
    srv->add_tool({.name = "structured"}, [](const object&, mcp::context&) {
        return mcp::call_tool_result{.content = {mcp::text(R"({"n":1})")},
                                     .structured_content = object{{"n", 1}}};
    });
    connect();
    client->initialize(mcp::revision::v2025_03_26);
    auto s = client->result("tools/call", object{{"name", "structured"}});
    EXPECT_FALSE(s.contains("structuredContent"));
    EXPECT_EQ(s.at("content").at(0).at("text"), R"({"n":1})");
}

TEST_F(server_fixture, progress_and_cancellation_of_a_tool) {
    make();
    std::atomic<bool> saw_cancel{false};
    srv->add_tool({.name = "work"}, [&](const object&, mcp::context& ctx) {
        ctx.progress(1, 3, "one");
        while (!ctx.cancelled()) std::this_thread::sleep_for(1ms);
        saw_cancel = true;
        return mcp::call_tool_result{};
    });
    connect();
    client->initialize();
    wire->inject(
        R"({"jsonrpc":"2.0","id":"w1","method":"tools/call","params":{"name":"work","_meta":{"progressToken":"tok"}}})");
    auto p = client->next_message("notifications/progress");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->at("params").at("progressToken"), "tok");
    EXPECT_EQ(p->at("params").at("message"), "one");
    client->notify("notifications/cancelled", object{{"requestId", "w1"}, {"reason", "changed my mind"}});
    for (int i = 0; i < 500 && !saw_cancel; ++i) std::this_thread::sleep_for(2ms);
    EXPECT_TRUE(saw_cancel);
    EXPECT_FALSE(wire->next(200ms)); // no response after cancellation
}

TEST_F(server_fixture, list_changed_is_sent_when_tools_change) {
    make();
    add_echo();
    connect();
    client->initialize();
    srv->add_tool({.name = "new"}, [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(client->next_message("notifications/tools/list_changed"));
    EXPECT_TRUE(srv->remove_tool("new"));
    EXPECT_TRUE(client->next_message("notifications/tools/list_changed"));
    EXPECT_FALSE(srv->remove_tool("new"));
}

struct resources_fixture : server_fixture {
    void SetUp() override {
        make();
        srv->add_resource({.uri = "mem://a", .name = "a", .mime_type = "text/plain"},
                          [](const std::string& uri, mcp::context&) {
                              return mcp::read_resource_result{
                                  .contents = {mcp::text_resource_contents{.uri = uri, .text = "A"}}};
                          });
        srv->add_resource({.uri = "mem://bin", .name = "bin"}, [](const std::string& uri, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::blob_resource_contents{.uri = uri, .blob = "AAEC"}}};
        });
        srv->add_resource_template(
            {.uri_template = "mem://items/{id}", .name = "item"},
            [](const std::string& uri, const std::map<std::string, std::string>& v, mcp::context&) {
                return mcp::read_resource_result{
                    .contents = {mcp::text_resource_contents{.uri = uri, .text = "item " + v.at("id")}}};
            },
            {{"id",
              [](const std::string&, const std::string& value, const std::map<std::string, std::string>&) {
                  mcp::complete_result r;
                  for (int i = 0; i < 150; ++i)
                      if (std::to_string(i).rfind(value, 0) == 0) r.values.push_back(std::to_string(i));
                  return r;
              }}});
        connect();
        client->initialize();
    }
};

TEST_F(resources_fixture, list_read_and_templates) {
    auto list = client->result("resources/list");
    EXPECT_EQ(list.at("resources").as_array().size(), 2u);
    auto a = client->result("resources/read", object{{"uri", "mem://a"}});
    EXPECT_EQ(mcp::to_json(a), R"({"contents":[{"uri":"mem://a","text":"A"}]})");
    auto bin = client->result("resources/read", object{{"uri", "mem://bin"}});
    EXPECT_EQ(bin.at("contents").at(0).at("blob"), "AAEC");
    auto item = client->result("resources/read", object{{"uri", "mem://items/42"}});
    EXPECT_EQ(item.at("contents").at(0).at("text"), "item 42");
    auto templates = client->result("resources/templates/list");
    EXPECT_EQ(templates.at("resourceTemplates").at(0).at("uriTemplate"), "mem://items/{id}");
}

TEST_F(resources_fixture, missing_resource_is_32002_with_the_uri) {
    auto r = client->request("resources/read", object{{"uri", "mem://nope"}});
    EXPECT_EQ(r.at("error").at("code"), -32002);
    EXPECT_EQ(r.at("error").at("data").at("uri"), "mem://nope");
    EXPECT_EQ(client->request("resources/read", object{}).at("error").at("code"), -32602);
}

TEST_F(resources_fixture, subscriptions_deliver_updates) {
    EXPECT_TRUE(client->request("resources/subscribe", object{{"uri", "mem://a"}}).contains("result"));
    srv->notify_resource_updated("mem://bin"); // not subscribed: nothing
    srv->notify_resource_updated("mem://a");
    auto n = client->next_message("notifications/resources/updated");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->at("params").at("uri"), "mem://a");
    EXPECT_TRUE(client->request("resources/unsubscribe", object{{"uri", "mem://a"}}).contains("result"));
    srv->notify_resource_updated("mem://a");
    EXPECT_FALSE(client->next_message("notifications/resources/updated", 200ms));
}

TEST_F(resources_fixture, completion_of_template_variables_caps_at_100) {
    auto r = client->result("completion/complete",
                            object{{"ref", {{"type", "ref/resource"}, {"uri", "mem://items/{id}"}}},
                                   {"argument", {{"name", "id"}, {"value", ""}}}});
    const auto& c = r.at("completion").as_object();
    EXPECT_EQ(c.at("values").as_array().size(), 100u);
    EXPECT_EQ(c.at("total"), 150);
    EXPECT_EQ(c.at("hasMore"), true);
    auto few = client->result("completion/complete",
                              object{{"ref", {{"type", "ref/resource"}, {"uri", "mem://items/{id}"}}},
                                     {"argument", {{"name", "id"}, {"value", "14"}}}});
    EXPECT_EQ(few.at("completion").at("values").as_array().size(), 11u); // 14, 140..149
    EXPECT_EQ(client
                  ->request("completion/complete", object{{"ref", {{"type", "ref/resource"}, {"uri", "zzz"}}},
                                                          {"argument", {{"name", "id"}, {"value", ""}}}})
                  .at("error")
                  .at("code"),
              -32602);
}

struct prompts_fixture : server_fixture {
    void SetUp() override {
        make();
        srv->add_prompt(
            {.name = "greet", .arguments = {{.name = "who", .required = true}, {.name = "tone"}}},
            [](const std::map<std::string, std::string>& a, mcp::context&) {
                return mcp::get_prompt_result{
                    .messages = {{.role = mcp::role::user, .content = mcp::text("Hello " + a.at("who"))}}};
            });
        connect();
        client->initialize();
    }
};

TEST_F(prompts_fixture, get_checks_arguments) {
    auto ok = client->result("prompts/get", object{{"name", "greet"}, {"arguments", {{"who", "Ada"}}}});
    EXPECT_EQ(mcp::to_json(ok),
              R"({"messages":[{"role":"user","content":{"type":"text","text":"Hello Ada"}}]})");
    auto missing = client->request("prompts/get", object{{"name", "greet"}});
    EXPECT_EQ(missing.at("error").at("code"), -32602);
    EXPECT_NE(std::string(missing.at("error").at("message").as_string()).find("who"), std::string::npos);
    EXPECT_EQ(client->request("prompts/get", object{{"name", "greet"}, {"arguments", {{"who", 5}}}})
                  .at("error")
                  .at("code"),
              -32602);
    EXPECT_EQ(client->request("prompts/get", object{{"name", "nope"}}).at("error").at("code"), -32602);
    auto list = client->result("prompts/list");
    EXPECT_EQ(list.at("prompts").at(0).at("arguments").at(0).at("required"), true);
}

TEST_F(server_fixture, logging_is_filtered_per_peer) {
    make();
    srv->add_tool({.name = "log"}, [](const object&, mcp::context& ctx) {
        ctx.log(mcp::logging_level::debug, "dbg");
        ctx.log(mcp::logging_level::error, object{{"msg", "err"}}, "core");
        return mcp::call_tool_result{};
    });
    connect();
    client->initialize();
    EXPECT_EQ(client->request("logging/setLevel", object{{"level", "loud"}}).at("error").at("code"), -32602);
    EXPECT_TRUE(client->request("logging/setLevel", object{{"level", "warning"}}).contains("result"));
    client->result("tools/call", object{{"name", "log"}});
    std::vector<std::string> levels;
    for (auto& o : client->others())
        if (o.at("method") == "notifications/message")
            levels.emplace_back(o.at("params").at("level").as_string());
    EXPECT_EQ(levels, std::vector<std::string>{"error"});
}

TEST_F(server_fixture, sampling_round_trip_through_the_context) {
    make();
    srv->add_tool({.name = "ask"}, [](const object&, mcp::context& ctx) {
        mcp::create_message_request req;
        req.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = "2+2?"}}});
        req.max_tokens = 10;
        auto r = ctx.sample(req);
        return mcp::call_tool_result{.content = {mcp::text(r.model)}};
    });
    srv->add_tool({.name = "ask_without_cap"}, [](const object&, mcp::context& ctx) {
        return mcp::call_tool_result{.content = {mcp::text(ctx.roots().empty() ? "none" : "some")}};
    });
    connect();
    client->initialize(mcp::latest_initialize_revision, object{{"sampling", object{}}});
    wire->inject(R"({"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"ask"}})");
    auto req = client->next_message("sampling/createMessage");
    ASSERT_TRUE(req);
    EXPECT_EQ(req->at("params").at("maxTokens"), 10);
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req->at("id")) +
                 R"(,"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"stub-1"}})");
    auto res = client->wait_response(100);
    EXPECT_EQ(res.at("result").at("content").at(0).at("text"), "stub-1");
    // Without the roots capability the tool's request fails inside the tool: an isError result.
    auto no_cap = client->result("tools/call", object{{"name", "ask_without_cap"}});
    EXPECT_EQ(no_cap.at("isError"), true);
}

} // namespace

namespace {

TEST_F(server_fixture, url_elicitation_and_its_completion_notice) {
    make();
    srv->add_tool({.name = "open"}, [](const object&, mcp::context& ctx) {
        auto r = ctx.elicit(mcp::url_elicitation("Sign in", "https://example.invalid/login", "el-1"));
        if (r.action == mcp::elicit_action::accept) ctx.session().notify_elicitation_complete("el-1");
        return mcp::call_tool_result{.content = {mcp::text(std::string(mcp::to_string(r.action)))}};
    });
    connect();
    client->initialize(mcp::revision::v2025_11_25, object{{"elicitation", {{"url", object{}}}}});
    wire->inject(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"open"}})");
    auto req = client->next_message("elicitation/create");
    ASSERT_TRUE(req);
    const auto& p = req->at("params").as_object();
    EXPECT_EQ(p.at("mode"), "url");
    EXPECT_EQ(p.at("url"), "https://example.invalid/login");
    EXPECT_EQ(p.at("elicitationId"), "el-1");
    EXPECT_FALSE(p.contains("requestedSchema"));
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req->at("id")) +
                 R"(,"result":{"action":"accept"}})");
    auto done = client->next_message("notifications/elicitation/complete");
    ASSERT_TRUE(done);
    EXPECT_EQ(done->at("params").at("elicitationId"), "el-1");
    EXPECT_EQ(client->wait_response(7).at("result").at("content").at(0).at("text"), "accept");
}

TEST_F(server_fixture, url_elicitation_needs_the_clients_url_capability) {
    make();
    srv->add_tool({.name = "open"}, [](const object&, mcp::context& ctx) {
        ctx.elicit(mcp::url_elicitation("Sign in", "https://example.invalid/login", "el-2"));
        return mcp::call_tool_result{};
    });
    connect();
    client->initialize(mcp::revision::v2025_11_25, object{{"elicitation", object{}}}); // form only
    auto r = client->result("tools/call", object{{"name", "open"}});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_NE(std::string(r.at("content").at(0).at("text").as_string()).find("URL-mode"), std::string::npos);
}

TEST_F(server_fixture, sampling_with_tools_needs_the_sampling_tools_capability) {
    make();
    srv->add_tool({.name = "agent"}, [](const object&, mcp::context& ctx) {
        mcp::create_message_request req;
        req.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = "weather?"}}});
        req.max_tokens = 50;
        req.tools.push_back({.name = "forecast"});
        req.tool_choice = mcp::tool_choice{.mode = mcp::tool_choice_mode::auto_};
        return mcp::call_tool_result{.content = {mcp::text(ctx.sample(req).model)}};
    });
    connect();
    client->initialize(mcp::revision::v2025_11_25, object{{"sampling", object{}}}); // no tools
    auto refused = client->result("tools/call", object{{"name", "agent"}});
    EXPECT_EQ(refused.at("isError"), true);
    peer->close();

    wire = std::make_shared<mcp::test::scripted_transport>();
    connect();
    client->initialize(mcp::revision::v2025_11_25, object{{"sampling", {{"tools", object{}}}}});
    wire->inject(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"agent"}})");
    auto req = client->next_message("sampling/createMessage");
    ASSERT_TRUE(req);
    EXPECT_EQ(req->at("params").at("tools").at(0).at("name"), "forecast");
    EXPECT_EQ(req->at("params").at("toolChoice").at("mode"), "auto");
    wire->inject(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(req->at("id")) +
                 R"(,"result":{"role":"assistant","content":{"type":"text","text":"sunny"},"model":"m2"}})");
    EXPECT_EQ(client->wait_response(9).at("result").at("content").at(0).at("text"), "m2");
}

} // namespace
