// Codec of sampling/createMessage (request params, result, messages).
#include "protocol/wire.hpp"

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
    if (c->is_array()) return each<sampling_content>(c->get_array(), cp, read_sampling_content);
    return {read_sampling_content(*c, cp)};
}

sampling_message read_message(const json::value& v, std::string_view path) {
    const auto& o = object(v, path);
    sampling_message x;
    const auto* r = member(o, "role");
    if (!r) fail(join(path, "role"), "is required");
    x.role = read_role(*r, join(path, "role"));
    x.content = read_content(o, path);
    x.meta = meta(o, path);
    return x;
}

} // namespace

json::object to_json(const sampling_message& x, revision r) {
    json::object o;
    o["role"] = to_string(x.role);
    o["content"] = content_json(x.content, r);
    put_meta(o, x.meta, defines(r, wire_field::sampling_tools));
    return o;
}
template <> sampling_message from_json<sampling_message>(const json::value& v) {
    return read_message(v, "SamplingMessage");
}

json::object to_json(const create_message_request& x, revision r) {
    json::object o;
    json::array msgs;
    for (const auto& m : x.messages) msgs.push_back(to_json(m, r));
    o["messages"] = std::move(msgs);
    if (x.model_preferences) {
        const auto& p = *x.model_preferences;
        json::object mp;
        if (!p.hints.empty()) {
            json::array h;
            for (const auto& hint : p.hints) {
                json::object ho;
                put(ho, "name", hint.name);
                h.push_back(std::move(ho));
            }
            mp["hints"] = std::move(h);
        }
        put(mp, "costPriority", p.cost_priority);
        put(mp, "speedPriority", p.speed_priority);
        put(mp, "intelligencePriority", p.intelligence_priority);
        o["modelPreferences"] = std::move(mp);
    }
    put(o, "systemPrompt", x.system_prompt);
    if (x.include_context) o["includeContext"] = to_string(*x.include_context);
    put(o, "temperature", x.temperature);
    o["maxTokens"] = x.max_tokens;
    if (x.stop_sequences) {
        json::array s;
        for (const auto& seq : *x.stop_sequences) s.emplace_back(seq);
        o["stopSequences"] = std::move(s);
    }
    put(o, "metadata", x.metadata);
    if (defines(r, wire_field::sampling_tools)) {
        if (!x.tools.empty()) {
            json::array t;
            for (const auto& tl : x.tools) t.push_back(to_json(tl, r));
            o["tools"] = std::move(t);
        }
        if (x.tool_choice) {
            json::object tc;
            if (x.tool_choice->mode) tc["mode"] = to_string(*x.tool_choice->mode);
            o["toolChoice"] = std::move(tc);
        }
    }
    put_meta(o, x.meta, defines(r, wire_field::server_request_meta));
    return o;
}

template <> create_message_request from_json<create_message_request>(const json::value& v) {
    constexpr std::string_view path = "CreateMessageRequest.params";
    const auto& o = object(v, path);
    create_message_request x;
    x.messages = each<sampling_message>(req_array(o, "messages", path), join(path, "messages"), read_message);
    if (auto mp = opt_object(o, "modelPreferences", path)) {
        auto pp = join(path, "modelPreferences");
        model_preferences p;
        if (const auto* h = opt_array(*mp, "hints", pp))
            p.hints = each<model_hint>(*h, join(pp, "hints"), [](const json::value& hv, std::string_view hp) {
                return model_hint{opt_string(object(hv, hp), "name", hp)};
            });
        p.cost_priority = opt_number(*mp, "costPriority", pp);
        p.speed_priority = opt_number(*mp, "speedPriority", pp);
        p.intelligence_priority = opt_number(*mp, "intelligencePriority", pp);
        x.model_preferences = std::move(p);
    }
    x.system_prompt = opt_string(o, "systemPrompt", path);
    if (auto ic = opt_string(o, "includeContext", path)) {
        if (*ic == "none")
            x.include_context = include_context::none;
        else if (*ic == "thisServer")
            x.include_context = include_context::this_server;
        else if (*ic == "allServers")
            x.include_context = include_context::all_servers;
        else
            fail(join(path, "includeContext"), "must be \"none\", \"thisServer\" or \"allServers\"");
    }
    x.temperature = opt_number(o, "temperature", path);
    x.max_tokens = req_int(o, "maxTokens", path);
    if (const auto* s = opt_array(o, "stopSequences", path))
        x.stop_sequences = string_array(*s, join(path, "stopSequences"));
    x.metadata = opt_object(o, "metadata", path);
    if (const auto* t = opt_array(o, "tools", path)) x.tools = each<tool>(*t, join(path, "tools"), read_tool);
    if (auto tc = opt_object(o, "toolChoice", path)) {
        auto tp = join(path, "toolChoice");
        tool_choice c;
        if (auto m = opt_string(*tc, "mode", tp)) {
            if (*m == "auto")
                c.mode = tool_choice_mode::auto_;
            else if (*m == "required")
                c.mode = tool_choice_mode::required;
            else if (*m == "none")
                c.mode = tool_choice_mode::none;
            else
                fail(join(tp, "mode"), "must be \"auto\", \"required\" or \"none\"");
        }
        x.tool_choice = c;
    }
    x.meta = meta(o, path);
    return x;
}

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
    x.role = read_role(*r, join(path, "role"));
    x.content = read_content(o, path);
    x.model = req_string(o, "model", path);
    x.stop_reason = opt_string(o, "stopReason", path);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
