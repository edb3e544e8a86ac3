// MCP sampling <-> OpenAI chat completions: the request body, the model choice and the reading of
// the answer (see mcp/host/providers.hpp for the mapping).
#include "host/openai_provider_impl.hpp"

#include <mcp/host/catalogue.hpp>
#include <mcp/jsonrpc/error.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::host {
namespace {

using json::array;
using json::object;

bool api_safe_name(std::string_view n) {
    if (n.empty() || n.size() > 64) return false;
    return std::all_of(n.begin(), n.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

[[noreturn]] void cannot_send(std::size_t message, std::size_t block, const std::string& what) {
    throw error(error_code::invalid_params, "sampling message " + std::to_string(message) + ", block " +
                                                std::to_string(block) + ": " + what);
}

[[noreturn]] void not_a_completion(const std::string& url, const std::string& why) {
    throw error(error_code::internal_error,
                "the model provider at " + url + " did not answer with a chat completion: " + why,
                object{{"url", url}});
}

/// "wav" or "mp3", the only formats the API's input_audio takes; nullopt for anything else.
std::optional<std::string> audio_format(std::string_view mime) {
    const auto m = lower(mime);
    if (m == "audio/wav" || m == "audio/x-wav" || m == "audio/wave" || m == "audio/vnd.wave") return "wav";
    if (m == "audio/mpeg" || m == "audio/mp3" || m == "audio/mpeg3" || m == "audio/x-mpeg-3") return "mp3";
    return std::nullopt;
}

/// A tool result as the text of a "tool" message (the API's tool messages hold text only).
std::string tool_result_text(const tool_result_content& r, std::size_t message, std::size_t block) {
    std::string text;
    const auto add = [&](std::string_view piece) {
        if (!text.empty()) text += "\n";
        text += piece;
    };
    for (const auto& c : r.content) {
        if (const auto* t = std::get_if<text_content>(&c)) {
            add(t->text);
        } else if (const auto* e = std::get_if<embedded_resource>(&c);
                   e && std::holds_alternative<text_resource_contents>(e->resource)) {
            add(std::get<text_resource_contents>(e->resource).text);
        } else if (const auto* l = std::get_if<resource_link>(&c)) {
            add("[resource " + l->uri + "]");
        } else {
            cannot_send(
                message, block,
                "a tool result with image, audio or binary content cannot be sent: the chat completions API "
                "takes text only in tool messages");
        }
    }
    if (r.content.empty() && r.structured_content) text = to_json(*r.structured_content);
    return text;
}

} // namespace

openai_sampling_provider::impl::tool_names
openai_sampling_provider::impl::name_tools(const create_message_request& request) {
    tool_names names;
    // Names the API accepts are kept as they are; the others get what is left.
    for (const auto& t : request.tools)
        if (api_safe_name(t.name)) names.to_api[t.name] = names.to_mcp[t.name] = t.name;
    for (const auto& t : request.tools) {
        if (names.to_api.count(t.name)) continue;
        std::string api = sanitize_name(t.name).substr(0, 64);
        // A renamed tool may meet another tool's name: number it until it is unique.
        for (int n = 2; names.to_mcp.count(api); ++n) {
            const std::string suffix = "_" + std::to_string(n);
            api = sanitize_name(t.name).substr(0, 64 - suffix.size()) + suffix;
        }
        names.to_api[t.name] = api;
        names.to_mcp[api] = t.name;
    }
    return names;
}

std::string openai_sampling_provider::choose_model(const create_message_request& request) const {
    const auto& models = impl_->options.models;
    if (request.model_preferences)
        for (const auto& hint : request.model_preferences->hints) {
            if (!hint.name || hint.name->empty()) continue;
            const auto h = lower(*hint.name);
            for (const auto& m : models)
                if (lower(m).find(h) != std::string::npos) return m;
        }
    return models.front();
}

json::object openai_sampling_provider::request_body(const create_message_request& request) const {
    const auto names = impl::name_tools(request);
    const auto api_name = [&](const std::string& n) {
        auto it = names.to_api.find(n);
        return it != names.to_api.end() ? it->second : api_safe_name(n) ? n : sanitize_name(n).substr(0, 64);
    };

    array messages;
    if (request.system_prompt)
        messages.push_back(object{{"role", "system"}, {"content", *request.system_prompt}});
    for (std::size_t i = 0; i < request.messages.size(); ++i) {
        const auto& m = request.messages[i];
        const auto& blocks = m.content;
        const bool results = std::any_of(blocks.begin(), blocks.end(), [](const auto& b) {
            return std::holds_alternative<tool_result_content>(b);
        });
        if (m.role == role::user && results) {
            // Each result is a message of its own, answering its call by id.
            for (std::size_t j = 0; j < blocks.size(); ++j) {
                const auto* r = std::get_if<tool_result_content>(&blocks[j]);
                if (!r) cannot_send(i, j, "a user message with tool results may hold nothing else");
                messages.push_back(object{{"role", "tool"},
                                          {"tool_call_id", r->tool_use_id},
                                          {"content", tool_result_text(*r, i, j)}});
            }
            continue;
        }
        if (m.role == role::user) {
            array parts;
            for (std::size_t j = 0; j < blocks.size(); ++j) {
                const auto& b = blocks[j];
                if (const auto* t = std::get_if<text_content>(&b)) {
                    parts.push_back(object{{"type", "text"}, {"text", t->text}});
                } else if (const auto* img = std::get_if<image_content>(&b)) {
                    parts.push_back(object{
                        {"type", "image_url"},
                        {"image_url", object{{"url", "data:" + img->mime_type + ";base64," + img->data}}}});
                } else if (const auto* a = std::get_if<audio_content>(&b)) {
                    const auto format = audio_format(a->mime_type);
                    if (!format)
                        cannot_send(i, j,
                                    "audio of type " + a->mime_type +
                                        " cannot be sent: the chat completions API takes "
                                        "wav or mp3 audio only");
                    parts.push_back(object{{"type", "input_audio"},
                                           {"input_audio", object{{"data", a->data}, {"format", *format}}}});
                } else {
                    cannot_send(i, j, "a tool_use block belongs in an assistant message");
                }
            }
            // One text block is sent as a plain string: every compatible server reads that.
            json::value content = parts.size() == 1 && parts[0].as_object().at("type") == "text"
                                      ? json::value(parts[0].as_object().at("text"))
                                      : json::value(std::move(parts));
            if (blocks.empty()) content = "";
            messages.push_back(object{{"role", "user"}, {"content", std::move(content)}});
            continue;
        }
        // assistant
        std::string text;
        bool has_text = false;
        array calls;
        for (std::size_t j = 0; j < blocks.size(); ++j) {
            const auto& b = blocks[j];
            if (const auto* t = std::get_if<text_content>(&b)) {
                if (has_text) text += "\n";
                text += t->text;
                has_text = true;
            } else if (const auto* u = std::get_if<tool_use_content>(&b)) {
                calls.push_back(object{
                    {"id", u->id},
                    {"type", "function"},
                    {"function", object{{"name", api_name(u->name)}, {"arguments", to_json(u->input)}}}});
            } else if (std::holds_alternative<tool_result_content>(b)) {
                cannot_send(i, j, "a tool_result block belongs in a user message");
            } else {
                cannot_send(i, j,
                            "the chat completions API takes images and audio from the user only, not from "
                            "the assistant");
            }
        }
        object msg{{"role", "assistant"}};
        if (has_text || calls.empty())
            msg["content"] = text;
        else
            msg["content"] = nullptr;
        if (!calls.empty()) msg["tool_calls"] = std::move(calls);
        messages.push_back(std::move(msg));
    }

    object body{{"model", choose_model(request)}, {"messages", std::move(messages)}};
    if (request.max_tokens > 0) body["max_tokens"] = request.max_tokens;
    if (request.temperature) body["temperature"] = *request.temperature;
    if (request.stop_sequences && !request.stop_sequences->empty()) {
        array stop;
        for (const auto& s : *request.stop_sequences) stop.emplace_back(s);
        body["stop"] = std::move(stop);
    }
    if (!request.tools.empty()) {
        array tools;
        for (const auto& t : request.tools) {
            object fn{{"name", api_name(t.name)}};
            if (t.description) fn["description"] = *t.description;
            fn["parameters"] = t.input_schema;
            tools.push_back(object{{"type", "function"}, {"function", std::move(fn)}});
        }
        body["tools"] = std::move(tools);
        if (request.tool_choice && request.tool_choice->mode)
            body["tool_choice"] = std::string(to_string(*request.tool_choice->mode));
    }
    return body;
}

create_message_result openai_sampling_provider::read_response(std::string_view text,
                                                              const create_message_request& request) const {
    const std::string& url = impl_->display;
    boost::system::error_code ec;
    auto doc = parse_json(text, ec);
    if (!doc) not_a_completion(url, "the body is not JSON (" + ec.message() + ")");
    if (!doc->is_object()) not_a_completion(url, "the body is not a JSON object");
    const auto& o = doc->get_object();
    const auto* choices = find_array(o, "choices");
    if (!choices || choices->empty()) not_a_completion(url, "it has no \"choices\"");
    if (!(*choices)[0].is_object()) not_a_completion(url, "choices[0] is not an object");
    const auto& choice = (*choices)[0].get_object();
    const auto* message = find_object(choice, "message");
    if (!message) not_a_completion(url, "choices[0] has no \"message\" object");

    create_message_result r;
    r.role = role::assistant;
    const auto names = impl::name_tools(request);
    if (const auto* content = message->if_contains("content")) {
        if (content->is_string()) {
            if (!content->get_string().empty())
                r.content.push_back(text_content{.text = std::string(content->get_string())});
        } else if (content->is_array()) {
            for (const auto& part : content->get_array())
                if (part.is_object())
                    if (auto t = find_string(part.get_object(), "text"))
                        r.content.push_back(text_content{.text = std::string(*t)});
        } else if (!content->is_null()) {
            not_a_completion(url, "the message's \"content\" is neither text nor null");
        }
    }
    if (auto refusal = find_string(*message, "refusal"); refusal && !refusal->empty())
        r.content.push_back(text_content{.text = std::string(*refusal)});
    if (const auto* calls = message->if_contains("tool_calls"); calls && !calls->is_null()) {
        if (!calls->is_array()) not_a_completion(url, "\"tool_calls\" is not an array");
        for (std::size_t k = 0; k < calls->get_array().size(); ++k) {
            const auto& c = calls->get_array()[k];
            const std::string where = "tool_calls[" + std::to_string(k) + "]";
            const auto* fn = c.is_object() ? find_object(c.get_object(), "function") : nullptr;
            const auto id = c.is_object() ? find_string(c.get_object(), "id") : std::nullopt;
            const auto name = fn ? find_string(*fn, "name") : std::nullopt;
            if (!fn || !id || !name) not_a_completion(url, where + " needs an id and a function with a name");
            json::object input;
            if (const auto* args = fn->if_contains("arguments"); args && !args->is_null()) {
                // The API sends the arguments as a JSON text; a few servers send the object.
                std::optional<json::value> v;
                if (args->is_string()) {
                    const std::string_view a = args->get_string();
                    if (a.find_first_not_of(" \t\r\n") != std::string_view::npos)
                        v = parse_json(a, ec);
                    else
                        v = json::object{};
                } else {
                    v = *args;
                }
                if (!v || !v->is_object())
                    not_a_completion(url, where + ": the arguments are not a JSON object");
                input = std::move(v->get_object());
            }
            const std::string api(*name);
            auto it = names.to_mcp.find(api);
            r.content.push_back(tool_use_content{.id = std::string(*id),
                                                 .name = it != names.to_mcp.end() ? it->second : api,
                                                 .input = std::move(input)});
        }
    }
    if (r.content.empty()) r.content.push_back(text_content{});

    if (auto finish = find_string(choice, "finish_reason")) {
        if (*finish == "stop")
            r.stop_reason = "endTurn";
        else if (*finish == "length")
            r.stop_reason = "maxTokens";
        else if (*finish == "tool_calls" || *finish == "function_call")
            r.stop_reason = "toolUse";
        else
            r.stop_reason = std::string(*finish);
    }
    const auto model = find_string(o, "model");
    r.model = model && !model->empty() ? std::string(*model) : choose_model(request);
    return r;
}

} // namespace mcp::host
