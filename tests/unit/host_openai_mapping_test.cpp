// MCP sampling requests as OpenAI chat-completions bodies, and chat completions read back as
// sampling results: every block type, tools and tool calls, model hints, and the requests and
// answers that cannot be mapped (each a clear error).
#include <mcp/host/providers.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <gtest/gtest.h>

namespace {

using namespace mcp;
using mcp::host::openai_sampling_provider;

openai_sampling_provider provider(std::vector<std::string> models = {"gpt-4o-mini", "gpt-4o", "o3-large"}) {
    return openai_sampling_provider({.base_url = "http://127.0.0.1:1/v1", .models = std::move(models)});
}

json::value parsed(std::string_view text) {
    return json::parse(text);
}

int code_of(const std::function<void()>& f, std::string* message = nullptr) {
    try {
        f();
    } catch (const mcp::error& e) {
        if (message) *message = e.what();
        return e.code();
    }
    return 0;
}

TEST(host_openai_mapping, text_conversation_with_system_prompt_and_options) {
    create_message_request r;
    r.system_prompt = "Be brief.";
    r.messages = {
        {.role = role::user, .content = {text_content{.text = "Hi"}}},
        {.role = role::assistant, .content = {text_content{.text = "Hello!"}}},
        {.role = role::user,
         .content = {text_content{.text = "What is 2+2?"}, text_content{.text = "Answer in words."}}}};
    r.max_tokens = 50;
    r.temperature = 0.25;
    r.stop_sequences = std::vector<std::string>{"\n\n", "END"};
    r.metadata = json::object{{"ignored", true}};
    r.include_context = include_context::this_server;
    EXPECT_EQ(json::value(provider().request_body(r)), parsed(R"({
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": [{"type": "text", "text": "What is 2+2?"},
                                         {"type": "text", "text": "Answer in words."}]}],
        "max_tokens": 50, "temperature": 0.25, "stop": ["\n\n", "END"]})"));
}

TEST(host_openai_mapping, images_and_audio_from_the_user) {
    create_message_request r;
    r.messages = {{.role = role::user,
                   .content = {text_content{.text = "What is this?"},
                               image_content{.data = "iVBORw0KGgo=", .mime_type = "image/png"},
                               audio_content{.data = "UklGRg==", .mime_type = "audio/wav"},
                               audio_content{.data = "SUQz", .mime_type = "audio/mpeg"}}}};
    r.max_tokens = 10;
    EXPECT_EQ(json::value(provider().request_body(r)), parsed(R"({
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
            {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
            {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}}]}],
        "max_tokens": 10})"));
    // A lone image is still a list of parts (only a lone text becomes a string).
    r.messages = {
        {.role = role::user, .content = {image_content{.data = "AA==", .mime_type = "image/jpeg"}}}};
    EXPECT_TRUE(provider().request_body(r).at("messages").at(0).at("content").is_array());
}

TEST(host_openai_mapping, what_the_api_cannot_carry_is_invalid_params) {
    create_message_request r;
    r.max_tokens = 10;
    std::string m;
    r.messages = {
        {.role = role::user, .content = {text_content{.text = "x"}}},
        {.role = role::assistant, .content = {image_content{.data = "AA==", .mime_type = "image/png"}}}};
    EXPECT_EQ(code_of([&] { provider().request_body(r); }, &m), error_code::invalid_params);
    EXPECT_EQ(m, "sampling message 1, block 0: the chat completions API takes images and audio from the user "
                 "only, not "
                 "from the assistant");
    r.messages = {{.role = role::user, .content = {audio_content{.data = "AA==", .mime_type = "audio/ogg"}}}};
    EXPECT_EQ(code_of([&] { provider().request_body(r); }, &m), error_code::invalid_params);
    EXPECT_NE(m.find("audio of type audio/ogg cannot be sent"), std::string::npos) << m;
    r.messages = {{.role = role::user,
                   .content = {tool_result_content{.tool_use_id = "c1", .content = {text(" ok")}},
                               text_content{.text = "and"}}}};
    EXPECT_EQ(code_of([&] { provider().request_body(r); }, &m), error_code::invalid_params);
    EXPECT_EQ(m, "sampling message 0, block 1: a user message with tool results may hold nothing else");
    r.messages = {
        {.role = role::user,
         .content = {tool_result_content{
             .tool_use_id = "c1", .content = {image_content{.data = "AA==", .mime_type = "image/png"}}}}}};
    EXPECT_EQ(code_of([&] { provider().request_body(r); }), error_code::invalid_params);
    r.messages = {{.role = role::user, .content = {tool_use_content{.id = "c", .name = "t"}}}};
    EXPECT_EQ(code_of([&] { provider().request_body(r); }), error_code::invalid_params);
}

