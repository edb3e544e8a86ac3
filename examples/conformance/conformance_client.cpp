// conformance_client: the client under test of the official MCP conformance suite
// (@modelcontextprotocol/conformance). The runner starts a mock server per scenario and runs
//
//   MCP_CONFORMANCE_SCENARIO=<scenario> conformance_client <server-url>
//
// then judges what the mock saw and this process's exit code (0 = the scenario ran through).
// Scenarios (2025-11-25 client requirements without auth/*, plus one never-scored extra):
//   initialize                           initialize + initialized, tools/list, close
//   tools_call                           tools/list, then tools/call add_numbers {a: 5, b: 3}
//   elicitation-sep1034-client-defaults  declare form elicitation, call test_client_elicitation_defaults
//                                        and accept the form untouched: every field keeps its
//                                        schema default (SEP-1034, elicitation_defaults.hpp)
//   sse-retry                            call test_reconnection: the mock closes the POST's SSE
//                                        stream after a priming event (retry: 500); the HTTP
//                                        transport reconnects with GET + Last-Event-ID after the
//                                        retry delay and receives the result there (SEP-1699)
//   json-schema-2020-12-preservation     echo json_schema_2020_12_tool's inputSchema, as received,
//                                        through json_schema_echo (SEP-1613: nothing stripped)
// The OAuth scenarios (auth/*) are not implemented: this client has no authorization yet, so it
// says so and exits 1 (tests/conformance/expected-failures.yml lists them).
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
        require(mcp::is_initialize_era(*r), std::string("protocol version ") + v +
                                                " (stateless era) is not supported by this client yet");
        o.protocol_version = *r;
    }
    return o;
}

void connect(mcp::client& c, const std::string& url) {
    c.connect(mcp::http::make_client_transport(url));
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

const std::map<std::string_view, std::function<void(const std::string&)>>& scenarios() {
    static const std::map<std::string_view, std::function<void(const std::string&)>> all{
        {"initialize", initialize},
        {"tools_call", tools_call},
        {"elicitation-sep1034-client-defaults", elicitation_defaults},
        {"sse-retry", sse_retry},
        {"json-schema-2020-12-preservation", json_schema_preservation},
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
    const auto it = scenarios().find(scenario);
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
