// The host commands of `mcpxx` run as a child process against real servers: servers, tools,
// resources, prompts, call, read, prompt, complete, ping; --config, --json, exit codes,
// approval from stdin, and Ctrl-C during a long call and while the model answers a server.
#include "crypto/crypto.hpp"
#include "support/child_server.hpp"
#include "support/eventually.hpp"
#include "support/host_fixture.hpp"
#include "support/http_test_server.hpp"
#include "support/program_output.hpp"
#include "support/tmux_session.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <map>
#include <mutex>
#include <poll.h>
#include <pty.h>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";

using mcp::test::run_result;
using mcp::test::shell_quote;
using mcp::test::slurp;

boost::json::object parse(const std::string& s) {
    try {
        return boost::json::parse(s).as_object();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not a JSON object: " << s;
        return {};
    }
}

struct cli_host_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    std::string config;

    void SetUp() override {
        // What the data files expand; the child inherits it.
        ::setenv("MCPXX_BINARY_DIR", MCPXX_BINARY_DIR, 1);
        ::unsetenv("NO_COLOR");
        config = (dirs.root / "servers.json").string();
        dirs.write(config, R"({"mcpServers": {
            "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
            "everything": {"command": "${MCPXX_BINARY_DIR}/everything_server", "env": {"MCPXX_TRACE": "1"}}
        }})");
    }

    /// Where mcpxx keeps the list of allowed project files during the test.
    fs::path xdg_config_home() const { return dirs.root / "xdg-config"; }

    /// mcpxx with `args` and `input` on its stdin, in the project directory, with HOME and
    /// XDG_CONFIG_HOME in the test's directory.
    mcp::test::program_run program(const std::vector<std::string>& args, const std::string& input) const {
        std::vector<std::string> argv{mcpxx};
        argv.insert(argv.end(), args.begin(), args.end());
        return {.argv = std::move(argv),
                .files = dirs.root,
                .input = input,
                .cwd = dirs.project,
                .env = {{"HOME", dirs.home.string()},
                        {"XDG_CONFIG_HOME", xdg_config_home().string()}}}; // never the real ~/.config
    }
    /// Run program(args, input).
    /// `on_started` runs (with the pid) while it runs.
    run_result run(const std::vector<std::string>& args, const std::string& input = "",
                   const std::function<void(pid_t, const fs::path& err)>& on_started = {}) {
        auto r = program(args, input);
        const pid_t pid = mcp::test::start_program(r);
        if (on_started) on_started(pid, dirs.root / "stderr");
        return mcp::test::finish_program(pid, r);
    }
    run_result run_cfg(std::vector<std::string> args, const std::string& input = "") {
        args.push_back("--config");
        args.push_back(config);
        return run(args, input);
    }

    /// As run(), with a terminal (a pseudo-terminal) on stdin, typed ahead with `input` (a
    /// terminal hands the program one line per read, as a person typing would). stdout and
    /// stderr still go to files.
    run_result run_tty(std::vector<std::string> args, const std::string& input,
                       const std::function<void(pid_t, const fs::path& err)>& on_started = {}) {
        args.push_back("--config");
        args.push_back(config);
        int master = -1, slave = -1;
        if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
            ADD_FAILURE() << "openpty failed";
            return {};
        }
        auto r = program(args, "");
        r.stdin_fd = slave;
        r.close_in_child = {master};
        r.new_session = true;
        const pid_t pid = mcp::test::start_program(r);
        ::close(slave);
        if (!input.empty() && ::write(master, input.data(), input.size()) < 0) ADD_FAILURE() << "write";
        // What the terminal echoes must be read, or the program could block writing it.
        std::atomic<bool> done{false};
        std::thread drain([&] {
            char buf[4096];
            while (!done) {
                pollfd p{master, POLLIN, 0};
                if (::poll(&p, 1, 50) > 0 && ::read(master, buf, sizeof buf) <= 0) break;
            }
        });
        if (on_started) on_started(pid, dirs.root / "stderr");
        auto result = mcp::test::finish_program(pid, r);
        done = true;
        drain.join();
        ::close(master);
        return result;
    }
};

