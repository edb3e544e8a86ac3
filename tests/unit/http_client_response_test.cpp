// The HTTP client's response parser (src/http/client/response_reader.hpp) on what a hostile
// server may send.
#include "http/client/response_reader.hpp"

#include <gtest/gtest.h>

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

TEST(http_client_response, a_plain_response) {
    response_reader r;
    const auto o = read_all(r, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
    EXPECT_EQ(o.last, response_reader::result::complete);
    EXPECT_EQ(r.status(), 200);
    EXPECT_EQ(o.body, "{}");
}

// http_response_fuzz: Beast accepts any three digits; status 0 meant "no response" to the
// transport, and statuses below 100 have no class.
TEST(http_client_response, a_status_below_100_is_malformed) {
    for (const char* bytes : {"HTTP/1.1 001 \r\n\r\n", "HTTP/1.1 000 OK\r\nContent-Length: 0\r\n\r\n",
                              "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 099 x\r\nContent-Length: 0\r\n\r\n"}) {
        response_reader r;
        const auto o = read_all(r, bytes);
        EXPECT_EQ(o.last, response_reader::result::failed) << bytes;
        EXPECT_NE(r.error().find("invalid status code"), std::string::npos) << r.error();
    }
}

} // namespace
