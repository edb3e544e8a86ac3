// Config discovery: every host's file format, variable expansion, errors that name the file and
// the entry, and precedence between files, with a fake home and project directory.
#include <mcp/host/config.hpp>
#include <mcp/host/variables.hpp>

#include "support/host_fixture.hpp"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace mcp::host;
namespace fs = std::filesystem;

const std::string bin = MCPXX_BINARY_DIR;

std::map<std::string, std::string> base_env() {
    return {{"MCPXX_BINARY_DIR", bin},
            {"API_KEY", "k123"},
            {"MCPXX_TEST_HTTP_URL", "http://127.0.0.1:8080/mcp"},
            {"MCPXX_TEST_SSE_URL", "http://127.0.0.1:8081/sse"},
            {"MCPXX_TEST_REMOTE_TOKEN", "tok"},
            {"HOME", "/nonexistent-home"}};
}

env_lookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](std::string_view n) -> std::optional<std::string> {
        auto it = vars.find(std::string(n));
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

struct host_config_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    std::map<std::string, std::string> env = base_env();

    discovery_result discover_here() {
        return discover({.home = dirs.home, .cwd = dirs.project, .environment = env_of(env)});
    }
    discovery_result parse_file(const std::string& data_file, config_format f,
                                config_scope scope = config_scope::user) {
        std::ifstream in(mcp::test::host_configs_dir() / data_file);
        std::stringstream ss;
        ss << in.rdbuf();
        discovery_result r;
        parse_config(ss.str(),
                     {.source = data_file,
                      .format = f,
                      .scope = scope,
                      .home = dirs.home,
                      .cwd = dirs.project,
                      .environment = env_of(env)},
                     r);
        return r;
    }
    static const server_config& get(const discovery_result& r, const std::string& name) {
        const auto* s = r.find(name);
        if (!s) throw std::runtime_error("no server " + name);
        return *s;
    }
};

std::string all_errors(const discovery_result& r) {
    std::string s;
    for (const auto& e : r.errors) s += e.to_string() + "\n";
    return s;
}

// ------------------------------------------------------------------ variables

TEST(host_variables, every_syntax) {
    expansion_options o{.environment = env_of({{"A", "1"}, {"EMPTY", ""}}),
                        .user_home = "/home/u",
                        .workspace_folder = "/w/proj"};
    EXPECT_EQ(expand_variables("x${A}y${env:A}", o), "x1y1");
    EXPECT_EQ(expand_variables("${B:-fallback}/${A:-no}/${EMPTY:-d}", o), "fallback/1/d");
    EXPECT_EQ(expand_variables("${userHome}|${workspaceFolder}|${workspaceFolderBasename}", o),
              "/home/u|/w/proj|proj");
    EXPECT_EQ(expand_variables("$A and $ alone, 100$", o), "$A and $ alone, 100$"); // bare $ only for Gemini
    o.bare_dollar = true;
    EXPECT_EQ(
        expand_variables("$A/$A_x", {.environment = env_of({{"A", "1"}, {"A_x", "2"}}), .bare_dollar = true}),
        "1/2");
}

TEST(host_variables, errors_name_the_variable) {
    expansion_options o{.environment = env_of({})};
    try {
        expand_variables("Bearer ${API_TOKEN}", o);
        FAIL();
    } catch (const expansion_error& e) {
        EXPECT_STREQ(e.what(), "variable \"API_TOKEN\" is not set");
    }
    EXPECT_THROW(expand_variables("${env:NOPE}", o), expansion_error);
    EXPECT_THROW(expand_variables("${unterminated", o), expansion_error);
    EXPECT_THROW(expand_variables("${input:key}", o), expansion_error);
    EXPECT_THROW(expand_variables("${not a name}", o), expansion_error);
}

// ------------------------------------------------------------------ each host's format

