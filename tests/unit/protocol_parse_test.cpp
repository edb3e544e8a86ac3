// Parsing of mcp/protocol types from untrusted JSON: tolerant of unknown members and nulls, and
// every malformed input gives mcp::error(-32602) whose message names the member - never a crash
// or another exception. Includes a mutation sweep over valid messages of every type.
#include <mcp/protocol/types.hpp>

#include <gtest/gtest.h>

#include <functional>

using namespace mcp;

namespace {

json::value j(std::string_view text) {
    return json::parse(text);
}

template <class T> void expect_invalid(std::string_view text, std::string_view names) {
    try {
        (void)from_json<T>(j(text));
        ADD_FAILURE() << "accepted: " << text;
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), error_code::invalid_params) << text;
        EXPECT_NE(std::string(e.what()).find(names), std::string::npos)
            << e.what() << " should name " << names;
    }
}

} // namespace

TEST(ProtocolParse, MessagesNameTheField) {
    expect_invalid<tool>("null", "Tool must be an object");
    expect_invalid<tool>(R"({"inputSchema":{"type":"object"}})", "Tool.name is required");
    expect_invalid<tool>(R"({"name":5,"inputSchema":{}})", "Tool.name must be a string");
    expect_invalid<tool>(R"({"name":"a","inputSchema":"x"})", "Tool.inputSchema must be an object");
    expect_invalid<tool>(R"({"name":"a","inputSchema":{},"icons":[{"src":"x"},{}]})",
                         "Tool.icons[1].src is required");
    expect_invalid<tool>(R"({"name":"a","inputSchema":{},"annotations":{"readOnlyHint":"yes"}})",
                         "Tool.annotations.readOnlyHint must be a boolean");
    expect_invalid<tool>(R"({"name":"a","inputSchema":{},"execution":{"taskSupport":"maybe"}})",
                         "Tool.execution.taskSupport");
    expect_invalid<call_tool_result>(R"({"content":[{"type":"text","text":"a"},{"type":"video"}]})",
                                     "CallToolResult.content[1].type");
    expect_invalid<call_tool_result>(R"({"content":[{"type":"image","data":"x"}]})",
                                     "CallToolResult.content[0].mimeType is required");
    expect_invalid<call_tool_result>(R"({"content":{}})", "CallToolResult.content must be an array");
    expect_invalid<call_tool_result>(R"({"content":[{"type":"resource","resource":{"uri":"a"}}]})",
                                     "CallToolResult.content[0].resource must have \"text\" or \"blob\"");
    expect_invalid<call_tool_request>(R"({"name":"t","arguments":[1]})",
                                      "CallToolRequest.params.arguments must be an object");
    expect_invalid<get_prompt_request>(R"({"name":"p","arguments":{"a":1}})",
                                       "GetPromptRequest.params.arguments.a must be a string");
    expect_invalid<initialize_request>(R"({"protocolVersion":"2025-11-25","capabilities":{}})",
                                       "InitializeRequest.params.clientInfo is required");
    expect_invalid<initialize_request>(
        R"({"protocolVersion":"x","capabilities":{"roots":{"listChanged":1}},"clientInfo":{"name":"c","version":"1"}})",
        "InitializeRequest.params.capabilities.roots.listChanged must be a boolean");
    expect_invalid<initialize_result>(
        R"({"protocolVersion":"x","capabilities":{},"serverInfo":{"name":"s"}})",
        "InitializeResult.serverInfo.version is required");
    expect_invalid<set_level_request>(R"({"level":"verbose"})",
                                      "SetLevelRequest.params.level must be one of");
    expect_invalid<progress_notification>(R"({"progressToken":true,"progress":1})",
                                          "progressToken must be a string or an integer");
    expect_invalid<progress_notification>(R"({"progressToken":"t","progress":"1"})",
                                          "progress must be a number");
    expect_invalid<cancelled_notification>(R"({"reason":"x"})",
                                           "CancelledNotification.params.requestId is required");
    expect_invalid<create_message_request>(R"({"messages":[],"maxTokens":1.5})",
                                           "maxTokens must be an integer");
    expect_invalid<create_message_request>(
        R"({"messages":[{"role":"system","content":{"type":"text","text":"x"}}],"maxTokens":1})",
        "CreateMessageRequest.params.messages[0].role");
    expect_invalid<create_message_result>(
        R"({"role":"assistant","content":[{"type":"tool_use","id":"u","name":"n"}],"model":"m"})",
        "CreateMessageResult.content[0].input is required");
    expect_invalid<elicit_result>(R"({"action":"maybe"})", "ElicitResult.action");
    expect_invalid<elicit_result>(R"({"action":"accept","content":{"x":{"a":1}}})", "ElicitResult.content.x");
    expect_invalid<elicit_request>(R"({"mode":"url","message":"m"})", "ElicitRequest.params.url is required");
    expect_invalid<elicit_request>(R"({"mode":"voice","message":"m"})", "ElicitRequest.params.mode");
    expect_invalid<complete_request>(
        R"({"ref":{"type":"ref/tool","name":"x"},"argument":{"name":"a","value":"b"}})",
        "CompleteRequest.params.ref.type");
    expect_invalid<complete_request>(R"({"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a"}})",
                                     "CompleteRequest.params.argument.value is required");
    expect_invalid<list_tools_result>(R"({"tools":[{"name":"a","inputSchema":{}}],"nextCursor":3})",
                                      "ListToolsResult.nextCursor must be a string");
    expect_invalid<list_roots_result>(R"({"roots":[{"name":"x"}]})",
                                      "ListRootsResult.roots[0].uri is required");
    expect_invalid<resource>(R"({"uri":"a","name":"b","size":1.5})", "Resource.size must be an integer");
    expect_invalid<resource>(R"({"uri":"a","name":"b","annotations":{"audience":["robot"]}})",
                             "Resource.annotations.audience[0]");
    expect_invalid<prompt>(R"({"name":"p","arguments":[{"name":"a","required":"yes"}]})",
                           "Prompt.arguments[0].required");
    expect_invalid<implementation>(R"({"name":"n","version":"1","icons":[{"src":"s","theme":"blue"}]})",
                                   "Implementation.icons[0].theme");
    expect_invalid<logging_message_notification>(R"({"level":"info"})",
                                                 "LoggingMessageNotification.params.data is required");
}

