// Out-of-line parts of typed prompts and tools (mcp/server/typed.hpp): turning prompt
// arguments, which travel as strings, into the JSON the argument type expects.
#include <mcp/jsonrpc/error.hpp>
#include <mcp/server/typed.hpp>

#include <algorithm>
#include <charconv>

namespace mcp::detail {

std::string serialize_for_text(const json::value& v) {
    return mcp::to_json(v);
}

namespace {

std::string_view property_type(const json::object& property) {
    if (auto t = find_string(property, "type")) return *t;
    return "string";
}

const json::object* properties_of(const json::object& schema) {
    return find_object(schema, "properties");
}

bool is_required(const json::object& schema, std::string_view name) {
    const json::array* req = find_array(schema, "required");
    if (!req) return false;
    return std::any_of(req->begin(), req->end(),
                       [&](const json::value& v) { return v.is_string() && v.get_string() == name; });
}

/// A prompt argument's text as the JSON kind its property wants; nullopt when it cannot be.
std::optional<json::value> typed_value(std::string_view type, const std::string& text) {
    if (type == "integer") {
        std::int64_t i = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
        if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
        return json::value(i);
    }
    if (type == "number") {
        boost::system::error_code ec;
        auto v = parse_json(text, ec);
        if (!v || !v->is_number()) return std::nullopt;
        return v;
    }
    if (type == "boolean") {
        if (text == "true") return json::value(true);
        if (text == "false") return json::value(false);
        return std::nullopt;
    }
    return json::value(json::string(text));
}

} // namespace

std::vector<prompt_argument> prompt_arguments_from_schema(const json::object& schema) {
    std::vector<prompt_argument> out;
    const json::object* props = properties_of(schema);
    if (!props) return out;
    for (const auto& kv : *props) {
        prompt_argument a;
        a.name = std::string(kv.key());
        if (kv.value().is_object()) {
            if (auto d = find_string(kv.value().get_object(), "description")) a.description = std::string(*d);
            if (auto t = find_string(kv.value().get_object(), "title")) a.title = std::string(*t);
        }
        a.required = is_required(schema, a.name);
        out.push_back(std::move(a));
    }
    return out;
}

json::value typed_prompt_arguments(const std::string& prompt_name, const json::object& schema,
                                   const schema::validator& v,
                                   const std::map<std::string, std::string>& arguments) {
    json::object typed;
    const json::object* props = properties_of(schema);
    for (const auto& [name, text] : arguments) {
        const json::value* prop = props ? props->if_contains(name) : nullptr;
        if (!prop || !prop->is_object()) continue; // unknown arguments are ignored, as for raw prompts
        const auto type = property_type(prop->get_object());
        auto value = typed_value(type, text);
        if (!value)
            throw error(error_code::invalid_params, "Invalid argument \"" + name + "\" for prompt \"" +
                                                        prompt_name + "\": expected " +
                                                        (type == "integer"  ? "an integer"
                                                         : type == "number" ? "a number"
                                                                            : "true or false") +
                                                        ", got \"" + text + "\"");
        typed[name] = std::move(*value);
    }
    json::value out(std::move(typed));
    if (auto errors = v.validate(out); !errors.empty())
        throw error(error_code::invalid_params,
                    "Invalid arguments for prompt \"" + prompt_name + "\": " + schema::summarize(errors));
    return out;
}

void add_enum_completers(const json::object& schema, std::map<std::string, completion_handler>& completers) {
    const json::object* props = properties_of(schema);
    if (!props) return;
    for (const auto& kv : *props) {
        const std::string name(kv.key());
        if (completers.count(name) || !kv.value().is_object()) continue;
        const json::array* values = find_array(kv.value().get_object(), "enum");
        if (!values) continue;
        std::vector<std::string> names;
        for (const auto& e : *values)
            if (e.is_string()) names.emplace_back(e.get_string());
        completers[name] = [names = std::move(names)](const std::string&, const std::string& prefix,
                                                      const std::map<std::string, std::string>&) {
            complete_result r;
            for (const auto& n : names)
                if (n.compare(0, prefix.size(), prefix) == 0) r.values.push_back(n);
            r.total = static_cast<std::int64_t>(r.values.size());
            r.has_more = false;
            return r;
        };
    }
}

} // namespace mcp::detail
