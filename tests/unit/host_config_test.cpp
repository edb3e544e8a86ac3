// Config discovery: every host's file format, variable expansion, errors that name the file and
// the entry, and precedence between files, with a fake home and project directory.
#include <mcp/host/config.hpp>
#include <mcp/host/project_trust.hpp>
#include <mcp/host/variables.hpp>

#include "support/host_fixture.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <functional>
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

TEST_F(host_config_test, claude_desktop_is_read_where_it_keeps_its_file_on_linux_and_macos) {
    const auto server = [](const std::string& name) {
        return R"({"mcpServers":{")" + name + R"(":{"command":"c"}}})";
    };
    dirs.write(dirs.home / ".config/Claude/claude_desktop_config.json", server("in-dot-config"));
    // macOS: ~/Library/Application Support, read when it exists, whatever the system.
    dirs.write(dirs.home / "Library/Application Support/Claude/claude_desktop_config.json", server("macos"));
    auto r = discover_here();
    EXPECT_NE(r.find("in-dot-config"), nullptr);
    ASSERT_NE(r.find("macos"), nullptr);
    EXPECT_EQ(r.find("macos")->source, "~/Library/Application Support/Claude/claude_desktop_config.json");
    EXPECT_EQ(r.find("macos")->format, config_format::claude_desktop);

    // Linux: in $XDG_CONFIG_HOME when it is set, as Electron keeps an application's data there;
    // ~/.config is then not Claude Desktop's.
    const auto xdg = dirs.root / "xdg";
    dirs.write(xdg / "Claude/claude_desktop_config.json", server("in-xdg"));
    env["XDG_CONFIG_HOME"] = xdg.string();
    r = discover_here();
    ASSERT_NE(r.find("in-xdg"), nullptr);
    EXPECT_EQ(r.find("in-xdg")->source, (xdg / "Claude/claude_desktop_config.json").string());
    EXPECT_EQ(r.find("in-dot-config"), nullptr);
    EXPECT_NE(r.find("macos"), nullptr);
    // A relative XDG_CONFIG_HOME is ignored, as the XDG Base Directory specification says.
    env["XDG_CONFIG_HOME"] = "relative/xdg";
    r = discover_here();
    EXPECT_NE(r.find("in-dot-config"), nullptr);
    EXPECT_EQ(r.find("in-xdg"), nullptr);

    // The other hosts keep their dot-directories whatever XDG_CONFIG_HOME says.
    env["XDG_CONFIG_HOME"] = xdg.string();
    dirs.write(dirs.home / ".cursor/mcp.json", server("cursor"));
    dirs.write(xdg / "cursor/mcp.json", server("not-cursor"));
    r = discover_here();
    EXPECT_NE(r.find("cursor"), nullptr);
    EXPECT_EQ(r.find("not-cursor"), nullptr);
}

TEST_F(host_config_test, claude_codes_user_file_follows_claude_config_dir) {
    dirs.write(dirs.home / ".claude.json", R"({"mcpServers":{"in-home":{"command":"c"}}})");
    const auto elsewhere = dirs.root / "claude-config";
    dirs.write(elsewhere / ".claude.json", R"({"mcpServers":{"relocated":{"command":"c"}},
        "projects":{")" + dirs.project.string() +
                                               R"(":{"mcpServers":{"local":{"command":"c"}}}}})");
    EXPECT_NE(discover_here().find("in-home"), nullptr);
    env["CLAUDE_CONFIG_DIR"] = elsewhere.string();
    const auto r = discover_here();
    EXPECT_EQ(r.find("in-home"), nullptr);
    ASSERT_NE(r.find("relocated"), nullptr);
    EXPECT_EQ(r.find("relocated")->source, (elsewhere / ".claude.json").string());
    // Its local scope (this project's servers) comes with it.
    ASSERT_NE(r.find("local"), nullptr);
    EXPECT_EQ(r.find("local")->scope, config_scope::local);
}

