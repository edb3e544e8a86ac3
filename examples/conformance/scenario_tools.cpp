// The tools of the conformance server scenarios (see scenarios.hpp for which scenario calls
// which). Typed handlers where the arguments and answers are plain data; raw JSON where the
// scenario prescribes a schema the types cannot express (SEP-1330 titled enums, the 2020-12
// inputSchema that must be listed verbatim).
#include "scenarios.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace conformance {

const char* const png_1x1_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
// RIFF/WAVE, PCM mono 8 kHz 16-bit, one sample of silence.
const char* const wav_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

namespace {

using mcp::json::object;
using namespace std::chrono_literals;

// ---- typed arguments and elicitation forms -----------------------------------------------------

struct sampling_args {
    std::string prompt;
};
MCP_DESCRIBE(sampling_args, (prompt, "The prompt to send to the LLM"))

struct elicitation_args {
    std::string message;
};
MCP_DESCRIBE(elicitation_args, (message, "The message to show the user"))

/// tools-call-elicitation: both fields required.
struct user_response {
    std::string username;
    std::string email;
};
MCP_DESCRIBE(user_response, (username, "User's response"), (email, "User's email address"))

enum class user_status { active, inactive, pending };
MCP_DESCRIBE_ENUM(user_status, active, inactive, pending)

/// elicitation-sep1034-defaults (SEP-1034): a default for every primitive type. The member
/// initialisers are the defaults; `status` defaults to its first value, which a value-initialised
/// enum also has, so field::optional states that it is a default (not required, "default": "active").
struct profile_form {
    std::string name = "John Doe";
    int age = 30;
    double score = 95.5;
    user_status status = user_status::active;
    bool verified = true;
};
MCP_DESCRIBE(profile_form, (name, "User name"), (age, "User age"), (score, "User score"),
             (status, "User status", mcp::field::optional), (verified, "Verification status"))

// ---- helpers ------------------------------------------------------------------------------------

object titled(const char* value, const char* title) {
    return object{{"const", value}, {"title", title}};
}

/// elicitation-sep1330-enums (SEP-1330): the five enum forms of 2025-11-25, one field each.
object sep1330_schema() {
    object props;
    props["untitledSingle"] = object{{"type", "string"},
                                     {"description", "Select one option"},
                                     {"enum", {"option1", "option2", "option3"}}};
    props["titledSingle"] = object{{"type", "string"},
                                   {"description", "Select one option with titles"},
                                   {"oneOf",
                                    {titled("value1", "First Option"), titled("value2", "Second Option"),
                                     titled("value3", "Third Option")}}};
    props["legacyEnum"] = object{{"type", "string"},
                                 {"description", "Select one option (legacy)"},
                                 {"enum", {"opt1", "opt2", "opt3"}},
                                 {"enumNames", {"Option One", "Option Two", "Option Three"}}};
    props["untitledMulti"] =
        object{{"type", "array"},
               {"description", "Select multiple options"},
               {"minItems", 1},
               {"maxItems", 3},
               {"items", object{{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}}};
    props["titledMulti"] =
        object{{"type", "array"},
               {"description", "Select multiple options with titles"},
               {"minItems", 1},
               {"maxItems", 3},
               {"items", object{{"anyOf",
                                 {titled("value1", "First Choice"), titled("value2", "Second Choice"),
                                  titled("value3", "Third Choice")}}}}};
    return object{{"type", "object"}, {"properties", std::move(props)}, {"required", mcp::json::array{}}};
}

/// json-schema-2020-12 (SEP-1613, SEP-2106): the scenario's fixture, listed verbatim.
object schema_2020_12() {
    object address{
        {"$anchor", "addressDef"},
        {"type", "object"},
        {"properties", object{{"street", object{{"type", "string"}}}, {"city", object{{"type", "string"}}}}}};
    object props{{"name", object{{"type", "string"}}},
                 {"address", object{{"$ref", "#/$defs/address"}}},
                 {"contactMethod", object{{"type", "string"}, {"enum", {"phone", "email"}}}},
                 {"phone", object{{"type", "string"}}},
                 {"email", object{{"type", "string"}}}};
    mcp::json::array any_of{object{{"required", {"phone"}}}, object{{"required", {"email"}}}};
    return object{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                  {"type", "object"},
                  {"$defs", object{{"address", std::move(address)}}},
                  {"properties", std::move(props)},
                  {"allOf", {object{{"anyOf", std::move(any_of)}}}},
                  {"if", object{{"properties", object{{"contactMethod", object{{"const", "phone"}}}}},
                                {"required", {"contactMethod"}}}},
                  {"then", object{{"required", {"phone"}}}},
                  {"else", object{{"required", {"email"}}}},
                  {"additionalProperties", false}};
}

std::string action_text(mcp::elicit_action a) {
    return std::string(mcp::to_string(a));
}

void add_content_tools(mcp::server& server) {
    server.add_tool("test_simple_text", "Returns simple text content",
                    [] { return std::string("This is a simple text response for testing."); });

    server.add_tool("test_image_content", "Returns image content (a 1x1 PNG)",
                    [] { return mcp::image(png_1x1_base64, "image/png"); });

    server.add_tool("test_audio_content", "Returns audio content (a minimal WAV)",
                    [] { return mcp::audio(wav_base64, "audio/wav"); });

    server.add_tool("test_embedded_resource", "Returns an embedded resource", [] {
        return mcp::embedded_text("test://embedded-resource", "This is an embedded resource content.",
                                  "text/plain");
    });

    server.add_tool("test_multiple_content_types", "Returns text, an image and an embedded resource", [] {
        return std::vector<mcp::content_block>{
            mcp::text("Multiple content types test:"), mcp::image(png_1x1_base64, "image/png"),
            mcp::embedded_text("test://mixed-content-resource",
                               mcp::to_json(object{{"test", "data"}, {"value", 123}}), "application/json")};
    });

    server.add_tool("test_resource_link", "Returns a link to the resource test://static-text",
                    [] { return mcp::link_to("test://static-text", "static-text", "text/plain"); });

    server.add_tool("test_error_handling", "Always fails (a tool result with isError: true)",
                    []() -> std::string {
                        throw std::runtime_error("This tool intentionally returns an error for testing");
                    });
}

void add_notification_tools(mcp::server& server) {
    server.add_tool("test_tool_with_logging", "Sends three info log notifications while it runs",
                    [](mcp::context& ctx) {
                        ctx.log(mcp::logging_level::info, "Tool execution started");
                        std::this_thread::sleep_for(50ms);
                        ctx.log(mcp::logging_level::info, "Tool processing data");
                        std::this_thread::sleep_for(50ms);
                        ctx.log(mcp::logging_level::info, "Tool execution completed");
                        return std::string("Tool with logging executed successfully");
                    });

    server.add_tool("test_tool_with_progress",
                    "Reports progress 0, 50 and 100 of 100 (when asked for progress)", [](mcp::context& ctx) {
                        for (int p : {0, 50, 100}) {
                            ctx.progress(p, 100, "Completed step " + std::to_string(p) + " of 100");
                            if (p < 100) std::this_thread::sleep_for(50ms);
                        }
                        const mcp::json::value* token =
                            ctx.meta() ? mcp::find_member(*ctx.meta(), "progressToken") : nullptr;
                        if (!token) return std::string("no progress token");
                        return token->is_string() ? std::string(token->get_string()) : mcp::to_json(*token);
                    });

    server.add_tool(
        "test_trigger_resource_update",
        "Sends notifications/resources/updated for test://watched-resource to its subscribers", [&server] {
            server.notify_resource_updated("test://watched-resource");
            return std::string("Sent notifications/resources/updated for test://watched-resource");
        });

    // server-sse-polling (SEP-1699): the tool closes its POST's SSE stream (after the priming
    // event, which carries `retry`), works a little, and answers; the client gets the result
    // after reconnecting with GET and Last-Event-ID, replayed from the event store.
    server.add_tool("test_reconnection",
                    "Closes its SSE stream, then answers after 100 ms (the client resumes: SEP-1699)",
                    [](mcp::context& ctx) {
                        ctx.close_sse_stream();
                        std::this_thread::sleep_for(100ms);
                        return std::string(
                            "Reconnection test completed successfully. If you received this, the "
                            "client properly reconnected after stream closure.");
                    });
}

void add_client_request_tools(mcp::server& server) {
    server.add_tool("test_sampling", "Asks the client's LLM to answer a prompt (sampling/createMessage)",
                    [](const sampling_args& a, mcp::context& ctx) {
                        mcp::create_message_request req;
                        req.messages.push_back(
                            {.role = mcp::role::user, .content = {mcp::text_content{.text = a.prompt}}});
                        req.max_tokens = 100;
                        const auto r = ctx.sample(req);
                        std::string answer;
                        for (const auto& c : r.content) {
                            if (const auto* t = std::get_if<mcp::text_content>(&c))
                                answer += t->text;
                            else
                                answer += mcp::to_json(mcp::to_json(c, ctx.protocol_version()));
                        }
                        return "LLM response: " + answer;
                    });

    server.add_tool("test_elicitation", "Asks the user for a username and an email (elicitation/create)",
                    [](const elicitation_args& a, mcp::context& ctx) {
                        const auto r = ctx.elicit<user_response>(a.message);
                        const std::string content =
                            r.content ? mcp::to_json(mcp::to_value(*r.content)) : "{}";
                        return "User response: action=" + action_text(r.action) + ", content=" + content;
                    });

    server.add_tool(
        "test_elicitation_sep1034_defaults", "Elicitation whose fields all have defaults (SEP-1034)",
        [](mcp::context& ctx) {
            const auto r = ctx.elicit<profile_form>("Please review and update the form fields with defaults");
            const std::string content = r.content ? mcp::to_json(mcp::to_value(*r.content)) : "{}";
            return "Elicitation completed: action=" + action_text(r.action) + ", content=" + content;
        });

    server.add_tool({.name = "test_elicitation_sep1330_enums",
                     .description = "Elicitation with the five enum schema forms (SEP-1330)",
                     .input_schema = object{{"type", "object"}, {"properties", object{}}}},
                    [](const object&, mcp::context& ctx) {
                        const auto r =
                            ctx.elicit("Please select options from the enum fields", sep1330_schema());
                        const std::string content = r.content ? mcp::to_json(*r.content) : "{}";
                        return mcp::call_tool_result{
                            .content = {mcp::text("Elicitation completed: action=" + action_text(r.action) +
                                                  ", content=" + content)}};
                    });
}

} // namespace

void add_conformance_tools(mcp::server& server) {
    add_content_tools(server);
    add_notification_tools(server);
    add_client_request_tools(server);

    server.add_tool(
        {.name = "json_schema_2020_12_tool",
         .description = "Tool with JSON Schema 2020-12 features (SEP-1613, SEP-2106)",
         .input_schema = schema_2020_12()},
        [](const object& args, mcp::context&) {
            return mcp::call_tool_result{
                .content = {mcp::text("JSON Schema 2020-12 tool called with: " + mcp::to_json(args))}};
        });
}

} // namespace conformance
