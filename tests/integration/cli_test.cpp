// The `mcpxx` program, run as a child process: exit codes, what it prints, and its errors.
#include "support/program_output.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";
const fs::path remotes = fs::path(MCPXX_TEST_DATA_DIR) / "json-schema-test-suite" / "remotes";

using mcp::test::run_result;
using mcp::test::shell_quote;
using mcp::test::slurp;

struct cli_test : ::testing::Test {
    fs::path dir;
    void SetUp() override {
        dir = fs::temp_directory_path() / ("mcpxx-cli-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string file(const std::string& name, const std::string& content) {
        const auto p = dir / name;
        std::ofstream(p) << content;
        return p.string();
    }
    run_result run(const std::vector<std::string>& args) {
        std::string cmd = shell_quote(mcpxx);
        for (const auto& a : args) cmd += " " + shell_quote(a);
        cmd += " >" + shell_quote((dir / "out").string()) + " 2>" + shell_quote((dir / "err").string());
        const int status = std::system(cmd.c_str());
        run_result r;
        r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = slurp(dir / "out");
        r.err = slurp(dir / "err");
        return r;
    }
};

const char* tool_schema = R"({"type":"object","properties":{"city":{"type":"string","minLength":1},
  "days":{"type":"integer","minimum":1,"maximum":7}},"required":["city"]})";

