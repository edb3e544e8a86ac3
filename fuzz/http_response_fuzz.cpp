// libFuzzer harness: arbitrary bytes as what a (hostile) server sends back on one connection of
// the HTTP client (src/http/client/response_reader.hpp, then the SSE parser on the body, as an
// event stream response is read). Byte 0 is the slice size (0: one slice), byte 1 bit 0 says the
// request was HEAD; the rest is offered the way io.cpp does: unconsumed bytes kept and offered
// again with the next slice, responses on a kept-alive connection taken one after another, and
// the end of the input is the server closing the connection. It must never crash or read out of
// bounds, never consume more than offered, keep only a bounded tail of unconsumed bytes, report
// a head before any body, and fail with a message.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/http_response_fuzz
#include "http/client/response_reader.hpp"
#include "http/client/sse_parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t max_header = 1024;

void check(bool ok) {
    if (!ok) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
    const std::size_t step = data[0] == 0 ? std::max<std::size_t>(input.size(), 1) : data[0];
    const bool head_request = (data[1] & 1) != 0;

    using mcp::http::detail::response_reader;
    using mcp::http::detail::sse_parser;
    std::size_t events = 0;
    sse_parser sse(sse_parser::callbacks{.on_event = [&](const auto&) { ++events; }}, 4096);
    bool head_seen = false;
    const response_reader::body_sink sink = [&](std::string_view body) {
        check(head_seen && !head_request);
        sse.feed(body);
        return true;
    };
    response_reader reader(max_header);
    reader.reset(head_request);
    std::string pending;
    for (std::size_t offset = 0; offset < input.size();) {
        const std::size_t n = std::min(step, input.size() - offset);
        pending.append(input.substr(offset, n));
        offset += n;
        for (;;) {
            std::size_t used = 0;
            const auto r = reader.parse(pending, used, sink);
            check(used <= pending.size());
            pending.erase(0, used);
            if (r == response_reader::result::head) {
                check(reader.head_done() && reader.status() >= 100 && reader.status() <= 999);
                head_seen = true;
                continue;
            }
            if (r == response_reader::result::need_more) break;
            if (r == response_reader::result::failed) {
                check(!reader.error().empty());
                return 0;
            }
            // complete: the next response on this connection, if it is kept alive.
            check(head_seen);
            if (!reader.keep_alive()) return 0;
            reader.reset(head_request);
            sse.new_connection();
            head_seen = false;
        }
        // What is kept for the next read is bounded (a head, or a chunk header, in progress).
        check(pending.size() <= 2 * max_header + 4096);
    }
    const auto r = reader.eof(sink);
    check(r == response_reader::result::complete || !reader.error().empty());
    return 0;
}
