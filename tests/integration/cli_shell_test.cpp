// `mcpxx shell` as a user meets it: in a real terminal (tmux) with line editing, Tab completion
// from completion/complete, approval typed at the prompt, Ctrl-C during a slow call; and as a
// script, with commands piped in. The servers are the example servers, run as child processes.
#include "support/host_fixture.hpp"
#include "support/program_output.hpp"
#include "support/tmux_session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";

using mcp::test::run_result;
using mcp::test::shell_quote;
using mcp::test::slurp;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct cli_shell_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    std::string config;

    void SetUp() override {
        ::setenv("MCPXX_BINARY_DIR", MCPXX_BINARY_DIR, 1);
        ::unsetenv("NO_COLOR");
        config = (dirs.root / "servers.json").string();
        // The everything server traces its messages on stderr, which --verbose shows: the tests
        // see requests arrive (notifications/cancelled), and the trace lines are printed while
        // a line is being edited.
        dirs.write(config, R"({"mcpServers": {
            "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
            "everything": {"command": "${MCPXX_BINARY_DIR}/everything_server", "env": {"MCPXX_TRACE": "1"}}
        }})");
    }

    /// `mcpxx shell --config servers.json args...` with `input` as its stdin (a file, not a
    /// terminal), HOME, XDG_CONFIG_HOME and the working directory faked.
    run_result script(const std::string& input, const std::vector<std::string>& args = {},
                      bool with_config = true) {
        std::vector<std::string> argv{mcpxx, "shell"};
        if (with_config) argv.insert(argv.end(), {"--config", config});
        argv.insert(argv.end(), args.begin(), args.end());
        return mcp::test::run_program(
            {.argv = std::move(argv),
             .files = dirs.root,
             .input = input,
             .cwd = dirs.project,
             .env = {{"HOME", dirs.home.string()},
                     {"XDG_CONFIG_HOME", (dirs.root / "xdg-config").string()}}}); // never the real one
    }
};

TEST_F(cli_shell_test, servers_lists_those_not_started) {
    // The user's servers, one of them off, and a project file that is not allowed yet.
    dirs.write(dirs.home / ".cursor/mcp.json", R"({"mcpServers": {
        "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
        "off": {"command": "mcpxx-no-such-command", "disabled": true}}})");
    dirs.write(dirs.project / ".mcp.json",
               R"({"mcpServers": {"waiting": {"command": "mcpxx-no-such-command"}}})");
    const auto r = script("servers\nquit\n", {}, false);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "echo     ready       stdio 2026-07-28  ")) << r.out;
    EXPECT_TRUE(has(r.out, "\noff      disabled    stdio   ~/.cursor/mcp.json\n")) << r.out;
    EXPECT_TRUE(has(r.out,
                    "\nwaiting  not allowed stdio run \"mcpxx allow\" to review and allow this project "
                    "file  .mcp.json\n"))
        << r.out;
    EXPECT_TRUE(has(r.err, "note: the servers of .mcp.json are not started")) << r.err;
}