TEST_F(cli_test, schema_validate_valid_instance_exits_0) {
    auto r = run({"schema", "validate", "--schema", file("s.json", tool_schema), "--instance",
                  file("i.json", R"({"city":"Paris","days":3})")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("valid"), std::string::npos);
}

TEST_F(cli_test, schema_validate_invalid_instance_exits_1_and_lists_errors) {
    auto r = run({"schema", "validate", "--schema", file("s.json", tool_schema), "--instance",
                  file("i.json", R"({"days":9})")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("invalid"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("/days"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("maximum"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("required"), std::string::npos) << r.out;
}

TEST_F(cli_test, schema_validate_usage_and_schema_errors_exit_2) {
    const auto inst = file("i.json", "{}");
    // Missing option, unknown option, missing file, broken JSON, a schema that does not compile,
    // an unsupported dialect, an unresolvable $ref (never fetched).
    EXPECT_EQ(run({"schema", "validate", "--instance", inst}).exit_code, 2);
    EXPECT_EQ(run({"schema", "validate", "--bogus"}).exit_code, 2);
    auto r = run({"schema", "validate", "--schema", (dir / "nope.json").string(), "--instance", inst});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("nope.json"), std::string::npos) << r.err;
    r = run({"schema", "validate", "--schema", file("broken.json", "{\"type\":"), "--instance", inst});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("broken.json is not valid JSON: incomplete JSON at byte 8"), std::string::npos)
        << r.err;
    r = run({"schema", "validate", "--schema", file("broken.json", "{\n  \"type\": string\n}"), "--instance",
             inst});
    EXPECT_NE(r.err.find("broken.json is not valid JSON: syntax error at byte 12 (line 2, column 11)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(run({"schema", "validate", "--schema", file("bad.json", R"({"type":12})"), "--instance", inst})
                  .exit_code,
              2);
    r = run({"schema", "validate", "--schema",
             file("d4.json", R"({"$schema":"http://json-schema.org/draft-04/schema#"})"), "--instance",
             inst});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("draft-04"), std::string::npos) << r.err;
    r = run({"schema", "validate", "--schema",
             file("ref.json", R"({"$ref":"https://example.invalid/x.json"})"), "--instance", inst});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("example.invalid"), std::string::npos) << r.err;
    EXPECT_EQ(run({"schema", "validate", "--schema", file("s.json", "{}"), "--instance", inst,
                   "--default-dialect", "draft-99"})
                  .exit_code,
              2);
}

TEST_F(cli_test, schema_validate_dialects_and_remotes) {
    // draft-07 ignores siblings of $ref; 2020-12 applies them.
    const auto s =
        file("s.json", R"({"$ref":"#/definitions/n","maximum":5,"definitions":{"n":{"type":"integer"}}})");
    const auto i = file("i.json", "10");
    EXPECT_EQ(run({"schema", "validate", "--schema", s, "--instance", i}).exit_code, 1);
    EXPECT_EQ(run({"schema", "validate", "--schema", s, "--instance", i, "--default-dialect", "draft-07"})
                  .exit_code,
              0);
    // A remote served from a local directory.
    const auto rs = file("r.json", R"({"$ref":"http://localhost:1234/integer.json"})");
    EXPECT_EQ(run({"schema", "validate", "--schema", rs, "--instance", i, "--remote",
                   "http://localhost:1234/=" + remotes.string()})
                  .exit_code,
              0);
    EXPECT_EQ(run({"schema", "validate", "--schema", rs, "--instance", file("str.json", "\"x\""), "--remote",
                   "http://localhost:1234/=" + remotes.string()})
                  .exit_code,
              1);
    EXPECT_EQ(run({"schema", "validate", "--schema", rs, "--instance", i}).exit_code, 2); // not registered
    EXPECT_EQ(run({"schema", "validate", "--schema", rs, "--instance", i, "--remote", "nodir"}).exit_code, 2);
    // format is an annotation unless asserted.
    const auto f = file("f.json", R"({"format":"email"})");
    const auto bad_email = file("e.json", "\"not an email\"");
    EXPECT_EQ(run({"schema", "validate", "--schema", f, "--instance", bad_email}).exit_code, 0);
    EXPECT_EQ(
        run({"schema", "validate", "--schema", f, "--instance", bad_email, "--assert-format"}).exit_code, 1);
}

TEST_F(cli_test, uri_template_expand_prints_the_expansion) {
    const auto vars = file(
        "vars.json", R"({"path":"/foo/bar","q":"a b","list":["red","green"],"keys":{"semi":";","dot":"."}})");
    auto r = run({"uri-template", "expand", "file://{+path}{?q,list}", "--vars", vars});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "file:///foo/bar?q=a%20b&list=red,green\n");
    r = run({"uri-template", "expand", "{#keys*}", "--vars", vars});
    EXPECT_EQ(r.out, "#semi=;,dot=.\n");
    // Without --vars every variable is undefined.
    EXPECT_EQ(run({"uri-template", "expand", "x{/a}{?b}"}).out, "x\n");
}

TEST_F(cli_test, uri_template_expand_errors) {
    auto r = run({"uri-template", "expand", "mem://{id"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("unclosed"), std::string::npos) << r.err;
    EXPECT_EQ(run({"uri-template", "expand", "{!x}"}).exit_code, 1);
    // A prefix on an associative array is only an error once the value is known.
    EXPECT_EQ(run({"uri-template", "expand", "{keys:1}", "--vars", file("v.json", R"({"keys":{"a":"b"}})")})
                  .exit_code,
              1);
    EXPECT_EQ(run({"uri-template", "expand", "{x}", "--vars", file("bad.json", "[1]")}).exit_code, 2);
    EXPECT_EQ(run({"uri-template", "expand", "{x}", "--vars", (dir / "missing.json").string()}).exit_code, 2);
    EXPECT_EQ(run({"uri-template", "expand"}).exit_code, 2);
}

TEST_F(cli_test, help_exits_0_and_no_command_exits_2) {
    auto r = run({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("schema"), std::string::npos);
    // The exit codes, as commands.hpp defines them.
    for (const char* line :
         {"Exit codes:\n", "\n  0    success\n", "\n  1    a server answered with an error or not in time",
          "\n  2    usage error", "\n  3    a server could not be started or reached",
          "\n  4    the tool call was denied: by the user, or with no terminal to ask on\n",
          "\n  130  interrupted (Ctrl-C)"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    EXPECT_EQ(run({}).exit_code, 2);
    EXPECT_EQ(run({"frobnicate"}).exit_code, 2);
}

} // namespace