TEST(ProtocolParse, TolerantOfUnknownMembersAndNulls) {
    auto t =
        from_json<tool>(j(R"({"name":"a","inputSchema":{"type":"object"},"future":1,"title":null,"icons":null,
                                   "_meta":{"k":"v"}})"));
    EXPECT_EQ(t.name, "a");
    EXPECT_FALSE(t.title);
    EXPECT_EQ(t.meta, (json::object{{"k", "v"}}));
    auto c = from_json<client_capabilities>(j(R"({"elicitation":{},"sampling":{"tools":{}},"whatever":{}})"));
    ASSERT_TRUE(c.elicitation);
    EXPECT_TRUE(c.elicitation->supports_form());
    EXPECT_FALSE(c.elicitation->supports_url());
    EXPECT_TRUE(c.sampling->tools);
    EXPECT_FALSE(c.sampling->context);
    auto r = from_json<create_message_result>(
        j(R"({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"})"));
    ASSERT_EQ(r.content.size(), 1u);
    auto e = from_json<elicit_request>(
        j(R"({"message":"m","requestedSchema":{"type":"object","properties":{}}})"));
    EXPECT_EQ(e.mode, elicitation_mode::form);
    auto p = from_json<paginated_request>(j("null"));
    EXPECT_FALSE(p.cursor);
    auto l = from_json<logging_message_notification>(j(R"({"level":"alert","data":null})"));
    EXPECT_TRUE(l.data.is_null());
}

TEST(ProtocolParse, OutOfRangeIntegersAreErrors) {
    expect_invalid<progress_notification>(R"({"progressToken":18446744073709551615,"progress":1})",
                                          "progressToken");
}