TEST_F(host_config_test, claude_desktop) {
    auto r = parse_file("claude_desktop/claude_desktop_config.json", config_format::claude_desktop);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    ASSERT_EQ(r.servers.size(), 2u);
    const auto& echo = get(r, "echo");
    EXPECT_EQ(echo.transport, transport_kind::stdio);
    EXPECT_EQ(echo.command, bin + "/echo_server");
    EXPECT_EQ(echo.args, std::vector<std::string>{"--stdio"});
    EXPECT_EQ(get(r, "desktop-everything").env.at("MCPXX_TEST_TOKEN"), "desktop-default");
    env["MCPXX_TEST_TOKEN"] = "set";
    EXPECT_EQ(get(parse_file("claude_desktop/claude_desktop_config.json", config_format::claude_desktop),
                  "desktop-everything")
                  .env.at("MCPXX_TEST_TOKEN"),
              "set");
}

TEST_F(host_config_test, claude_code_project_file) {
    auto r = parse_file("claude_code/.mcp.json", config_format::claude_code, config_scope::project);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    EXPECT_EQ(get(r, "everything").command, bin + "/everything_server");
    const auto& api = get(r, "api-server");
    EXPECT_EQ(api.transport, transport_kind::streamable_http);
    EXPECT_EQ(api.url, "http://127.0.0.1:9/mcp");
    EXPECT_EQ(api.headers.at("Authorization"), "Bearer k123");
    EXPECT_FALSE(api.sse_fallback); // "type": "http" is taken at its word
    EXPECT_EQ(get(r, "events").transport, transport_kind::sse);
    EXPECT_EQ(get(r, "events").url, "http://127.0.0.1:8081/sse");
    env["API_BASE_URL"] = "http://127.0.0.1:8080";
    EXPECT_EQ(get(parse_file("claude_code/.mcp.json", config_format::claude_code), "api-server").url,
              "http://127.0.0.1:8080/mcp");
}

TEST_F(host_config_test, claude_code_user_file_reads_only_this_projects_servers) {
    dirs.install("claude_code/claude.json", dirs.home / ".claude.json");
    auto r = discover_here();
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    ASSERT_NE(r.find("user-echo"), nullptr);
    EXPECT_EQ(r.find("user-echo")->scope, config_scope::user);
    ASSERT_NE(r.find("echo"), nullptr);
    EXPECT_EQ(r.find("echo")->scope, config_scope::local);
    EXPECT_EQ(r.find("echo")->source, "~/.claude.json (project " + dirs.project.string() + ")");
    EXPECT_EQ(r.find("elsewhere"), nullptr);
}

TEST_F(host_config_test, cursor) {
    auto r = parse_file("cursor/mcp.json", config_format::cursor);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    EXPECT_EQ(get(r, "echo").command, bin + "/echo_server");
    EXPECT_EQ(get(r, "echo").env.at("HOME_DIR"), dirs.home.string());
    EXPECT_EQ(get(r, "docs").transport, transport_kind::streamable_http);
    EXPECT_TRUE(get(r, "docs").sse_fallback); // a bare url: Streamable HTTP, else HTTP+SSE
    EXPECT_EQ(get(r, "docs").url, "http://127.0.0.1:8081/sse");
    EXPECT_EQ(get(r, "docs").headers.at("X-Api-Key"), "tok");
    auto p = parse_file("cursor/project_mcp.json", config_format::cursor, config_scope::project);
    ASSERT_TRUE(p.errors.empty()) << all_errors(p);
    EXPECT_EQ(get(p, "project-echo").env.at("PROJECT"), dirs.project.string());
    EXPECT_EQ(get(p, "project-echo").env.at("PROJECT_NAME"), "project");
}

