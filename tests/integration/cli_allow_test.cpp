// `mcpxx` in a freshly cloned repository: the servers of its project config files (.mcp.json)
// are not started until `mcpxx allow` recorded the file with its content, a changed file waits
// again, and the list of allowed files is the user's (XDG_CONFIG_HOME) and must be readable.
#include "support/host_fixture.hpp"
#include "support/program_output.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const std::string mcpxx = std::string(MCPXX_BINARY_DIR) + "/mcpxx";

using mcp::test::run_result;
using mcp::test::slurp;

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

struct cli_allow_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    /// What the project's command leaves when it runs.
    fs::path marker = dirs.root / "the-command-ran";
    /// The list of allowed project files, inside the test's directory (never the real ~/.config).
    fs::path list = dirs.root / "xdg-config/mcpxx/allowed-projects.json";
    std::string note =
        "note: the servers of .mcp.json are not started: this project file is not allowed yet, or "
        "changed since (run \"mcpxx allow\" to see what it runs and allow it)\n";

    void SetUp() override {
        ::setenv("MCPXX_BINARY_DIR", MCPXX_BINARY_DIR, 1);
        project_file("first");
        // The user's own servers; one has the name of the project's, and must not start in
        // its place while the project's waits.
        dirs.write(dirs.home / ".cursor/mcp.json",
                   R"({"mcpServers": {"marker": {"command": "${MCPXX_BINARY_DIR}/echo_server"},
                                      "mine": {"command": "${MCPXX_BINARY_DIR}/echo_server"}}})");
    }

    /// The repository's .mcp.json: "marker" leaves the mark and then is the echo server.
    void project_file(const std::string& version) const {
        dirs.write(dirs.project / ".mcp.json", R"({"mcpServers": {
            "marker": {"command": "/bin/sh", "args": ["-c", "touch )" +
                                                   marker.string() +
                                                   R"(; exec \"$0\"", "${MCPXX_BINARY_DIR}/echo_server"]},
            "other": {"command": "${MCPXX_BINARY_DIR}/echo_server", "env": {"VERSION": ")" +
                                                   version + R"("}}
        }})");
    }

    /// mcpxx `args` in the project directory, with HOME and XDG_CONFIG_HOME in the test's
    /// directory and stdin empty.
    run_result run(const std::vector<std::string>& args) const {
        std::vector<std::string> argv{mcpxx};
        argv.insert(argv.end(), args.begin(), args.end());
        return mcp::test::run_program({.argv = std::move(argv),
                                       .files = dirs.root,
                                       .cwd = dirs.project,
                                       .env = {{"HOME", dirs.home.string()},
                                               {"XDG_CONFIG_HOME", (dirs.root / "xdg-config").string()},
                                               {"NO_COLOR", "1"}}});
    }
};

