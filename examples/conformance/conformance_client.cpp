// conformance_client: the client under test of the official MCP conformance suite
// (@modelcontextprotocol/conformance). The runner starts a mock server per scenario and runs
//
//   MCP_CONFORMANCE_SCENARIO=<scenario> conformance_client <server-url>
//
// then judges what the mock saw and this process's exit code (0 = the scenario ran through).
// MCP_CONFORMANCE_PROTOCOL_VERSION picks the revision: 2025-11-25 and older speak the
// initialize era only; 2026-07-28 is the client's default (server/discover, then the stateless
// era, falling back to initialize for a server that does not know discover).
// Scenarios (the 2025-11-25 and 2026-07-28 client requirements without auth/*, plus one
// never-scored extra):
//   initialize                           initialize + initialized, tools/list, close
//   tools_call                           tools/list, then tools/call add_numbers {a: 5, b: 3}
//   request-metadata                     (2026-07-28) every request carries _meta (version,
//                                        capabilities of the roots/sampling/elicitation handlers,
//                                        client info); the mock refuses the first one with -32022
//                                        and the client retries once with a version both support
//   sep-2322-client-request-state        (2026-07-28) input_required rounds: test_mrtr_echo_state
//                                        (requestState echoed exactly, a new id; an unrelated call
//                                        made from inside the elicitation handler carries neither
//                                        inputResponses nor requestState), test_mrtr_no_state (no
//                                        requestState in the retry), test_mrtr_no_result_type
//                                        (no resultType means complete: no retry)
//   http-standard-headers                (2026-07-28) every method once: tools, resources, prompts
//                                        listed, each called / read / got (Mcp-Method, Mcp-Name)
//   http-custom-headers                  (2026-07-28) the tool calls the runner lists in
//                                        MCP_CONFORMANCE_CONTEXT, after tools/list (Mcp-Param-*)
//   http-invalid-tool-headers            (2026-07-28) call every listed tool: the transport has
//                                        left out those with invalid x-mcp-header annotations
//   json-schema-ref-no-deref             (2026-07-28) tools/list; a network $ref in an
//                                        inputSchema is never fetched
//   elicitation-sep1034-client-defaults  declare form elicitation, call test_client_elicitation_defaults
//                                        and accept the form untouched: every field keeps its
//                                        schema default (SEP-1034, elicitation_defaults.hpp)
//   sse-retry                            call test_reconnection: the mock closes the POST's SSE
//                                        stream after a priming event (retry: 500); the HTTP
//                                        transport reconnects with GET + Last-Event-ID after the
//                                        retry delay and receives the result there (SEP-1699)
//   json-schema-2020-12-preservation     echo json_schema_2020_12_tool's inputSchema, as received,
//                                        through json_schema_echo (SEP-1613: nothing stripped)
//   auth/*                               every OAuth scenario: connect with an authorizer
//                                        (conformance_client_auth.hpp), list the tools, call
//                                        test-tool when listed; a refused login exits 1
#include "conformance_client_auth.hpp"
#include "elicitation_defaults.hpp"

#include <mcp/client/client.hpp>
#include <mcp/http/client_transport.hpp>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using mcp::json::object;

void require(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error(what);
}

/// The protocol revision the runner asks for (MCP_CONFORMANCE_PROTOCOL_VERSION), if any.
mcp::client_options client_options() {
    mcp::client_options o{.info = {.name = "mcpxx-conformance-client", .version = "0.1.0"}};
    if (const char* v = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"); v && *v) {
        const auto r = mcp::parse_revision(v);
        require(r.has_value(),
                std::string("unknown protocol version in MCP_CONFORMANCE_PROTOCOL_VERSION: ") + v);
        o.protocol_version = *r;
    }
    return o;
}

/// MCP_CONFORMANCE_CONTEXT: what the runner tells some scenarios (an object, or null).
mcp::json::value scenario_context() {
    const char* text = std::getenv("MCP_CONFORMANCE_CONTEXT");
    if (!text || !*text) return nullptr;
    return mcp::json::parse(text);
}

