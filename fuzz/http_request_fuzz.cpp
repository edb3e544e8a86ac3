// libFuzzer harness: arbitrary bytes as what a client sends on one connection of the HTTP/1.1
// server core. The request reader gets them the way the connection feeds it: in slices (their
// size taken from the first input byte), unconsumed bytes kept and offered again, pipelined
// requests taken one after another. It must never crash or read out of bounds, never consume
// more than it was offered, deliver only requests within the limits, and fail only with a
// status the server answers with.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/http_request_fuzz
#include "http/request_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t max_header = 1024;
constexpr std::size_t max_body = 4096;
// The connection's input buffer bound (http_server.cpp): max_header_bytes + 8 KiB.
constexpr std::size_t max_buffered = max_header + 8 * 1024;

void check(bool ok) {
    if (!ok) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t step = data[0] == 0 ? size : data[0];
    const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

    using mcp::http::core::detail::request_reader;
    request_reader reader(max_header, max_body);
    std::string buffered;
    std::size_t offset = 0;
    for (;;) {
        if (offset < input.size()) {
            const std::size_t n = std::min(step, input.size() - offset);
            buffered.append(input.substr(offset, n));
            offset += n;
        }
        // Parse as much as the buffered bytes allow (several pipelined requests, maybe).
        for (;;) {
            std::size_t used = 0;
            const auto r = reader.parse(buffered, used);
            check(used <= buffered.size());
            buffered.erase(0, used);
            if (r == request_reader::result::failed) {
                const int s = reader.failure_status();
                check(s == 400 || s == 413 || s == 431 || s == 501 || s == 505);
                return 0;
            }
            if (r == request_reader::result::need_more) {
                if (reader.header_done()) {
                    check(reader.version() == 10 || reader.version() == 11);
                    (void)reader.expects_continue();
                    (void)reader.keep_alive();
                }
                break;
            }
            // complete
            (void)reader.keep_alive();
            (void)reader.is_head();
            const int version = reader.version();
            mcp::http::core::request req = reader.take();
            check(req.version == version && (version == 10 || version == 11));
            check(req.body.size() <= max_body);
            check(!req.method.empty() && !req.target.empty());
            if (version == 11) check(req.header("host").has_value());
            reader.next();
            check(!reader.started());
        }
        if (buffered.size() >= max_buffered) return 0; // the connection would answer 431 / 400
        if (offset >= input.size()) return 0;          // all offered; the rest is incomplete
    }
}
