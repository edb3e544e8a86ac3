// Codec of completion/complete. The reference is a variant told apart by `type` (hand-written);
// the rest is generated from the descriptions of its wire shape.
#include "protocol/described.hpp"

#include <algorithm>

namespace mcp {

using namespace wire;

MCP_WIRE_DESCRIBE(prompt_reference, "PromptReference", (name), (title, when(wire_field::title)))
MCP_WIRE_DESCRIBE(resource_template_reference, "ResourceTemplateReference", (uri))
MCP_WIRE_DESCRIBE(completion_argument, "CompletionArgument", (name), (value))
MCP_WIRE_INNER(completion_argument)

namespace {
struct context_shape {
    std::optional<std::map<std::string, std::string>> arguments;
};
MCP_WIRE_DESCRIBE(context_shape, "Context", (arguments))
MCP_WIRE_INNER(context_shape)

struct request_shape {
    json::object ref;
    completion_argument argument;
    std::optional<context_shape> context;
    std::optional<json::object> meta;
};
MCP_WIRE_DESCRIBE(request_shape, "CompleteRequest.params", (ref), (argument),
                  (context, when(wire_field::completion_context)), (meta))

struct completion_shape {
    std::vector<std::string> values;
    std::optional<std::int64_t> total;
    std::optional<bool> has_more;
};
MCP_WIRE_DESCRIBE(completion_shape, "Completion", (values, field::required), (total), (has_more))
MCP_WIRE_INNER(completion_shape)

struct result_shape {
    completion_shape completion;
    std::optional<json::object> meta;
};
MCP_WIRE_DESCRIBE(result_shape, "CompleteResult", (completion), (meta))
} // namespace

json::object to_json(const complete_request& x, revision r) {
    request_shape s{{}, x.argument, std::nullopt, x.meta};
    if (x.context_arguments) s.context = context_shape{x.context_arguments};
    if (const auto* p = std::get_if<prompt_reference>(&x.ref)) {
        s.ref["type"] = "ref/prompt";
        write_into(s.ref, *p, r);
    } else {
        s.ref["type"] = "ref/resource";
        write_into(s.ref, std::get<resource_template_reference>(x.ref), r);
    }
    return write_struct(s, r);
}
template <> complete_request from_json<complete_request>(const json::value& v) {
    constexpr std::string_view path = "CompleteRequest.params";
    auto s = read_struct<request_shape>(v, path);
    complete_request x;
    const auto rp = join(path, "ref");
    const json::value ref(std::move(s.ref));
    auto type = req_string(ref.get_object(), "type", rp);
    if (type == "ref/prompt")
        x.ref = read_struct<prompt_reference>(ref, rp);
    else if (type == "ref/resource")
        x.ref = read_struct<resource_template_reference>(ref, rp);
    else
        fail(join(rp, "type"), "must be \"ref/prompt\" or \"ref/resource\"");
    x.argument = std::move(s.argument);
    if (s.context) x.context_arguments = std::move(s.context->arguments);
    x.meta = std::move(s.meta);
    return x;
}

json::object to_json(const complete_result& x, revision r) {
    const bool truncated = x.values.size() > max_completion_values;
    result_shape s{{{x.values.begin(), x.values.begin() + static_cast<std::ptrdiff_t>(
                                                                std::min(x.values.size(), max_completion_values))},
                    x.total,
                    x.has_more},
                   x.meta};
    if (truncated) {
        if (!s.completion.total) s.completion.total = static_cast<std::int64_t>(x.values.size());
        s.completion.has_more = true;
    }
    json::object o = write_struct(s, r);
    put_result_type(o, r);
    return o;
}
template <> complete_result from_json<complete_result>(const json::value& v) {
    auto s = read_struct<result_shape>(v, "CompleteResult");
    return {std::move(s.completion.values), s.completion.total, s.completion.has_more, std::move(s.meta)};
}

} // namespace mcp
