// jsonrpc::envelope_scan: which unusable messages are responses, and to which id - and that
// nothing uncertain is attributed.
#include <mcp/jsonrpc/envelope_scan.hpp>
#include <mcp/transport/line_framer.hpp>

#include <gtest/gtest.h>

namespace {

std::optional<std::int64_t> scan(std::string_view text, std::size_t piece = 0) {
    mcp::jsonrpc::envelope_scan s;
    if (!piece) {
        s.feed(text);
    } else {
        for (std::size_t i = 0; i < text.size(); i += piece) s.feed(text.substr(i, piece));
    }
    return s.response_id();
}

TEST(envelope_scan, finds_the_id_of_a_response_wherever_it_is) {
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":7,"result":{"x":"\xff"}})"), 7);
    EXPECT_EQ(scan(R"({"result":{"id":1,"a":[1,{"id":2}]},"jsonrpc":"2.0","id":42})"), 42);
    EXPECT_EQ(scan(R"( { "error" : {"code":-1,"message":"m"} , "id" : -3 } )"), -3);
    // Byte by byte, as a stream discards them.
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","result":{"s":"\"id\":9, \\"},"id":12})", 1), 12);
}

TEST(envelope_scan, attributes_nothing_uncertain) {
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":7,"method":"ping"})"), std::nullopt);       // a request
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":"7","result":{}})"), std::nullopt);          // not our kind of id
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":7,"id":8,"result":{}})"), std::nullopt);     // two ids
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":7.5,"result":{}})"), std::nullopt);          // not an integer
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","result":{"id":7}})"), std::nullopt);             // id only inside
    EXPECT_EQ(scan(R"([{"jsonrpc":"2.0","id":7,"result":{}}])"), std::nullopt);          // a batch
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","id":7})"), std::nullopt);                        // neither result nor error
    EXPECT_EQ(scan(R"("id":7,"result":{})"), std::nullopt);                              // not an object
    EXPECT_EQ(scan(R"({"jsonrpc":"2.0","i\u0064":7,"result":{}})"), std::nullopt);       // an escaped key
}

TEST(envelope_scan, the_line_framer_scans_a_discarded_line) {
    mcp::line_framer f(64);
    std::vector<std::optional<std::int64_t>> seen;
    const std::string big = R"({"jsonrpc":"2.0","result":{"pad":")" + std::string(200, 'x') + R"("},"id":5})";
    const std::string text = big + "\n" + R"({"jsonrpc":"2.0","method":"m","params":{"pad":")" + std::string(200, 'y') +
                             R"("},"id":6})" + "\n";
    // In pieces, so that the lines are discarded across chunks.
    for (std::size_t i = 0; i < text.size(); i += 50)
        f.feed(
            std::string_view(text).substr(i, 50), [](std::string_view, bool) {},
            [&](std::size_t) { seen.push_back(f.discarded_response_id()); });
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], 5);
    EXPECT_EQ(seen[1], std::nullopt); // a request
    EXPECT_EQ(f.discarded_response_id(), std::nullopt);
}

} // namespace