TEST_F(cli_shell_test, scripted_session_from_a_pipe) {
    const auto r = script("servers\n"
                          "tools echo\n"
                          "call everything__add a=1 b=2\n" // needs approval: denied, nothing read
                          "call echo__echo text=next-line-runs\n"
                          "/complex_prompt temperature=0.3 style=formal\n"
                          "read everything test://static/resource/1\n"
                          "attach everything test://static/resource/3\n"
                          "attachments\n"
                          "detach\n"
                          "attachments\n"
                          "ping echo\n"
                          "bogus\n"
                          "call nope__x\n"
                          "/nope\n"
                          "read ghost test://x\n"
                          "call echo \"unterminated\n"
                          "\n"
                          "call echo__echo text=\"two words\"\n" // trusted and read-only: not asked
                          "call echo__echo {\"text\": \"from json\"}\n"
                          "quit\n"
                          "tools\n", // never read
                          {"--trust", "echo"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(has(r.out, "everything  ready    stdio 2026-07-28  ")) << r.out;
    EXPECT_TRUE(has(r.out, "echo__echo  Echo back the given text [read-only]\n")) << r.out;
    // Approval is not read from a script: the call is denied with how to allow it, and the
    // next line is the next command.
    EXPECT_FALSE(has(r.out, "{\"sum\":3")) << r.out;
    EXPECT_TRUE(has(r.err,
                    "mcpxx: denied: tool \"add\" of server \"everything\": it needs your approval, and "
                    "mcpxx asks only on a terminal (standard input is not one): pass --yes"))
        << r.err;
    EXPECT_TRUE(has(r.out, "next-line-runs\n")) << r.out;
    EXPECT_TRUE(has(r.out, "user: Complex prompt: temperature=0.3, style=formal\nassistant: Understood.\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "Resource 1: plain text\n")) << r.out;
    EXPECT_TRUE(has(r.out, "Resource 3: plain text\n")) << r.out;
    EXPECT_TRUE(has(r.out, "everything  test://static/resource/3  text/plain, 22 bytes\n")) << r.out;
    EXPECT_TRUE(has(r.err, "detached 1 resource")) << r.err;
    EXPECT_TRUE(has(r.err, "nothing attached")) << r.err;
    EXPECT_TRUE(has(r.out, "echo: ok ")) << r.out;
    EXPECT_TRUE(has(r.out, "\ntwo words\nfrom json\n")) << r.out;
    EXPECT_FALSE(has(r.out, "everything__long_operation")) << "tools after quit ran: " << r.out;
    // Summary and errors on stderr; nothing for a terminal (no prompt, no colour) anywhere.
    EXPECT_TRUE(has(r.err, "mcpxx shell: 2 servers ready (echo, everything); ")) << r.err;
    EXPECT_FALSE(has(r.err, "Allow?")) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: unknown command \"bogus\"")) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: no tool \"nope__x\"")) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: no prompt \"/nope\"")) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: no server named \"ghost\" (servers: echo, everything)")) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: unterminated \" quote")) << r.err;
    EXPECT_FALSE(has(r.out + r.err, "mcpxx> "));
    EXPECT_FALSE(has(r.out + r.err, "\033")) << "escape sequences on a pipe";
}

