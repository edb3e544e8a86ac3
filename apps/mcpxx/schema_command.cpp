// `mcpxx schema validate`: validate a JSON instance against a JSON Schema (2020-12 or draft-07).
//
// Remote schemas are never fetched: `--remote PREFIX=DIR` serves every *.json file under DIR at
// PREFIX + its relative path (e.g. --remote https://example.com/schemas/=./schemas).
#include "commands.hpp"
#include "read_file.hpp"

#include <mcp/schema/validator.hpp>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

namespace mcpxx_cli {
namespace {

struct validate_options {
    std::string schema_file;
    std::string instance_file;
    std::string default_dialect = "2020-12";
    std::vector<std::string> remotes;
    bool assert_format = false;
    std::size_t max_errors = 50;
};

void load_remote(mcp::schema::schema_registry& registry, const std::string& spec) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
        throw input_error("--remote wants PREFIX=DIR, got \"" + spec + "\"");
    const std::string prefix = spec.substr(0, eq);
    const std::filesystem::path dir = spec.substr(eq + 1);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw input_error("--remote: " + dir.string() + " is not a directory");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
        const auto relative = std::filesystem::relative(entry.path(), dir).generic_string();
        registry.add(prefix + relative, read_json_file(entry.path().string()));
    }
}

int run_validate(const validate_options& o) {
    mcp::schema::compile_options options;
    if (o.default_dialect == "draft-07" || o.default_dialect == "draft7")
        options.default_dialect = mcp::schema::dialect::draft07;
    else if (o.default_dialect == "2020-12" || o.default_dialect == "draft2020-12")
        options.default_dialect = mcp::schema::dialect::draft2020_12;
    else {
        std::cerr << "mcpxx: unknown dialect \"" << o.default_dialect << "\" (use 2020-12 or draft-07)\n";
        return exit_usage;
    }
    options.assert_format = o.assert_format;
    mcp::schema::schema_registry registry;
    std::optional<mcp::schema::validator> validator;
    mcp::json::value instance;
    try {
        for (const auto& r : o.remotes) load_remote(registry, r);
        options.registry = &registry;
        const auto schema = read_json_file(o.schema_file);
        instance = read_json_file(o.instance_file);
        validator = mcp::schema::validator::compile(schema, options);
    } catch (const input_error& e) {
        std::cerr << "mcpxx: " << e.what() << '\n';
        return exit_usage;
    } catch (const mcp::schema::compile_error& e) {
        std::cerr << "mcpxx: " << o.schema_file << " is not a usable schema: " << e.what() << '\n';
        return exit_usage;
    }
    const auto errors = validator->validate(instance, o.max_errors);
    if (errors.empty()) {
        std::cout << o.instance_file << ": valid\n";
        return exit_ok;
    }
    std::cout << o.instance_file << ": invalid\n";
    for (const auto& e : errors)
        std::cout << "  " << (e.instance_location.empty() ? "(root)" : e.instance_location) << ": "
                  << e.message << "  [" << e.keyword << " at "
                  << (e.keyword_location.empty() ? "#" : e.keyword_location) << "]\n";
    return exit_negative;
}

} // namespace

void add_schema_command(CLI::App& app, int& exit_code) {
    auto* schema = app.add_subcommand("schema", "JSON Schema (2020-12, draft-07) tools");
    schema->require_subcommand(1);
    auto opts = std::make_shared<validate_options>();
    auto* validate = schema->add_subcommand(
        "validate",
        "Validate an instance against a schema: exit 0 valid, 1 invalid, 2 usage or schema error");
    validate->add_option("--schema", opts->schema_file, "The schema (JSON file)")->required();
    validate->add_option("--instance", opts->instance_file, "The instance to validate (JSON file)")
        ->required();
    validate->add_option("--default-dialect", opts->default_dialect,
                         "Dialect of a schema without $schema: 2020-12 (default) or draft-07");
    validate->add_option(
        "--remote", opts->remotes,
        "PREFIX=DIR: serve DIR's *.json files as PREFIX<relative path> to $ref (nothing is fetched)");
    validate->add_flag("--assert-format", opts->assert_format, "Make `format` an assertion");
    validate->add_option("--max-errors", opts->max_errors, "Report at most this many errors (default 50)");
    validate->callback([opts, &exit_code] { exit_code = run_validate(*opts); });
}

} // namespace mcpxx_cli
