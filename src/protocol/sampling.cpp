// Codec of sampling/createMessage (request params, result, messages).
#include "protocol/described.hpp"

namespace mcp {

using namespace wire;

std::string_view to_string(include_context c) noexcept {
    switch (c) {
    case include_context::none:
        return "none";
    case include_context::this_server:
        return "thisServer";
    case include_context::all_servers:
        return "allServers";
    }
    return "";
}

std::string_view to_string(tool_choice_mode m) noexcept {
    switch (m) {
    case tool_choice_mode::auto_:
        return "auto";
    case tool_choice_mode::required:
        return "required";
    case tool_choice_mode::none:
        return "none";
    }
    return "";
}

namespace {

/// One block as an object, several as an array (2025-11-25+); before, always one block.
json::value content_json(const std::vector<sampling_content>& content, revision r) {
    if (defines(r, wire_field::sampling_tools)) {
        if (content.size() == 1) return to_json(content.front(), r);
        json::array a;
        for (const auto& c : content) a.push_back(to_json(c, r));
        return a;
    }
    if (content.empty()) return json::object{{"type", "text"}, {"text", ""}};
    if (content.size() == 1) return to_json(content.front(), r);
    std::vector<json::object> blocks;
    bool all_text = true;
    for (const auto& c : content) {
        blocks.push_back(to_json(c, r));
        const auto* t = blocks.back().if_contains("type");
        all_text = all_text && t && t->is_string() && t->get_string() == "text";
    }
    if (!all_text) return blocks.front();
    std::string joined;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (i) joined += "\n";
        joined += blocks[i].at("text").get_string();
    }
    return json::object{{"type", "text"}, {"text", joined}};
}

std::vector<sampling_content> read_content(const json::object& o, std::string_view path) {
    const auto* c = member(o, "content");
    auto cp = join(path, "content");
    if (!c) fail(cp, "is required");
    if (c->is_array()) return read_value<std::vector<sampling_content>>(*c, {path, "content"});
    return {parse(*c, cp, type<sampling_content>{})};
}

} // namespace

namespace wire {
include_context parse(const json::value& v, std::string_view path, type<include_context>) {
    return read_enum(v, path, {include_context::none, include_context::this_server, include_context::all_servers});
}
tool_choice_mode parse(const json::value& v, std::string_view path, type<tool_choice_mode>) {
    return read_enum(v, path, {tool_choice_mode::auto_, tool_choice_mode::required, tool_choice_mode::none});
}
/// Hand-written: `content` is one block or (2025-11-25+) an array of blocks.
sampling_message parse(const json::value& v, std::string_view path, type<sampling_message>) {
    const auto& o = object(v, path);
    sampling_message x;
    const auto* r = member(o, "role");
    if (!r) fail(join(path, "role"), "is required");
    x.role = parse(*r, join(path, "role"), type<role>{});
    x.content = read_content(o, path);
    x.meta = meta(o, path);
    return x;
}
} // namespace wire

json::object to_json(const sampling_message& x, revision r) {
    json::object o;
    o["role"] = to_string(x.role);
    o["content"] = content_json(x.content, r);
    put_meta(o, x.meta, defines(r, wire_field::sampling_tools));
    return o;
}
template <> sampling_message from_json<sampling_message>(const json::value& v) {
    return parse(v, "SamplingMessage", type<sampling_message>{});
}

MCP_WIRE_DESCRIBE(model_hint, "ModelHint", (name))
MCP_WIRE_CODEC(model_hint)
MCP_WIRE_DESCRIBE(model_preferences, "ModelPreferences", (hints), (cost_priority), (speed_priority),
                  (intelligence_priority))
MCP_WIRE_CODEC(model_preferences)
MCP_WIRE_DESCRIBE(tool_choice, "ToolChoice", (mode))
MCP_WIRE_CODEC(tool_choice)

MCP_WIRE_DESCRIBE(create_message_request, "CreateMessageRequest.params", (messages, field::required),
                  (model_preferences), (system_prompt), (include_context), (temperature), (max_tokens),
                  (stop_sequences), (metadata), (tools, when(wire_field::sampling_tools)),
                  (tool_choice, when(wire_field::sampling_tools)),
                  (meta, when(wire_field::server_request_meta)))
MCP_WIRE_CODEC(create_message_request)

json::object to_json(const create_message_result& x, revision r) {
    json::object o;
    o["role"] = to_string(x.role);
    o["content"] = content_json(x.content, r);
    o["model"] = x.model;
    put(o, "stopReason", x.stop_reason);
    put_meta(o, x.meta, true);
    return o;
}
template <> create_message_result from_json<create_message_result>(const json::value& v) {
    constexpr std::string_view path = "CreateMessageResult";
    const auto& o = object(v, path);
    create_message_result x;
    const auto* r = member(o, "role");
    if (!r) fail(join(path, "role"), "is required");
    x.role = parse(*r, join(path, "role"), type<role>{});
    x.content = read_content(o, path);
    x.model = req_string(o, "model", path);
    x.stop_reason = opt_string(o, "stopReason", path);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