TEST_F(cli_shell_test, attached_resources_go_with_every_prompt_and_changes_are_announced) {
    const auto r = script("attach everything test://static/resource/3\n"
                          "/everything__simple_prompt\n"
                          "call everything__touch_resource uri=test://static/resource/3\n"
                          "call everything__touch_resource uri=test://static/resource/5\n" // not attached
                          "/everything__simple_prompt\n"
                          "detach test://static/resource/3\n"
                          "/everything__simple_prompt\n",
                          {"--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::string with = "user: This is a simple prompt.\n"
                             "user: [attached test://static/resource/3] Resource 3: plain text\n";
    // Twice with it (before and after the change, read again), then without.
    EXPECT_EQ(r.out, "Resource 3: plain text\n" + with + "updated\nupdated\n" + with +
                         "user: This is a simple prompt.\n");
    EXPECT_TRUE(has(r.err, "attached test://static/resource/3 (1 attached; changes are announced;")) << r.err;
    EXPECT_TRUE(
        has(r.err,
            "[everything] the attached test://static/resource/3 changed (it is read again when next used)"))
        << r.err;
    EXPECT_FALSE(has(r.err, "test://static/resource/5 changed")) << r.err;
}

TEST_F(cli_shell_test, script_status_questions_and_start_up_failures) {
    // A missing required prompt argument is asked for: the next line answers.
    auto r = script("/everything__complex_prompt\n0.9\n");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(has(r.err, "temperature (Temperature setting): 0.9\n")) << r.err;
    EXPECT_TRUE(has(r.out, "temperature=0.9, style=plain")) << r.out;
    // Without quit, a script ends with the status of its last command (like sh).
    EXPECT_EQ(script("call everything__fail\n", {"--yes"}).exit_code, 1);
    EXPECT_EQ(script("call everything__add a=1 b=2\n").exit_code, 4); // no terminal to ask: denied
    // The audit's example: the second call is a command, never the first one's answer.
    r = script("call everything__echo text=hi\ncall everything__echo text=second\n");
    EXPECT_EQ(r.exit_code, 4);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n') >= 2, true);
    EXPECT_NE(r.err.find("tool \"echo\" of server \"everything\": it needs your approval"),
              r.err.rfind("tool \"echo\" of server \"everything\": it needs your approval"))
        << "both calls are refused: " << r.err;
    EXPECT_EQ(script("call everything__add a=1 b=2", {"--yes"}).exit_code, 0);
    EXPECT_EQ(script("call everything__add a=1 b=2\nquit\n", {"--yes"}).exit_code, 0);
    EXPECT_EQ(script("bogus\n").exit_code, 2);
    EXPECT_EQ(script("bogus\nexit 3\ntools\n").exit_code, 3);
    EXPECT_EQ(script("call everything__add oops\n", {"--yes"}).exit_code, 2);
    EXPECT_EQ(script("").exit_code, 0);

    // A server that cannot start is in the summary; the others work; `servers` exits 3.
    const auto bad = (dirs.root / "bad.json").string();
    dirs.write(bad, R"({"mcpServers": {
        "echo": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
        "ghost": {"command": "mcpxx-no-such-command"}
    }})");
    r = script("call echo__echo text=hi\nservers\n", {"--config", bad, "--yes"}, false);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(has(r.err, "1 server ready (echo), 1 failed;")) << r.err;
    EXPECT_TRUE(has(r.err, "ghost: failed: command not found on PATH: mcpxx-no-such-command")) << r.err;
    EXPECT_TRUE(has(r.out, "hi\n")) << r.out;
    EXPECT_EQ(script("call ghost__x\n", {"--config", bad}, false).exit_code, 3);
    // Nothing configured: a usage error before the shell starts.
    r = script("tools\n", {}, false);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(has(r.err, "no MCP servers configured")) << r.err;
}

