// Every message our server emits, in every initialize-era revision, validated against that
// revision's official schema (tests/data/mcp-schema/<revision>/schema.json) with our own validator.
// The scripted client's messages are checked too, so the conversation itself is well-formed.
#include <mcp/server/server.hpp>

#include "support/wire_peer.hpp"
#include "support/wire_schema.hpp"

#include <gtest/gtest.h>

#include <set>

using mcp::revision;
using mcp::json::object;

namespace {

const char* png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

object obj_schema(object props = {}) {
    return object{{"type", "object"}, {"properties", std::move(props)}};
}

std::unique_ptr<mcp::server> full_server() {
    auto srv = std::make_unique<mcp::server>(
        mcp::server_options{.info = {.name = "schema",
                                     .version = "1",
                                     .title = "Schema",
                                     .description = "d",
                                     .icons = {{.src = "https://example.invalid/i.png",
                                                .mime_type = "image/png",
                                                .sizes = {"16x16"}}},
                                     .website_url = "https://example.invalid"},
                            .instructions = "hi",
                            .page_size = 2});
    auto& s = *srv;
    s.add_tool({.name = "echo",
                .title = "Echo",
                .description = "echo",
                .input_schema = obj_schema({{"text", {{"type", "string"}}}}),
                .annotations = mcp::tool_annotations{.title = "Echo", .read_only_hint = true},
                .icons = {{.src = "https://example.invalid/e.png"}}},
               [](const object& a, mcp::context&) {
                   return mcp::call_tool_result{
                       .content = {mcp::text(std::string(a.at("text").as_string()))}};
               });
    s.add_tool({.name = "add",
                .input_schema = obj_schema(),
                .output_schema = obj_schema({{"sum", {{"type", "number"}}}})},
               [](const object&, mcp::context&) {
                   return mcp::call_tool_result{.content = {mcp::text(R"({"sum":3})")},
                                                .structured_content = object{{"sum", 3}}};
               });
    s.add_tool({.name = "all_content", .input_schema = obj_schema()}, [](const object&, mcp::context&) {
        mcp::text_content t{.text = "annotated",
                            .annotations =
                                mcp::annotations{.audience = {mcp::role::user, mcp::role::assistant},
                                                 .priority = 0.5,
                                                 .last_modified = "2026-01-01T00:00:00Z"}};
        return mcp::call_tool_result{
            .content = {t, mcp::image(png, "image/png"), mcp::audio("UklGRg==", "audio/wav"),
                        mcp::link_to("mem://a", "A", "text/plain"), mcp::embedded_text("mem://a", "A"),
                        mcp::embedded_blob("mem://b", "AAEC", "application/octet-stream")}};
    });
    s.add_tool(
        {.name = "fail", .input_schema = obj_schema()},
        [](const object&, mcp::context&) -> mcp::call_tool_result { throw std::runtime_error("nope"); });
    s.add_tool({.name = "chatty", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        ctx.progress(1, 2, "half");
        ctx.log(mcp::logging_level::warning, object{{"m", "careful"}}, "chatty");
        return mcp::call_tool_result{.content = {mcp::text("done")}};
    });
    s.add_tool({.name = "ask", .input_schema = obj_schema()}, [](const object&, mcp::context& ctx) {
        std::string out;
        mcp::create_message_request req;
        req.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = "q"}}});
        req.max_tokens = 5;
        req.model_preferences = mcp::model_preferences{.hints = {{.name = "claude"}}, .cost_priority = 0.2};
        req.system_prompt = "sys";
        out += ctx.sample(req).model;
        try {
            auto e = ctx.elicit("name?", obj_schema({{"name", {{"type", "string"}}}}));
            out += " " + std::string(mcp::to_string(e.action));
        } catch (const mcp::client_request_failed&) {
            out += " no-elicitation";
        }
        for (auto& r : ctx.roots()) out += " " + r.uri;
        return mcp::call_tool_result{.content = {mcp::text(out)}};
    });
    s.add_resource({.uri = "mem://a",
                    .name = "a",
                    .title = "A",
                    .description = "d",
                    .mime_type = "text/plain",
                    .size = 1,
                    .annotations = mcp::annotations{.audience = {mcp::role::user}, .priority = 1.0}},
                   [](const std::string& uri, mcp::context&) {
                       return mcp::read_resource_result{
                           .contents = {mcp::text_resource_contents{
                               .uri = uri, .mime_type = "text/plain", .text = "A"}}};
                   });
    s.add_resource({.uri = "mem://b", .name = "b"}, [](const std::string& uri, mcp::context&) {
        return mcp::read_resource_result{
            .contents = {mcp::blob_resource_contents{.uri = uri, .blob = "AAEC"}}};
    });
    s.add_resource_template(
        {.uri_template = "mem://items/{id}", .name = "item", .title = "Item", .mime_type = "text/plain"},
        [](const std::string& uri, const std::map<std::string, std::string>& v, mcp::context&) {
            return mcp::read_resource_result{
                .contents = {mcp::text_resource_contents{.uri = uri, .text = v.at("id")}}};
        },
        {{"id", [](const std::string&, const std::string&, const std::map<std::string, std::string>&) {
              return mcp::complete_result{.values = {"1", "2"}, .total = 2, .has_more = false};
          }}});
    s.add_prompt(
        {.name = "p",
         .title = "P",
         .description = "d",
         .arguments = {{.name = "who", .title = "Who", .description = "d", .required = true}}},
        [](const std::map<std::string, std::string>& a, mcp::context&) {
            return mcp::get_prompt_result{
                .description = "d",
                .messages = {{.role = mcp::role::user, .content = mcp::text("hi " + a.at("who"))},
                             {.role = mcp::role::assistant, .content = mcp::image(png, "image/png")},
                             {.role = mcp::role::user, .content = mcp::embedded_text("mem://a", "A")}}};
        },
        {{"who", [](const std::string&, const std::string&, const std::map<std::string, std::string>&) {
              return mcp::complete_result{.values = {"ada", "alan"}};
          }}});
    return srv;
}

