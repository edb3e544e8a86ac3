// A server never drives the user's terminal through `mcpxx`: the real mcpxx binary against
// tests/servers/hostile_server, whose every text sets the window title, rewrites the line with a
// CR and clears the screen. Names, descriptions, error messages and stderr lines are always
// escaped; content bodies (a tool's result, a resource) are escaped wherever they go, and left
// as they are only with --raw; --json stays JSON, with C0 and C1 controls as \u escapes.
#include "support/host_fixture.hpp"
#include "support/program_output.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <thread>
#include <unistd.h>

namespace {

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";

using mcp::test::run_result;
using mcp::test::slurp;

/// What hostile_server puts in every text, and how mcpxx shows it escaped.
const std::string attack = "\x1b]0;pwned\x07\r\x1b[2Jmcpxx: approved";
const std::string escaped = "\\x1b]0;pwned\\x07\\r\\x1b[2Jmcpxx: approved";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Whether `text` holds a byte that a terminal acts on: ESC, CR, BEL.
bool has_controls(const std::string& text) {
    return text.find_first_of("\x1b\r\x07") != std::string::npos;
}

enum class stdout_is { file, terminal };

struct cli_terminal_safety_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    std::string config;

    void SetUp() override {
        ::setenv("MCPXX_BINARY_DIR", MCPXX_BINARY_DIR, 1);
        config = (dirs.root / "servers.json").string();
        dirs.write(config,
                   R"({"mcpServers": {"hostile": {"command": "${MCPXX_BINARY_DIR}/hostile_server"}}})");
    }

    /// `mcpxx args... --config servers.json` with `input` on stdin (a file) and stderr in a
    /// file; stdout a file, or a terminal (a pseudo-terminal passing bytes as they are). NO_COLOR
    /// is set, so that any escape on the terminal is the server's.
    run_result run(std::vector<std::string> args, stdout_is where = stdout_is::file,
                   const std::string& input = "") {
        args.insert(args.begin(), mcpxx);
        args.insert(args.end(), {"--config", config});
        int master = -1, slave = -1;
        if (where == stdout_is::terminal) {
            if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
                ADD_FAILURE() << "openpty failed";
                return {};
            }
            termios t{};
            ::tcgetattr(slave, &t);
            t.c_oflag &= ~static_cast<tcflag_t>(OPOST); // no "\n" -> "\r\n": the bytes as written
            ::tcsetattr(slave, TCSANOW, &t);
        }
        mcp::test::program_run r{.argv = std::move(args),
                                 .files = dirs.root,
                                 .input = input,
                                 .cwd = dirs.project,
                                 .env = {{"HOME", dirs.home.string()}, {"NO_COLOR", "1"}},
                                 .stdout_fd = slave};
        if (master >= 0) r.close_in_child = {master};
        const pid_t pid = mcp::test::start_program(r);
        std::string on_terminal;
        if (slave >= 0) {
            ::close(slave);
            // Until the program (the only holder of the terminal) is gone: then read() fails.
            char buf[4096];
            for (;;) {
                const auto n = ::read(master, buf, sizeof buf);
                if (n > 0)
                    on_terminal.append(buf, static_cast<std::size_t>(n));
                else if (!(n < 0 && errno == EINTR))
                    break;
            }
            ::close(master);
        }
        auto result = mcp::test::finish_program(pid, r);
        if (slave >= 0) result.out = std::move(on_terminal);
        return result;
    }
};

