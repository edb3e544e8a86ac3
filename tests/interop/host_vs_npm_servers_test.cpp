// The host (mcp::host::manager and the mcpxx tool) with the official reference servers from npm,
// started from real config files: @modelcontextprotocol/server-filesystem and server-everything
// over stdio (node runs their entry points; no npx), and server-everything over Streamable HTTP
// and HTTP+SSE as remote entries, with its sampling tool answered by a stub chat-completions API.
//
// The packages are looked up in $MCPXX_INTEROP_NODE_MODULES when set, else in
// tests/interop/node_modules (scripts/install-deps). A test whose package or node is missing is
// skipped.
#include <mcp/host/config.hpp>
#include <mcp/host/manager.hpp>

#include "support/child_server.hpp"
#include "support/http_test_server.hpp"
#include "support/program_output.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace mcp::host;
using namespace std::chrono_literals;

fs::path node_modules() {
    if (const char* d = std::getenv("MCPXX_INTEROP_NODE_MODULES"); d && *d) return d;
    return fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop" / "node_modules";
}
fs::path package_entry(const std::string& package) {
    return node_modules() / "@modelcontextprotocol" / package / "dist" / "index.js";
}
bool have_node() {
    return std::system("node --version >/dev/null 2>&1") == 0;
}

#define REQUIRE_PACKAGE(pkg)                                                                                 \
    if (!have_node() || !fs::exists(package_entry(pkg)))                                                     \
    GTEST_SKIP() << "node or @modelcontextprotocol/" pkg " is not installed in " << node_modules()           \
                 << " (scripts/install-deps)"

std::string text_of(const mcp::call_tool_result& r) {
    std::string s;
    for (const auto& c : r.content)
        if (auto* t = std::get_if<mcp::text_content>(&c)) s += t->text;
    return s;
}

using mcp::test::run_result;
using mcp::test::slurp;

struct host_vs_npm : ::testing::Test {
    fs::path dir =
        fs::temp_directory_path() / ("mcpxx-npm-host-" + std::to_string(::getpid()) + "-" +
                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::path files = dir / "files";
    void SetUp() override {
        fs::remove_all(dir);
        fs::create_directories(files / "sub");
        std::ofstream(files / "hello.txt") << "hello from mcpxx\n";
        std::ofstream(files / "sub" / "notes.md") << "# notes\n";
    }
    void TearDown() override { fs::remove_all(dir); }

    fs::path write_config(const std::string& name, const std::string& text) {
        const auto p = dir / name;
        std::ofstream(p) << text;
        return p;
    }

    /// mcpxx with `args`, `input` on its stdin.
    run_result mcpxx(const std::vector<std::string>& args, const std::string& input = "") {
        std::vector<std::string> argv{std::string(MCPXX_BINARY_DIR) + "/mcpxx"};
        argv.insert(argv.end(), args.begin(), args.end());
        return mcp::test::run_program({.argv = std::move(argv), .files = dir, .input = input, .cwd = dir});
    }
};

// A Claude Desktop config with both reference servers over stdio, read by discovery, run by the
// manager: listing, calling, reading, and the filesystem server confined to the root offered.
TEST_F(host_vs_npm, filesystem_and_everything_over_stdio_from_a_config_file) {
    REQUIRE_PACKAGE("server-filesystem");
    REQUIRE_PACKAGE("server-everything");
    const auto config = write_config("claude_desktop_config.json", R"({"mcpServers": {
        "filesystem": {"command": "node", "args": [")" + package_entry("server-filesystem").string() +
                                                                       R"(", ")" + files.string() + R"("]},
        "everything": {"command": "node", "args": [")" + package_entry("server-everything").string() +
                                                                       R"(", "stdio"]}}})");
    auto found = discover({.explicit_files = {config}});
    ASSERT_TRUE(found.errors.empty()) << found.errors[0].to_string();
    ASSERT_EQ(found.servers.size(), 2u);

    manager_options o;
    o.approval.approve_all = true;
    o.connect_timeout = 60s;
    // server-filesystem replaces its directories with the client's roots: offer the same one.
    o.roots = {files};
    manager m(o);
    for (const auto& s : found.servers) m.add_server(s);
    m.connect_all();
    const auto fsys = m.status("filesystem");
    ASSERT_EQ(fsys.state, server_state::ready) << fsys.error;
    EXPECT_EQ(fsys.source, config.string());
    EXPECT_EQ(fsys.server_info->name, "secure-filesystem-server");
    EXPECT_TRUE(fsys.pid);
    const auto every = m.status("everything");
    ASSERT_EQ(every.state, server_state::ready) << every.error;
    EXPECT_GT(every.resources, 0u);
    EXPECT_GT(every.prompts, 0u);

    std::set<std::string> names;
    for (const auto& t : m.tools()) names.insert(t.name);
    for (const char* n :
         {"filesystem__read_text_file", "filesystem__list_directory", "filesystem__write_file",
          "filesystem__list_allowed_directories", "everything__echo", "everything__get-sum"})
        EXPECT_TRUE(names.count(n)) << n;

    const std::string canonical = fs::canonical(files).string();
    EXPECT_EQ(text_of(m.call_tool("filesystem__read_text_file", {{"path", canonical + "/hello.txt"}})),
              "hello from mcpxx\n");
    auto listing = text_of(m.call_tool("filesystem__list_directory", {{"path", canonical}}));
    EXPECT_NE(listing.find("[FILE] hello.txt"), std::string::npos) << listing;
    EXPECT_NE(listing.find("[DIR] sub"), std::string::npos) << listing;
    EXPECT_FALSE(
        m.call_tool("filesystem__write_file", {{"path", canonical + "/new.txt"}, {"content", "written"}})
            .is_error.value_or(false));
    EXPECT_EQ(slurp(files / "new.txt"), "written");
    auto outside = m.call_tool("filesystem__read_text_file", {{"path", "/etc/hostname"}});
    EXPECT_TRUE(outside.is_error.value_or(false)) << text_of(outside);
    EXPECT_NE(text_of(m.call_tool("filesystem__list_allowed_directories", {})).find(canonical),
              std::string::npos);

    EXPECT_EQ(text_of(m.call_tool("everything__echo", {{"message", "hi"}})), "Echo: hi");
    EXPECT_EQ(text_of(m.call_tool("everything__get-sum", {{"a", 2}, {"b", 3}})), "The sum of 2 and 3 is 5.");
    auto client = m.client("everything");
    const auto resources = m.resources("everything");
    ASSERT_FALSE(resources.empty());
    EXPECT_FALSE(client->read_resource(resources.front().uri).contents.empty());
    EXPECT_FALSE(client->get_prompt(m.prompts("everything").front().name, {}).messages.empty());
}