TEST(host_openai_mapping, tools_tool_choice_calls_and_results) {
    create_message_request r;
    r.max_tokens = 100;
    r.tools = {{.name = "get_weather",
                .description = "Weather for a city",
                .input_schema = {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}}},
               {.name = "files/read.v2", .input_schema = {{"type", "object"}}}};
    r.tool_choice = tool_choice{.mode = tool_choice_mode::required};
    r.messages = {
        {.role = role::user, .content = {text_content{.text = "Weather in Paris, and read a.txt"}}},
        {.role = role::assistant,
         .content = {text_content{.text = "Let me look."},
                     tool_use_content{.id = "call_1", .name = "get_weather", .input = {{"city", "Paris"}}},
                     tool_use_content{
                         .id = "call_2", .name = "files/read.v2", .input = {{"path", "a.txt"}}}}},
        {.role = role::user,
         .content = {
             tool_result_content{.tool_use_id = "call_1", .content = {text("sunny"), text("21 C")}},
             tool_result_content{.tool_use_id = "call_2", .structured_content = json::object{{"size", 3}}}}}};
    EXPECT_EQ(json::value(provider().request_body(r)), parsed(R"({
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "user", "content": "Weather in Paris, and read a.txt"},
            {"role": "assistant", "content": "Let me look.", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "files_read_v2", "arguments": "{\"path\":\"a.txt\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny\n21 C"},
            {"role": "tool", "tool_call_id": "call_2", "content": "{\"size\":3}"}],
        "max_tokens": 100,
        "tools": [
            {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
             "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}},
            {"type": "function", "function": {"name": "files_read_v2", "parameters": {"type": "object"}}}],
        "tool_choice": "required"})"));
    // An assistant message of tool calls alone has null content.
    r.messages[1].content.erase(r.messages[1].content.begin());
    EXPECT_TRUE(provider().request_body(r).at("messages").at(1).at("content").is_null());

    // The answer: text, then the calls, with the renamed tool's name restored.
    auto result =
        provider().read_response(R"({"id": "x", "model": "gpt-4o-mini-2024", "choices": [{"index": 0,
        "message": {"role": "assistant", "content": "Checking.", "tool_calls": [
            {"id": "call_9", "type": "function", "function": {"name": "files_read_v2", "arguments": "{\"path\": \"b.txt\"}"}},
            {"id": "call_10", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]},
        "finish_reason": "tool_calls"}]})",
                                 r);
    ASSERT_EQ(result.content.size(), 3u);
    EXPECT_EQ(std::get<text_content>(result.content[0]).text, "Checking.");
    const auto& call = std::get<tool_use_content>(result.content[1]);
    EXPECT_EQ(call.id, "call_9");
    EXPECT_EQ(call.name, "files/read.v2");
    EXPECT_EQ(call.input, (json::object{{"path", "b.txt"}}));
    EXPECT_TRUE(std::get<tool_use_content>(result.content[2]).input.empty());
    EXPECT_EQ(result.stop_reason, "toolUse");
    EXPECT_EQ(result.model, "gpt-4o-mini-2024");
    EXPECT_EQ(result.role, role::assistant);
}

TEST(host_openai_mapping, renamed_tools_stay_unique) {
    create_message_request r;
    r.tools = {{.name = "a.b"}, {.name = "a_b"}, {.name = "a/b"}, {.name = std::string(80, 'x')}};
    auto body = provider().request_body(r);
    std::vector<std::string> names;
    for (const auto& t : body.at("tools").as_array())
        names.emplace_back(t.at("function").at("name").as_string());
    EXPECT_EQ(names, (std::vector<std::string>{"a_b_2", "a_b", "a_b_3", std::string(64, 'x')}));
    auto back = provider().read_response(
        R"({"choices": [{"message": {"tool_calls": [{"id": "1", "function": {"name": "a_b_3", "arguments": "{}"}}]}}]})",
        r);
    EXPECT_EQ(std::get<tool_use_content>(back.content[0]).name, "a/b");
    EXPECT_EQ(back.model, "gpt-4o-mini"); // the API named none: the one asked for
}

TEST(host_openai_mapping, model_hints_choose_among_configured_models) {
    create_message_request r;
    EXPECT_EQ(provider().choose_model(r), "gpt-4o-mini");
    r.model_preferences = model_preferences{.hints = {{.name = "claude-3-sonnet"}, {.name = "O3"}},
                                            .intelligence_priority = 0.9};
    EXPECT_EQ(provider().choose_model(r), "o3-large"); // the first hint that matches, case-insensitively
    r.model_preferences->hints = {{.name = "4o"}};
    EXPECT_EQ(provider().choose_model(r), "gpt-4o-mini"); // the first configured model containing it
    r.model_preferences->hints = {{.name = "gpt-4o"}, {.name = "o3"}};
    EXPECT_EQ(provider().choose_model(r), "gpt-4o-mini");
    r.model_preferences->hints = {{}, {.name = "nothing-like-it"}};
    EXPECT_EQ(provider().choose_model(r), "gpt-4o-mini");
    EXPECT_EQ(provider().request_body(r).at("model"), "gpt-4o-mini");
}