/// Arguments that satisfy the plain schemas of the conformance tools: each required property
/// gets a value of its type.
object sample_arguments(const object& input_schema) {
    object args;
    const auto* props = mcp::find_object(input_schema, "properties");
    const auto* required = input_schema.if_contains("required");
    if (!props || !required || !required->is_array()) return args;
    for (const auto& name : required->get_array()) {
        if (!name.is_string()) continue;
        const auto* prop = mcp::find_object(*props, name.get_string());
        const auto type = prop ? mcp::find_string(*prop, "type").value_or("string") : "string";
        if (type == "integer")
            args[name.get_string()] = 1;
        else if (type == "number")
            args[name.get_string()] = 1.5;
        else if (type == "boolean")
            args[name.get_string()] = true;
        else if (type == "object")
            args[name.get_string()] = object{};
        else if (type == "array")
            args[name.get_string()] = mcp::json::array{};
        else
            args[name.get_string()] = "us-west1";
    }
    return args;
}

void connect(mcp::client& c, const std::string& url) {
    c.connect(mcp::http::make_client_transport(url));
}

void oauth(const std::string& url) {
    mcp::client c(client_options());
    c.connect(mcp::http::make_client_transport(
        {.url = url, .authorizer = conformance::scenario_authorizer(scenario_context())}));
    const auto tools = c.list_all_tools();
    for (const auto& t : tools)
        if (t.name == "test-tool") c.call_tool("test-tool");
    c.close();
}

const mcp::tool* find_tool(const std::vector<mcp::tool>& tools, std::string_view name) {
    for (const auto& t : tools)
        if (t.name == name) return &t;
    return nullptr;
}

void require_success(const mcp::call_tool_result& r, const std::string& tool) {
    std::string text;
    for (const auto& block : r.content)
        if (const std::string* t = mcp::text_of(block)) text += *t;
    require(!r.is_error.value_or(false), "tool " + tool + " failed: " + text);
}

// ---- scenarios -----------------------------------------------------------------------------------

void initialize(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    c.list_tools();
    c.close();
}

void tools_call(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    const auto tools = c.list_all_tools();
    require(find_tool(tools, "add_numbers") != nullptr, "the server does not list add_numbers");
    const auto r = c.call_tool("add_numbers", object{{"a", 5}, {"b", 3}});
    require_success(r, "add_numbers");
    c.close();
}

void elicitation_defaults(const std::string& url) {
    mcp::client c(client_options());
    // A user who accepts the form without changing anything: each field keeps its default.
    c.set_elicitation_handler([](const mcp::elicit_request& r, mcp::request_context&) {
        return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                  .content = conformance::with_schema_defaults(r.requested_schema, object{})};
    });
    connect(c, url);
    require_success(c.call_tool("test_client_elicitation_defaults"), "test_client_elicitation_defaults");
    c.close();
}

void sse_retry(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    require_success(c.call_tool("test_reconnection"), "test_reconnection");
    c.close();
}

void json_schema_preservation(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    const auto tools = c.list_all_tools();
    const mcp::tool* focal = find_tool(tools, "json_schema_2020_12_tool");
    require(focal != nullptr, "the server does not list json_schema_2020_12_tool");
    require(find_tool(tools, "json_schema_echo") != nullptr, "the server does not list json_schema_echo");
    require_success(c.call_tool("json_schema_echo", object{{"schema", focal->input_schema}}),
                    "json_schema_echo");
    c.close();
}

// ---- scenarios of the stateless era (2026-07-28) ------------------------------------------------

void request_metadata(const std::string& url) {
    mcp::client c(client_options());
    // Each handler declares its capability in every request's _meta.
    c.set_roots({{.uri = "file:///tmp", .name = "tmp"}});
    c.set_sampling_handler([](const mcp::create_message_request&, mcp::request_context&) {
        return mcp::create_message_result{.content = {mcp::text_content{.text = "ok"}}, .model = "none"};
    });
    c.set_elicitation_handler(
        [](const mcp::elicit_request&, mcp::request_context&) { return mcp::elicit_result{}; });
    connect(c, url); // server/discover: refused once with -32022, then retried
    c.list_all_tools();
    c.call_tool("any"); // the mock answers every tool
    c.close();
}