TEST_F(cli_allow_test, a_project_files_servers_are_listed_and_not_started_until_allowed) {
    auto r = run({"servers"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("\nmarker  not allowed stdio run \"mcpxx allow\" to review and allow this project "
                         "file  .mcp.json\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("mine    ready       stdio"), std::string::npos) << r.out;
    EXPECT_EQ(count(r.err, note), 1u) << r.err; // once, not per server
    EXPECT_NE(r.err.find("note: server \"marker\" of ~/.cursor/mcp.json is hidden by the one in .mcp.json"),
              std::string::npos)
        << r.err;

    r = run({"servers", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto j = boost::json::parse(r.out).as_object();
    std::map<std::string, boost::json::object> by_name;
    for (const auto& s : j.at("servers").as_array())
        by_name[std::string(s.at("name").as_string())] = s.as_object();
    EXPECT_EQ(by_name.at("marker").at("status"), "not_allowed");
    EXPECT_EQ(by_name.at("marker").at("source"), ".mcp.json");
    EXPECT_EQ(by_name.at("marker").at("message"),
              ".mcp.json is not allowed yet, or changed since (run \"mcpxx allow\" to review and allow it)");
    EXPECT_EQ(by_name.at("other").at("status"), "not_allowed");
    EXPECT_EQ(by_name.at("mine").at("status"), "ready");
    EXPECT_EQ(j.at("notes").as_array().size(), 1u);

    r = run({"tools"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(count(r.err, note), 1u) << r.err;
    EXPECT_NE(r.out.find("mine__echo"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("marker__"), std::string::npos) << r.out;
    // Named, it is a usage error that says what to do; the user's "marker" does not stand in.
    r = run({"tools", "marker"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "mcpxx: server \"marker\" is not started: .mcp.json is not allowed yet, or changed since "
              "(run \"mcpxx allow\" to review and allow it)\n");
    EXPECT_EQ(run({"call", "marker", "echo", "--arg", "text=x", "--yes"}).exit_code, 2);
    // The gateway serves the rest, and says which it leaves out.
    r = run({"gateway", "--stdio"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("server \\\"marker\\\" is not served: .mcp.json is not allowed yet"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "a command of a project file that is not allowed ran";
    EXPECT_FALSE(fs::exists(list)) << "only `mcpxx allow` writes the list";
}

TEST_F(cli_allow_test, allowed_it_starts_and_changed_it_waits_again) {
    // `mcpxx allow` shows what the file runs and records it; it starts nothing itself.
    const std::string file = (fs::canonical(dirs.project) / ".mcp.json").string();
    auto r = run({"allow"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind(".mcp.json  " + file + "  not allowed\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\n  marker  stdio  /bin/sh -c \"touch " + marker.string() + "; exec \\\"$0\\\"\" " +
                         MCPXX_BINARY_DIR + "/echo_server\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("\n  other   stdio  VERSION=first " + std::string(MCPXX_BINARY_DIR) + "/echo_server\n"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\nallowed .mcp.json: its servers start from now on, until it changes\n"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(fs::exists(marker));
    ASSERT_TRUE(fs::exists(list));
    EXPECT_EQ(fs::status(list).permissions(), fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(fs::status(list.parent_path()).permissions(), fs::perms::owner_all);

    r = run({"servers"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("marker  ready    stdio"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("not allowed"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::exists(marker)) << "the allowed project's server did not start";
    r = run({"allow"});
    EXPECT_NE(r.out.find(".mcp.json was already allowed with this content\n"), std::string::npos) << r.out;

    // Changed (a `git pull`): it waits to be allowed again.
    fs::remove(marker);
    project_file("second");
    r = run({"servers"});
    EXPECT_NE(r.out.find("\nmarker  not allowed "), std::string::npos) << r.out;
    EXPECT_EQ(count(r.err, note), 1u) << r.err;
    EXPECT_EQ(run({"tools", "marker"}).exit_code, 2);
    EXPECT_FALSE(fs::exists(marker));
    r = run({"allow"});
    EXPECT_EQ(r.out.rfind(".mcp.json  " + file + "  changed since it was allowed\n", 0), 0u) << r.out;
    r = run({"call", "marker", "echo", "--arg", "text=x", "--yes"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "x\n");

    // Revoked: waiting again.
    r = run({"allow", "--revoke"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\nrevoked .mcp.json: its servers are not started until allowed again\n"),
              std::string::npos)
        << r.out;
    fs::remove(marker);
    EXPECT_EQ(run({"tools", "marker"}).exit_code, 2);
    EXPECT_FALSE(fs::exists(marker));
    // A file named with --config is the user's choice: used as it is.
    r = run({"tools", "marker", "--config", ".mcp.json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(marker));
}

TEST_F(cli_allow_test, a_list_that_cannot_be_read_is_an_error_where_there_is_a_project_file) {
    dirs.write(list, "{not json");
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"servers"}, {"tools", "mine"}, {"allow"}}) {
        const auto r = run(args);
        EXPECT_EQ(r.exit_code, 2) << args[0];
        EXPECT_EQ(r.err, "mcpxx: the list of allowed project files " + list.string() +
                             " is not valid (fix it, or remove it and allow the projects again): not JSON "
                             "(syntax error)\n")
            << args[0];
    }
    EXPECT_FALSE(fs::exists(marker));
    // Without a project file it is not even read.
    fs::remove(dirs.project / ".mcp.json");
    EXPECT_EQ(run({"servers"}).exit_code, 0);
    const auto r = run({"allow"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mcpxx: no project config file in " + fs::canonical(dirs.project).string() +
                         " (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json)\n");
}

} // namespace
