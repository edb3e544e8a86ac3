// Codec of elicitation/create and notifications/elicitation/complete.
#include "protocol/described.hpp"

namespace mcp {

using namespace wire;

std::string_view to_string(elicitation_mode m) noexcept {
    return m == elicitation_mode::form ? "form" : "url";
}

std::string_view to_string(elicit_action a) noexcept {
    switch (a) {
    case elicit_action::accept:
        return "accept";
    case elicit_action::decline:
        return "decline";
    case elicit_action::cancel:
        return "cancel";
    }
    return "";
}

json::object to_json(const elicit_request& x, revision r) {
    json::object o;
    bool modes = defines(r, wire_field::elicitation_modes);
    if (x.mode == elicitation_mode::url) {
        if (!modes)
            throw error(error_code::invalid_params,
                        "URL-mode elicitation is not defined by protocol revision " +
                            std::string(to_string(r)));
        o["mode"] = "url";
        o["message"] = x.message;
        o["url"] = x.url.value_or("");
        if (defines(r, wire_field::elicitation_id)) o["elicitationId"] = x.elicitation_id.value_or("");
    } else {
        if (modes) o["mode"] = "form";
        o["message"] = x.message;
        o["requestedSchema"] = x.requested_schema;
    }
    put_meta(o, x.meta, defines(r, wire_field::server_request_meta));
    return o;
}

template <> elicit_request from_json<elicit_request>(const json::value& v) {
    constexpr std::string_view path = "ElicitRequest.params";
    const auto& o = object(v, path);
    elicit_request x;
    auto mode = opt_string(o, "mode", path).value_or("form");
    x.message = req_string(o, "message", path);
    if (mode == "form") {
        x.mode = elicitation_mode::form;
        x.requested_schema = req_object(o, "requestedSchema", path);
    } else if (mode == "url") {
        x.mode = elicitation_mode::url;
        x.url = req_string(o, "url", path);
        x.elicitation_id = opt_string(o, "elicitationId", path);
    } else {
        fail(join(path, "mode"), "must be \"form\" or \"url\"");
    }
    x.meta = meta(o, path);
    return x;
}

elicit_request form_elicitation(std::string message, json::object requested_schema) {
    elicit_request x;
    x.message = std::move(message);
    x.requested_schema = std::move(requested_schema);
    return x;
}

elicit_request url_elicitation(std::string message, std::string url, std::string elicitation_id) {
    elicit_request x;
    x.mode = elicitation_mode::url;
    x.message = std::move(message);
    x.url = std::move(url);
    x.elicitation_id = std::move(elicitation_id);
    return x;
}

json::object to_json(const elicit_result& x, revision r) {
    json::object o;
    o["action"] = to_string(x.action);
    if (x.content) {
        json::object c;
        bool arrays = defines(r, wire_field::elicitation_modes);
        for (const auto& kv : *x.content)
            if (arrays || !kv.value().is_array()) c[kv.key()] = kv.value();
        o["content"] = std::move(c);
    }
    put_meta(o, x.meta, defines(r, wire_field::client_result_meta));
    return o;
}

template <> elicit_result from_json<elicit_result>(const json::value& v) {
    constexpr std::string_view path = "ElicitResult";
    const auto& o = object(v, path);
    elicit_result x;
    auto a = req_string(o, "action", path);
    if (a == "accept")
        x.action = elicit_action::accept;
    else if (a == "decline")
        x.action = elicit_action::decline;
    else if (a == "cancel")
        x.action = elicit_action::cancel;
    else
        fail(join(path, "action"), "must be \"accept\", \"decline\" or \"cancel\"");
    if (auto c = opt_object(o, "content", path)) {
        auto cp = join(path, "content");
        for (const auto& kv : *c) {
            const auto& val = kv.value();
            bool ok = val.is_string() || val.is_number() || val.is_bool();
            if (val.is_array()) {
                ok = true;
                for (const auto& e : val.get_array()) ok = ok && e.is_string();
            }
            if (!ok) fail(join(cp, kv.key()), "must be a string, number, boolean or array of strings");
        }
        x.content = std::move(*c);
    }
    x.meta = meta(o, path);
    return x;
}

MCP_WIRE_DESCRIBE(elicitation_complete_notification, "ElicitationCompleteNotification.params", (elicitation_id),
                  (meta))
MCP_WIRE_CODEC(elicitation_complete_notification)

} // namespace mcp
