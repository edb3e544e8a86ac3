// The client's Server-Sent Events parser (src/http/client/sse_parser.hpp) against the event
// stream interpretation of the WHATWG HTML standard: its examples, every way to end a line,
// comments, retry, ids (and ids with NUL), the BOM, bounds, and the same streams cut into
// pieces at every possible boundary.
#include "http/client/sse_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using mcp::http::detail::sse_event;
using mcp::http::detail::sse_parser;

struct seen_event {
    std::string type, data, id;
    bool operator==(const seen_event&) const = default;
};

std::ostream& operator<<(std::ostream& os, const seen_event& e) {
    return os << "{" << e.type << ", \"" << e.data << "\", id=" << e.id << "}";
}

struct recorder {
    std::vector<seen_event> events;
    std::vector<std::uint64_t> retries;
    std::vector<std::size_t> oversize;
    sse_parser parser;

    explicit recorder(std::size_t max = 1 << 20)
        : parser(sse_parser::callbacks{[this](const sse_event& e) {
                                           events.push_back({std::string(e.type), std::string(e.data),
                                                             std::string(e.last_event_id)});
                                       },
                                       [this](std::uint64_t ms) { retries.push_back(ms); },
                                       [this](std::size_t n) { oversize.push_back(n); }},
                 max) {}
};

std::vector<seen_event> parse_whole(std::string_view stream) {
    recorder r;
    r.parser.feed(stream);
    return r.events;
}

// The stream fed in every split into two pieces, and byte by byte: the same events.
void expect_split_invariant(std::string_view stream, const std::vector<seen_event>& expected) {
    EXPECT_EQ(parse_whole(stream), expected) << "whole";
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        recorder r;
        r.parser.feed(stream.substr(0, cut));
        r.parser.feed(stream.substr(cut));
        EXPECT_EQ(r.events, expected) << "cut at " << cut;
    }
    recorder r;
    for (char c : stream) r.parser.feed(std::string_view(&c, 1));
    EXPECT_EQ(r.events, expected) << "byte by byte";
}

TEST(http_client_sse, whatwg_example_stock_ticker) {
    // "data: YHOO\ndata: +2\ndata: 10\n\n" is one message event with three lines of data.
    expect_split_invariant("data: YHOO\ndata: +2\ndata: 10\n\n", {{"message", "YHOO\n+2\n10", ""}});
}

TEST(http_client_sse, whatwg_example_comments_ids_and_unterminated_event) {
    // From the standard: a comment, an event with id 1, an event that resets the id, and a
    // final event without the blank line, which is never dispatched.
    const std::string stream =
        ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n";
    expect_split_invariant(stream, {{"message", "first event", "1"}, {"message", "second event", ""}});
}

TEST(http_client_sse, whatwg_example_empty_data_lines) {
    // "data" alone and "data:" both add an empty line; two of them make data "\n".
    expect_split_invariant("data\n\ndata\ndata\n\ndata:\n", {{"message", "", ""}, {"message", "\n", ""}});
}

TEST(http_client_sse, whatwg_example_space_after_colon_is_optional) {
    expect_split_invariant("data:test\n\ndata: test\n\n", {{"message", "test", ""}, {"message", "test", ""}});
}

TEST(http_client_sse, every_line_ending) {
    const std::vector<seen_event> two = {{"message", "a\nb", ""}, {"ping", "c", ""}};
    expect_split_invariant("data: a\ndata: b\n\nevent: ping\ndata: c\n\n", two);
    expect_split_invariant("data: a\r\ndata: b\r\n\r\nevent: ping\r\ndata: c\r\n\r\n", two);
    expect_split_invariant("data: a\rdata: b\r\revent: ping\rdata: c\r\r", two);
    expect_split_invariant("data: a\r\ndata: b\r\revent: ping\ndata: c\n\r\n", two);
}

TEST(http_client_sse, a_cr_at_a_chunk_end_and_an_lf_at_the_next_start_are_one_line_end) {
    recorder r;
    r.parser.feed("data: x\r");
    r.parser.feed("\ndata: y\r");
    r.parser.feed("\n\r");
    r.parser.feed("\n");
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].data, "x\ny");
}

TEST(http_client_sse, comments_and_unknown_fields_are_ignored) {
    expect_split_invariant(":keep-alive\n: another\nfoo: bar\ndata: x\n:mid-event\nunknown\n\n",
                           {{"message", "x", ""}});
}

TEST(http_client_sse, event_type_resets_after_each_event) {
    expect_split_invariant("event: endpoint\ndata: /messages?sessionId=1\n\ndata: {}\n\n",
                           {{"endpoint", "/messages?sessionId=1", ""}, {"message", "{}", ""}});
}

TEST(http_client_sse, id_persists_across_events_and_with_nul_is_ignored) {
    std::string stream = "id: 7\ndata: a\n\ndata: b\n\nid: bad";
    stream.push_back('\0');
    stream += "x\ndata: c\n\n";
    expect_split_invariant(stream, {{"message", "a", "7"}, {"message", "b", "7"}, {"message", "c", "7"}});
}

