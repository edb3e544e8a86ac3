// The features the 2026-07-28 server scenarios call (see scenarios.hpp): multi-round-trip requests
// written with mcp::context::ask, which in the initialize era become ordinary server->client
// requests, so the same tools serve both eras.
#include "scenarios.hpp"

#include <atomic>
#include <string>

namespace conformance {
namespace {

using mcp::json::object;

object string_form(const char* property) {
    return object{{"type", "object"},
                  {"properties", {{property, {{"type", "string"}}}}},
                  {"required", mcp::json::array{property}}};
}

object no_arguments() {
    return object{{"type", "object"}, {"properties", object{}}};
}

mcp::create_message_request question(std::string text, std::int64_t max_tokens) {
    mcp::create_message_request r;
    r.messages.push_back({.role = mcp::role::user, .content = {mcp::text_content{.text = std::move(text)}}});
    r.max_tokens = max_tokens;
    return r;
}

std::string text_of(const mcp::create_message_result& r) {
    std::string out;
    for (const auto& c : r.content)
        if (const auto* t = std::get_if<mcp::text_content>(&c)) out += t->text;
    return out;
}

std::string field(const mcp::elicit_result& r, const char* name) {
    if (!r.content) return "(none)";
    if (auto v = mcp::find_string(*r.content, name)) return std::string(*v);
    if (const auto* v = r.content->if_contains(name)) return mcp::to_json(*v);
    return "(none)";
}

mcp::call_tool_result text_result(std::string text) {
    return mcp::call_tool_result{.content = {mcp::text(std::move(text))}};
}

void add_mrtr_tools(mcp::server& server) {
    server.add_tool({.name = "test_input_required_result_elicitation",
                     .description = "Asks for the user's name (elicitation input request 'user_name')",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        auto r = ctx.elicit(mcp::form_elicitation("What is your name?", string_form("name")),
                                            {.key = "user_name"});
                        return text_result("Hello, " + field(r, "name") + "!");
                    });
    server.add_tool(
        {.name = "test_input_required_result_sampling",
         .description = "Asks the client's LLM a question (sampling input request 'capital_question')",
         .input_schema = no_arguments()},
        [](const object&, mcp::context& ctx) {
            auto r = ctx.sample(question("What is the capital of France?", 100), {.key = "capital_question"});
            return text_result("The model said: " + text_of(r));
        });
    server.add_tool({.name = "test_input_required_result_list_roots",
                     .description = "Asks for the client's roots (roots/list input request 'client_roots')",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        std::string uris;
                        for (const auto& r : ctx.roots({.key = "client_roots"}))
                            uris += (uris.empty() ? "" : ", ") + r.uri;
                        return text_result("Client roots: " + uris);
                    });
    server.add_tool({.name = "test_input_required_result_request_state",
                     .description = "Asks for a confirmation and checks the requestState it issued",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        // The state is what this tool put there in round 1; the server verified its
                        // integrity before the handler ran again.
                        if (ctx.request_state().is_null()) ctx.set_request_state(object{{"step", "confirm"}});
                        auto r = ctx.elicit(
                            mcp::form_elicitation("Please confirm",
                                                  object{{"type", "object"},
                                                         {"properties", {{"ok", {{"type", "boolean"}}}}},
                                                         {"required", mcp::json::array{"ok"}}}),
                            {.key = "confirm"});
                        const bool state_ok = ctx.request_state().is_object() || !ctx.stateless();
                        return text_result(std::string(state_ok ? "state-ok" : "state-missing") +
                                           ": confirmed=" + field(r, "ok"));
                    });
    server.add_tool({.name = "test_input_required_result_multiple_inputs",
                     .description = "Asks for a name, a model greeting and the roots in one round",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        auto answers = ctx.ask(
                            {{"user_name", mcp::form_elicitation("What is your name?", string_form("name"))},
                             {"greeting", question("Generate a greeting", 50)},
                             {"client_roots", mcp::roots_request{}}});
                        const auto& name = std::get<mcp::elicit_result>(answers.at("user_name"));
                        const auto& greeting = std::get<mcp::create_message_result>(answers.at("greeting"));
                        const auto& roots = std::get<mcp::list_roots_result>(answers.at("client_roots"));
                        return text_result(text_of(greeting) + " " + field(name, "name") + " (" +
                                           std::to_string(roots.roots.size()) + " roots)");
                    });
    server.add_tool(
        {.name = "test_input_required_result_multi_round",
         .description = "Asks for a name, then for a colour, in two rounds",
         .input_schema = no_arguments()},
        [](const object&, mcp::context& ctx) {
            auto step1 = ctx.elicit(mcp::form_elicitation("Step 1: What is your name?", string_form("name")),
                                    {.key = "step1"});
            auto step2 = ctx.elicit(
                mcp::form_elicitation("Step 2: What is your favorite color?", string_form("color")),
                {.key = "step2"});
            return text_result(field(step1, "name") + " likes " + field(step2, "color"));
        });
    server.add_tool({.name = "test_input_required_result_tampered_state",
                     .description = "Asks for a confirmation; a tampered requestState is refused",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        ctx.set_request_state(object{{"issued", true}});
                        auto r = ctx.elicit(mcp::form_elicitation("Please confirm", string_form("answer")),
                                            {.key = "confirm"});
                        return text_result("answer: " + field(r, "answer"));
                    });
    // input-required-result-capability-check: asks only for what the client can answer.
    server.add_tool({.name = "test_input_required_result_capabilities",
                     .description = "Asks for input of the kinds the client declared (sampling, elicitation)",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        mcp::input_requests wanted;
                        if (ctx.client_caps().sampling)
                            wanted.emplace("summary", question("Summarize the request", 50));
                        if (ctx.client_caps().elicitation)
                            wanted.emplace("user_name",
                                           mcp::form_elicitation("What is your name?", string_form("name")));
                        if (wanted.empty())
                            return text_result("nothing to ask: the client declared neither capability");
                        auto answers = ctx.ask(wanted);
                        return text_result("received " + std::to_string(answers.size()) + " answer(s)");
                    });
    server.add_prompt(
        {.name = "test_input_required_result_prompt",
         .description = "A prompt that asks the user for context first"},
        [](const std::map<std::string, std::string>&, mcp::context& ctx) {
            auto r = ctx.elicit(
                mcp::form_elicitation("What context should the prompt use?", string_form("context")),
                {.key = "user_context"});
            return mcp::get_prompt_result{
                .messages = {{mcp::role::user, mcp::text("Use this context: " + field(r, "context"))}}};
        });
}

void add_diagnostic_tools(mcp::server& server) {
    server.add_tool({.name = "test_missing_capability",
                     .description = "Needs sampling: a client that did not declare it gets -32021",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        auto r = ctx.sample(question("Say hello", 20));
                        return text_result("The model said: " + text_of(r));
                    });
    server.add_tool({.name = "test_streaming_elicitation",
                     .description = "Asks for input: the response is an InputRequiredResult, never a request",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        ctx.progress(0, 1, "about to ask");
                        auto r = ctx.elicit(mcp::form_elicitation("Your name?", string_form("name")));
                        return text_result("Hello, " + field(r, "name"));
                    });
    server.add_tool({.name = "test_logging_tool",
                     .description = "Logs at info level (only when the request asked for a log level)",
                     .input_schema = no_arguments()},
                    [](const object&, mcp::context& ctx) {
                        ctx.log(mcp::logging_level::info, "test_logging_tool ran");
                        return text_result("logged");
                    });
    server.add_tool(
        {.name = "test_trigger_tool_change",
         .description = "Adds or removes a tool, so that the tool list changes",
         .input_schema = no_arguments()},
        [&server](const object&, mcp::context&) {
            static std::atomic<int> n{0};
            const std::string name = "dynamic_tool_" + std::to_string(n++ % 2);
            if (!server.remove_tool(name))
                server.add_tool(
                    {.name = name, .description = "Appears and disappears", .input_schema = no_arguments()},
                    [](const object&, mcp::context&) { return text_result("dynamic"); });
            return text_result("tool list changed");
        });
    server.add_tool(
        {.name = "test_trigger_prompt_change",
         .description = "Adds or removes a prompt, so that the prompt list changes",
         .input_schema = no_arguments()},
        [&server](const object&, mcp::context&) {
            if (!server.remove_prompt("dynamic_prompt"))
                server.add_prompt(
                    {.name = "dynamic_prompt", .description = "Appears and disappears"},
                    [](const std::map<std::string, std::string>&, mcp::context&) {
                        return mcp::get_prompt_result{.messages = {{mcp::role::user, mcp::text("dynamic")}}};
                    });
            return text_result("prompt list changed");
        });
    // http-header-validation / http-custom-header-server-validation: a string argument mirrored
    // into Mcp-Param-Region (and an integer one into Mcp-Param-Limit).
    server.add_tool(
        {.name = "test_header_params",
         .description = "Echoes a region and a limit that travel in Mcp-Param-* headers too",
         .input_schema =
             object{{"type", "object"},
                    {"properties",
                     {{"region",
                       {{"type", "string"}, {"x-mcp-header", "Region"}, {"description", "Where to run"}}},
                      {"limit", {{"type", "integer"}, {"x-mcp-header", "Limit"}}}}},
                    {"required", mcp::json::array{"region"}}}},
        [](const object& a, mcp::context&) {
            return text_result("region=" + std::string(a.at("region").as_string()));
        });
}

} // namespace

void add_stateless_features(mcp::server& server) {
    add_mrtr_tools(server);
    add_diagnostic_tools(server);
}

} // namespace conformance