TEST_F(cli_terminal_safety_test, listings_escape_names_and_descriptions) {
    auto r = run({"tools"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_TRUE(has(r.out, "Greets." + escaped + "\n")) << r.out;

    r = run({"resources"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_TRUE(has(r.out, "hostile://text  text" + escaped)) << r.out;

    r = run({"prompts"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_TRUE(has(r.out, "hostile  A prompt." + escaped)) << r.out;

    r = run({"servers"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_TRUE(has(r.out, "hostile" + escaped + " 1.0")) << r.out; // serverInfo

    // JSON escapes the text itself, and gives it back whole.
    r = run({"tools", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    bool found = false;
    const auto listed = boost::json::parse(r.out);
    for (const auto& t : listed.at("tools").as_array())
        found |= t.at("tool").at("description") == boost::json::value("Greets." + attack);
    EXPECT_TRUE(found) << r.out;
}

TEST_F(cli_terminal_safety_test, a_tool_result_is_escaped_unless_raw) {
    // In a file (or a pipe, which may end at a terminal: `| tee`) the result is escaped too...
    auto r = run({"call", "hostile", "greet", "--yes"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "hello" + escaped + "\nline two\n");
    // ...and the server's bytes only when asked for.
    r = run({"call", "hostile", "greet", "--yes", "--raw"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "hello" + attack + "\nline two\n");

    // On a terminal it is escaped, but for its line feeds.
    r = run({"call", "hostile", "greet", "--yes"}, stdout_is::terminal);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "hello" + escaped + "\nline two\n");
}

TEST_F(cli_terminal_safety_test, a_resource_is_escaped_unless_raw) {
    auto r = run({"read", "hostile", "hostile://text"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "page" + escaped + "\nline two\n");
    r = run({"read", "hostile", "hostile://text", "--raw"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "page" + attack + "\nline two\n");

    r = run({"read", "hostile", "hostile://text"}, stdout_is::terminal);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "page" + escaped + "\nline two\n");
}

TEST_F(cli_terminal_safety_test, a_prompt_shows_its_description_escaped_and_its_messages_as_a_body) {
    auto r = run({"prompt", "hostile", "hostile"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Prompted." + escaped + "\nuser: say" + escaped + "\n");
    r = run({"prompt", "hostile", "hostile", "--raw"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Prompted." + escaped + "\nuser: say" + attack + "\n");

    r = run({"prompt", "hostile", "hostile"}, stdout_is::terminal);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Prompted." + escaped + "\nuser: say" + escaped + "\n");
}

TEST_F(cli_terminal_safety_test, an_error_message_is_escaped) {
    const auto r = run({"call", "hostile", "fail_loudly", "--yes"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_FALSE(has_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.err, "mcpxx: it failed" + escaped)) << r.err;

    // The tools named in a message are the server's names (the catalogue's are made safe).
    const auto unknown = run({"call", "hostile", "nope", "--yes"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_FALSE(has_controls(unknown.err)) << unknown.err;
    EXPECT_TRUE(has(unknown.err, "(tools: \\x1b[2Jwipe, ask,")) << unknown.err;
}

TEST_F(cli_terminal_safety_test, server_stderr_lines_are_escaped) {
    const auto r = run({"tools", "--verbose"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.err, "[hostile] starting" + escaped + "\n")) << r.err;
}

TEST_F(cli_terminal_safety_test, an_elicitation_shows_its_message_and_fields_escaped) {
    const auto r = run({"call", "hostile", "ask", "--yes"}, stdout_is::file, "y\nAda\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "accept\n");
    EXPECT_FALSE(has_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.err, "asks: Who are you?" + escaped + "\n")) << r.err;
    EXPECT_TRUE(has(r.err, "  name - Name" + escaped + " (text): ")) << r.err;
}

TEST_F(cli_terminal_safety_test, the_shell_escapes_logs_stderr_and_bodies) {
    const auto r = run({"shell", "--yes", "--verbose"}, stdout_is::file,
                       "call hostile__log\nread hostile hostile://text\nquit\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.err, "[hostile] starting" + escaped + "\n")) << r.err;
    EXPECT_TRUE(has(r.err, "[hostile] warning (hostile): logged" + escaped + "\n")) << r.err;
    EXPECT_EQ(r.out, "done\npage" + escaped + "\nline two\n");

    // What it prints on a terminal is escaped, as the one commands do.
    const auto on_terminal =
        run({"shell", "--yes"}, stdout_is::terminal, "read hostile hostile://text\n/hostile\nquit\n");
    ASSERT_EQ(on_terminal.exit_code, 0) << on_terminal.err;
    EXPECT_EQ(on_terminal.out,
              "page" + escaped + "\nline two\nPrompted." + escaped + "\nuser: say" + escaped + "\n");
}

// U+009B is CSI for a terminal that takes C1 controls in UTF-8 (xterm, VTE with some
// settings): "\u009b2J" clears the screen without any ESC. Through a pipe (`| cat`, as
// `| tee` would) neither the text nor the JSON output carries it; --raw does.
TEST_F(cli_terminal_safety_test, c1_controls_never_reach_a_pipe_unless_raw) {
    const std::string csi = "\xC2\x9B" "2J";
    auto piped = [&](const std::string& args) {
        mcp::test::program_run r{
            .argv = {"/bin/sh", "-c",
                     mcp::test::shell_quote(mcpxx) + " " + args + " --config " + mcp::test::shell_quote(config) +
                         " | cat"},
            .files = dirs.root,
            .cwd = dirs.project,
            .env = {{"HOME", dirs.home.string()}, {"NO_COLOR", "1"}}};
        return mcp::test::run_program(r);
    };
    auto r = piped("call hostile c1 --yes");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("\xC2\x9B"), std::string::npos) << r.out;
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_TRUE(has(r.out, "cleared")) << r.out;

    r = piped("call hostile c1 --yes --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("\xC2\x9B"), std::string::npos) << r.out;
    EXPECT_TRUE(has(r.out, "\\u009b2Jcleared")) << r.out;
    // Valid JSON that gives the text back whole.
    const auto v = boost::json::parse(r.out);
    EXPECT_EQ(v.at("content").as_array()[0].at("text"), boost::json::value(csi + "cleared"));

    r = piped("tools hostile --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("\xC2\x9B"), std::string::npos) << r.out;

    r = piped("call hostile c1 --yes --raw");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, csi + "cleared\n");
}

} // namespace

namespace {

TEST_F(cli_terminal_safety_test, names_from_config_files_are_escaped_too) {
    // A config file may come with a cloned project: the names it gives are shown escaped, in
    // the listing of servers (ready, disabled, invalid) and in the warnings about its entries.
    const std::string esc_name = "evil\\u001b]0;pwned\\u0007\\r";
    dirs.write(config, R"({"mcpServers": {")" + esc_name +
                           R"(": {"command": "${MCPXX_BINARY_DIR}/echo_server"},)" + R"(")" + esc_name +
                           R"(off": {"command": "x", "disabled": true},)" + R"(")" + esc_name +
                           R"(bad": {"command": 3}}})");
    auto r = run({"servers"});
    EXPECT_FALSE(has_controls(r.out)) << r.out;
    EXPECT_FALSE(has_controls(r.err)) << r.err;
    EXPECT_TRUE(has(r.out, "evil\\x1b]0;pwned\\x07\\r ")) << r.out;    // the ready one
    EXPECT_TRUE(has(r.out, "evil\\x1b]0;pwned\\x07\\roff ")) << r.out; // disabled
    EXPECT_TRUE(has(r.out, "evil\\x1b]0;pwned\\x07\\rbad ")) << r.out; // invalid
    r = run({"tools"});
    EXPECT_FALSE(has_controls(r.err)) << r.err; // the warning about the invalid entry
    EXPECT_TRUE(has(r.err, "evil\\x1b]0;pwned\\x07\\rbad")) << r.err;
}

} // namespace