// The same servers through the mcpxx tool.
TEST_F(host_vs_npm, mcpxx_lists_calls_and_reads) {
    REQUIRE_PACKAGE("server-filesystem");
    REQUIRE_PACKAGE("server-everything");
    const auto config = write_config("mcp.json", R"({"mcpServers": {
        "fs": {"command": "node", "args": [")" + package_entry("server-filesystem").string() +
                                                     R"(", ")" + files.string() + R"("]},
        "ev": {"command": "node", "args": [")" + package_entry("server-everything").string() +
                                                     R"("]}}})");
    const std::string canonical = fs::canonical(files).string();
    // mcpxx offers the --root directories as roots (server-filesystem takes them as its own).
    auto r = mcpxx({"servers", "--config", config.string(), "--json", "--root", files.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(R"("name":"fs")"), std::string::npos) << r.out;
    // With no root, the server keeps the directory of its config (roots: the test below).
    r = mcpxx({"call", "fs", "read_text_file", "--arg", "path=" + canonical + "/sub/notes.md", "--yes",
               "--no-roots", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "# notes\n\n");
    r = mcpxx({"call", "fs", "read_text_file", "--arg", "path=/etc/hostname", "--yes", "--no-roots",
               "--config", config.string()});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    r = mcpxx({"tools", "ev", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("ev__trigger-sampling-request"), std::string::npos) << r.out;
    r = mcpxx({"read", "ev", "demo://resource/static/document/architecture.md", "--config", config.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Run from a directory above the configured one, mcpxx offers that working directory as the
// root, and server-filesystem takes it as its scope (replacing the directory its config gives):
// what docs/cli.md says. --root DIR offers DIR instead; --no-roots keeps the configured directory.
TEST_F(host_vs_npm, mcpxx_offers_the_working_directory_unless_told_otherwise) {
    REQUIRE_PACKAGE("server-filesystem");
    const auto config = write_config("mcp.json", R"({"mcpServers": {
        "fs": {"command": "node", "args": [")" + package_entry("server-filesystem").string() +
                                                     R"(", ")" + files.string() + R"("]}}})");
    std::ofstream(dir / "outside.txt") << "beside the configured directory\n";
    const std::string cwd = fs::canonical(dir).string(), configured = fs::canonical(files).string();
    const std::string list = "call fs__list_allowed_directories\n",
                      read = "call fs__read_text_file path=" + cwd + "/outside.txt\n";
    const auto shell = [&](const std::string& script, std::vector<std::string> extra) {
        std::vector<std::string> args{"shell", "--yes", "--config", config.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return mcpxx(args, script);
    };
    // server-filesystem asks for the roots once initialized and checks them before it uses them,
    // while the first calls may already be answered: the script lists until the change is seen.
    std::string until_changed;
    for (int i = 0; i < 50; ++i) until_changed += list;
    // By default: the working directory.
    auto r = shell(until_changed + read, {});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto last_listing = r.out.rfind("Allowed directories:");
    ASSERT_NE(last_listing, std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(last_listing),
              "Allowed directories:\n" + cwd + "\nbeside the configured directory\n\n");
    // --no-roots: the directory of the config, and nothing beside it, at any time.
    r = shell(until_changed + read, {"--no-roots"});
    EXPECT_EQ(r.out.find(cwd + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(configured + "\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("beside the configured"), std::string::npos) << r.out;
    // --root DIR: that directory instead of the working one.
    r = shell(until_changed + read, {"--root", files.string()});
    EXPECT_EQ(r.out.find(cwd + "\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("beside the configured"), std::string::npos) << r.out;
}

// server-everything over Streamable HTTP and over HTTP+SSE, as remote entries of a config file,
// through the manager and mcpxx; its sampling tool answered by a stub chat-completions API.
TEST_F(host_vs_npm, everything_over_http_and_sse_with_sampling) {
    REQUIRE_PACKAGE("server-everything");
    mcp::test::child_server streamable(
        {"node", package_entry("server-everything").string(), "streamableHttp"}, {{"PORT", "{port}"}});
    mcp::test::child_server sse({"node", package_entry("server-everything").string(), "sse"},
                                {{"PORT", "{port}"}});
    ASSERT_TRUE(streamable.ready() && sse.ready()) << "server-everything did not start";

    mcp::test::http_test_server api([](const mcp::test::recorded_request& r, auto w) {
        const auto body = r.json().as_object();
        const auto& last = body.at("messages").as_array().back().at("content");
        const std::string said = last.is_string() ? std::string(last.as_string()) : "?";
        w->respond(200, {{"Content-Type", "application/json"}},
                   mcp::to_json(mcp::json::object{
                       {"model", "stub-model"},
                       {"choices", mcp::json::array{mcp::json::object{
                                       {"message", {{"role", "assistant"}, {"content", "stub saw: " + said}}},
                                       {"finish_reason", "stop"}}}}}));
    });

    const auto config = write_config("mcp.json", R"({"mcpServers": {
        "streamable": {"type": "http", "url": ")" + streamable.url("/mcp") +
                                                     R"("},
        "legacy": {"type": "sse", "url": ")" + sse.url("/sse") +
                                                     R"("},
        "fallback": {"url": ")" + sse.url("/sse") + R"("}}})");
    auto found = discover({.explicit_files = {config}});
    ASSERT_TRUE(found.errors.empty());
    manager_options o;
    o.approval.approve_all = true;
    o.sampling = std::make_shared<openai_sampling_provider>(
        openai_provider_options{.base_url = api.url("/v1"), .models = {"stub-model"}, .api_key = "k"});
    manager m(o);
    for (const auto& s : found.servers) m.add_server(s);
    m.connect_all();
    for (const char* name : {"streamable", "legacy", "fallback"}) {
        const auto s = m.status(name);
        ASSERT_EQ(s.state, server_state::ready) << name << ": " << s.error;
        EXPECT_EQ(s.transport,
                  std::string(name) == "streamable" ? transport_kind::streamable_http : transport_kind::sse)
            << name;
        EXPECT_GT(s.tools, 10u) << name;
        EXPECT_EQ(text_of(m.call_tool(name, "echo", {{"message", name}})), "Echo: " + std::string(name));
        auto sampled =
            m.call_tool(name, "trigger-sampling-request", {{"prompt", "hello"}, {"maxTokens", 10}});
        EXPECT_NE(text_of(sampled).find("stub saw: Resource trigger-sampling-request context: hello"),
                  std::string::npos)
            << name << ": " << text_of(sampled);
    }
    m.close();

    // mcpxx call, the same tool, the stub as --sampling-url.
    for (const char* name : {"streamable", "legacy"}) {
        auto r = mcpxx({"call", name, "trigger-sampling-request", "--arg", "prompt=from mcpxx", "--arg",
                        "maxTokens=10", "--yes", "--config", config.string(), "--sampling-url",
                        api.url("/v1"), "--sampling-model", "stub-model"});
        EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
        EXPECT_NE(r.out.find("stub saw: Resource trigger-sampling-request context: from mcpxx"),
                  std::string::npos)
            << name << ": " << r.out;
    }
    EXPECT_GE(api.requests().size(), 5u);
}

} // namespace