TEST(http_client_sse, an_id_without_data_still_sets_the_last_event_id) {
    recorder r;
    r.parser.feed("id: 42\n\n");
    EXPECT_TRUE(r.events.empty());
    EXPECT_EQ(r.parser.last_event_id(), "42");
    // An id line of an event that never ends does not count.
    r.parser.feed("id: 43\ndata: x\n");
    EXPECT_EQ(r.parser.last_event_id(), "42");
}

TEST(http_client_sse, priming_event_has_an_id_and_empty_data) {
    // What MCP servers send first (2025-11-25): it is an event with empty data, which the
    // transport does not deliver, and it sets the id to resume from.
    expect_split_invariant("id: s1-0\ndata: \n\n", {{"message", "", "s1-0"}});
}

TEST(http_client_sse, retry_takes_only_ascii_digits) {
    recorder r;
    r.parser.feed("retry: 500\n\nretry: 1x\nretry: -5\nretry:\nretry: 2500\ndata: a\n\n");
    EXPECT_EQ(r.retries, (std::vector<std::uint64_t>{500, 2500}));
    ASSERT_EQ(r.events.size(), 1u);
}

TEST(http_client_sse, leading_bom_is_skipped_once) {
    expect_split_invariant("\xEF\xBB\xBF"
                           "data: a\n\n",
                           {{"message", "a", ""}});
    // A second BOM is content: it makes the first line's field name "\uFEFFdata", unknown.
    expect_split_invariant("\xEF\xBB\xBF\xEF\xBB\xBF"
                           "data: a\n\ndata: b\n\n",
                           {{"message", "b", ""}});
}

TEST(http_client_sse, utf8_data_passes_through) {
    expect_split_invariant("data: {\"text\":\"Hello, \xE4\xB8\x96\xE7\x95\x8C\"}\n\n",
                           {{"message", "{\"text\":\"Hello, \xE4\xB8\x96\xE7\x95\x8C\"}", ""}});
}

TEST(http_client_sse, oversize_event_is_dropped_and_reported_without_buffering) {
    recorder r(16);
    r.parser.feed("data: 0123456789\ndata: 0123456789\n\ndata: ok\n\n");
    ASSERT_EQ(r.oversize.size(), 1u);
    EXPECT_GT(r.oversize[0], 16u);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].data, "ok");

    // One line far over the bound, arriving in pieces: dropped, the next event is fine.
    recorder big(64);
    big.parser.feed("data: ");
    for (int i = 0; i < 1000; ++i) big.parser.feed(std::string(100, 'x'));
    big.parser.feed("\n\ndata: after\n\n");
    ASSERT_EQ(big.oversize.size(), 1u);
    EXPECT_GE(big.oversize[0], 100000u);
    ASSERT_EQ(big.events.size(), 1u);
    EXPECT_EQ(big.events[0].data, "after");
}

TEST(http_client_sse, exactly_the_limit_is_accepted) {
    recorder r(5);
    r.parser.feed("data: 12345\n\ndata: 123456\n\n");
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_EQ(r.events[0].data, "12345");
    EXPECT_EQ(r.oversize.size(), 1u);
}

TEST(http_client_sse, stop_from_a_callback_stops_at_once) {
    std::vector<std::string> got;
    bool stop_next = true;
    sse_parser p(sse_parser::callbacks{[&](const sse_event& e) {
                                           got.emplace_back(e.data);
                                           if (stop_next) p.stop();
                                           stop_next = false;
                                       },
                                       {},
                                       {}});
    p.feed("data: 1\n\ndata: 2\n\n");
    EXPECT_EQ(got, std::vector<std::string>{"1"});
    // A new connection starts parsing again, from a clean line, keeping the id.
    p.new_connection();
    p.feed("data: 3\n\n");
    EXPECT_EQ(got, (std::vector<std::string>{"1", "3"}));
}

TEST(http_client_sse, new_connection_drops_the_partial_event_and_keeps_the_id) {
    recorder r;
    r.parser.feed("id: 5\ndata: a\n\ndata: cut in the mid");
    r.parser.new_connection();
    r.parser.feed("\xEF\xBB\xBF"
                  "data: b\n\n");
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[1], (seen_event{"message", "b", "5"}));
}

TEST(http_client_sse, malformed_input_never_hangs_or_crashes) {
    // Control bytes, lone CRs, NULs, colons everywhere, in every chunking.
    std::string junk;
    for (int i = 0; i < 512; ++i) junk.push_back(static_cast<char>((i * 37) % 256));
    junk += "\n\n:::\r\r\ndata:\0\n\n";
    recorder r(128);
    for (std::size_t step = 1; step < 17; ++step)
        for (std::size_t i = 0; i < junk.size(); i += step)
            r.parser.feed(std::string_view(junk).substr(i, step));
    SUCCEED();
}

} // namespace