class server_schema : public ::testing::TestWithParam<revision> {};

TEST_P(server_schema, every_emitted_message_conforms) {
    const revision rev = GetParam();
    auto srv = full_server();
    auto wire = std::make_shared<mcp::test::scripted_transport>();
    auto peer = srv->connect(wire);
    mcp::test::wire_recorder rec(rev);
    mcp::test::wire_peer client(wire);
    client.observer = [&](int side, std::string_view text) { rec.record(side, text); };

    object caps{{"sampling", object{}}, {"roots", {{"listChanged", true}}}};
    if (rev >= revision::v2025_06_18) caps["elicitation"] = object{};
    client.initialize(rev, caps);
    client.result("ping");
    // tools, two pages at a time
    auto page = client.result("tools/list");
    while (page.contains("nextCursor"))
        page = client.result("tools/list", object{{"cursor", page.at("nextCursor")}});
    client.result("tools/call", object{{"name", "echo"}, {"arguments", {{"text", "x"}}}});
    client.result("tools/call", object{{"name", "add"}, {"arguments", object{}}});
    client.result("tools/call", object{{"name", "all_content"}});
    client.result("tools/call", object{{"name", "fail"}});
    client.request("tools/call", object{{"name", "missing"}});
    client.request("tools/list", object{{"cursor", "bad"}});
    client.result("logging/setLevel", object{{"level", "info"}});
    client.result("tools/call", object{{"name", "chatty"}, {"_meta", {{"progressToken", "t1"}}}});
    // server -> client requests made by a tool, answered by the scripted client
    client.send(R"({"jsonrpc":"2.0","id":500,"method":"tools/call","params":{"name":"ask"}})");
    auto sampling = client.next_message("sampling/createMessage");
    ASSERT_TRUE(sampling);
    client.send(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(sampling->at("id")) +
                R"(,"result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m1"}})");
    if (rev >= revision::v2025_06_18) {
        auto elicit = client.next_message("elicitation/create");
        ASSERT_TRUE(elicit);
        client.send(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(elicit->at("id")) +
                    R"(,"result":{"action":"accept","content":{"name":"Ada"}}})");
    }
    auto roots = client.next_message("roots/list");
    ASSERT_TRUE(roots);
    client.send(R"({"jsonrpc":"2.0","id":)" + mcp::to_json(roots->at("id")) +
                R"(,"result":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}})");
    auto ask = client.wait_response(500);
    EXPECT_TRUE(ask.contains("result")) << mcp::to_json(ask);
    // resources
    page = client.result("resources/list");
    while (page.contains("nextCursor"))
        page = client.result("resources/list", object{{"cursor", page.at("nextCursor")}});
    client.result("resources/templates/list");
    client.result("resources/read", object{{"uri", "mem://a"}});
    client.result("resources/read", object{{"uri", "mem://b"}});
    client.result("resources/read", object{{"uri", "mem://items/7"}});
    client.request("resources/read", object{{"uri", "mem://zzz"}});
    client.result("resources/subscribe", object{{"uri", "mem://a"}});
    srv->notify_resource_updated("mem://a");
    EXPECT_TRUE(client.next_message("notifications/resources/updated"));
    client.result("resources/unsubscribe", object{{"uri", "mem://a"}});
    // prompts and completion
    client.result("prompts/list");
    client.result("prompts/get", object{{"name", "p"}, {"arguments", {{"who", "x"}}}});
    client.request("prompts/get", object{{"name", "p"}});
    client.result("completion/complete", object{{"ref", {{"type", "ref/prompt"}, {"name", "p"}}},
                                                {"argument", {{"name", "who"}, {"value", "a"}}}});
    client.result("completion/complete",
                  object{{"ref", {{"type", "ref/resource"}, {"uri", "mem://items/{id}"}}},
                         {"argument", {{"name", "id"}, {"value", ""}}}});
    // list_changed
    srv->add_tool({.name = "late", .input_schema = obj_schema()},
                  [](const object&, mcp::context&) { return mcp::call_tool_result{}; });
    EXPECT_TRUE(client.next_message("notifications/tools/list_changed"));
    // errors of every kind (deliberately broken input is not recorded; the replies are)
    client.wire().inject("{oops");
    client.wire().inject(R"({"jsonrpc":"2.0","id":"e1","method":"no/such/method"})");
    client.wire().inject(R"({"jsonrpc":"2.0","id":"e2"})");
    for (int i = 0; i < 3; ++i) (void)client.receive(std::chrono::milliseconds(2000));

    for (const auto& p : rec.problems()) ADD_FAILURE() << p;
    EXPECT_GT(rec.messages(), 60u);
    std::set<std::string> methods;
    for (auto& m : rec.methods()) methods.insert(m);
    for (const char* m :
         {"notifications/progress", "notifications/message", "sampling/createMessage", "roots/list",
          "notifications/resources/updated", "notifications/tools/list_changed"})
        EXPECT_TRUE(methods.count(m)) << m;
    peer->close();
}

INSTANTIATE_TEST_SUITE_P(revisions, server_schema,
                         ::testing::Values(revision::v2024_11_05, revision::v2025_03_26,
                                           revision::v2025_06_18, revision::v2025_11_25),
                         [](const auto& info) {
                             std::string s(mcp::to_string(info.param));
                             for (auto& c : s)
                                 if (c == '-') c = '_';
                             return "r" + s;
                         });

} // namespace
