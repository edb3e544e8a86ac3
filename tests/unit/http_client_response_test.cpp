// The HTTP client's response parser (src/http/client/response_reader.hpp) on what a hostile
// server may send.
#include "http/client/response_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using mcp::http::detail::response_reader;

struct outcome {
    response_reader::result last;
    std::string body;
};

// Offer `bytes` at once, taking heads and going on, as the connection does.
outcome read_all(response_reader& r, std::string_view bytes) {
    std::string body;
    const response_reader::body_sink sink = [&](std::string_view b) {
        body.append(b);
        return true;
    };
    for (;;) {
        std::size_t used = 0;
        const auto res = r.parse(bytes, used, sink);
        bytes.remove_prefix(used);
        if (res != response_reader::result::head) return {res, body};
    }
}

// Offer `bytes` in slices of `step`, keeping what was not consumed, as io.cpp does; returns the
// first failure or the last result, and the most bytes ever kept.
std::pair<response_reader::result, std::size_t> read_sliced(response_reader& r, std::string_view bytes,
                                                            std::size_t step) {
    const response_reader::body_sink sink = [](std::string_view) { return true; };
    std::string pending;
    std::size_t most = 0;
    auto last = response_reader::result::need_more;
    for (std::size_t offset = 0; offset < bytes.size(); offset += step) {
        pending.append(bytes.substr(offset, step));
        for (;;) {
            std::size_t used = 0;
            last = r.parse(pending, used, sink);
            pending.erase(0, used);
            if (last == response_reader::result::failed) return {last, most};
            if (last != response_reader::result::head) break;
        }
        most = std::max(most, pending.size());
    }
    return {last, most};
}

TEST(http_client_response, a_plain_response) {
    response_reader r;
    const auto o = read_all(r, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
    EXPECT_EQ(o.last, response_reader::result::complete);
    EXPECT_EQ(r.status(), 200);
    EXPECT_EQ(o.body, "{}");
}

// http_response_fuzz: Beast accepts any three digits; status 0 meant "no response" to the
// transport, and statuses outside 100-599 have no class (RFC 9110 15).
TEST(http_client_response, a_status_outside_100_to_599_is_malformed) {
    for (const char* bytes : {"HTTP/1.1 001 \r\n\r\n", "HTTP/1.1 000 OK\r\nContent-Length: 0\r\n\r\n",
                              "HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 999 \r\n\r\n",
                              "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 099 x\r\nContent-Length: 0\r\n\r\n"}) {
        response_reader r;
        const auto o = read_all(r, bytes);
        EXPECT_EQ(o.last, response_reader::result::failed) << bytes;
        EXPECT_NE(r.error().find("invalid status code"), std::string::npos) << r.error();
    }
}

// http_response_fuzz: Beast keeps a chunk header (its extensions) or the trailer whole until
// its line ends, with no limit; a server sending an endless one had the client buffer it all.
TEST(http_client_response, an_endless_chunk_header_or_trailer_fails) {
    std::ifstream in(std::string(MCPXX_SOURCE_DIR) +
                         "/fuzz/corpus/http_response_fuzz/crash-endless-chunk-extension",
                     std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string input = ss.str();
    ASSERT_GT(input.size(), 2u);
    {
        response_reader r(1024); // the fuzzer's bound; byte 0 is the slice size
        const auto [last, most] = read_sliced(r, std::string_view(input).substr(2), input[0]);
        EXPECT_EQ(last, response_reader::result::failed);
        EXPECT_LE(most, 1024u);
        EXPECT_NE(r.error().find("chunk header or trailer longer than 1024 bytes"), std::string::npos)
            << r.error();
    }
    const std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (const std::string& endless : {head + "1;ext=" + std::string(200000, 'a'),
                                       head + "2\r\nab\r\n0\r\nX-Trailer: " + std::string(200000, 'b')}) {
        response_reader r;
        const auto [last, most] = read_sliced(r, endless, 4096);
        EXPECT_EQ(last, response_reader::result::failed);
        EXPECT_LE(most, 64u * 1024u);
    }
    // Within the bound, extensions and trailers are fine.
    response_reader r;
    const auto [last, most] =
        read_sliced(r, head + "2;a=" + std::string(1000, 'x') + "\r\nab\r\n0\r\nX-T: 1\r\n\r\n", 7);
    EXPECT_EQ(last, response_reader::result::complete) << r.error();
}

} // namespace