TEST_F(host_config_test, vscode_servers_types_and_inputs) {
    auto r = parse_file("vscode/mcp.json", config_format::vscode, config_scope::project);
    EXPECT_EQ(get(r, "vscode-everything").env.at("WORKSPACE"), dirs.project.string());
    EXPECT_EQ(get(r, "vscode-remote").transport, transport_kind::streamable_http);
    EXPECT_FALSE(get(r, "vscode-remote").sse_fallback);
    EXPECT_EQ(get(r, "vscode-remote").url, "http://127.0.0.1:8080/mcp");
    EXPECT_EQ(get(r, "vscode-remote").headers.at("Authorization"), "Bearer tok");
    // The input prompt cannot be answered here: that entry alone fails, and the file says why.
    ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
    EXPECT_EQ(r.errors[0].server, "needs-input");
    EXPECT_NE(r.errors[0].to_string().find(
                  "vscode/mcp.json: server \"needs-input\": \"env\": ${input:api-key} is a VS Code input"),
              std::string::npos)
        << r.errors[0].to_string();
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("\"inputs\""), std::string::npos);
}

TEST_F(host_config_test, windsurf) {
    auto r = parse_file("windsurf/mcp_config.json", config_format::windsurf);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    EXPECT_EQ(get(r, "echo").command, bin + "/echo_server");
    EXPECT_EQ(get(r, "windsurf-remote").url, "http://127.0.0.1:8080/mcp");
    EXPECT_EQ(get(r, "windsurf-remote").transport, transport_kind::streamable_http);
    EXPECT_TRUE(get(r, "windsurf-remote").sse_fallback);
    EXPECT_EQ(get(r, "windsurf-remote").headers.at("Authorization"), "Bearer tok");
}

TEST_F(host_config_test, gemini) {
    auto r = parse_file("gemini/settings.json", config_format::gemini);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    const auto& e = get(r, "gemini-echo");
    EXPECT_EQ(e.command, bin + "/echo_server");
    EXPECT_TRUE(e.trusted);
    EXPECT_EQ(e.timeout, std::chrono::milliseconds(5000));
    EXPECT_EQ(e.include_tools, std::vector<std::string>{"echo"});
    EXPECT_EQ(e.cwd, dirs.home.string());
    EXPECT_EQ(get(r, "gemini-http").transport, transport_kind::streamable_http);
    EXPECT_FALSE(get(r, "gemini-http").sse_fallback); // httpUrl is Streamable HTTP only
    EXPECT_EQ(get(r, "gemini-http").url, "http://127.0.0.1:8080/mcp");
    EXPECT_EQ(get(r, "gemini-http").headers.at("Authorization"), "Bearer tok");
    auto p = parse_file("gemini/project_settings.json", config_format::gemini, config_scope::project);
    EXPECT_EQ(get(p, "gemini-sse").transport, transport_kind::sse); // Gemini's `url` is SSE
    EXPECT_EQ(get(p, "gemini-sse").url, "http://127.0.0.1:8081/sse");
    EXPECT_EQ(get(p, "gemini-sse").exclude_tools, std::vector<std::string>{"dangerous"});
}

// ------------------------------------------------------------------ errors

TEST_F(host_config_test, unknown_field_names_file_and_entry_and_the_rest_still_works) {
    dirs.install("broken/unknown_field.json", dirs.home / ".cursor/mcp.json");
    auto r = discover_here();
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].to_string(),
              "~/.cursor/mcp.json: server \"git\": unknown field \"comand\" (did you mean \"command\"?)");
    ASSERT_EQ(r.servers.size(), 1u);
    EXPECT_EQ(r.servers[0].name, "echo");
    ASSERT_NE(r.error_for("git"), nullptr);
    EXPECT_EQ(r.error_for("echo"), nullptr);
}