TEST_F(cli_shell_test, interactive_in_a_terminal) {
    if (!mcp::test::tmux_session::available())
        GTEST_SKIP() << "tmux is not installed (scripts/install-deps installs it)";
    const auto rc_file = dirs.root / "exit_code";
    // The exit status goes to a file; the session stays open so that the screen can be read.
    const std::string command = "cd " + shell_quote(dirs.project.string()) +
                                " && HOME=" + shell_quote(dirs.home.string()) + " " + shell_quote(mcpxx) +
                                " shell --verbose --config " + shell_quote(config) + "; echo $? > " +
                                shell_quote(rc_file.string()) + "; echo shell-ended; sleep 600";
    mcp::test::tmux_session t(dirs.root, command);
    const auto dump = [&] { return "screen:\n" + t.contents(); };

    // Start-up summary, then the prompt.
    ASSERT_TRUE(t.wait_for("2 servers ready (echo, everything)")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    t.type("tools");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("Report progress over `steps` steps")) << dump();
    // Each command is typed once the prompt is back: keys typed while a command runs would be
    // echoed by the terminal itself (they still reach the editor, but the screen is messier).
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // Tab completes a prompt's name, then an argument value that completion/complete gives.
    t.type("/everything__compl");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> /everything__complex_prompt")) << dump();
    t.type("temperature=0.5 style=fo");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> /everything__complex_prompt temperature=0.5 style=formal"))
        << dump();
    // The server's trace of that request (--verbose) was printed above the line, not into it.
    ASSERT_TRUE(t.wait_for(R"("values":["formal"])")) << dump();
    EXPECT_TRUE(t.wait_for_last_line("mcpxx> /everything__complex_prompt temperature=0.5 style=formal"))
        << dump();
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("user: Complex prompt: temperature=0.5, style=formal")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // A resource URI from a template: completion/complete gives the variable's values.
    t.type("read everything weather://Pa");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> read everything weather://Paris/forecast")) << dump();
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for(R"("city":"Paris")")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.type("read everything weather://Oslo/fo");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> read everything weather://Oslo/forecast")) << dump();
    t.keys({"C-u"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.type("read everything test://sta");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> read everything test://static/resource/")) << dump();
    t.keys({"C-u"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // A missing required argument is asked for, and Tab completes the answer.
    t.type("/code_review");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for_last_line("lang (Language of the code):")) << dump();
    t.type("py");
    t.keys({"Tab"});
    ASSERT_TRUE(t.wait_for_last_line("lang (Language of the code): python")) << dump();
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("Please review the following python code")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // A missing required argument is asked for.
    t.type("/complex_prompt");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for_last_line("temperature (Temperature setting):")) << dump();
    t.type("0.7");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("temperature=0.7, style=plain")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // A call asks first; y runs it.
    t.type("call everything__add a=2 b=3");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for_last_line("Allow? [y/N]")) << dump();
    EXPECT_TRUE(t.wait_for(R"(arguments: {"a":2,"b":3})")) << dump();
    t.type("y");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for(R"({"sum":5)")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    // Ctrl-C at the question: the call does not run, the shell goes on (status 130).
    t.type("call everything__add a=4 b=5");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("Allow? [y/N]", 2)) << dump();
    ASSERT_TRUE(t.wait_for_last_line("Allow? [y/N]")) << dump();
    t.keys({"C-c"});
    ASSERT_TRUE(t.wait_for("cancelled\n")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    EXPECT_EQ(t.contents().find(R"({"sum":9)"), std::string::npos) << dump();

    // Ctrl-C during a slow call cancels it (the server is told) and the shell goes on.
    t.type("call everything__long_operation duration=60 steps=600");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("Allow? [y/N]", 3)) << dump();
    ASSERT_TRUE(t.wait_for_last_line("Allow? [y/N]")) << dump();
    t.type("y");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("/600 step ")) << dump();
    t.keys({"C-c"});
    ASSERT_TRUE(t.wait_for("cancelled\n", 2)) << dump();
    EXPECT_TRUE(t.wait_for("notifications/cancelled")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.type("ping");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("everything: ok ")) << dump();

    // History: Up brings back the last line.
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.keys({"Up"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx> ping")) << dump();
    t.keys({"C-u"});
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();

    t.type("quit");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("shell-ended")) << dump();
    EXPECT_EQ(slurp(rc_file), "0\n");
}

TEST_F(cli_shell_test, on_a_terminal_without_line_editing) {
    if (!mcp::test::tmux_session::available())
        GTEST_SKIP() << "tmux is not installed (scripts/install-deps installs it)";
    // TERM=dumb: no escape sequences, so no line editor; the terminal's own line discipline
    // edits, and Ctrl-C is always a signal. It must cancel a call, and at the prompt only give a
    // new line: counted afresh at each prompt, never two in a row that exit the shell.
    const auto rc_file = dirs.root / "exit_code";
    const std::string command =
        "cd " + shell_quote(dirs.project.string()) + " && TERM=dumb HOME=" + shell_quote(dirs.home.string()) +
        " " + shell_quote(mcpxx) + " shell --yes --config " + shell_quote(config) + "; echo $? > " +
        shell_quote(rc_file.string()) + "; echo shell-ended; sleep 600";
    mcp::test::tmux_session t(dirs.root, command);
    const auto dump = [&] { return "screen:\n" + t.contents(); };
    ASSERT_TRUE(t.wait_for("2 servers ready")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.type("call everything__long_operation duration=60 steps=600");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("/600 step ")) << dump(); // in flight
    t.keys({"C-c"});
    ASSERT_TRUE(t.wait_for("cancelled\n")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.keys({"C-c"});
    ASSERT_TRUE(t.wait_for("mcpxx>", 3)) << dump(); // a new prompt
    t.type("ping echo");
    t.keys({"Enter"});
    ASSERT_TRUE(t.wait_for("echo: ok ")) << dump();
    ASSERT_TRUE(t.wait_for_last_line("mcpxx>")) << dump();
    t.keys({"C-d"});
    ASSERT_TRUE(t.wait_for("shell-ended")) << dump();
    EXPECT_EQ(slurp(rc_file), "0\n");
}

} // namespace