TEST_F(cli_host_test, servers_reports_each_server_and_exit_codes) {
    auto r = run_cfg({"servers"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("everything"), std::string::npos);
    EXPECT_EQ(r.out.find("\033["), std::string::npos) << "colour on a pipe";
    r = run_cfg({"servers", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = parse(r.out);
    const auto& servers = j.at("servers").as_array();
    ASSERT_EQ(servers.size(), 2u);
    const auto& every = servers[1].as_object();
    EXPECT_EQ(every.at("name"), "everything");
    EXPECT_EQ(every.at("status"), "ready");
    EXPECT_EQ(every.at("transport"), "stdio");
    // The host's client asks for the newest revision; everything_server speaks it.
    EXPECT_EQ(every.at("protocolVersion"), "2026-07-28");
    EXPECT_EQ(every.at("source").as_string(), config);
    EXPECT_EQ(every.at("resources").as_int64(), 20);
    EXPECT_EQ(every.at("prompts").as_int64(), 4);

    // One broken entry (2) and one server that cannot start (3, which wins).
    const auto bad = (dirs.root / "bad.json").string();
    dirs.install("broken/unknown_field.json", bad);
    r = run({"servers", "--config", bad, "--json"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    j = parse(r.out);
    EXPECT_NE(std::string(j.at("errors").at(0).at("text").as_string())
                  .find("server \"git\": unknown field \"comand\""),
              std::string::npos);
    EXPECT_EQ(j.at("servers").at(0).at("status"), "ready"); // echo still works
    dirs.install("broken/command_not_found.json", bad);
    r = run({"servers", "--config", bad});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.out.find("command not found on PATH: mcpxx-no-such-command"), std::string::npos) << r.out;
    dirs.install("broken/bad_json.json", bad);
    r = run({"servers", "--config", bad});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("bad.json: not valid JSON"), std::string::npos) << r.err;
    // Nothing configured anywhere.
    r = run({"servers"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no MCP servers configured"), std::string::npos) << r.err;
}

TEST_F(cli_host_test, servers_from_the_hosts_config_files) {
    // The remote entries of the data files point at this server (Streamable HTTP on /mcp, the
    // legacy HTTP+SSE transport on /sse) through variables, with a token they must never show.
    mcp::test::child_server remote(
        {std::string(MCPXX_BINARY_DIR) + "/everything_server", "--http", "127.0.0.1:{port}", "--legacy-sse"});
    ASSERT_TRUE(remote.ready());
    const std::string token = "t0ken-n3ver-shown";
    ::setenv("MCPXX_TEST_HTTP_URL", remote.url("/mcp").c_str(), 1);
    ::setenv("MCPXX_TEST_SSE_URL", remote.url("/sse").c_str(), 1);
    ::setenv("MCPXX_TEST_REMOTE_TOKEN", token.c_str(), 1);
    ::unsetenv("API_KEY"); // Claude Code's "api-server" stays invalid: it needs one
    dirs.install_all();
    // Claude Desktop's file where XDG_CONFIG_HOME (set for every run here) says it is.
    dirs.install("claude_desktop/claude_desktop_config.json",
                 xdg_config_home() / "Claude/claude_desktop_config.json");
    // The project's files (.mcp.json, .vscode/mcp.json, ...) are allowed as a person would.
    auto r = run({"allow"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    r = run({"servers", "--json", "--verbose"});
    // Every server that can start is ready; the two broken entries make it 2.
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    auto j = parse(r.out);
    std::map<std::string, boost::json::object> by_name;
    for (const auto& s : j.at("servers").as_array())
        by_name[std::string(s.at("name").as_string())] = s.as_object();
    EXPECT_EQ(by_name.at("echo").at("status"), "ready");
    EXPECT_EQ(by_name.at("echo").at("source").as_string(),
              "~/.claude.json (project " + dirs.project.string() + ")");
    EXPECT_EQ(by_name.at("vscode-everything").at("source"), ".vscode/mcp.json");
    EXPECT_EQ(by_name.at("vscode-everything").at("status"), "ready");
    EXPECT_EQ(by_name.at("gemini-echo").at("status"), "ready");
    // Remote entries of each format, and the transport each one speaks.
    const std::map<std::string, std::pair<std::string, std::string>> remote_entries{
        {"vscode-remote", {".vscode/mcp.json", "http"}},                      // "type": "http"
        {"windsurf-remote", {"~/.codeium/windsurf/mcp_config.json", "http"}}, // serverUrl
        {"gemini-http", {"~/.gemini/settings.json", "http"}},                 // httpUrl
        {"gemini-sse", {".gemini/settings.json", "sse"}},                     // Gemini's url is SSE
        {"events", {".mcp.json", "sse"}},                                     // Claude Code "type": "sse"
        {"docs", {"~/.cursor/mcp.json", "sse"}},                              // a bare url to /sse: fallback
    };
    for (const auto& [name, expected] : remote_entries) {
        const auto& s = by_name.at(name);
        EXPECT_EQ(s.at("status"), "ready") << name << ": " << boost::json::serialize(s);
        EXPECT_EQ(s.at("source").as_string(), expected.first) << name;
        EXPECT_EQ(s.at("transport").as_string(), expected.second) << name;
        // Our server speaks the newest revision wherever the client's server/discover probe
        // reaches it; the HTTP+SSE fallback answers that probe itself (-32601), so the
        // fallen-back entry is initialized instead.
        EXPECT_EQ(s.at("protocolVersion"), name == "docs" ? "2025-11-25" : "2026-07-28") << name;
        EXPECT_EQ(s.at("resources").as_int64(), 20) << name;
    }
    EXPECT_EQ(by_name.at("api-server").at("status"), "invalid");
    EXPECT_NE(std::string(by_name.at("api-server").at("error").as_string()).find("\"API_KEY\" is not set"),
              std::string::npos);
    EXPECT_EQ(by_name.at("needs-input").at("status"), "invalid");
    EXPECT_EQ(j.at("files").as_array().size(), 9u);
    EXPECT_EQ(j.at("shadowed").as_array().size(), 3u);
    EXPECT_EQ(r.out.find(token), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(token), std::string::npos) << r.err;

    // Listing and calling through a remote entry; the token stays out of every output.
    r = run({"tools", "vscode-remote", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(parse(r.out).at("tools").as_array().size(), 15u);
    r = run({"call", "gemini-sse", "echo", "--arg", "text=over sse", "--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "over sse\n");
    r = run({"read", "windsurf-remote", "test://static/resource/3"});
    EXPECT_EQ(r.out, "Resource 3: plain text\n");
    // The server goes away: a remote server that cannot be reached is 3, with the URL shown.
    remote.stop();
    r = run({"call", "vscode-remote", "echo", "--arg", "text=x", "--yes", "--verbose"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("cannot connect to " + remote.url("/mcp")), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(token), std::string::npos) << r.err;
}

TEST_F(cli_host_test, claude_desktops_file_in_xdg_config_home) {
    // Linux's Claude Desktop keeps its file in $XDG_CONFIG_HOME/Claude when XDG_CONFIG_HOME is set.
    dirs.write(xdg_config_home() / "Claude/claude_desktop_config.json",
               R"({"mcpServers": {"desktop-echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"}}})");
    dirs.write(dirs.home / ".config/Claude/claude_desktop_config.json",
               R"({"mcpServers": {"not-this-one": {"command": "${MCPXX_BINARY_DIR}/echo_server"}}})");
    const auto r = run({"servers", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto j = parse(r.out);
    ASSERT_EQ(j.at("servers").as_array().size(), 1u) << r.out;
    const auto& s = j.at("servers").at(0).as_object();
    EXPECT_EQ(s.at("name"), "desktop-echo");
    EXPECT_EQ(s.at("status"), "ready");
    EXPECT_EQ(s.at("source").as_string(), (xdg_config_home() / "Claude/claude_desktop_config.json").string());
}

TEST_F(cli_host_test, tools_resources_prompts) {
    auto r = run_cfg({"tools", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto tools = parse(r.out).at("tools").as_array();
    std::set<std::string> names;
    for (const auto& t : tools) names.insert(std::string(t.at("name").as_string()));
    EXPECT_TRUE(names.count("echo__echo"));
    EXPECT_TRUE(names.count("everything__echo"));
    EXPECT_TRUE(names.count("everything__get_weather"));
    r = run_cfg({"tools", "echo"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "echo__echo  Echo back the given text [read-only]\n");
    r = run_cfg({"resources", "everything", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = parse(r.out);
    EXPECT_EQ(j.at("resources").as_array().size(), 20u);
    EXPECT_EQ(j.at("resourceTemplates").as_array().size(), 2u);
    r = run_cfg({"prompts"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("complex_prompt(temperature*, style)"), std::string::npos) << r.out;
    EXPECT_EQ(run_cfg({"tools", "nope"}).exit_code, 2);
}

TEST_F(cli_host_test, call_with_args_and_exit_codes) {
    auto r = run_cfg({"call", "everything", "add", "--arg", "a=2", "--arg", "b=3.5", "--yes", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = parse(r.out);
    EXPECT_EQ(j.at("structuredContent").at("sum").as_double(), 5.5);
    // Strings stay strings when the schema says so, even if they look like numbers.
    r = run_cfg({"call", "echo", "echo", "--arg", "text=42", "--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "42\n");
    r = run_cfg({"call", "everything", "echo", "--args", R"({"text":"from json"})", "-y"});
    EXPECT_EQ(r.out, "from json\n");
    // isError -> 1; protocol error -> 1; unknown server / tool / bad --args -> 2.
    r = run_cfg({"call", "everything", "fail", "--yes"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("this tool always fails"), std::string::npos) << r.err;
    EXPECT_EQ(run_cfg({"call", "nope", "echo", "--yes"}).exit_code, 2);
    EXPECT_EQ(run_cfg({"call", "everything", "nope", "--yes"}).exit_code, 2);
    r = run_cfg({"call", "everything", "echo", "--args", "[1]", "--yes"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: --args must be a JSON object\n");
    // JSON that does not parse says so, and where.
    r = run_cfg({"call", "everything", "echo", "--args", "{bad json", "--yes"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: --args is not valid JSON: syntax error at byte 1\n");
    r = run_cfg({"call", "everything", "echo", "--args", R"({"text":"x")", "--yes"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: --args is not valid JSON: incomplete JSON at byte 11\n");
    r = run_cfg({"call", "everything", "echo", "--args", R"({"text":"x"} {})", "--yes"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: --args is not valid JSON: extra data at byte 13\n");
    EXPECT_EQ(run_cfg({"call", "everything"}).exit_code, 2);
    // Roots: the current directory; the --root directories instead; none with --no-roots.
    r = run_cfg({"call", "everything", "list_roots", "--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Roots:\nfile://" + fs::canonical(dirs.project).string() + " (project)\n");
    r = run_cfg({"call", "everything", "list_roots", "--yes", "--root", dirs.home.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Roots:\nfile://" + fs::canonical(dirs.home).string() + " (home)\n");
    r = run_cfg({"call", "everything", "list_roots", "--yes", "--root", dirs.home.string(), "--root", "."});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Roots:\nfile://" + fs::canonical(dirs.home).string() + " (home)\nfile://" +
                         fs::canonical(dirs.project).string() + " (project)\n");
    r = run_cfg({"call", "everything", "list_roots", "--yes", "--no-roots"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Roots:\n");
    r = run_cfg({"call", "everything", "list_roots", "--yes", "--no-roots", "--root", "."});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("--root excludes --no-roots"), std::string::npos) << r.err;
    // Progress on stderr.
    r = run_cfg(
        {"call", "everything", "long_operation", "--arg", "duration=0.2", "--arg", "steps=2", "--yes"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.err.find("progress 2/2 step 2"), std::string::npos) << r.err;
    // A server that cannot start -> 3.
    const auto bad = (dirs.root / "bad.json").string();
    dirs.install("broken/command_not_found.json", bad);
    EXPECT_EQ(run({"call", "ghost", "x", "--config", bad}).exit_code, 3);
    // A broken entry -> 2, with its error.
    dirs.install("broken/missing_variable.json", bad);
    r = run({"call", "needs-token", "echo", "--config", bad});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("variable \"MCPXX_SURELY_UNSET_TOKEN\" is not set"), std::string::npos) << r.err;
}

TEST_F(cli_host_test, config_problems_are_reported_by_every_command_over_several_servers) {
    // One good entry and one with an unknown field: every command warns on stderr, and with
    // --json puts the problem in its JSON object (the shape of `servers --json`) instead.
    const auto mix = (dirs.root / "mix.json").string();
    dirs.install("broken/unknown_field.json", mix);
    const std::string problem = "server \"git\": unknown field \"comand\" (did you mean \"command\"?)";
    for (const std::string command : {"ping", "tools", "resources", "prompts", "servers"}) {
        auto r = run({command, "--config", mix});
        // Every command over several servers: 2 for the broken entry (3 would win).
        EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
        if (command == "servers")
            EXPECT_NE(r.out.find("\ngit   invalid  unknown field \"comand\""), std::string::npos) << r.out;
        else
            EXPECT_NE(r.err.find("warning: " + mix + ": " + problem), std::string::npos)
                << command << ": " << r.err;
        r = run({command, "--config", mix, "--json"});
        EXPECT_EQ(r.exit_code, 2) << command;
        EXPECT_EQ(r.err, "") << command;
        const auto j = parse(r.out);
        ASSERT_TRUE(j.contains("errors")) << command << ": " << r.out;
        const auto& e = j.at("errors").at(0).as_object();
        EXPECT_EQ(e.at("source").as_string(), mix) << command;
        EXPECT_EQ(e.at("server"), "git") << command;
        EXPECT_EQ(e.at("text").as_string(), mix + ": " + problem) << command;
        EXPECT_TRUE(j.at("shadowed").is_array()) << command;
        EXPECT_TRUE(j.at("notes").is_array()) << command;
    }
}

TEST_F(cli_host_test, a_timeout_must_be_a_positive_number_of_seconds) {
    const std::vector<std::vector<std::string>> commands{
        {"servers"},
        {"tools"},
        {"resources"},
        {"prompts"},
        {"ping"},
        {"call", "everything", "echo", "--yes"},
        {"read", "everything", "test://static/resource/3"},
        {"prompt", "everything", "simple_prompt"},
        {"complete", "everything", "--prompt", "complex_prompt", "style", "f"},
        {"shell"}};
    for (auto args : commands) {
        for (const std::string timeout : {"-5", "0", "abc", "inf"}) {
            auto with = args;
            with.insert(with.end(), {"--timeout", timeout});
            const auto r = run_cfg(with);
            EXPECT_EQ(r.exit_code, 2) << args[0] << " --timeout " << timeout;
            EXPECT_NE(r.err.find("--timeout: must be a number of seconds above 0 and at most 86400, not \"" +
                                 timeout + "\""),
                      std::string::npos)
                << r.err;
            EXPECT_EQ(r.out, "") << args[0];
        }
    }
    auto r = run_cfg({"ping", "echo", "--timeout", "2.5"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(cli_host_test, a_server_that_never_answers_fails_within_the_timeout_and_says_why) {
    const auto cfg = (dirs.root / "silent.json").string();
    // Neither answers; "junk" prints a banner on stdout and a line on stderr first.
    dirs.write(cfg, R"({"mcpServers": {
        "silent": {"command": "sleep", "args": ["100"], "timeout": 60000},
        "junk": {"command": "sh", "args": ["-c", "echo Starting junk server v1; echo no config found >&2; sleep 100"],
                 "timeout": 1500}
    }})");
    auto t0 = std::chrono::steady_clock::now();
    auto r = run({"servers", "--config", cfg, "--timeout", "2", "--json"});
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 15s) << "--timeout does not bound starting a server";
    EXPECT_EQ(r.exit_code, 3) << r.err;
    auto j = parse(r.out);
    const auto& silent = j.at("servers").at(0).as_object();
    EXPECT_EQ(silent.at("status"), "failed");
    // --timeout wins over the entries' own.
    EXPECT_EQ(silent.at("error"), "no answer to initialize within 2 s");
    const std::string junk(j.at("servers").at(1).at("error").as_string());
    EXPECT_EQ(junk.rfind("no answer to initialize within 2 s", 0), 0u) << junk;
    EXPECT_NE(junk.find("no config found"), std::string::npos) << junk;
    EXPECT_NE(junk.find("it wrote to stdout what is not JSON-RPC: \"Starting junk server v1\""),
              std::string::npos)
        << junk;

    // Without --timeout, the entry's own (1.5 s) bounds it.
    t0 = std::chrono::steady_clock::now();
    r = run({"ping", "junk", "--config", cfg});
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 12s);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.out.find("no answer to initialize within 1.5 s"), std::string::npos) << r.out << r.err;

    // A server that prints something else and exits: both outputs in the error. (It lives a
    // moment: one that exits at once may be gone before its output is read - a write to it
    // fails first.)
    dirs.write(
        cfg,
        R"({"mcpServers": {"crash": {"command": "sh", "args": ["-c", "echo hello; echo bad flag >&2; sleep 1; exit 2"]}}})");
    r = run({"servers", "--config", cfg});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.out.find("bad flag; it wrote to stdout what is not JSON-RPC: \"hello\""), std::string::npos)
        << r.out;
}

TEST_F(cli_host_test, an_entrys_timeout_applies_to_its_calls_unless_timeout_is_given) {
    const auto cfg = (dirs.root / "timeouts.json").string();
    dirs.write(cfg, R"({"mcpServers": {
        "everything": {"command": "${MCPXX_BINARY_DIR}/everything_server", "timeout": 2500}
    }})");
    // `slow` reports no progress (which would extend the timeout).
    const std::vector<std::string> slow{"call",      "everything", "slow",     "--arg",
                                        "seconds=6", "--yes",      "--config", cfg};
    auto t0 = std::chrono::steady_clock::now();
    auto r = run(slow);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5.5s) << "the entry's timeout was not used";
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("-32001"), std::string::npos) << r.err; // request_timeout
    // --timeout wins.
    auto longer = slow;
    longer[4] = "seconds=3";
    longer.insert(longer.end(), {"--timeout", "20"});
    r = run(longer);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "done\n");
    // The same for the other requests: read, ping.
    r = run({"ping", "everything", "--config", cfg, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(cli_host_test, the_filesystem_server_keeps_its_directories_whatever_the_working_directory) {
    // Configured for a directory of its own; mcpxx runs in another (dirs.project).
    const auto files = dirs.root / "files";
    fs::create_directories(files / "sub");
    std::ofstream(files / "a.txt") << "configured\n";
    std::ofstream(files / "sub" / "b.txt") << "narrowed\n";
    const auto cfg = (dirs.root / "fs.json").string();
    dirs.write(cfg,
               R"({"mcpServers": {"fs": {"command": "${MCPXX_BINARY_DIR}/filesystem_server", "args": [")" +
                   files.string() + R"("]}}})");
    const std::string a = fs::canonical(files / "a.txt").string(),
                      b = fs::canonical(files / "sub" / "b.txt").string();
    // The working directory is offered as the root by default: a root elsewhere does not make
    // this server unusable (it narrows to roots inside its directories), and it says why.
    auto r = run({"call", "fs", "read_file", "--arg", "path=" + a, "--yes", "--config", cfg});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "configured\n\n");
    r = run({"read", "fs", "file://" + a, "--config", cfg});
    EXPECT_EQ(r.out, "configured\n\n") << r.err;
    r = run({"call", "fs", "list_allowed_directories", "--yes", "--config", cfg, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto j = parse(r.out);
    EXPECT_EQ(j.at("structuredContent").at("directories").at(0).as_string(), fs::canonical(files).string());
    EXPECT_NE(std::string(j.at("structuredContent").at("note").as_string()).find("overlap none"),
              std::string::npos)
        << r.out;
    // --no-roots: no root, nothing to say.
    r = run({"call", "fs", "list_allowed_directories", "--yes", "--no-roots", "--config", cfg, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    j = parse(r.out);
    EXPECT_EQ(j.at("structuredContent").at("directories").at(0).as_string(), fs::canonical(files).string());
    EXPECT_FALSE(j.at("structuredContent").as_object().contains("note")) << r.out;
    // A root inside narrows.
    r = run({"call", "fs", "read_file", "--arg", "path=" + a, "--yes", "--root", (files / "sub").string(),
             "--config", cfg});
    EXPECT_EQ(r.exit_code, 1) << r.out;
    r = run({"call", "fs", "read_file", "--arg", "path=" + b, "--yes", "--root", (files / "sub").string(),
             "--config", cfg});
    EXPECT_EQ(r.out, "narrowed\n\n") << r.err;
}

TEST_F(cli_host_test, disabled_servers_are_listed_and_not_started) {
    // As Cline, Roo Code and Windsurf write it; the disabled command does not even exist.
    const auto cfg = (dirs.root / "disabled.json").string();
    dirs.write(cfg, R"({"mcpServers": {
        "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
        "a-long-disabled-name": {"command": "mcpxx-no-such-command", "disabled": true}
    }})");
    auto r = run({"servers", "--config", cfg});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    // The name column fits every row.
    EXPECT_EQ(r.out.rfind("echo                  ready    stdio ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\na-long-disabled-name  disabled stdio   " + cfg + "\n"), std::string::npos)
        << r.out;
    r = run({"servers", "--config", cfg, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto j = parse(r.out);
    ASSERT_EQ(j.at("servers").as_array().size(), 2u);
    EXPECT_EQ(j.at("servers").at(1).at("name"), "a-long-disabled-name");
    EXPECT_EQ(j.at("servers").at(1).at("status"), "disabled");
    EXPECT_TRUE(j.at("errors").as_array().empty());
    // Not started by the commands over every server, and a usage error when named.
    r = run({"ping", "--config", cfg, "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(parse(r.out).at("servers").as_array().size(), 1u);
    r = run({"call", "a-long-disabled-name", "echo", "--config", cfg});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err,
              "mcpxx: server \"a-long-disabled-name\" is disabled in " + cfg + " (\"disabled\": true)\n");
}

TEST_F(cli_host_test, servers_timeout_bounds_a_silent_server_and_says_why) {
    // Accepts every request and answers none (server/discover, then initialize).
    mcp::test::silent_http_server silent;
    const auto cfg = (dirs.root / "silent.json").string();
    dirs.write(cfg, R"({"mcpServers": {"quiet": {"url": ")" + silent.url() + R"("},
        "bad-header": {"url": ")" +
                        silent.url() + R"(", "headers": {"Mcp-Method": "evil"}}}})");
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run({"servers", "--config", cfg, "--timeout", "1"});
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 6s) << "--timeout bounds starting the servers";
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_NE(r.out.find("quiet       failed   http  no answer to server/discover and initialize within 1 s"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("bad-header  failed   http  header \"Mcp-Method\" cannot be set in the options"),
              std::string::npos)
        << r.out;
}

TEST_F(cli_host_test, servers_reads_as_english) {
    const auto cfg = (dirs.root / "words.json").string();
    dirs.write(cfg, R"({"mcpServers": {
        "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
        "no-scheme": {"url": "127.0.0.1:21555/mcp"},
        "a-much-longer-broken-name": {"comand": "x"}
    }})");
    auto r = run({"servers", "--config", cfg});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    // One of a thing is singular; every row's columns line up, the invalid one's too.
    EXPECT_NE(
        r.out.find("echo                       ready    stdio 2026-07-28  1 tool, 0 resources, 0 templates, "
                   "0 prompts"),
        std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("\nno-scheme                  failed   http  not a valid URL: \"127.0.0.1:21555/mcp\" (an "
                   "http:// or https:// URL is needed)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\na-much-longer-broken-name  invalid  unknown field \"comand\""), std::string::npos)
        << r.out;
    // A server that is not up, in natural words.
    r = run({"call", "no-scheme", "x", "--config", cfg});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.err,
              "mcpxx: server \"no-scheme\" failed: not a valid URL: \"127.0.0.1:21555/mcp\" (an http:// or "
              "https:// URL is needed)\n");
    // Schema messages too: "at least 1 character".
    r = run_cfg({"call", "everything", "get_weather", "--args", R"({"city":"","days":1})", "--yes"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("/city: must be at least 1 character long, got 0"), std::string::npos) << r.err;
}

TEST_F(cli_host_test, elicitation_form_answers_are_checked_against_the_schema) {
    // everything_server's ask_user: name (string, required), age (integer, minimum 0), color
    // (enum, default blue). A bad answer is asked again with the reason; the end of input
    // cancels instead of sending what was typed.
    auto r = run_cfg({"call", "everything", "ask_user", "--yes"}, "y\nBob\nabc\npurple\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "User action: cancel\n");
    EXPECT_NE(r.err.find("  name* - Name (text): Bob\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  age (a whole number; at least 0): abc\n    \"abc\" is not a whole number\n"),
              std::string::npos)
        << r.err;
    r = run_cfg({"call", "everything", "ask_user", "--yes"}, "y\n\nBob\n-1\n30\npurple\nGreen\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "User action: accept, content: {\"name\":\"Bob\",\"age\":30,\"color\":\"green\"}\n");
    EXPECT_NE(r.err.find("  name* - Name (text): \n    an answer is required\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    -1 is below the minimum, 0\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    \"purple\" is not one of: red, green, blue\n"), std::string::npos) << r.err;
    // Optional fields left empty are left out (the server's defaults apply).
    r = run_cfg({"call", "everything", "ask_user", "--yes"}, "y\nAda\n\n\n");
    EXPECT_EQ(r.out, "User action: accept, content: {\"name\":\"Ada\"}\n") << r.err;
    // The typed form of book_table: a range, a date format, an enum, a boolean.
    r = run_cfg({"call", "everything", "book_table", "--yes"},
                "y\nAda\n20\n4\n2025-13-01\n2025-12-01\nroof\nterrace\nmaybe\ny\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Booked a table for 4 (Ada) on 2025-12-01, \"terrace\"\n") << r.err;
    EXPECT_NE(r.err.find("    20 is above the maximum, 12\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    \"2025-13-01\" is not a date like 2025-01-31\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("    \"maybe\" is not yes or no (answer y or n)\n"), std::string::npos) << r.err;
    // Declined and cancelled before the form.
    EXPECT_EQ(run_cfg({"call", "everything", "ask_user", "--yes"}, "n\n").out, "User action: decline\n");
    EXPECT_EQ(run_cfg({"call", "everything", "ask_user", "--yes"}).out, "User action: cancel\n");
}

TEST_F(cli_host_test, sampling_through_an_openai_compatible_api) {
    // A stub chat-completions API; everything_server's sample_llm asks it through mcpxx.
    std::atomic<int> status{200};
    mcp::test::http_test_server api([&](const mcp::test::recorded_request& r, auto w) {
        if (status != 200) {
            w->respond(status, {{"Content-Type", "application/json"}},
                       R"({"error":{"message":"model overloaded"}})");
            return;
        }
        const auto body = r.json().as_object();
        const std::string said(body.at("messages").at(1).at("content").as_string());
        w->respond(200, {{"Content-Type", "application/json"}},
                   R"({"model":")" + std::string(body.at("model").as_string()) +
                       R"(","choices":[{"message":{"role":"assistant","content":"you said: )" + said +
                       R"("},"finish_reason":"stop"}]})");
    });
    const std::string key = "sk-cli-n3ver-shown";
    ::setenv("MCPXX_TEST_SAMPLING_KEY", key.c_str(), 1);
    const std::vector<std::string> sampling{
        "--sampling-url",   api.url("/v1"), "--sampling-model",   "small-model",
        "--sampling-model", "big-model",    "--sampling-key-env", "MCPXX_TEST_SAMPLING_KEY"};
    auto with = [&](std::vector<std::string> args, const std::string& input = "") {
        args.insert(args.end(), sampling.begin(), sampling.end());
        // Questions are answered on a terminal (a script would not be asked).
        return input.empty() ? run_cfg(args) : run_tty(args, input);
    };
    auto r = with({"call", "everything", "sample_llm", "--arg", "prompt=hello there", "--yes", "--verbose"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "LLM sampling result (small-model): you said: hello there\n");
    auto reqs = api.requests();
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].target, "/v1/chat/completions");
    EXPECT_EQ(reqs[0].header("Authorization"), "Bearer " + key);
    EXPECT_EQ(r.out.find(key), std::string::npos);
    EXPECT_EQ(r.err.find(key), std::string::npos);
    // Without --yes the user sees the request and the answer: allow the tool, then send, then
    // give the answer to the server.
    r = with({"call", "everything", "sample_llm", "--arg", "prompt=hello again"}, "y\ny\ny\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "LLM sampling result (small-model): you said: hello again\n");
    EXPECT_NE(r.err.find("Server \"everything\" wants to ask the model:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("system: You are a helpful assistant."), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("user: hello again"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("The model (small-model) answered:\n  you said: hello again"), std::string::npos)
        << r.err;
    EXPECT_EQ(api.requests().size(), 2u);
    // The user edits the message: the model sees the edit.
    r = with({"call", "everything", "sample_llm", "--arg", "prompt=rude words"}, "y\ne\nkind words\ny\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "LLM sampling result (small-model): you said: kind words\n");
    // Refused before sending: the API is not called and the server hears "rejected" (-1).
    r = with({"call", "everything", "sample_llm", "--arg", "prompt=secret"}, "y\nn\n");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the user rejected the sampling request"), std::string::npos) << r.err;
    EXPECT_EQ(api.requests().size(), 3u);
    // Refused after: the API was called, the server does not get the answer.
    r = with({"call", "everything", "sample_llm", "--arg", "prompt=hmm"}, "y\ny\nn\n");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the user rejected the model's answer"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("you said: hmm"), std::string::npos) << r.out;
    EXPECT_EQ(api.requests().size(), 4u);
    // The API fails: the tool reports it (1), the key still unseen.
    status = 503;
    r = with({"call", "everything", "sample_llm", "--arg", "prompt=again", "--yes", "--verbose"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("answered HTTP 503 Service Unavailable: model overloaded"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find(key), std::string::npos);
    // Without a provider the server is told how to get one.
    r = run_cfg({"call", "everything", "sample_llm", "--arg", "prompt=x", "--yes"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("start it with --sampling-url URL --sampling-model NAME"), std::string::npos)
        << r.err;
    // Bad sampling options are usage errors.
    ::unsetenv("MCPXX_TEST_SAMPLING_KEY");
    r = with({"servers"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("the environment variable MCPXX_TEST_SAMPLING_KEY is not set"), std::string::npos)
        << r.err;
    r = run_cfg({"servers", "--sampling-url", api.url("/v1")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--sampling-url needs --sampling-model NAME"), std::string::npos) << r.err;
    r = run_cfg({"servers", "--sampling-url", "ftp://x/v1", "--sampling-model", "m"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("must be an http:// or https:// URL"), std::string::npos) << r.err;
    EXPECT_EQ(run_cfg({"servers", "--sampling-model", "m"}).exit_code, 2);
}

TEST_F(cli_host_test, approval_on_a_terminal_and_audit_log) {
    const auto audit = (dirs.root / "audit.jsonl").string();
    auto r =
        run_tty({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1", "--audit-log", audit}, "n\n");
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("wants to run the tool \"add\""), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(R"(arguments: {"a":1,"b":1})"), std::string::npos) << r.err;
    r = run_tty(
        {"call", "everything", "add", "--arg", "a=1", "--arg", "b=1", "--audit-log", audit, "--redact"},
        "y\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // Without a terminal nothing is read: denied, saying how to run it.
    r = run_cfg({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1"}, "y\n");
    EXPECT_EQ(r.exit_code, 4);
    EXPECT_NE(r.err.find("mcpxx: denied: tool \"add\" of server \"everything\": it needs your approval, and "
                         "mcpxx asks only on a terminal (standard input is not one): pass --yes"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("Allow?"), std::string::npos) << r.err;
    // --trust makes a read-only tool run without asking; a tool that is not read-only still asks.
    EXPECT_EQ(run_cfg({"call", "echo", "echo", "--arg", "text=t", "--trust", "echo"}).exit_code, 0);
    EXPECT_EQ(run_cfg({"call", "everything", "echo", "--arg", "text=t", "--trust", "everything"}).exit_code,
              4);
    std::ifstream in(audit);
    std::string l1, l2;
    std::getline(in, l1);
    std::getline(in, l2);
    EXPECT_EQ(parse(l1).at("outcome"), "denied");
    EXPECT_EQ(parse(l1).at("arguments").at("a").as_int64(), 1);
    EXPECT_EQ(parse(l2).at("outcome"), "ok");
    EXPECT_EQ(parse(l2).at("approval"), "user");
    // --redact: an HMAC of the arguments under the installation's key, which the first use made
    // in $XDG_CONFIG_HOME/mcpxx, readable by its owner alone.
    EXPECT_FALSE(parse(l2).contains("arguments"));
    const auto key_file = xdg_config_home() / "mcpxx" / "audit-key";
    ASSERT_TRUE(fs::is_regular_file(key_file));
    EXPECT_EQ(fs::status(key_file).permissions(), fs::perms::owner_read | fs::perms::owner_write);
    std::string key = slurp(key_file);
    ASSERT_EQ(key.size(), 65u) << key;
    key.pop_back(); // the line break
    const std::string digest =
        "hmac-sha256:" + mcp::detail::to_hex(mcp::detail::hmac_sha256(key, R"({"a":1,"b":1})"));
    EXPECT_EQ(parse(l2).at("argumentsDigest").as_string(), digest);
    // The next run uses the same key: equal arguments, equal digests.
    r = run_cfg({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1", "--audit-log", audit,
                 "--redact", "--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string l3;
    std::getline(in, l3);
    EXPECT_EQ(parse(l3).at("argumentsDigest").as_string(), digest);
    // A key others could read is refused: a usage error that names it.
    fs::permissions(key_file, fs::perms::group_read, fs::perm_options::add);
    r = run_cfg({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1", "--audit-log", audit,
                 "--redact", "--yes"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: the audit key " + key_file.string() +
                         " may be read or changed by other users; make it yours alone (chmod 600)\n");
}

TEST_F(cli_host_test, json_failures_are_json_on_stdout) {
    const auto error_of = [](const run_result& r) -> boost::json::object {
        const auto j = parse(r.out);
        if (!j.contains("error")) {
            ADD_FAILURE() << "no error member: " << r.out << " / " << r.err;
            return {};
        }
        return j.at("error").as_object();
    };
    // The server answers with an error: its code and data.
    auto r = run_cfg({"read", "everything", "test://static/resource/999", "--json"});
    EXPECT_EQ(r.exit_code, 1);
    auto e = error_of(r);
    EXPECT_EQ(e["exitCode"].as_int64(), 1);
    EXPECT_EQ(e["code"].as_int64(), -32002); // resource not found
    EXPECT_NE(std::string(e["message"].as_string()).find("Resource not found"), std::string::npos);
    EXPECT_EQ(e["data"].at("uri").as_string(), "test://static/resource/999");
    EXPECT_EQ(r.err, "");
    // Denied, unknown tool, bad --args, unknown server: each its exit code.
    r = run_cfg({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1", "--json"});
    EXPECT_EQ(r.exit_code, 4);
    EXPECT_EQ(error_of(r)["exitCode"].as_int64(), 4);
    EXPECT_EQ(run_cfg({"call", "everything", "nope", "--json"}).exit_code, 2);
    r = run_cfg({"call", "everything", "nope", "--json"});
    EXPECT_NE(std::string(error_of(r)["message"].as_string()).find("has no tool \"nope\""),
              std::string::npos);
    r = run_cfg({"call", "everything", "echo", "--args", "[1]", "--json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(error_of(r)["message"].as_string(), "--args must be a JSON object");
    r = run_cfg({"prompt", "ghost", "x", "--json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(std::string(error_of(r)["message"].as_string()).find("no server named \"ghost\""),
              std::string::npos);
    // A server that cannot start, a broken config, nothing configured.
    const auto bad = (dirs.root / "bad.json").string();
    dirs.install("broken/command_not_found.json", bad);
    r = run({"ping", "ghost", "--config", bad, "--json"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_FALSE(parse(r.out).empty()) << r.out;
    r = run({"call", "ghost", "x", "--config", bad, "--json"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(error_of(r)["exitCode"].as_int64(), 3);
    dirs.install("broken/bad_json.json", bad);
    r = run({"tools", "--config", bad, "--json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(std::string(error_of(r)["message"].as_string()).find("not valid JSON"), std::string::npos);
    EXPECT_EQ(parse(r.out).at("errors").as_array().size(), 1u);
    r = run({"servers", "--json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(std::string(error_of(r)["message"].as_string()).find("no MCP servers configured"),
              std::string::npos);
    // A usage error CLI11 finds.
    r = run({"call", "--json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(error_of(r)["exitCode"].as_int64(), 2);
}

TEST_F(cli_host_test, ctrl_c_at_the_approval_question_exits_130) {
    auto r = run_tty({"call", "everything", "add", "--arg", "a=1", "--arg", "b=1"}, "",
                     [](pid_t pid, const fs::path& err) {
                         for (int i = 0; i < 500 && slurp(err).find("Allow? [y/N]") == std::string::npos; ++i)
                             std::this_thread::sleep_for(20ms);
                         ::kill(pid, SIGINT);
                     });
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_EQ(r.err.find("denied"), std::string::npos) << r.err;
}

TEST_F(cli_host_test, read_prompt_complete_ping) {
    auto r = run_cfg({"read", "everything", "test://static/resource/3"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Resource 3: plain text\n");
    r = run_cfg({"read", "everything", "test://static/resource/2", "--json"});
    EXPECT_EQ(parse(r.out).at("contents").at(0).at("mimeType"), "application/octet-stream");
    r = run_cfg({"read", "everything", "test://static/resource/999"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("Resource not found"), std::string::npos) << r.err;
    r = run_cfg(
        {"prompt", "everything", "complex_prompt", "--arg", "temperature=0.7", "--arg", "style=formal"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("user: Complex prompt: temperature=0.7, style=formal"), std::string::npos) << r.out;
    EXPECT_EQ(run_cfg({"prompt", "everything", "complex_prompt"}).exit_code, 1); // temperature is required
    r = run_cfg({"complete", "everything", "--prompt", "complex_prompt", "style", "f"});
    EXPECT_EQ(r.out, "formal\nfriendly\n");
    r = run_cfg({"complete", "everything", "--resource", "weather://{city}/forecast{?days,unit}", "city", "P",
                 "--json"});
    EXPECT_EQ(parse(r.out).at("completion").at("values").at(0), "Paris");
    EXPECT_EQ(run_cfg({"complete", "everything", "style", "f"}).exit_code, 2);
    // Other arguments go as context.arguments (the server's trace shows the request).
    r = run_cfg({"complete", "everything", "--prompt", "complex_prompt", "style", "f", "--context",
                 "temperature=0.5", "--verbose"});
    EXPECT_EQ(r.out, "formal\nfriendly\n") << r.err;
    EXPECT_NE(r.err.find(R"("context":{"arguments":{"temperature":"0.5"}})"), std::string::npos) << r.err;
    EXPECT_EQ(
        run_cfg({"complete", "everything", "--prompt", "complex_prompt", "style", "f", "--context", "oops"})
            .exit_code,
        2);
    r = run_cfg({"ping", "--json"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(parse(r.out).at("servers").as_array().size(), 2u);
    EXPECT_EQ(run_cfg({"ping", "echo"}).exit_code, 0);
}

TEST_F(cli_host_test, progress_is_a_bar_redrawn_in_place_on_a_terminal) {
    if (!mcp::test::tmux_session::available())
        GTEST_SKIP() << "tmux is not installed (scripts/install-deps installs it)";
    // Three steps of two seconds: each state of the bar stays on the screen long enough to be seen.
    const auto rc_file = dirs.root / "exit_code";
    const std::string command =
        "cd " + shell_quote(dirs.project.string()) + " && HOME=" + shell_quote(dirs.home.string()) +
        " XDG_CONFIG_HOME=" + shell_quote(xdg_config_home().string()) + " " + shell_quote(mcpxx) +
        " call everything long_operation --arg duration=6 --arg steps=3 --yes --config " +
        shell_quote(config) + "; echo $? > " + shell_quote(rc_file.string()) + "; sleep 600";
    mcp::test::tmux_session t(dirs.root, command);
    const auto dump = [&] { return "screen:\n" + t.contents(); };
    // A 30-cell bar filled to the share done, the numbers and the server's message.
    ASSERT_TRUE(t.wait_for("[##########                    ] 1/3 step 1")) << dump();
    ASSERT_TRUE(t.wait_for("[####################          ] 2/3 step 2")) << dump();
    // Redrawn in place: the second state replaced the first on the same line.
    EXPECT_EQ(t.contents().find("1/3 step 1"), std::string::npos) << dump();
    ASSERT_TRUE(t.wait_for("Long operation completed: 3 steps")) << dump();
    ASSERT_TRUE(mcp::test::eventually([&] { return slurp(rc_file) == "0\n"; }, 20s)) << dump();
    // Cleared before the result: no bar is left behind, and no "progress" line of a pipe.
    const auto screen = t.screen();
    EXPECT_EQ(screen.find("step 3"), std::string::npos) << screen;
    EXPECT_EQ(screen.find('['), std::string::npos) << screen;
    EXPECT_EQ(screen.find("progress"), std::string::npos) << screen;
}

TEST_F(cli_host_test, ctrl_c_cancels_the_call_and_exits_130) {
    std::vector<std::string> args{"call",  "everything", "long_operation", "--arg",     "duration=60",
                                  "--arg", "steps=600",  "--yes",          "--verbose", "--config",
                                  config};
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run(args, "", [](pid_t pid, const fs::path& err) {
        // Wait until the call is under way (progress is reported), then press Ctrl-C.
        for (int i = 0; i < 500 && slurp(err).find("progress") == std::string::npos; ++i)
            std::this_thread::sleep_for(20ms);
        ::kill(pid, SIGINT);
    });
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 20s);
    // The server's own trace (MCPXX_TRACE=1 in its env, shown by --verbose) has the notice arriving.
    bool seen = false;
    std::istringstream lines(r.err);
    for (std::string l; std::getline(lines, l);)
        seen |= l.rfind("[everything] ", 0) == 0 && l.find(" <- ") != std::string::npos &&
                l.find("notifications/cancelled") != std::string::npos;
    EXPECT_TRUE(seen) << r.err;
}

TEST_F(cli_host_test, ctrl_c_while_the_model_thinks_hangs_up_on_the_model) {
    // A chat-completions API that takes the request and never answers; it counts the clients
    // that hang up on it.
    std::mutex mu;
    std::vector<std::shared_ptr<mcp::test::core::response_writer>> held;
    std::atomic<int> hung_up{0};
    mcp::test::http_test_server api([&](const mcp::test::recorded_request&, auto w) {
        w->on_close([&] { ++hung_up; });
        std::lock_guard lock(mu);
        held.push_back(std::move(w));
    });
    std::chrono::steady_clock::time_point pressed;
    auto r = run({"call", "everything", "sample_llm", "--arg", "prompt=think hard", "--yes", "--config",
                  config, "--sampling-url", api.url("/v1"), "--sampling-model", "slow-model"},
                 "", [&](pid_t pid, const fs::path&) {
                     // The question is with the model: press Ctrl-C.
                     EXPECT_TRUE(api.wait_requests(1)) << "the model was never asked";
                     pressed = std::chrono::steady_clock::now();
                     ::kill(pid, SIGINT);
                 });
    EXPECT_EQ(r.exit_code, 130) << r.err;
    // Far from the provider's 120 s timeout, which is what mcpxx waited for while its HTTP
    // exchange with the model could not be called off.
    EXPECT_LT(std::chrono::steady_clock::now() - pressed, 10s);
    EXPECT_TRUE(mcp::test::eventually([&] { return hung_up == 1; }))
        << "the model's server still holds the request";
}

} // namespace