TEST_F(host_config_test, missing_variable_and_bad_json) {
    auto r = discover({.explicit_files = {mcp::test::host_configs_dir() / "broken/missing_variable.json",
                                          mcp::test::host_configs_dir() / "broken/bad_json.json"},
                       .home = dirs.home,
                       .cwd = dirs.project,
                       .environment = env_of(env)});
    ASSERT_EQ(r.errors.size(), 2u) << all_errors(r);
    EXPECT_NE(r.errors[0].to_string().find("missing_variable.json: server \"needs-token\": \"env\": variable "
                                           "\"MCPXX_SURELY_UNSET_TOKEN\" is not set"),
              std::string::npos)
        << r.errors[0].to_string();
    EXPECT_EQ(r.errors[1].server, "");
    EXPECT_NE(r.errors[1].to_string().find("bad_json.json: not valid JSON: "), std::string::npos)
        << r.errors[1].to_string();
    EXPECT_NE(r.errors[1].to_string().find("line 3"), std::string::npos) << r.errors[1].to_string();
    ASSERT_EQ(r.servers.size(), 1u);
    EXPECT_EQ(r.servers[0].name, "echo");
}

TEST_F(host_config_test, bad_entries) {
    const auto check = [&](const std::string& entry, const std::string& expected) {
        discovery_result r;
        parse_config("{\"mcpServers\":{\"s\":" + entry + "}}",
                     {.source = "f.json",
                      .format = config_format::claude_code,
                      .home = dirs.home,
                      .cwd = dirs.project,
                      .environment = env_of(env)},
                     r);
        ASSERT_EQ(r.errors.size(), 1u) << entry;
        EXPECT_EQ(r.errors[0].to_string(), "f.json: server \"s\": " + expected) << entry;
    };
    check("[]", "must be an object");
    check("{}", "needs \"command\" (a local server) or \"url\" (a remote one)");
    check(R"({"command":"x","url":"http://a"})", "has both \"command\" and \"url\"; use one");
    check(R"({"command":"x","args":"--stdio"})", "\"args\" must be an array of strings");
    check(R"({"command":"x","args":["a",1]})", "\"args\"[1] must be a string");
    check(R"({"command":"x","env":{"A":1}})", "\"env\".A must be a string");
    check(R"({"type":"websocket","url":"ws://a"})",
          "\"type\" must be \"stdio\", \"http\" or \"sse\", not \"websocket\"");
    check(R"({"type":"http","command":"x"})", "\"type\" is \"http\" but the entry has a \"command\"");
    check(R"({"command":""})", "\"command\" is empty");
    check(R"({"command":"x","timeout":-3})", "\"timeout\" must be a number of milliseconds");
    check(R"({"url":"http://a","env":{}})", "\"env\" is for local (command) servers, not remote ones");
    check(R"({"command":"x","httpUrl":"http://a"})",
          "unknown field \"httpUrl\""); // Gemini's, not Claude Code's
    check(R"({"command":"x","disabled":"yes"})", "\"disabled\" must be true or false");
    discovery_result r;
    parse_config("[1]", {.source = "f.json"}, r);
    EXPECT_EQ(r.errors.at(0).to_string(), "f.json: must be a JSON object");
    // Text after the document is an error at its place; spaces and comments after it are not.
    discovery_result junk;
    parse_config("{\"mcpServers\":{}}\n}x", {.source = "f.json"}, junk);
    ASSERT_EQ(junk.errors.size(), 1u);
    EXPECT_NE(junk.errors[0].to_string().find("at line 2, column 1"), std::string::npos)
        << junk.errors[0].to_string();
    EXPECT_EQ(junk.errors[0].to_string().find("incomplete"), std::string::npos) << junk.errors[0].to_string();
    discovery_result trailing;
    parse_config("{\"mcpServers\":{}} // the end\n\n", {.source = "f.json"}, trailing);
    EXPECT_TRUE(trailing.errors.empty()) << trailing.errors.at(0).to_string();
}

// ------------------------------------------------------------------ discovery and precedence

TEST_F(host_config_test, discovers_every_host_and_the_most_specific_definition_wins) {
    dirs.install_all();
    auto r = discover_here();
    // The only entry errors: VS Code's input prompt.
    ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
    EXPECT_EQ(r.errors[0].server, "needs-input");
    EXPECT_EQ(r.files_read.size(), 9u);
    const std::vector<std::string> expected_files{"~/.config/Claude/claude_desktop_config.json",
                                                  "~/.codeium/windsurf/mcp_config.json",
                                                  "~/.cursor/mcp.json",
                                                  "~/.gemini/settings.json",
                                                  "~/.claude.json",
                                                  ".mcp.json",
                                                  ".cursor/mcp.json",
                                                  ".vscode/mcp.json",
                                                  ".gemini/settings.json"};
    EXPECT_EQ(r.files_read, expected_files);
    for (const char* n : {"echo", "desktop-everything", "everything", "api-server", "events", "user-echo",
                          "docs", "project-echo", "vscode-everything", "vscode-remote", "windsurf-remote",
                          "gemini-echo", "gemini-http", "gemini-sse"})
        EXPECT_NE(r.find(n), nullptr) << n;
    // "echo" is defined by Claude Desktop, Windsurf, Cursor (user) and Claude Code's local scope:
    // the local one wins and the three others are reported.
    EXPECT_EQ(r.find("echo")->source, "~/.claude.json (project " + dirs.project.string() + ")");
    std::vector<std::string> hidden;
    for (const auto& s : r.shadowed)
        if (s.name == "echo") hidden.push_back(s.source);
    EXPECT_EQ(hidden,
              (std::vector<std::string>{"~/.config/Claude/claude_desktop_config.json",
                                        "~/.codeium/windsurf/mcp_config.json", "~/.cursor/mcp.json"}));
}

TEST_F(host_config_test, project_file_wins_over_user_file) {
    dirs.write(dirs.home / ".cursor/mcp.json", R"({"mcpServers":{"s":{"command":"user-cmd"}}})");
    dirs.write(dirs.project / ".mcp.json", R"({"mcpServers":{"s":{"command":"project-cmd"}}})");
    auto r = discover_here();
    ASSERT_EQ(r.servers.size(), 1u);
    EXPECT_EQ(r.servers[0].command, "project-cmd");
    ASSERT_EQ(r.shadowed.size(), 1u);
    EXPECT_EQ(r.shadowed[0].source, "~/.cursor/mcp.json");
    EXPECT_EQ(r.shadowed[0].winner, ".mcp.json");
}

TEST_F(host_config_test, disabled_entries_are_listed_and_not_started) {
    // Cline, Roo Code and Windsurf write "disabled": true for a server that is off. It is not an
    // error, and what else the entry says is not checked until it is enabled.
    discovery_result r;
    parse_config(R"({"mcpServers":{
        "off":{"command":"x","disabled":true},
        "off-remote":{"serverUrl":"http://127.0.0.1:9/mcp","disabled":true},
        "off-and-broken":{"command":"x","env":{"K":"${MCPXX_SURELY_UNSET}"},"comand":"typo","disabled":true},
        "on":{"command":"y","disabled":false}}})",
                 {.source = "f.json",
                  .format = config_format::windsurf,
                  .home = dirs.home,
                  .cwd = dirs.project,
                  .environment = env_of(env)},
                 r);
    EXPECT_TRUE(r.errors.empty()) << all_errors(r);
    ASSERT_EQ(r.servers.size(), 1u);
    EXPECT_EQ(r.servers[0].name, "on");
    EXPECT_FALSE(r.servers[0].disabled);
    ASSERT_EQ(r.disabled.size(), 3u);
    EXPECT_EQ(r.disabled[0].name, "off");
    EXPECT_EQ(r.disabled[0].command, "x");
    EXPECT_EQ(r.disabled[1].transport, transport_kind::streamable_http);
    EXPECT_EQ(r.disabled[2].name, "off-and-broken");
    EXPECT_EQ(r.disabled[2].source, "f.json");
    for (const auto& d : r.disabled) EXPECT_TRUE(d.disabled) << d.name;
    EXPECT_EQ(r.find("off"), nullptr);
    EXPECT_NE(r.find_disabled("off"), nullptr);
    EXPECT_TRUE(r.is_defined("off"));

    // A disabled definition takes part in the precedence: the more specific file decides.
    dirs.write(dirs.home / ".cursor/mcp.json",
               R"({"mcpServers":{"a":{"command":"user-a"},"b":{"command":"user-b","disabled":true}}})");
    dirs.write(dirs.project / ".mcp.json",
               R"({"mcpServers":{"a":{"command":"project-a","disabled":true},"b":{"command":"project-b"}}})");
    auto found = discover_here();
    EXPECT_TRUE(found.errors.empty()) << all_errors(found);
    ASSERT_EQ(found.servers.size(), 1u);
    EXPECT_EQ(found.servers[0].command, "project-b");
    ASSERT_EQ(found.disabled.size(), 1u);
    EXPECT_EQ(found.disabled[0].command, "project-a");
    EXPECT_EQ(found.shadowed.size(), 2u);
    // An entry error does not count for a name some file defines, disabled or not.
    dirs.write(dirs.home / ".cursor/mcp.json", R"({"mcpServers":{"a":{"comand":"typo"}}})");
    found = discover_here();
    EXPECT_EQ(found.errors.size(), 1u);
    EXPECT_EQ(found.error_for("a"), nullptr);
}

