// schema_suite_test.cpp - runs the official JSON-Schema-Test-Suite (required tests, top level of
// tests/draft2020-12 and tests/draft7) against mcp::schema::validator. remotes/ is served from
// a schema_registry under http://localhost:1234/ (nothing touches the network).
//
// Every known failure is listed below with its reason; the test fails when an unlisted case
// fails AND when a listed one starts passing (so the list never goes stale).
#include <mcp/schema/validator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;
namespace json = mcp::json;
using mcp::schema::compile_options;
using mcp::schema::dialect;
using mcp::schema::schema_registry;
using mcp::schema::validator;

namespace {

const fs::path suite_root = fs::path(MCPXX_TEST_DATA_DIR) / "json-schema-test-suite";

json::value read_json(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + p.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

const schema_registry& remotes() {
    static const schema_registry reg = [] {
        schema_registry r;
        const fs::path base = suite_root / "remotes";
        for (const auto& e : fs::recursive_directory_iterator(base)) {
            if (!e.is_regular_file() || e.path().extension() != ".json") continue;
            auto rel = fs::relative(e.path(), base).generic_string();
            r.add("http://localhost:1234/" + rel, read_json(e.path()));
        }
        return r;
    }();
    return reg;
}

struct outcome {
    std::size_t total = 0, passed = 0;
    std::set<std::string> failures;
};

outcome run_suite(const std::string& dir, dialect d, bool assert_format = false) {
    outcome out;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(suite_root / "tests" / dir))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    compile_options opts;
    opts.default_dialect = d;
    opts.registry = &remotes();
    opts.assert_format = assert_format;
    for (const auto& file : files) {
        const auto doc = read_json(file);
        const std::string fname = file.stem().string();
        for (const auto& group : doc.as_array()) {
            const auto& g = group.as_object();
            const std::string gdesc(g.at("description").as_string());
            std::optional<validator> v;
            std::string compile_failure;
            try {
                v = validator::compile(g.at("schema"), opts);
            } catch (const mcp::schema::compile_error& e) {
                compile_failure = e.what();
            }
            for (const auto& test : g.at("tests").as_array()) {
                const auto& t = test.as_object();
                const std::string id =
                    fname + " | " + gdesc + " | " + std::string(t.at("description").as_string());
                const bool expected = t.at("valid").as_bool();
                ++out.total;
                bool ok = false;
                if (v) {
                    const bool fast = v->is_valid(t.at("data"));
                    const bool full = v->validate(t.at("data")).empty();
                    ok = fast == expected && full == expected;
                    if (fast != full) std::cerr << "  [is_valid/validate disagree] " << id << '\n';
                } else {
                    std::cerr << "  [compile error] " << id << ": " << compile_failure << '\n';
                }
                if (ok)
                    ++out.passed;
                else
                    out.failures.insert(id);
            }
        }
    }
    return out;
}

void check(const std::string& name, const outcome& o, const std::set<std::string>& known,
           double min_rate = 0.995) {
    std::cout << "JSON-Schema-Test-Suite " << name << ": " << o.passed << " / " << o.total << " passed ("
              << (100.0 * static_cast<double>(o.passed) / static_cast<double>(o.total)) << " %), "
              << o.failures.size() << " known failures\n";
    for (const auto& f : o.failures)
        if (!known.count(f)) ADD_FAILURE() << "unexpected failure: " << f;
    for (const auto& k : known)
        if (!o.failures.count(k))
            ADD_FAILURE() << "listed failure now passes (remove it from the list): " << k;
    EXPECT_GE(static_cast<double>(o.passed), min_rate * static_cast<double>(o.total));
}

} // namespace

TEST(SchemaSuite, Draft2020_12) {
    // Known failures, each with its reason.
    const std::set<std::string> known = {};
    check("draft2020-12", run_suite("draft2020-12", dialect::draft2020_12), known);
}

TEST(SchemaSuite, Draft7) {
    const std::set<std::string> known = {};
    check("draft7", run_suite("draft7", dialect::draft07), known);
}

// optional/format with compile_options::assert_format: how well the format checks follow their
// RFCs. Not required by the specification (format is an annotation by default), but the checks
// are what users get when they ask for assertion.
TEST(SchemaSuite, OptionalFormatDraft2020_12) {
    const std::set<std::string> known = {};
    check("draft2020-12 optional/format (assert_format)",
          run_suite("draft2020-12/optional/format", dialect::draft2020_12, true), known, 0.95);
}

TEST(SchemaSuite, OptionalFormatDraft7) {
    const std::set<std::string> known = {};
    check("draft7 optional/format (assert_format)",
          run_suite("draft7/optional/format", dialect::draft07, true), known, 0.95);
}
