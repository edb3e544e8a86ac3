// A client against tests/servers/rogue_server, a real process over stdio that answers as a
// hostile or broken server would: pages without end (the walk stops at client_options::listing,
// and memory stays small), and responses the client cannot use (over the size limit, invalid
// UTF-8, nested too deep), which fail their request at once with the reason instead of at the
// request's timeout.
#include "support/host_fixture.hpp"
#include "support/program_output.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/child_process.hpp>

#include <gmock/gmock.h>

#include <chrono>
#include <sys/resource.h>

namespace {

using namespace std::chrono_literals;
using testing::HasSubstr;

const std::string rogue = std::string(MCPXX_BINARY_DIR) + "/rogue_server";

std::unique_ptr<mcp::client> connect(const std::string& mode, std::vector<std::string> more = {},
                                     mcp::client_options o = {}) {
    o.protocol_version = mcp::latest_initialize_revision;
    auto c = std::make_unique<mcp::client>(o);
    std::vector<std::string> args{mode};
    args.insert(args.end(), more.begin(), more.end());
    c->connect(mcp::child_process_transport::spawn({.command = rogue, .args = args}));
    return c;
}

TEST(client_rogue_server, endless_pages_of_20000_tools_stop_at_max_items) {
    auto c = connect("endless-pages");
    try {
        c->list_all_tools();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_THAT(e.what(), HasSubstr("listing tools: the server sent 20000 items (in 1 page), more than the "
                                        "10000 client_options::listing.max_items allows"));
        EXPECT_EQ(e.data().at("bound"), "max_items");
    }
    c->ping(); // the connection is still of use
}

TEST(client_rogue_server, endless_pages_of_small_pages_stop_at_max_bytes_or_pages) {
    auto c = connect("endless-pages", {"50"}); // 5000 tools in 100 pages: the page bound first
    try {
        c->list_all_tools();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_THAT(e.what(), HasSubstr("the server still had more pages after 100"));
        EXPECT_EQ(e.data().at("bound"), "max_pages");
    }
    mcp::client_options o;
    o.listing.max_pages = 0; // no page or item bound: the byte bound stops it (~220 kB a page)
    o.listing.max_items = 0;
    c = connect("endless-pages", {"2000"}, o);
    try {
        c->list_all_tools();
        ADD_FAILURE() << "the walk did not stop";
    } catch (const mcp::error& e) {
        EXPECT_THAT(e.what(), HasSubstr("client_options::listing.max_bytes allows"));
        EXPECT_EQ(e.data().at("bound"), "max_bytes");
        EXPECT_EQ(e.data().at("limit"), 16u << 20);
    }
}

// `mcpxx tools` (the host) against the same server: a readable error, exit 69, small memory.
TEST(client_rogue_server, mcpxx_tools_reports_the_bound_and_stays_small) {
    mcp::test::fake_host_dirs dirs("mcpxx_tools_rogue");
    const auto config = (dirs.root / "servers.json").string();
    dirs.write(config, R"({"mcpServers": {"rogue": {"command": ")" + rogue + R"(", "args": ["endless-pages"]}}})");
    const auto began = std::chrono::steady_clock::now();
    const auto r = mcp::test::run_program({.argv = {std::string(MCPXX_BINARY_DIR) + "/mcpxx", "tools", "--config", config},
                                           .files = dirs.root,
                                           .cwd = dirs.project,
                                           .env = {{"HOME", dirs.home.string()}, {"NO_COLOR", "1"}}});
    EXPECT_LT(std::chrono::steady_clock::now() - began, 20s);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_THAT(r.err, HasSubstr("rogue: listing tools: the server sent 20000 items (in 1 page), more than the "
                                 "10000 client_options::listing.max_items allows"));
    rusage u{};
    ASSERT_EQ(::getrusage(RUSAGE_CHILDREN, &u), 0);
    EXPECT_LT(u.ru_maxrss, 300 * 1024) << "peak RSS of mcpxx: " << u.ru_maxrss << " kB";
}

// A response that cannot be used fails its request at once (not after the 30 s timeout), with
// the reason.
void expect_prompt_failure(const std::string& mode, const std::string& reason) {
    auto c = connect(mode);
    const auto began = std::chrono::steady_clock::now();
    try {
        c->ping({.timeout = 30s});
        ADD_FAILURE() << mode << ": the ping succeeded";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::parse_error) << e.what();
        EXPECT_THAT(e.what(), HasSubstr("the response to request 2 cannot be used: " + reason)) << mode;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - began, 5s) << mode << ": the request waited for its timeout";
}

TEST(client_rogue_server, an_oversize_response_fails_its_request_at_once) {
    expect_prompt_failure("oversize", "message of 5242");
}

TEST(client_rogue_server, invalid_utf8_fails_its_request_at_once) {
    expect_prompt_failure("bad-utf8", "it is not valid JSON text");
}

TEST(client_rogue_server, a_response_nested_too_deep_fails_its_request_at_once) {
    expect_prompt_failure("deep", "it is not valid JSON text");
}

} // namespace
