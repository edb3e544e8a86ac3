// A real stdio server (tests/servers/flood_server) whose client stops reading its stdout while
// a tool keeps sending: the server's transport gives up at max_queued_bytes with one line on
// stderr, the session ends, the server exits, and its memory stayed bounded meanwhile.
#include "support/eventually.hpp"
#include "support/raw_process.hpp"

#include <mcp/json/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace std::chrono_literals;
using mcp::test::stdio_handshake;

namespace {

const std::string flood_server = std::string(MCPXX_BINARY_DIR) + "/flood_server";

std::string flood_call(int count, int size) {
    return R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flood","arguments":{"count":)" +
           std::to_string(count) + R"(,"size":)" + std::to_string(size) +
           R"(},"_meta":{"progressToken":"p"}}})" + "\n";
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
    return n;
}

/// The number after `label` in `text`, or nullopt.
std::optional<unsigned long long> number_after(const std::string& text, const std::string& label) {
    const auto pos = text.find(label);
    if (pos == std::string::npos) return std::nullopt;
    return std::strtoull(text.c_str() + pos + label.size(), nullptr, 10);
}

TEST(stdio_slow_client, a_client_that_stops_reading_is_cut_off_and_the_server_exits) {
    constexpr unsigned long long limit = 1u << 20;
    mcp::test::raw_process p({flood_server, "--max-queued-bytes", std::to_string(limit)});
    ASSERT_TRUE(p.write(stdio_handshake));
    const auto init = p.read_line();
    ASSERT_TRUE(init);
    EXPECT_EQ(mcp::json::parse(*init).at("id"), 0);
    // 4096 progress notifications of 64 KiB (256 MiB) asked for; stdout is never read again.
    ASSERT_TRUE(p.write(flood_call(4096, 64 * 1024)));
    std::optional<int> status;
    ASSERT_TRUE(mcp::test::eventually([&] { return (status = p.exit_status()).has_value(); }, 30s))
        << "the server still runs; its stderr: " << p.stderr_text();
    EXPECT_EQ(*status, 0);

    const std::string err = p.stderr_text();
    EXPECT_EQ(count_of(err, "the peer stopped reading"), 1u) << err;
    EXPECT_NE(err.find("mcpxx[flood]: stdio: the peer stopped reading: closing the connection with "),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("(the limit is 1048576 bytes)"), std::string::npos) << err;
    // What waited when the server gave up: the limit at most, plus the message that passed it.
    const auto waiting = number_after(err, "closing the connection with ");
    ASSERT_TRUE(waiting) << err;
    EXPECT_LE(*waiting, limit + 65 * 1024) << err;
    const auto peak_kb = number_after(err, "flood_server: peak RSS ");
    ASSERT_TRUE(peak_kb) << err;
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer keeps freed memory in quarantine: the resident size says nothing here.
    (void)peak_kb;
#else
    // Far below the 256 MiB the tool offered: the queue never held more than the limit.
    EXPECT_LT(*peak_kb, 48u * 1024) << err;
#endif
}

} // namespace
