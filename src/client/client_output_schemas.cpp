// mcp::client: checking a tool's structuredContent against the outputSchema the tool was listed
// with ("Clients SHOULD validate structured results against this schema", tools.mdx "Output
// Schema", 2025-06-18 and later).
//
// Schemas are compiled when a tools/list page arrives, never per call, and a schema repeated by a
// later listing keeps its compiled validator. Calls only look a validator up and run it.
#include "client/client_state.hpp"

namespace mcp {

namespace {

using output_check = client::impl::output_check;
using check_map = std::map<std::string, std::shared_ptr<const output_check>, std::less<>>;

// Enough to see what is wrong without flooding a log line or a model's context.
constexpr std::size_t max_reported_errors = 5;

std::shared_ptr<const output_check> compile_check(const json::object& schema, schema::dialect d) {
    auto c = std::make_shared<output_check>();
    c->schema = schema;
    try {
        c->compiled = schema::validator::compile(json::value(schema), {.default_dialect = d});
    } catch (const std::exception& e) {
        // Not fatal to the listing: the other tools are fine and this one stays callable; each
        // call to it reports the problem, where the caller can act on it.
        c->compile_error = e.what();
        if (c->compile_error.empty()) c->compile_error = "unknown error";
    }
    return c;
}

// The empty JSON pointer (the whole value) would read as nothing in a message.
std::string readable(const std::string& pointer) {
    return pointer.empty() ? "(root)" : pointer;
}

} // namespace

std::uint64_t client::impl::output_schema_epoch() const {
    std::lock_guard lock(mu);
    return tools_epoch;
}

void client::impl::remember_output_schemas(const std::vector<tool>& tools, bool first_page,
                                           std::uint64_t epoch) {
    // 2025-11-25 made 2020-12 the dialect of a schema without $schema; the revisions before it
    // use draft-07 schemas (basic/index.mdx, "JSON Schema Usage").
    const auto dialect =
        negotiated() < revision::v2025_11_25 ? schema::dialect::draft07 : schema::dialect::draft2020_12;
    check_map known; // what we knew of these tools, so that a repeated schema is not compiled again
    {
        std::lock_guard lock(mu);
        if (epoch != tools_epoch) return;
        for (const auto& t : tools)
            if (auto it = output_checks.find(t.name); t.output_schema && it != output_checks.end())
                known.insert_or_assign(t.name, it->second);
    }
    // Compiling may take a while (large schemas, regular expressions): done without the lock.
    check_map page;
    for (const auto& t : tools) {
        if (!t.output_schema) continue;
        auto it = known.find(t.name);
        page.insert_or_assign(t.name, it != known.end() && it->second->schema == *t.output_schema
                                          ? it->second
                                          : compile_check(*t.output_schema, dialect));
    }
    std::lock_guard lock(mu);
    // The list changed (or the client reconnected) while this page was on its way: it may
    // describe tools that are gone, so keep nothing rather than something stale.
    if (epoch != tools_epoch) return;
    if (first_page) {
        output_checks = std::move(page);
        return;
    }
    for (const auto& t : tools)
        if (!t.output_schema) output_checks.erase(t.name);
    for (auto& [name, check] : page) output_checks.insert_or_assign(name, std::move(check));
}

void client::impl::forget_output_schemas() {
    std::lock_guard lock(mu);
    output_checks.clear();
    ++tools_epoch;
}

void client::impl::check_structured_content(const std::string& name, const call_tool_result& result,
                                            const json::value& raw) const {
    // A tool error makes no promise about its output (the spec asks for conforming structured
    // results, and an error is not one); the caller should see the error as sent.
    if (!opts.validate_structured_content || result.is_error.value_or(false)) return;
    std::shared_ptr<const output_check> check;
    {
        std::lock_guard lock(mu);
        if (auto it = output_checks.find(name); it != output_checks.end()) check = it->second;
    }
    if (!check) return; // not listed, or listed without an outputSchema: nothing was promised

    json::object data{{"tool", name}};
    // The result as received goes with the error, so that a caller can still show its content.
    auto fail = [&](std::string message) {
        data["result"] = raw;
        throw error(error_code::invalid_params, std::move(message), std::move(data));
    };
    if (!check->compiled) {
        data["schemaError"] = check->compile_error;
        fail("tool '" + name +
             "' was listed with an outputSchema that cannot be compiled, so its structuredContent " +
             "cannot be checked: " + check->compile_error);
    }
    if (!result.structured_content)
        fail("tool '" + name + "' was listed with an outputSchema but returned no structuredContent");
    if (check->compiled->is_valid(*result.structured_content)) return;

    // One more than we report, to know whether to say that there are more.
    auto errors = check->compiled->validate(*result.structured_content, max_reported_errors + 1);
    const bool more = errors.size() > max_reported_errors;
    if (more) errors.resize(max_reported_errors);
    std::string message = "structuredContent of tool '" + name + "' does not match its outputSchema:";
    json::array listed;
    for (std::size_t i = 0; i < errors.size(); ++i) {
        const auto& e = errors[i];
        message += (i ? "; at " : " at ") + readable(e.instance_location) + ": " + e.message;
        listed.push_back(json::object{{"instanceLocation", e.instance_location},
                                      {"keywordLocation", e.keyword_location},
                                      {"message", e.message}});
    }
    // is_valid and validate agree; this guards the message against a validator that does not.
    if (errors.empty()) message += " (no details available)";
    if (more) message += "; and more";
    data["errors"] = std::move(listed);
    fail(std::move(message));
}

} // namespace mcp