TEST_F(host_config_test, home_as_project_reads_each_file_once) {
    dirs.write(dirs.home / ".cursor/mcp.json", R"({"mcpServers":{"s":{"command":"c"}}})");
    auto r = discover({.home = dirs.home, .cwd = dirs.home, .environment = env_of(env)});
    EXPECT_EQ(r.files_read, std::vector<std::string>{"~/.cursor/mcp.json"});
    EXPECT_TRUE(r.shadowed.empty());
}

TEST_F(host_config_test, explicit_files_are_recognised_by_content) {
    const auto vs = dirs.root / "a.json";
    const auto cc = dirs.root / "b.json";
    dirs.write(vs, R"({"servers":{"x":{"type":"stdio","command":"x1"}}})");
    dirs.install("claude_code/claude.json", cc);
    dirs.write(dirs.home / ".cursor/mcp.json", R"({"mcpServers":{"ignored":{"command":"c"}}})");
    auto r = discover(
        {.explicit_files = {vs, cc}, .home = dirs.home, .cwd = dirs.project, .environment = env_of(env)});
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    EXPECT_NE(r.find("x"), nullptr);
    EXPECT_NE(r.find("user-echo"), nullptr);
    EXPECT_NE(r.find("echo"), nullptr);
    EXPECT_EQ(r.find("ignored"), nullptr); // with --config the hosts' files are not read
    auto missing =
        discover({.explicit_files = {dirs.root / "nope.json"}, .home = dirs.home, .cwd = dirs.project});
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_NE(missing.errors[0].to_string().find("nope.json: no such file"), std::string::npos);
}

TEST_F(host_config_test, env_file_and_relative_cwd) {
    dirs.write(dirs.project / ".env", "# comment\nexport A=1\nB=\"two words\"\n\nC='3'\n");
    dirs.write(
        dirs.project / ".cursor/mcp.json",
        R"({"mcpServers":{"s":{"command":"c","envFile":"${workspaceFolder}/.env","env":{"A":"override"},"cwd":"sub/../tools"}}})");
    auto r = discover_here();
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    const auto& s = *r.find("s");
    EXPECT_EQ(s.env.at("A"), "override");
    EXPECT_EQ(s.env.at("B"), "two words");
    EXPECT_EQ(s.env.at("C"), "3");
    EXPECT_EQ(s.cwd, (dirs.project / "tools").string());
}

} // namespace