TEST(host_user_config_home, xdg_else_home_dot_config_else_nothing) {
    EXPECT_EQ(user_config_home(env_of({{"XDG_CONFIG_HOME", "/x/conf"}, {"HOME", "/h"}})), "/x/conf");
    EXPECT_EQ(user_config_home(env_of({{"XDG_CONFIG_HOME", "rel"}, {"HOME", "/h"}})), "/h/.config");
    EXPECT_EQ(user_config_home(env_of({{"XDG_CONFIG_HOME", ""}, {"HOME", "/h"}})), "/h/.config");
    EXPECT_EQ(user_config_home(env_of({{"HOME", "relative"}})), std::filesystem::path());
    EXPECT_EQ(user_config_home(env_of({})), std::filesystem::path());
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

// ------------------------------------------------------------------ project files must be allowed

struct asked_about {
    std::vector<fs::path> files;
    std::function<bool(const fs::path&, std::string_view)> answer(bool allowed) {
        return [this, allowed](const fs::path& f, std::string_view) {
            files.push_back(f);
            return allowed;
        };
    }
};

TEST_F(host_config_test, a_project_files_servers_are_not_used_until_it_is_allowed) {
    const std::string project_text = R"({"mcpServers":{"s":{"command":"project-cmd"},"p":{"command":"p-cmd"},
        "off":{"command":"x","disabled":true}}})";
    dirs.write(dirs.home / ".cursor/mcp.json",
               R"({"mcpServers":{"s":{"command":"user-cmd"},"u":{"command":"u"}}})");
    dirs.write(dirs.project / ".mcp.json", project_text);
    // Claude Code's local scope (in ~/.claude.json) is the user's own, as user files are.
    dirs.write(dirs.home / ".claude.json",
               R"({"projects":{")" + dirs.project.string() + R"(":{"mcpServers":{"l":{"command":"l"}}}}})");
    asked_about asked;
    auto r = discover({.home = dirs.home,
                       .cwd = dirs.project,
                       .environment = env_of(env),
                       .project_allowed = asked.answer(false)});
    EXPECT_TRUE(r.errors.empty()) << all_errors(r);
    // Asked once, about the project file only, by its path in the project's canonical directory.
    const auto key = fs::canonical(dirs.project) / ".mcp.json";
    EXPECT_EQ(asked.files, std::vector<fs::path>{key});
    std::vector<std::string> names;
    for (const auto& s : r.servers) names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{"u", "l"}));
    // The project's definitions wait, disabled one included; "s" does not fall back to the
    // user's command while they do.
    ASSERT_EQ(r.not_allowed.size(), 3u);
    EXPECT_EQ(r.find("s"), nullptr);
    ASSERT_NE(r.find_not_allowed("s"), nullptr);
    EXPECT_EQ(r.find_not_allowed("s")->command, "project-cmd");
    EXPECT_EQ(r.find_not_allowed("s")->source, ".mcp.json");
    EXPECT_NE(r.find_not_allowed("off"), nullptr);
    EXPECT_TRUE(r.disabled.empty());
    EXPECT_TRUE(r.is_defined("s"));
    EXPECT_TRUE(r.is_defined("p"));
    ASSERT_EQ(r.shadowed.size(), 1u);
    EXPECT_EQ(r.shadowed[0].source, "~/.cursor/mcp.json");
    EXPECT_EQ(r.shadowed[0].winner, ".mcp.json");
    // What the file is and would start, for the one who allows it.
    ASSERT_EQ(r.project_files.size(), 1u);
    const auto& pf = r.project_files[0];
    EXPECT_EQ(pf.path, key);
    EXPECT_EQ(pf.source, ".mcp.json");
    EXPECT_EQ(pf.content, project_text);
    EXPECT_EQ(pf.format, config_format::claude_code);
    EXPECT_FALSE(pf.allowed);
    ASSERT_EQ(pf.servers.size(), 3u);
    EXPECT_EQ(pf.servers[0].name, "s");
    EXPECT_EQ(pf.servers[2].name, "off");
    EXPECT_TRUE(pf.servers[2].disabled);

    // Allowed: the project's servers are used, and win over the user's as before.
    r = discover({.home = dirs.home,
                  .cwd = dirs.project,
                  .environment = env_of(env),
                  .project_allowed = asked.answer(true)});
    EXPECT_TRUE(r.not_allowed.empty());
    ASSERT_NE(r.find("s"), nullptr);
    EXPECT_EQ(r.find("s")->command, "project-cmd");
    EXPECT_NE(r.find_disabled("off"), nullptr);
    EXPECT_TRUE(r.project_files.at(0).allowed);

    // Without project_allowed every project file is allowed (library callers that do not ask).
    r = discover_here();
    EXPECT_TRUE(r.not_allowed.empty());
    EXPECT_EQ(r.find("s")->command, "project-cmd");
    EXPECT_TRUE(r.project_files.at(0).allowed);

    // Explicit files are the user's choice: never asked about, even the project's own file.
    asked.files.clear();
    r = discover({.explicit_files = {dirs.project / ".mcp.json"},
                  .home = dirs.home,
                  .cwd = dirs.project,
                  .environment = env_of(env),
                  .project_allowed = asked.answer(false)});
    EXPECT_TRUE(asked.files.empty());
    EXPECT_TRUE(r.not_allowed.empty());
    EXPECT_TRUE(r.project_files.empty());
    EXPECT_EQ(r.find("s")->command, "project-cmd");
}

