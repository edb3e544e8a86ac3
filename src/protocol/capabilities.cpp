// Codec of ClientCapabilities and ServerCapabilities.
#include "protocol/wire.hpp"

namespace mcp {

using namespace wire;

namespace {
json::object flag_object(std::initializer_list<std::pair<const char*, bool>> flags) {
    json::object o;
    for (const auto& [k, on] : flags)
        if (on) o[k] = json::object{};
    return o;
}
bool has(const json::object& o, std::string_view k) {
    return member(o, k) != nullptr;
}
json::object sub(const json::object& o, std::string_view key, std::string_view path) {
    auto s = opt_object(o, key, path);
    return s ? std::move(*s) : json::object{};
}
} // namespace

json::object to_json(const client_capabilities& x, revision r) {
    json::object o;
    put(o, "experimental", x.experimental);
    if (x.roots) {
        json::object ro;
        if (defines(r, wire_field::roots_list_changed)) put(ro, "listChanged", x.roots->list_changed);
        o["roots"] = std::move(ro);
    }
    if (x.sampling) {
        o["sampling"] = defines(r, wire_field::sampling_tools)
                            ? flag_object({{"context", x.sampling->context}, {"tools", x.sampling->tools}})
                            : json::object{};
    }
    if (x.elicitation && defines(r, wire_field::elicitation)) {
        o["elicitation"] = defines(r, wire_field::elicitation_modes)
                               ? flag_object({{"form", x.elicitation->form}, {"url", x.elicitation->url}})
                               : json::object{};
    }
    if (x.tasks && defines(r, wire_field::tasks)) {
        json::object t = flag_object({{"list", x.tasks->list}, {"cancel", x.tasks->cancel}});
        json::object req;
        if (x.tasks->sampling_create_message)
            req["sampling"] = json::object{{"createMessage", json::object{}}};
        if (x.tasks->elicitation_create) req["elicitation"] = json::object{{"create", json::object{}}};
        if (!req.empty()) t["requests"] = std::move(req);
        o["tasks"] = std::move(t);
    }
    if (defines(r, wire_field::extensions)) put(o, "extensions", x.extensions);
    return o;
}

client_capabilities wire::parse(const json::value& v, std::string_view path, type<client_capabilities>) {
    const auto& o = object(v, path);
    client_capabilities x;
    x.experimental = opt_object(o, "experimental", path);
    if (auto ro = opt_object(o, "roots", path))
        x.roots = roots_capability{opt_bool(*ro, "listChanged", join(path, "roots"))};
    if (auto s = opt_object(o, "sampling", path))
        x.sampling = sampling_capability{has(*s, "context"), has(*s, "tools")};
    if (auto e = opt_object(o, "elicitation", path))
        x.elicitation = elicitation_capability{has(*e, "form"), has(*e, "url")};
    if (auto t = opt_object(o, "tasks", path)) {
        auto tp = join(path, "tasks");
        auto req = sub(*t, "requests", tp);
        auto rp = join(tp, "requests");
        client_tasks_capability c;
        c.list = has(*t, "list");
        c.cancel = has(*t, "cancel");
        c.sampling_create_message = has(sub(req, "sampling", rp), "createMessage");
        c.elicitation_create = has(sub(req, "elicitation", rp), "create");
        x.tasks = c;
    }
    x.extensions = opt_object(o, "extensions", path);
    return x;
}
template <> client_capabilities from_json<client_capabilities>(const json::value& v) {
    return parse(v, "ClientCapabilities", type<client_capabilities>{});
}

json::object to_json(const server_capabilities& x, revision r) {
    json::object o;
    put(o, "experimental", x.experimental);
    if (x.logging) o["logging"] = json::object{};
    if (x.completions && defines(r, wire_field::completions_capability)) o["completions"] = json::object{};
    if (x.prompts) {
        json::object p;
        put(p, "listChanged", x.prompts->list_changed);
        o["prompts"] = std::move(p);
    }
    if (x.resources) {
        json::object p;
        put(p, "subscribe", x.resources->subscribe);
        put(p, "listChanged", x.resources->list_changed);
        o["resources"] = std::move(p);
    }
    if (x.tools) {
        json::object p;
        put(p, "listChanged", x.tools->list_changed);
        o["tools"] = std::move(p);
    }
    if (x.tasks && defines(r, wire_field::tasks)) {
        json::object t = flag_object({{"list", x.tasks->list}, {"cancel", x.tasks->cancel}});
        if (x.tasks->tools_call)
            t["requests"] = json::object{{"tools", json::object{{"call", json::object{}}}}};
        o["tasks"] = std::move(t);
    }
    if (defines(r, wire_field::extensions)) put(o, "extensions", x.extensions);
    return o;
}

server_capabilities wire::parse(const json::value& v, std::string_view path, type<server_capabilities>) {
    const auto& o = object(v, path);
    server_capabilities x;
    x.experimental = opt_object(o, "experimental", path);
    x.logging = opt_object(o, "logging", path).has_value();
    x.completions = opt_object(o, "completions", path).has_value();
    if (auto p = opt_object(o, "prompts", path))
        x.prompts = prompts_capability{opt_bool(*p, "listChanged", join(path, "prompts"))};
    if (auto p = opt_object(o, "resources", path)) {
        auto rp = join(path, "resources");
        x.resources = resources_capability{opt_bool(*p, "subscribe", rp), opt_bool(*p, "listChanged", rp)};
    }
    if (auto p = opt_object(o, "tools", path))
        x.tools = tools_capability{opt_bool(*p, "listChanged", join(path, "tools"))};
    if (auto t = opt_object(o, "tasks", path)) {
        auto tp = join(path, "tasks");
        auto req = sub(*t, "requests", tp);
        server_tasks_capability c;
        c.list = has(*t, "list");
        c.cancel = has(*t, "cancel");
        c.tools_call = has(sub(req, "tools", join(tp, "requests")), "call");
        x.tasks = c;
    }
    x.extensions = opt_object(o, "extensions", path);
    return x;
}
template <> server_capabilities from_json<server_capabilities>(const json::value& v) {
    return parse(v, "ServerCapabilities", type<server_capabilities>{});
}

} // namespace mcp