TEST(host_openai_mapping, finish_reasons_refusals_and_content_parts) {
    create_message_request r;
    auto read = [&](std::string body) { return provider().read_response(body, r); };
    EXPECT_EQ(read(R"({"choices":[{"message":{"content":"a"},"finish_reason":"stop"}]})").stop_reason,
              "endTurn");
    EXPECT_EQ(read(R"({"choices":[{"message":{"content":"a"},"finish_reason":"length"}]})").stop_reason,
              "maxTokens");
    EXPECT_EQ(
        read(R"({"choices":[{"message":{"content":"a"},"finish_reason":"content_filter"}]})").stop_reason,
        "content_filter");
    EXPECT_FALSE(read(R"({"choices":[{"message":{"content":"a"}}]})").stop_reason);
    auto refused = read(R"({"choices":[{"message":{"content":null,"refusal":"I cannot help with that."}}]})");
    ASSERT_EQ(refused.content.size(), 1u);
    EXPECT_EQ(std::get<text_content>(refused.content[0]).text, "I cannot help with that.");
    auto parts = read(
        R"({"choices":[{"message":{"content":[{"type":"text","text":"x"},{"type":"text","text":"y"}]}}]})");
    ASSERT_EQ(parts.content.size(), 2u);
    auto empty = read(R"({"choices":[{"message":{"content":""}}]})");
    ASSERT_EQ(empty.content.size(), 1u); // a result always has content
    EXPECT_EQ(std::get<text_content>(empty.content[0]).text, "");
}

TEST(host_openai_mapping, malformed_answers_are_internal_errors_naming_the_endpoint) {
    create_message_request r;
    const auto p = provider();
    const std::pair<const char*, const char*> cases[] = {
        {"<html>oops</html>", "the body is not JSON"},
        {"[1]", "the body is not a JSON object"},
        {R"({"object":"list"})", "it has no \"choices\""},
        {R"({"choices":[]})", "it has no \"choices\""},
        {R"({"choices":[7]})", "choices[0] is not an object"},
        {R"({"choices":[{"text":"legacy completion"}]})", "choices[0] has no \"message\" object"},
        {R"({"choices":[{"message":{"content":42}}]})", "the message's \"content\" is neither text nor null"},
        {R"({"choices":[{"message":{"tool_calls":{}}}]})", "\"tool_calls\" is not an array"},
        {R"({"choices":[{"message":{"tool_calls":[{"function":{"name":"f"}}]}}]})",
         "tool_calls[0] needs an id"},
        {R"({"choices":[{"message":{"tool_calls":[{"id":"1","function":{"name":"f","arguments":"[1]"}}]}}]})",
         "tool_calls[0]: the arguments are not a JSON object"},
        {R"({"choices":[{"message":{"tool_calls":[{"id":"1","function":{"name":"f","arguments":"{bad"}}]}}]})",
         "tool_calls[0]: the arguments are not a JSON object"},
    };
    for (const auto& [body, why] : cases) {
        std::string m;
        EXPECT_EQ(code_of([&] { p.read_response(body, r); }, &m), error_code::internal_error) << body;
        EXPECT_EQ(
            m.rfind("the model provider at http://127.0.0.1:1/v1/chat/completions did not answer with a chat "
                    "completion: ",
                    0),
            0u)
            << m;
        EXPECT_NE(m.find(why), std::string::npos) << body << " -> " << m;
    }
}

TEST(host_openai_mapping, bad_options_are_refused_at_construction) {
    EXPECT_THROW(openai_sampling_provider({.base_url = "ftp://x/v1", .models = {"m"}}),
                 std::invalid_argument);
    EXPECT_THROW(openai_sampling_provider({.base_url = "not a url", .models = {"m"}}), std::invalid_argument);
    EXPECT_THROW(openai_sampling_provider({.base_url = "http://h/v1"}), std::invalid_argument);
    EXPECT_THROW(openai_sampling_provider({.base_url = "http://h/v1", .models = {"m"}, .api_key = "a\nb"}),
                 std::invalid_argument);
    try {
        openai_sampling_provider({.base_url = "ftp://user:pw@h/v1?key=k3y", .models = {"m"}});
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("k3y"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("pw"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(provider().supports_tools());
}

} // namespace