TEST_F(host_config_test, every_project_file_is_asked_about_and_user_files_never) {
    dirs.install_all();
    asked_about asked;
    auto r = discover({.home = dirs.home,
                       .cwd = dirs.project,
                       .environment = env_of(env),
                       .project_allowed = asked.answer(false)});
    const auto dir = fs::canonical(dirs.project);
    EXPECT_EQ(asked.files, (std::vector<fs::path>{dir / ".mcp.json", dir / ".cursor/mcp.json",
                                                  dir / ".vscode/mcp.json", dir / ".gemini/settings.json"}));
    for (const auto& s : r.servers) EXPECT_NE(s.scope, config_scope::project) << s.name;
    for (const auto& s : r.not_allowed) EXPECT_EQ(s.scope, config_scope::project) << s.name;
    for (const char* n : {"project-echo", "vscode-everything", "gemini-sse", "events"})
        EXPECT_NE(r.find_not_allowed(n), nullptr) << n;
    for (const char* n : {"user-echo", "desktop-everything", "windsurf-remote", "gemini-http"})
        EXPECT_NE(r.find(n), nullptr) << n;
    // The local scope still outranks the project's definitions.
    EXPECT_EQ(r.find("echo")->source, "~/.claude.json (project " + dirs.project.string() + ")");
    // Errors of a waiting file are still reported: nothing of it runs to find them.
    EXPECT_EQ(r.errors.size(), 1u) << all_errors(r);
}

TEST_F(host_config_test, allowed_with_its_content_and_waiting_again_once_changed) {
    const auto store = dirs.root / "config/mcpxx/allowed-projects.json";
    project_trust trust(store);
    dirs.write(dirs.project / ".mcp.json", R"({"mcpServers":{"s":{"command":"first"}}})");
    auto found = [&] {
        return discover({.home = dirs.home,
                         .cwd = dirs.project,
                         .environment = env_of(env),
                         .project_allowed = trust.checker()});
    };
    auto r = found();
    ASSERT_EQ(r.not_allowed.size(), 1u);
    trust.allow(r.project_files.at(0).path, r.project_files.at(0).content);
    trust.save();
    trust = project_trust::load(store);
    r = found();
    ASSERT_EQ(r.servers.size(), 1u);
    EXPECT_EQ(r.servers[0].command, "first");
    // A `git pull` changes the command: it waits to be allowed again.
    dirs.write(dirs.project / ".mcp.json", R"({"mcpServers":{"s":{"command":"second"}}})");
    r = found();
    EXPECT_TRUE(r.servers.empty());
    ASSERT_EQ(r.not_allowed.size(), 1u);
    EXPECT_EQ(r.not_allowed[0].command, "second");
    EXPECT_TRUE(trust.listed(r.project_files.at(0).path));
}

