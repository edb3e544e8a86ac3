// libFuzzer harness: arbitrary bytes as an event stream a (hostile) server sends to the HTTP
// client's SSE parser (src/http/client/sse_parser.hpp). Byte 0 is the slice size (0: one
// slice), byte 1 picks the event bound; the rest is fed once whole and once in slices, and both
// must give the same events, retries, oversize reports and last event id: slicing never changes
// what the stream means. Events respect the bound, types and ids hold no line breaks, ids no NUL.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/sse_fuzz
#include "http/client/sse_parser.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

bool has_line_break(std::string_view s) {
    return s.find_first_of("\r\n") != std::string_view::npos;
}

// Everything the parser reported, in order, as text.
std::vector<std::string> run(std::string_view input, std::size_t step, std::size_t max_event) {
    std::vector<std::string> out;
    using mcp::http::detail::sse_parser;
    sse_parser p(sse_parser::callbacks{
                     .on_event =
                         [&](const mcp::http::detail::sse_event& e) {
                             check(e.data.size() <= max_event);
                             check(!e.type.empty() && !has_line_break(e.type));
                             check(e.data.find('\r') == std::string_view::npos);
                             check(!has_line_break(e.last_event_id));
                             check(e.last_event_id.find('\0') == std::string_view::npos);
                             out.push_back("event " + std::string(e.type) + "|" +
                                           std::string(e.last_event_id) + "|" + std::string(e.data));
                         },
                     .on_retry = [&](std::uint64_t ms) { out.push_back("retry " + std::to_string(ms)); },
                     .on_oversize =
                         [&](std::size_t bytes) {
                             check(bytes > max_event);
                             out.push_back("oversize " + std::to_string(bytes));
                         },
                 },
                 max_event);
    for (std::size_t i = 0; i < input.size(); i += step) p.feed(input.substr(i, step));
    out.push_back("last " + p.last_event_id());
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
    const std::size_t step = data[0] == 0 ? std::max<std::size_t>(input.size(), 1) : data[0];
    // Small bounds reach the oversize paths; 0xFF keeps the default 4 MiB.
    const std::size_t max_event = data[1] == 0xFF ? std::size_t{4} << 20 : data[1];
    const auto whole = run(input, std::max<std::size_t>(input.size(), 1), max_event);
    const auto sliced = run(input, step, max_event);
    check(whole == sliced);
    return 0;
}
