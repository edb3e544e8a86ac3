// libFuzzer harness: arbitrary bytes as a stdio stream from a (hostile) peer, through the line
// framer (mcp/transport/line_framer.hpp) and the envelope scan of the lines it discards
// (mcp/jsonrpc/envelope_scan.hpp). Byte 0 is the slice size (0: one slice), byte 1 the line
// limit; the rest is fed once whole and once in slices, and both must give the same lines,
// oversize reports and response ids: slicing never changes what the stream means. Lines
// respect the limit, hold no "\n" and are never blank; an oversize report is
// over the limit; partial() agrees.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/line_framer_fuzz
#include <mcp/transport/line_framer.hpp>

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

std::vector<std::string> run(std::string_view input, std::size_t step, std::size_t max_line) {
    mcp::line_framer f(max_line);
    std::vector<std::string> out;
    const auto on_line = [&](std::string_view line, bool) {
        check(line.size() <= max_line);
        check(line.find('\n') == std::string_view::npos);
        check(!line.empty());
        check(line.find_first_not_of(" \t\r") != std::string_view::npos);
        out.push_back("line " + std::string(line));
    };
    const auto on_oversize = [&](std::size_t bytes) {
        check(bytes > max_line);
        const auto id = f.discarded_response_id();
        out.push_back("oversize " + std::to_string(bytes) + " " + (id ? std::to_string(*id) : "-"));
    };
    for (std::size_t i = 0; i < input.size(); i += step) f.feed(input.substr(i, step), on_line, on_oversize);
    // After a scan, nothing is left attributed.
    check(!f.discarded_response_id());
    out.push_back(f.partial() ? "partial" : "complete");
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
    const std::size_t whole = std::max<std::size_t>(input.size(), 1);
    const std::size_t step = data[0] == 0 ? whole : data[0];
    const std::size_t max_line = std::max<std::size_t>(data[1], 1);
    check(run(input, whole, max_line) == run(input, step, max_line));
    return 0;
}