TEST_F(host_config_test, a_project_file_that_links_to_an_allowed_one_is_not_allowed) {
    // Another project's file, allowed there; its command is relative, so it would run this
    // project's ./server.
    const auto other = dirs.root / "other";
    const std::string text = R"({"mcpServers":{"s":{"command":"./server"}}})";
    dirs.write(other / ".mcp.json", text);
    project_trust trust(dirs.root / "allowed.json");
    trust.allow(fs::canonical(other) / ".mcp.json", text);
    fs::create_symlink(other / ".mcp.json", dirs.project / ".mcp.json");
    auto r = discover({.home = dirs.home,
                       .cwd = dirs.project,
                       .environment = env_of(env),
                       .project_allowed = trust.checker()});
    EXPECT_TRUE(r.servers.empty());
    ASSERT_EQ(r.not_allowed.size(), 1u);
    EXPECT_EQ(r.project_files.at(0).path, fs::canonical(dirs.project) / ".mcp.json");
    // The same through a linked directory (.cursor -> the other project's).
    fs::remove(dirs.project / ".mcp.json");
    dirs.write(other / ".cursor/mcp.json", text);
    trust.allow(fs::canonical(other) / ".cursor/mcp.json", text);
    fs::create_directory_symlink(other / ".cursor", dirs.project / ".cursor");
    r = discover({.home = dirs.home,
                  .cwd = dirs.project,
                  .environment = env_of(env),
                  .project_allowed = trust.checker()});
    EXPECT_TRUE(r.servers.empty());
    EXPECT_EQ(r.not_allowed.size(), 1u);
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

TEST_F(host_config_test, files_that_are_not_regular_or_too_large_are_errors_not_hangs) {
    // A cloned project may hold a FIFO (a read would wait forever), a link to /dev/zero (endless)
    // or a huge file where a config file belongs; each is an error naming the file.
    std::filesystem::create_directories(dirs.project / ".cursor");
    ASSERT_EQ(::mkfifo((dirs.project / ".mcp.json").c_str(), 0600), 0);
    std::filesystem::create_symlink("/dev/zero", dirs.project / ".cursor/mcp.json");
    std::filesystem::create_directories(dirs.project / ".vscode");
    { std::ofstream big(dirs.project / ".vscode/mcp.json"); }
    std::filesystem::resize_file(dirs.project / ".vscode/mcp.json", (64u << 20) + 1); // sparse
    std::filesystem::create_directories(dirs.project / ".gemini/settings.json");      // a directory
    const auto started = std::chrono::steady_clock::now();
    auto r = discover_here();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    const auto errors = all_errors(r);
    EXPECT_NE(errors.find(".mcp.json: is not a regular file"), std::string::npos) << errors;
    EXPECT_NE(errors.find(".cursor/mcp.json: is not a regular file"), std::string::npos) << errors;
    EXPECT_NE(errors.find(".vscode/mcp.json: is larger than 64 MiB"), std::string::npos) << errors;
    EXPECT_NE(errors.find(".gemini/settings.json: is a directory, not a file"), std::string::npos) << errors;
    EXPECT_TRUE(r.servers.empty());
}

TEST_F(host_config_test, an_env_file_that_is_not_a_regular_file_is_an_entry_error) {
    ASSERT_EQ(::mkfifo((dirs.project / "fifo.env").c_str(), 0600), 0);
    dirs.write(dirs.project / ".cursor/mcp.json",
               R"({"mcpServers":{"piped":{"command":"c","envFile":"fifo.env"},)"
               R"("missing":{"command":"c","envFile":"nowhere.env"},"fine":{"command":"c"}}})");
    auto r = discover_here();
    const auto errors = all_errors(r);
    EXPECT_NE(errors.find("server \"piped\": \"envFile\": " + (dirs.project / "fifo.env").string() +
                          " is not a regular file"),
              std::string::npos)
        << errors;
    EXPECT_NE(errors.find("nowhere.env does not exist"), std::string::npos) << errors;
    EXPECT_NE(r.find("fine"), nullptr); // the other entries still work
}

} // namespace

// ------------------------------------------------------------------ oauth

namespace {
struct host_config_oauth : host_config_test {
    discovery_result parse_text(const std::string& text, config_format f, config_scope scope = config_scope::user) {
        discovery_result r;
        parse_config(text,
                     {.source = "f.json", .format = f, .scope = scope, .home = dirs.home, .cwd = dirs.project,
                      .environment = env_of(env)},
                     r);
        return r;
    }
};
} // namespace