// Every member of every valid message replaced by values of each JSON kind: parsing either
// succeeds or throws mcp::error(-32602); nothing else escapes.
TEST(ProtocolParse, MutationSweepNeverCrashes) {
    using parser = std::function<void(const json::value&)>;
    std::vector<std::pair<parser, std::string_view>> cases = {
        {[](const json::value& v) { (void)from_json<tool>(v); },
         R"({"name":"a","title":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},
             "annotations":{"title":"x","readOnlyHint":true},"icons":[{"src":"s","sizes":["1x1"],"theme":"dark"}],
             "execution":{"taskSupport":"optional"},"_meta":{}})"},
        {[](const json::value& v) { (void)from_json<call_tool_result>(v); },
         R"({"content":[{"type":"text","text":"a","annotations":{"audience":["user"],"priority":1}},
             {"type":"image","data":"x","mimeType":"m"},{"type":"audio","data":"x","mimeType":"m"},
             {"type":"resource_link","uri":"u","name":"n","size":3},
             {"type":"resource","resource":{"uri":"u","blob":"AA=="}}],"structuredContent":{},"isError":false})"},
        {[](const json::value& v) { (void)from_json<initialize_request>(v); },
         R"({"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"url":{}},
             "tasks":{"list":{},"requests":{"sampling":{"createMessage":{}}}},"experimental":{}},
             "clientInfo":{"name":"c","version":"1","icons":[{"src":"s"}]}})"},
        {[](const json::value& v) { (void)from_json<initialize_result>(v); },
         R"({"protocolVersion":"2025-11-25","capabilities":{"logging":{},"prompts":{"listChanged":true},
             "resources":{"subscribe":true},"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},
             "serverInfo":{"name":"s","version":"1"},"instructions":"i"})"},
        {[](const json::value& v) { (void)from_json<create_message_request>(v); },
         R"({"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"i","name":"n","input":{}},
             {"type":"tool_result","toolUseId":"i","content":[{"type":"text","text":"r"}]}]}],
             "modelPreferences":{"hints":[{"name":"x"}],"costPriority":0.5},"includeContext":"none","maxTokens":5,
             "stopSequences":["s"],"tools":[{"name":"t","inputSchema":{}}],"toolChoice":{"mode":"auto"}})"},
        {[](const json::value& v) { (void)from_json<get_prompt_result>(v); },
         R"({"description":"d","messages":[{"role":"user","content":{"type":"text","text":"x"}}]})"},
        {[](const json::value& v) { (void)from_json<list_prompts_result>(v); },
         R"({"prompts":[{"name":"p","arguments":[{"name":"a","required":true}]}],"nextCursor":"c","ttlMs":1,"cacheScope":"public"})"},
        {[](const json::value& v) { (void)from_json<list_resources_result>(v); },
         R"({"resources":[{"uri":"u","name":"n","size":1,"annotations":{"priority":0.5}}]})"},
        {[](const json::value& v) { (void)from_json<list_resource_templates_result>(v); },
         R"({"resourceTemplates":[{"uriTemplate":"u/{x}","name":"n"}]})"},
        {[](const json::value& v) { (void)from_json<read_resource_result>(v); },
         R"({"contents":[{"uri":"u","text":"t"},{"uri":"u","blob":"AA=="}]})"},
        {[](const json::value& v) { (void)from_json<complete_request>(v); },
         R"({"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"},"context":{"arguments":{"x":"y"}}})"},
        {[](const json::value& v) { (void)from_json<complete_result>(v); },
         R"({"completion":{"values":["a"],"total":1,"hasMore":false}})"},
        {[](const json::value& v) { (void)from_json<elicit_request>(v); },
         R"({"mode":"url","message":"m","url":"https://x","elicitationId":"e"})"},
        {[](const json::value& v) { (void)from_json<elicit_result>(v); },
         R"({"action":"accept","content":{"a":"x","b":[ "y" ],"c":1}})"},
        {[](const json::value& v) { (void)from_json<progress_notification>(v); },
         R"({"progressToken":1,"progress":0.5,"total":1,"message":"m"})"},
        {[](const json::value& v) { (void)from_json<cancelled_notification>(v); },
         R"({"requestId":"r","reason":"x"})"},
        {[](const json::value& v) { (void)from_json<logging_message_notification>(v); },
         R"({"level":"info","logger":"l","data":{}})"},
        {[](const json::value& v) { (void)from_json<list_roots_result>(v); },
         R"({"roots":[{"uri":"file:///","name":"n"}]})"},
        {[](const json::value& v) { (void)from_json<discover_result>(v); },
         R"({"supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"})"},
    };
    const json::value odd[] = {nullptr,
                               true,
                               1.5,
                               std::int64_t{-1},
                               "s",
                               json::array{},
                               json::object{},
                               json::array{nullptr},
                               json::object{{"type", 1}}};
    int runs = 0;
    auto run = [&](const parser& p, const json::value& v) {
        ++runs;
        try {
            p(v);
        } catch (const mcp::error& e) {
            EXPECT_EQ(e.code(), error_code::invalid_params) << e.what();
        } catch (const std::exception& e) {
            ADD_FAILURE() << "unexpected exception " << e.what() << " for " << serialize(v);
        }
    };
    // Replace each node (member value or array element) in turn.
    std::function<void(json::value&, json::value&, const parser&)> sweep =
        [&](json::value& root, json::value& node, const parser& p) {
            if (node.is_object()) {
                for (auto& kv : node.as_object()) {
                    json::value saved = kv.value();
                    for (const auto& o : odd) {
                        kv.value() = o;
                        run(p, root);
                    }
                    kv.value() = saved;
                    sweep(root, kv.value(), p);
                }
            } else if (node.is_array()) {
                for (auto& e : node.as_array()) {
                    json::value saved = e;
                    for (const auto& o : odd) {
                        e = o;
                        run(p, root);
                    }
                    e = saved;
                    sweep(root, e, p);
                }
            }
        };
    for (const auto& [p, text] : cases) {
        json::value v = j(text);
        ASSERT_NO_THROW(p(v)) << text;
        for (const auto& o : odd) run(p, o);
        sweep(v, v, p);
    }
    EXPECT_GT(runs, 1500);
}
