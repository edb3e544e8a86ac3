// Codec of completion/complete.
#include "protocol/wire.hpp"

#include <algorithm>

namespace mcp {

using namespace wire;

json::object to_json(const complete_request& x, revision r) {
    json::object o;
    json::object ref;
    if (const auto* p = std::get_if<prompt_reference>(&x.ref)) {
        ref["type"] = "ref/prompt";
        ref["name"] = p->name;
        if (defines(r, wire_field::title)) put(ref, "title", p->title);
    } else {
        ref["type"] = "ref/resource";
        ref["uri"] = std::get<resource_template_reference>(x.ref).uri;
    }
    o["ref"] = std::move(ref);
    o["argument"] = json::object{{"name", x.argument.name}, {"value", x.argument.value}};
    if (x.context_arguments && defines(r, wire_field::completion_context)) {
        json::object a;
        for (const auto& [k, v] : *x.context_arguments) a[k] = v;
        o["context"] = json::object{{"arguments", std::move(a)}};
    }
    put_meta(o, x.meta, true);
    return o;
}
template <> complete_request from_json<complete_request>(const json::value& v) {
    constexpr std::string_view path = "CompleteRequest.params";
    const auto& o = object(v, path);
    complete_request x;
    auto rp = join(path, "ref");
    auto ref = req_object(o, "ref", path);
    auto type = req_string(ref, "type", rp);
    if (type == "ref/prompt")
        x.ref = prompt_reference{req_string(ref, "name", rp), opt_string(ref, "title", rp)};
    else if (type == "ref/resource")
        x.ref = resource_template_reference{req_string(ref, "uri", rp)};
    else
        fail(join(rp, "type"), "must be \"ref/prompt\" or \"ref/resource\"");
    auto ap = join(path, "argument");
    auto arg = req_object(o, "argument", path);
    x.argument = {req_string(arg, "name", ap), req_string(arg, "value", ap)};
    if (auto c = opt_object(o, "context", path)) {
        auto cp = join(path, "context");
        if (auto a = opt_object(*c, "arguments", cp))
            x.context_arguments = string_map(*a, join(cp, "arguments"));
    }
    x.meta = meta(o, path);
    return x;
}

json::object to_json(const complete_result& x, revision r) {
    json::object c;
    json::array values;
    std::size_t n = std::min(x.values.size(), max_completion_values);
    for (std::size_t i = 0; i < n; ++i) values.emplace_back(x.values[i]);
    c["values"] = std::move(values);
    bool truncated = x.values.size() > max_completion_values;
    if (x.total)
        c["total"] = *x.total;
    else if (truncated)
        c["total"] = static_cast<std::int64_t>(x.values.size());
    if (truncated)
        c["hasMore"] = true;
    else
        put(c, "hasMore", x.has_more);
    json::object o;
    o["completion"] = std::move(c);
    put_meta(o, x.meta, true);
    put_result_type(o, r);
    return o;
}
template <> complete_result from_json<complete_result>(const json::value& v) {
    constexpr std::string_view path = "CompleteResult";
    const auto& o = object(v, path);
    auto cp = join(path, "completion");
    auto c = req_object(o, "completion", path);
    complete_result x;
    x.values = string_array(req_array(c, "values", cp), join(cp, "values"));
    x.total = opt_int(c, "total", cp);
    x.has_more = opt_bool(c, "hasMore", cp);
    x.meta = meta(o, path);
    return x;
}

} // namespace mcp
