// What `make run` starts: `mcpxx gateway --config examples/mcp.json`, with the example servers
// found through MCPXX_BUILD_DIR and MCPXX_SOURCE_DIR as the Makefile exports them - here run
// from the build directory rather than the repository, so neither the working directory nor the
// name of the build directory matters. Every server the file configures must be up: real
// processes, real sockets.
#include "support/program_output.hpp"
#include "support/raw_process.hpp"

#include <mcp/http/fetch.hpp>
#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <map>
#include <memory>

namespace {

namespace fs = std::filesystem;
using mcp::test::shell_quote;

const fs::path source_dir = MCPXX_SOURCE_DIR;
const fs::path build_dir = MCPXX_BINARY_DIR;

TEST(example_gateway, make_run_starts_every_example_server) {
    const auto config = source_dir / "examples" / "mcp.json";
    const auto configured = mcp::json::parse(mcp::test::slurp(config)).at("mcpServers").as_object();
    ASSERT_FALSE(configured.empty());

    const std::string command = "cd " + shell_quote(build_dir.string()) +
                                " && MCPXX_BUILD_DIR=" + shell_quote(build_dir.string()) +
                                " MCPXX_SOURCE_DIR=" + shell_quote(source_dir.string()) + " exec " +
                                shell_quote((build_dir / "mcpxx").string()) + " gateway --config " +
                                shell_quote(config.string()) + " --listen 127.0.0.1:0";
    mcp::test::raw_process gateway({"/bin/sh", "-c", command});
    struct stop_at_end {
        mcp::test::raw_process& p;
        ~stop_at_end() {
            ::kill(p.pid(), SIGTERM);
            p.wait(std::chrono::seconds(10));
        }
    } stop{gateway};

    // It prints where to connect once every server has started (or failed).
    std::string port;
    while (port.empty()) {
        auto line = gateway.read_line(std::chrono::seconds(60));
        ASSERT_TRUE(line) << "the gateway did not start; stderr:\n" << gateway.stderr_text();
        if (auto at = line->find("connect to http://127.0.0.1:"); at != std::string::npos)
            port = line->substr(at + 28, line->find('/', at + 28) - (at + 28));
    }

    const auto health = mcp::http::fetch({.url = "http://127.0.0.1:" + port + "/healthz"});
    ASSERT_EQ(health.status, 200) << health.body;
    const auto h = mcp::json::parse(health.body).as_object();
    EXPECT_EQ(h.at("status"), "ok") << health.body;
    std::map<std::string, mcp::json::object> by_name;
    for (const auto& s : h.at("servers").as_array())
        by_name[std::string(s.at("name").as_string())] = s.as_object();
    EXPECT_EQ(by_name.size(), configured.size()) << health.body;
    for (const auto& [name, entry] : configured) {
        const auto it = by_name.find(std::string(name));
        ASSERT_NE(it, by_name.end()) << name << " is not in " << health.body;
        EXPECT_EQ(it->second.at("state"), "ready") << name << ": " << mcp::json::serialize(it->second);
        EXPECT_GT(it->second.at("tools").as_int64(), 0) << name;
    }
    // The filesystem server was given the examples directory itself: its files are resources.
    ASSERT_TRUE(by_name.count("files"));
    EXPECT_GT(by_name.at("files").at("resources").as_int64(), 0) << health.body;
}

} // namespace
