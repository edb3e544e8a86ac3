// The host manager with real child processes: our echo_server and everything_server, and the
// official @modelcontextprotocol/server-everything from npm.
#include <mcp/host/manager.hpp>

#include "support/eventually.hpp"
#include "support/switchable_server.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>
#include <unistd.h>

namespace {

using namespace mcp::host;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

const std::string bin = MCPXX_BINARY_DIR;

server_config stdio(std::string name, std::string command, std::vector<std::string> args = {}) {
    return {
        .name = std::move(name), .command = std::move(command), .args = std::move(args), .source = "test"};
}

/// Approves or denies, and remembers what it was asked.
struct scripted_approver : approver {
    std::atomic<bool> answer{true};
    std::mutex mu;
    std::vector<approval_request> asked;
    bool approve(const approval_request& r) override {
        std::lock_guard lock(mu);
        asked.push_back(r);
        return answer;
    }
    std::size_t count() {
        std::lock_guard lock(mu);
        return asked.size();
    }
};

std::string text_of(const mcp::call_tool_result& r) {
    std::string s;
    for (const auto& c : r.content)
        if (auto* t = std::get_if<mcp::text_content>(&c)) s += t->text;
    return s;
}

std::vector<std::string> lines_of(const fs::path& p) {
    std::ifstream in(p);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

template <class F> bool eventually(F f, std::chrono::milliseconds limit = 10s) {
    const auto end = std::chrono::steady_clock::now() + mcp::test::scaled(limit);
    while (std::chrono::steady_clock::now() < end) {
        if (f()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return f();
}

struct host_manager_test : ::testing::Test {
    fs::path dir =
        fs::temp_directory_path() / ("mcpxx-manager-" + std::to_string(::getpid()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::shared_ptr<scripted_approver> approver = std::make_shared<scripted_approver>();
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    manager_options options() {
        manager_options o;
        o.approver = approver;
        o.audit = std::make_shared<audit_log>(dir / "audit.jsonl");
        // No jitter: gives_up_after_bounded_restarts checks the backoff's delays.
        o.restart = {.max_attempts = 3, .initial_delay = 50ms, .max_delay = 400ms, .jitter = 0};
        o.connect_timeout = 20s;
        return o;
    }
};

TEST_F(host_manager_test, connects_in_parallel_and_reports_each_server) {
    manager m(options());
    m.add_server(stdio("echo", bin + "/echo_server"));
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.add_server(stdio("ghost", "mcpxx-no-such-command"));
    m.add_server({.name = "remote",
                  .transport = transport_kind::streamable_http,
                  .url = "http://127.0.0.1:9/mcp",
                  .source = "test"});
    m.add_server(stdio("crashes", "/bin/sh", {"-c", "echo 'fatal: no token' >&2; exit 3"}));
    m.connect_all();
    auto echo = m.status("echo");
    EXPECT_EQ(echo.state, server_state::ready) << echo.error;
    EXPECT_EQ(echo.protocol_version, mcp::revision::v2026_07_28); // the newest: echo_server speaks it
    EXPECT_EQ(echo.tools, 1u);
    EXPECT_EQ(echo.server_info->name, "echo");
    auto every = m.status("everything");
    EXPECT_EQ(every.state, server_state::ready) << every.error;
    EXPECT_GT(every.tools, 15u);
    EXPECT_EQ(every.resources, 20u); // two pages of 10
    EXPECT_EQ(every.resource_templates, 2u);
    EXPECT_EQ(every.prompts, 4u);
    auto ghost = m.status("ghost");
    EXPECT_EQ(ghost.state, server_state::failed);
    EXPECT_NE(ghost.error.find("command not found"), std::string::npos) << ghost.error;
    auto remote = m.status("remote");
    EXPECT_EQ(remote.state, server_state::failed);
    EXPECT_EQ(remote.error, "cannot connect to http://127.0.0.1:9/mcp: Connection refused");
    auto crashes = m.status("crashes");
    EXPECT_EQ(crashes.state, server_state::failed);
    EXPECT_NE(crashes.error.find("fatal: no token"), std::string::npos)
        << crashes.error; // its stderr, in the error
}

TEST_F(host_manager_test, slow_servers_start_at_once_not_one_after_another) {
    // Each server answers nothing for its first second (the shell sleeps before it becomes the
    // server): one after another, three take over 3 s; all at once, about 1 s. The bound leaves
    // 1.5 s for starting three processes.
    manager m(options());
    const std::vector<std::string> names{"slow-1", "slow-2", "slow-3"};
    for (const auto& n : names)
        m.add_server(stdio(n, "/bin/sh", {"-c", "sleep 1; exec \"$0\"", bin + "/echo_server"}));
    const auto started = std::chrono::steady_clock::now();
    m.connect_all();
    const auto took = std::chrono::steady_clock::now() - started;
    for (const auto& n : names)
        EXPECT_EQ(m.status(n).state, server_state::ready) << n << ": " << m.status(n).error;
    EXPECT_GE(took, 1s); // the delay is real
    EXPECT_LT(took, 1s + mcp::test::scaled(1500ms)) << "took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                            << " ms: the servers were started one after another";
}
TEST_F(host_manager_test, catalogue_names_and_collisions) {
    manager m(options());
    m.add_server(stdio("echo", bin + "/echo_server"));
    m.add_server(stdio("echo.2", bin + "/echo_server"));
    m.add_server(stdio("echo_2", bin + "/echo_server"));
    m.connect_all();
    std::vector<std::string> names;
    for (const auto& t : m.tools()) names.push_back(t.name);
    EXPECT_EQ(names, (std::vector<std::string>{"echo__echo", "echo_2__echo", "echo_2__echo_2"}));
    auto r = m.call_tool("echo_2__echo_2", {{"text", "which"}});
    EXPECT_EQ(text_of(r), "which");
    EXPECT_EQ(approver->asked.at(0).server, "echo_2");
    EXPECT_THROW(m.call_tool("nope__nope", {}), mcp::error);
}

TEST_F(host_manager_test, include_and_exclude_tools) {
    manager m(options());
    auto s = stdio("everything", bin + "/everything_server");
    s.include_tools = {"echo", "add", "fail"};
    s.exclude_tools = {"fail"};
    m.add_server(s);
    m.connect_all();
    std::vector<std::string> names;
    for (const auto& t : m.tools()) names.push_back(t.name);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"everything__add", "everything__echo"}));
    EXPECT_THROW(m.call_tool("everything", "fail", {}), mcp::error);
}

TEST_F(host_manager_test, approval_policy_and_audit_log) {
    auto o = options();
    manager m(o);
    auto trusted = stdio("trusted", bin + "/echo_server");
    trusted.trusted = true; // its echo is readOnlyHint: true
    m.add_server(trusted);
    m.add_server(stdio("untrusted", bin + "/echo_server"));
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();

    // A trusted server's read-only tool runs without asking.
    EXPECT_EQ(text_of(m.call_tool("trusted__echo", {{"text", "a"}})), "a");
    EXPECT_EQ(approver->count(), 0u);
    // The same annotation from an untrusted server is not believed.
    EXPECT_EQ(text_of(m.call_tool("untrusted__echo", {{"text", "b"}})), "b");
    ASSERT_EQ(approver->count(), 1u);
    EXPECT_EQ(approver->asked[0].qualified_name, "untrusted__echo");
    EXPECT_EQ(approver->asked[0].arguments.at("text"), "b");
    ASSERT_TRUE(approver->asked[0].definition);
    // Denied: never reaches the server.
    approver->answer = false;
    EXPECT_THROW(m.call_tool("everything__add", {{"a", 1}, {"b", 2}}), call_denied);
    approver->answer = true;
    auto failed = m.call_tool("everything__fail", {});
    EXPECT_TRUE(failed.is_error.value_or(false));

    auto lines = lines_of(dir / "audit.jsonl");
    ASSERT_EQ(lines.size(), 4u);
    const auto parse = [](const std::string& l) { return boost::json::parse(l).as_object(); };
    auto a = parse(lines[0]);
    EXPECT_EQ(a.at("server"), "trusted");
    EXPECT_EQ(a.at("tool"), "echo");
    EXPECT_EQ(a.at("arguments").at("text"), "a");
    EXPECT_EQ(a.at("approval"), "trusted-read-only");
    EXPECT_EQ(a.at("outcome"), "ok");
    EXPECT_TRUE(a.at("durationMs").is_double());
    EXPECT_EQ(a.at("time").as_string().size(), 24u);
    EXPECT_EQ(parse(lines[1]).at("approval"), "user");
    EXPECT_EQ(parse(lines[2]).at("outcome"), "denied");
    EXPECT_EQ(parse(lines[3]).at("outcome"), "error");
}

TEST_F(host_manager_test, no_approver_means_denied_and_approve_all_means_yes) {
    auto o = options();
    o.approver = nullptr;
    {
        manager m(o);
        m.add_server(stdio("echo", bin + "/echo_server"));
        m.connect_all();
        EXPECT_THROW(m.call_tool("echo__echo", {{"text", "x"}}), call_denied);
    }
    o.approval.approve_all = true;
    manager m(o);
    m.add_server(stdio("echo", bin + "/echo_server"));
    m.connect_all();
    EXPECT_EQ(text_of(m.call_tool("echo__echo", {{"text", "x"}})), "x");
}

TEST_F(host_manager_test, killed_server_is_restarted_with_backoff_and_serves_again) {
    manager m(options());
    m.add_server(stdio("echo", bin + "/echo_server"));
    m.connect_all();
    const auto first = m.status("echo");
    ASSERT_EQ(first.state, server_state::ready);
    ASSERT_TRUE(first.pid);
    ::kill(*first.pid, SIGKILL);
    ASSERT_TRUE(eventually(
        [&] { return m.status("echo").state != server_state::ready || m.status("echo").pid != first.pid; }));
    ASSERT_TRUE(m.wait_ready("echo", 10s)) << m.status("echo").error;
    const auto second = m.status("echo");
    EXPECT_EQ(second.restarts, 1);
    EXPECT_NE(second.pid, first.pid);
    EXPECT_EQ(text_of(m.call_tool("echo__echo", {{"text", "again"}})), "again");
}

TEST_F(host_manager_test, gives_up_after_bounded_restarts) {
    // Works the first time; once the flag file exists it exits at once, as a broken upgrade would.
    const auto flag = dir / "broken";
    manager m(options());
    m.add_server(stdio("flaky", "/bin/sh",
                       {"-c", "if [ -e '" + flag.string() + "' ]; then echo broken >&2; exit 1; fi; exec '" +
                                  bin + "/echo_server'"}));
    m.connect_all();
    const auto first = m.status("flaky");
    ASSERT_EQ(first.state, server_state::ready) << first.error;
    std::ofstream(flag) << "x";
    ::kill(*first.pid, SIGKILL);
    // 3 attempts after 50, 100 and 200 ms.
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(eventually([&] { return m.status("flaky").state == server_state::failed; }));
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 350ms);
    const auto st = m.status("flaky");
    EXPECT_NE(st.error.find("gave up after 3 restarts"), std::string::npos) << st.error;
    EXPECT_THROW(m.call_tool("flaky", "echo", {{"text", "x"}}), mcp::error);
}

TEST_F(host_manager_test, a_server_that_never_came_up_fails_at_once_by_default) {
    mcp::test::switchable_server flaky("manager-once", bin + "/echo_server");
    flaky.keep_down();
    manager m(options());
    m.add_server(stdio("flaky", flaky.command()));
    m.connect_all();
    const auto st = m.status("flaky");
    EXPECT_EQ(st.state, server_state::failed);
    EXPECT_NE(st.error.find("kept down by the test"), std::string::npos) << st.error;
    EXPECT_EQ(st.error.find("gave up"), std::string::npos) << st.error; // not tried again
}

TEST_F(host_manager_test, a_server_that_never_came_up_is_tried_again_under_the_policy) {
    mcp::test::switchable_server flaky("manager-retry", bin + "/echo_server");
    flaky.keep_down();
    auto o = options();
    o.restart = {
        .max_attempts = std::nullopt, .initial_delay = 20ms, .max_delay = 100ms, .retry_first_start = true};
    manager m(o);
    m.add_server(stdio("flaky", flaky.command()));
    m.connect_all(); // returns once the first attempt failed
    const auto down = m.status("flaky");
    EXPECT_EQ(down.state, server_state::restarting);
    EXPECT_NE(down.error.find("kept down by the test"), std::string::npos) << down.error;
    EXPECT_THROW(m.client("flaky"), mcp::error);
    flaky.let_up();
    ASSERT_TRUE(m.wait_ready("flaky", 20s)) << m.status("flaky").error;
    EXPECT_EQ(m.status("flaky").restarts, 0);
    EXPECT_EQ(text_of(m.call_tool("flaky__echo", {{"text", "up at last"}})), "up at last");
}

TEST_F(host_manager_test, a_server_that_never_came_up_is_given_up_after_max_attempts) {
    mcp::test::switchable_server flaky("manager-bounded", bin + "/echo_server");
    flaky.keep_down();
    auto o = options();
    o.restart = {.max_attempts = 2, .initial_delay = 10ms, .max_delay = 20ms, .retry_first_start = true};
    manager m(o);
    m.add_server(stdio("flaky", flaky.command()));
    m.connect_all();
    ASSERT_TRUE(eventually([&] { return m.status("flaky").state == server_state::failed; }));
    EXPECT_NE(m.status("flaky").error.find("(gave up after 2 attempts)"), std::string::npos)
        << m.status("flaky").error;
}

TEST_F(host_manager_test, a_name_stays_with_its_tool_while_its_server_restarts) {
    // "echo.2" and "echo_2" both sanitise to "echo_2"; named together, in sorted order.
    mcp::test::switchable_server flaky("manager-names", bin + "/echo_server");
    auto o = options();
    o.restart = {.max_attempts = std::nullopt, .initial_delay = 20ms, .max_delay = 100ms};
    manager m(o);
    m.add_server(stdio("echo.2", flaky.command()));
    m.add_server(stdio("echo_2", bin + "/echo_server"));
    m.connect_all();
    const auto names = [&] {
        std::map<std::string, std::string> out; // name -> server
        for (const auto& t : m.tools()) out[t.name] = t.server;
        return out;
    };
    ASSERT_EQ(names(),
              (std::map<std::string, std::string>{{"echo_2__echo", "echo.2"}, {"echo_2__echo_2", "echo_2"}}));

    flaky.keep_down();
    ::kill(*m.status("echo.2").pid, SIGKILL);
    ASSERT_TRUE(eventually([&] { return m.status("echo.2").state == server_state::restarting; }));
    // Rebuilt from the ready servers only, the catalogue still does not pass the name on.
    EXPECT_EQ(names(), (std::map<std::string, std::string>{{"echo_2__echo_2", "echo_2"}}));
    EXPECT_FALSE(m.find_tool("echo_2__echo"));
    EXPECT_EQ(m.tool_name_owner("echo_2__echo"), (std::pair<std::string, std::string>{"echo.2", "echo"}));
    try {
        m.call_tool("echo_2__echo", {{"text", "x"}});
        ADD_FAILURE() << "a call reached a server by a name that is not its own";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::connection_closed) << e.what();
        EXPECT_NE(std::string(e.what()).find("server \"echo.2\" is restarting"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(text_of(m.call_tool("echo_2__echo_2", {{"text", "other"}})), "other");

    flaky.let_up();
    ASSERT_TRUE(m.wait_ready("echo.2", 20s)) << m.status("echo.2").error;
    EXPECT_EQ(names(),
              (std::map<std::string, std::string>{{"echo_2__echo", "echo.2"}, {"echo_2__echo_2", "echo_2"}}));
    EXPECT_EQ(text_of(m.call_tool("echo_2__echo", {{"text", "back"}})), "back");
}

TEST_F(host_manager_test, list_changed_refreshes_the_catalogue) {
    auto o = options();
    std::atomic<int> changes{0};
    o.on_catalogue_changed = [&](const std::string& s) {
        if (s == "everything") ++changes;
    };
    o.approval.approve_all = true;
    manager m(o);
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    const auto has_extra = [&] { return m.find_tool("everything__extra").has_value(); };
    EXPECT_FALSE(has_extra());
    const int before = changes;
    EXPECT_EQ(text_of(m.call_tool("everything__toggle_extra_tool", {})), "added extra");
    EXPECT_TRUE(eventually(has_extra));
    EXPECT_GT(changes.load(), before);
    EXPECT_EQ(text_of(m.call_tool("everything__extra", {})), "extra!");
    m.call_tool("everything__toggle_extra_tool", {});
    EXPECT_TRUE(eventually([&] { return !has_extra(); }));
}

TEST_F(host_manager_test, per_call_and_per_server_timeouts) {
    auto o = options();
    o.approval.approve_all = true;
    manager m(o);
    auto s = stdio("everything", bin + "/everything_server");
    s.timeout = mcp::test::scaled(300ms); // under TSan the server takes longer to initialize
    m.add_server(s);
    m.connect_all();
    const auto t0 = std::chrono::steady_clock::now();
    try {
        m.call_tool("everything__slow", {{"seconds", 20}});
        FAIL() << "no timeout";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_timeout) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, mcp::test::scaled(5s));
    EXPECT_THROW(m.call_tool("everything__slow", {{"seconds", 20}}, {.timeout = 100ms}), mcp::error);
    // The server is still fine afterwards.
    EXPECT_EQ(text_of(m.call_tool("everything__echo", {{"text", "ok"}}, {.timeout = 5s})), "ok");
    auto lines = lines_of(dir / "audit.jsonl");
    ASSERT_GE(lines.size(), 2u);
    EXPECT_NE(lines[0].find("\"outcome\":\"timeout\""), std::string::npos) << lines[0];
}

TEST_F(host_manager_test, cancellation_reaches_the_server) {
    auto o = options();
    o.approval.approve_all = true;
    manager m(o);
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    mcp::cancellation_source cancel;
    std::thread t([&] {
        std::this_thread::sleep_for(200ms);
        cancel.cancel("user pressed Ctrl-C");
    });
    try {
        m.call_tool("everything__slow", {{"seconds", 20}}, {.cancel = cancel.token()});
        FAIL();
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::request_cancelled) << e.what();
    }
    t.join();
    EXPECT_NE(lines_of(dir / "audit.jsonl").at(0).find("\"outcome\":\"cancelled\""), std::string::npos);
}

TEST_F(host_manager_test, roots_are_offered_and_changes_announced) {
    auto o = options();
    o.approval.approve_all = true;
    o.roots = {dir};
    manager m(o);
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    EXPECT_NE(text_of(m.call_tool("everything__list_roots", {})).find(file_uri(fs::canonical(dir))),
              std::string::npos);
    fs::create_directories(dir / "second root");
    m.set_roots({dir / "second root"});
    const auto text = text_of(m.call_tool("everything__list_roots", {}));
    EXPECT_NE(text.find("second%20root (second root)"), std::string::npos) << text;
    EXPECT_EQ(m.roots().size(), 1u);
}

TEST_F(host_manager_test, sampling_goes_to_the_provider_which_declines) {
    auto o = options();
    o.approval.approve_all = true;
    o.sampling = std::make_shared<declining_sampling_provider>("no model provider configured (test)");
    manager m(o);
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    // 2026-07-28: the sampling request is an input request of the call, and an answer can only be
    // a result, so the provider's refusal fails the call itself (in the initialize era the
    // server got the error and made it a tool error).
    try {
        auto r = m.call_tool("everything__sample_llm", {{"prompt", "hi"}});
        ADD_FAILURE() << "no error; is_error=" << r.is_error.value_or(false);
    } catch (const mcp::error& e) {
        EXPECT_NE(std::string(e.what()).find("no model provider configured (test)"), std::string::npos)
            << e.what();
    }
}

struct answering_elicitation : elicitation_responder {
    mcp::elicit_result elicit(const std::string& server, const mcp::elicit_request& r,
                              const request_control&) override {
        EXPECT_EQ(server, "everything");
        EXPECT_FALSE(r.message.empty());
        return {.action = mcp::elicit_action::accept,
                .content = boost::json::object{{"name", "Ada"}, {"age", 36}}};
    }
};

TEST_F(host_manager_test, elicitation_goes_to_the_responder) {
    auto o = options();
    o.approval.approve_all = true;
    o.elicitation = std::make_shared<answering_elicitation>();
    manager m(o);
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    const auto text = text_of(m.call_tool("everything__ask_user", {}));
    EXPECT_NE(text.find("accept"), std::string::npos) << text;
    EXPECT_NE(text.find("Ada"), std::string::npos) << text;
}

std::string shell_output(const std::string& cmd) {
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
        char buf[512];
        while (std::fgets(buf, sizeof buf, p)) out += buf;
        ::pclose(p);
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

TEST_F(host_manager_test, official_server_everything_from_npm) {
    const std::string script = std::string(MCPXX_SOURCE_DIR) + "/tests/interop/everything_stdio_path.sh";
    const auto entry = shell_output(script + " 2>/dev/null");
    const auto node = shell_output(script + " --node 2>/dev/null");
    if (entry.empty() || node.empty()) GTEST_SKIP() << "npm peers not installed (scripts/install-deps)";
    auto o = options();
    o.approval.approve_all = true;
    manager m(o);
    m.add_server(stdio("ts-everything", node, {entry, "stdio"}));
    m.add_server(stdio("everything", bin + "/everything_server"));
    m.connect_all();
    const auto st = m.status("ts-everything");
    ASSERT_EQ(st.state, server_state::ready) << st.error;
    EXPECT_GT(st.tools, 3u);
    EXPECT_GT(st.prompts, 0u);
    // Both servers have an `echo`; the catalogue keeps them apart.
    ASSERT_TRUE(m.find_tool("ts-everything__echo"));
    ASSERT_TRUE(m.find_tool("everything__echo"));
    EXPECT_NE(text_of(m.call_tool("ts-everything__echo", {{"message", "from npm"}})).find("from npm"),
              std::string::npos);
    EXPECT_EQ(text_of(m.call_tool("everything__echo", {{"text", "from C++"}})), "from C++");
}

} // namespace

namespace {

TEST(HostManager, AServerThatNeverAnswersFailsAtItsOwnTimeout) {
    manager_options o;
    o.connect_timeout = 60s;
    manager m(std::move(o));
    auto silent = stdio("silent", "sleep", {"100"});
    silent.timeout = 700ms;
    m.add_server(silent);
    const auto t0 = std::chrono::steady_clock::now();
    m.connect_all();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
    const auto s = m.status("silent");
    EXPECT_EQ(s.state, server_state::failed);
    EXPECT_EQ(s.error, "no answer to initialize within 0.7 s");
}

TEST(HostManager, AnApproverMayRefuseWithAReasonOfItsOwn) {
    struct nobody_to_ask : approver {
        bool approve(const approval_request&) override { throw call_denied("nobody can be asked here"); }
    };
    const auto audit_file =
        fs::temp_directory_path() / ("mcpxx-approver-" + std::to_string(::getpid()) + ".jsonl");
    fs::remove(audit_file);
    manager_options o;
    o.approver = std::make_shared<nobody_to_ask>();
    o.audit = std::make_shared<audit_log>(audit_file.string());
    manager m(std::move(o));
    m.add_server(stdio("echo", bin + "/echo_server"));
    m.connect_all();
    try {
        m.call_tool("echo", "echo", {{"text", "x"}});
        FAIL() << "ran";
    } catch (const call_denied& e) {
        EXPECT_EQ(std::string(e.what()), "tool \"echo\" of server \"echo\": nobody can be asked here");
    }
    const auto lines = lines_of(audit_file);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("\"outcome\":\"denied\""), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("nobody can be asked here"), std::string::npos) << lines[0];
    fs::remove(audit_file);
}

} // namespace
