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

// What a framer makes of a stream: lines as they are, discarded lines as "<oversize N id>".
std::vector<std::string> frame(std::string_view text, std::size_t piece, std::size_t max_line = 64) {
    mcp::line_framer f(max_line);
    std::vector<std::string> events;
    const auto on_line = [&](std::string_view line, bool) { events.emplace_back(line); };
    const auto on_oversize = [&](std::size_t n) {
        const auto id = f.discarded_response_id();
        events.push_back("<oversize " + std::to_string(n) + " " + (id ? std::to_string(*id) : "-") + ">");
    };
    if (!piece) piece = text.size();
    for (std::size_t i = 0; i < text.size(); i += piece) f.feed(text.substr(i, piece), on_line, on_oversize);
    return events;
}

std::string response_with_pad(int id, std::size_t pad) {
    return R"({"jsonrpc":"2.0","result":{"pad":")" + std::string(pad, 'x') + R"("},"id":)" + std::to_string(id) + "}";
}

// Every way the bytes can arrive gives the same lines and the same verdicts: a line over the
// limit inside one chunk, one that starts in a chunk's unfinished tail, one that grows over the
// limit across chunks, blank lines around them, and byte-by-byte feeding.
TEST(envelope_scan, the_line_framer_gives_the_same_events_however_the_bytes_are_cut) {
    const std::string big = response_with_pad(5, 200), small = R"({"jsonrpc":"2.0","id":1,"result":{}})";
    const std::string text = big + "\n\n\r\n" + small + "\n" + response_with_pad(6, 100) + "\r\n \t\n" + small +
                             "\n" + std::string(300, '[') + "\n" + response_with_pad(7, 200);
    const std::vector<std::string> expected = {
        "<oversize " + std::to_string(big.size()) + " 5>", small,
        "<oversize " + std::to_string(response_with_pad(6, 100).size() + 1) + " 6>", small,
        "<oversize 300 ->"}; // the last line is unfinished: not a message yet
    for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{63},
                              std::size_t{64}, std::size_t{65}, std::size_t{100}, std::size_t{250}})
        EXPECT_EQ(frame(text, piece), expected) << "fed in pieces of " << piece;
}

TEST(envelope_scan, an_oversize_tail_is_discarded_until_its_end_arrives) {
    mcp::line_framer f(16);
    std::vector<std::string> events;
    const auto on_line = [&](std::string_view line, bool) { events.emplace_back(line); };
    const auto on_oversize = [&](std::size_t n) { events.push_back("<" + std::to_string(n) + ">"); };
    // One chunk: a line, then the start of a line already over the limit.
    f.feed("{\"a\":1}\n" + std::string(40, ' ') + "{", on_line, on_oversize);
    EXPECT_TRUE(f.partial());
    f.feed(std::string(10, 'z'), on_line, on_oversize);
    f.feed("}\n\n{\"b\":2}\n", on_line, on_oversize);
    EXPECT_EQ(events, (std::vector<std::string>{R"({"a":1})", "<52>", R"({"b":2})"}));
    EXPECT_FALSE(f.partial());
}

} // namespace
