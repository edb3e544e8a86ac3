// schema_validate.cpp - micro-benchmark of mcp::schema::validator: ns per is_valid / validate
// for a small tool-call argument object and a larger MCP message, and compile time per schema.
// Plain std::chrono; run a Release build for meaningful figures.
#include <mcp/schema/validator.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace json = mcp::json;
using mcp::schema::validator;

namespace {

template <class F>
double ns_per_call(F&& f, int iterations) {
    for (int i = 0; i < iterations / 10 + 1; ++i) f(); // warm up
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) f();
    auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(end - start).count() / iterations;
}

json::value read_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

volatile bool sink;

} // namespace

int main() {
    const auto tool_schema = json::parse(R"({
      "type": "object",
      "properties": {
        "city": {"type": "string", "minLength": 1, "maxLength": 100, "description": "City name"},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "include_hourly": {"type": "boolean"},
        "coordinates": {"type": "object", "properties": {"lat": {"type": "number", "minimum": -90, "maximum": 90},
                        "lon": {"type": "number", "minimum": -180, "maximum": 180}}, "required": ["lat", "lon"],
                        "additionalProperties": false},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "maxItems": 10}
      },
      "required": ["city"],
      "additionalProperties": false
    })");
    const auto args = json::parse(R"({"city": "Paris", "days": 3, "unit": "celsius", "include_hourly": false,
        "coordinates": {"lat": 48.8566, "lon": 2.3522}, "tags": ["travel", "weekend-trip"]})");

    const std::string shared = MCPXX_SHARED_DIR;
    const auto mcp_doc = read_json(shared + "/spec/2025-11-25/schema.json");
    const auto mcp_doc_07 = read_json(shared + "/spec/2025-06-18/schema.json");

    std::printf("%-58s %12s\n", "case", "ns/op");
    auto row = [](const char* name, double ns) { std::printf("%-58s %12.0f\n", name, ns); };

    row("compile: tool input schema (6 properties, 1 pattern)",
        ns_per_call([&] { sink = validator::compile(tool_schema).is_valid(nullptr); }, 2000));
    row("compile: MCP 2025-11-25 schema.json (whole, 2020-12)",
        ns_per_call([&] { sink = validator::compile(mcp_doc).is_valid(nullptr); }, 50));
    row("compile: MCP 2025-11-25 #/$defs/JSONRPCMessage",
        ns_per_call([&] { sink = validator::compile_ref(mcp_doc, "/$defs/JSONRPCMessage").is_valid(nullptr); }, 200));
    row("compile: MCP 2025-11-25 #/$defs/CallToolResult",
        ns_per_call([&] { sink = validator::compile_ref(mcp_doc, "/$defs/CallToolResult").is_valid(nullptr); }, 200));
    row("compile: MCP 2025-06-18 schema.json (whole, draft-07)",
        ns_per_call([&] { sink = validator::compile(mcp_doc_07).is_valid(nullptr); }, 50));

    const auto v = validator::compile(tool_schema);
    std::printf("tool-call arguments: %zu bytes, valid=%d\n", mcp::to_json(args).size(), v.is_valid(args) ? 1 : 0);
    row("is_valid: tool-call arguments", ns_per_call([&] { sink = v.is_valid(args); }, 200000));
    row("validate: tool-call arguments (valid)", ns_per_call([&] { sink = v.validate(args).empty(); }, 200000));
    auto bad_args = args;
    bad_args.as_object()["days"] = "three";
    bad_args.as_object()["extra"] = 1;
    row("is_valid: tool-call arguments (invalid)", ns_per_call([&] { sink = v.is_valid(bad_args); }, 200000));
    row("validate: tool-call arguments (invalid, 2 errors)", ns_per_call([&] { sink = v.validate(bad_args).empty(); }, 100000));

    // A larger instance: a tools/list result with 50 tools against the MCP schema.
    json::array tools;
    for (int i = 0; i < 50; ++i) {
        json::object t;
        t["name"] = "tool_" + std::to_string(i);
        t["description"] = "A tool that does thing number " + std::to_string(i);
        t["inputSchema"] = tool_schema;
        t["annotations"] = json::parse(R"({"readOnlyHint": true, "title": "Tool"})");
        tools.push_back(std::move(t));
    }
    json::object result;
    result["tools"] = std::move(tools);
    json::object msg{{"jsonrpc", "2.0"}, {"id", 7}};
    msg["result"] = std::move(result);
    json::value big(std::move(msg));
    const auto message = validator::compile_ref(mcp_doc, "/$defs/JSONRPCMessage");
    const auto list_result = validator::compile_ref(mcp_doc, "/$defs/ListToolsResult");
    std::printf("tools/list response: %zu bytes, JSONRPCMessage valid=%d, ListToolsResult valid=%d\n",
                mcp::to_json(big).size(), message.is_valid(big) ? 1 : 0,
                list_result.is_valid(big.at("result")) ? 1 : 0);
    row("is_valid: 50-tool tools/list response vs JSONRPCMessage", ns_per_call([&] { sink = message.is_valid(big); }, 2000));
    row("is_valid: its result vs ListToolsResult", ns_per_call([&] { sink = list_result.is_valid(big.at("result")); }, 2000));
    return 0;
}