void mrtr_request_state(const std::string& url) {
    mcp::client c(client_options());
    int unrelated_calls = 0;
    c.set_elicitation_handler([&](const mcp::elicit_request&, mcp::request_context&) {
        // Between the rounds of test_mrtr_echo_state: this call must carry nothing of them.
        if (unrelated_calls++ == 0)
            require_success(c.call_tool("test_mrtr_unrelated"), "test_mrtr_unrelated");
        return mcp::elicit_result{.action = mcp::elicit_action::accept,
                                  .content = object{{"confirmed", true}}};
    });
    connect(c, url);
    c.list_all_tools();
    require_success(c.call_tool("test_mrtr_echo_state"), "test_mrtr_echo_state");
    require_success(c.call_tool("test_mrtr_no_state"), "test_mrtr_no_state");
    require_success(c.call_tool("test_mrtr_no_result_type"), "test_mrtr_no_result_type");
    c.close();
}

void standard_headers(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    for (const auto& t : c.list_all_tools())
        require_success(c.call_tool(t.name, sample_arguments(t.input_schema)), t.name);
    for (const auto& r : c.list_all_resources()) c.read_resource(r.uri);
    for (const auto& p : c.list_all_prompts()) {
        std::map<std::string, std::string> args;
        for (const auto& a : p.arguments)
            if (a.required.value_or(false)) args[a.name] = "x";
        c.get_prompt(p.name, args);
    }
    c.close();
}

void custom_headers(const std::string& url) {
    const auto context = scenario_context();
    const auto* calls = context.is_object() ? context.get_object().if_contains("toolCalls") : nullptr;
    require(calls && calls->is_array(), "MCP_CONFORMANCE_CONTEXT has no toolCalls");
    mcp::client c(client_options());
    connect(c, url);
    c.list_all_tools(); // the transport learns the x-mcp-header annotations here
    for (const auto& call : calls->get_array()) {
        const auto& o = call.as_object();
        const std::string name(o.at("name").as_string());
        object args;
        if (const auto* a = mcp::find_object(o, "arguments")) args = *a;
        require_success(c.call_tool(name, args), name);
    }
    c.close();
}

void invalid_tool_headers(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    // The tools whose x-mcp-header annotations are invalid are not listed at all.
    for (const auto& t : c.list_all_tools())
        require_success(c.call_tool(t.name, sample_arguments(t.input_schema)), t.name);
    c.close();
}

void ref_no_deref(const std::string& url) {
    mcp::client c(client_options());
    connect(c, url);
    const auto tools = c.list_all_tools();
    require(find_tool(tools, "lookup_user") != nullptr, "the server does not list lookup_user");
    c.close();
}

const std::map<std::string_view, std::function<void(const std::string&)>>& scenarios() {
    static const std::map<std::string_view, std::function<void(const std::string&)>> all{
        {"initialize", initialize},
        {"tools_call", tools_call},
        {"elicitation-sep1034-client-defaults", elicitation_defaults},
        {"sse-retry", sse_retry},
        {"json-schema-2020-12-preservation", json_schema_preservation},
        {"request-metadata", request_metadata},
        {"sep-2322-client-request-state", mrtr_request_state},
        {"http-standard-headers", standard_headers},
        {"http-custom-headers", custom_headers},
        {"http-invalid-tool-headers", invalid_tool_headers},
        {"json-schema-ref-no-deref", ref_no_deref},
        {"auth/*", oauth},
    };
    return all;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: MCP_CONFORMANCE_SCENARIO=<scenario> conformance_client <server-url>\n";
        return 2;
    }
    const std::string url = argv[argc - 1]; // the runner appends the URL last
    const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
    if (!scenario || !*scenario) {
        std::cerr << "conformance_client: MCP_CONFORMANCE_SCENARIO is not set\n";
        return 2;
    }
    auto it = scenarios().find(scenario);
    if (it == scenarios().end() && std::string_view(scenario).starts_with("auth/")) it = scenarios().find("auth/*");
    if (it == scenarios().end()) {
        std::cerr << "conformance_client: scenario '" << scenario << "' is not supported (supported:";
        for (const auto& [name, run] : scenarios()) std::cerr << ' ' << name;
        std::cerr << ")\n";
        return 1;
    }
    try {
        it->second(url);
    } catch (const std::exception& e) {
        std::cerr << "conformance_client: " << scenario << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