TEST_F(host_config_oauth, the_keys_claude_code_gemini_and_cursor_use) {
    env["GH_SECRET"] = "s3cret";
    auto r = parse_text(R"({"mcpServers": {
        "cc": {"type": "http", "url": "https://mcp.example.com/mcp",
               "oauth": {"clientId": "cid", "clientSecret": "${GH_SECRET}", "callbackPort": 8976,
                         "scopes": "read  write"}},
        "plain": {"type": "http", "url": "https://plain.example.com/mcp"}}})",
                        config_format::claude_code);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    const auto& cc = get(r, "cc");
    ASSERT_TRUE(cc.oauth);
    EXPECT_EQ(cc.oauth->client_id, "cid");
    EXPECT_EQ(cc.oauth->client_secret, "s3cret");
    EXPECT_EQ(cc.oauth->callback_port, 8976);
    EXPECT_EQ(cc.oauth->scopes, (std::vector<std::string>{"read", "write"}));
    EXPECT_TRUE(cc.notes.empty());
    EXPECT_FALSE(get(r, "plain").oauth);

    auto g = parse_text(R"({"mcpServers": {
        "gm": {"httpUrl": "https://mcp.example.com/mcp",
               "oauth": {"enabled": true, "clientId": "g", "scopes": ["a", "b"],
                         "redirectUri": "http://localhost:7777/cb", "tokenUrl": "https://x/token"}},
        "off": {"httpUrl": "https://mcp.example.com/mcp", "oauth": {"enabled": false, "clientId": "x"}}}})",
                        config_format::gemini);
    ASSERT_TRUE(g.errors.empty()) << all_errors(g);
    const auto& gm = get(g, "gm");
    ASSERT_TRUE(gm.oauth);
    EXPECT_EQ(gm.oauth->scopes, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(gm.oauth->redirect_uri, "http://localhost:7777/cb");
    EXPECT_EQ(gm.notes, std::vector<std::string>{"field \"oauth.tokenUrl\" is not supported and was ignored"});
    EXPECT_FALSE(get(g, "off").oauth);

    auto c = parse_text(R"({"mcpServers": {"cu": {"url": "https://mcp.example.com/mcp",
        "auth": {"CLIENT_ID": "${env:API_KEY}", "CLIENT_SECRET": "${env:GH_SECRET}", "scopes": ["repo"]}}}})",
                        config_format::cursor);
    ASSERT_TRUE(c.errors.empty()) << all_errors(c);
    EXPECT_EQ(get(c, "cu").oauth->client_id, "k123");
    EXPECT_EQ(get(c, "cu").oauth->client_secret, "s3cret");
}

TEST_F(host_config_oauth, bad_oauth_settings_are_entry_errors) {
    const auto error_of = [&](const std::string& entry, config_format f = config_format::claude_code) {
        auto r = parse_text(R"({"mcpServers": {"s": )" + entry + "}}", f);
        return r.errors.empty() ? std::string() : r.errors[0].to_string();
    };
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": "yes"})"),
              "f.json: server \"s\": \"oauth\" must be an object");
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": {"callbackPort": 70000}})"),
              "f.json: server \"s\": \"oauth.callbackPort\" must be a port number (1-65535)");
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": {"callbackPort": "80"}})"),
              "f.json: server \"s\": \"oauth.callbackPort\" must be a port number (1-65535)");
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": {"clientID": "x"}})"),
              "f.json: server \"s\": unknown field \"oauth.clientID\"");
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": {"clientSecret": "${NOPE}"}})"),
              "f.json: server \"s\": \"oauth.clientSecret\": variable \"NOPE\" is not set");
    EXPECT_EQ(error_of(R"({"type": "http", "url": "https://x/mcp", "oauth": {"scopes": [1]}})"),
              "f.json: server \"s\": \"scopes\"[0] must be a string");
    EXPECT_EQ(error_of(R"({"command": "x", "oauth": {}})"), "f.json: server \"s\": \"oauth\" is for remote (url) servers");
    EXPECT_EQ(error_of(R"({"httpUrl": "https://x/mcp", "oauth": {"callbackPort": 1, "redirectUri": "http://localhost:1/"}})",
                       config_format::gemini),
              "f.json: server \"s\": \"oauth.callbackPort\" and \"oauth.redirectUri\" say the same thing; use one");
    // Claude Desktop has no oauth key.
    EXPECT_NE(error_of(R"({"url": "https://x/mcp", "oauth": {}})", config_format::claude_desktop).find("unknown field"),
              std::string::npos);
}

TEST_F(host_config_oauth, a_secret_written_in_a_project_file_is_pointed_out) {
    auto r = parse_text(R"({"mcpServers": {"s": {"type": "http", "url": "https://x/mcp",
                           "oauth": {"clientId": "c", "clientSecret": "literal"}}}})",
                        config_format::claude_code, config_scope::project);
    ASSERT_TRUE(r.errors.empty()) << all_errors(r);
    ASSERT_EQ(get(r, "s").notes.size(), 1u);
    EXPECT_NE(get(r, "s").notes[0].find("is written in a project file"), std::string::npos);
    EXPECT_EQ(get(r, "s").notes[0].find("literal"), std::string::npos); // the secret is never shown
}
