// libFuzzer harness: arbitrary JSON text as the params or result of an MCP message a peer sends,
// read with the protocol codec (include/mcp/protocol/codec.hpp). Byte 0 picks the type
// (tools/list result, CallToolResult, sampling/createMessage params, elicitation/create params,
// ...) and a revision; the rest is parsed as JSON (invalid JSON is skipped). from_json either
// succeeds or throws mcp::error(invalid_params) with a message; what it accepted encodes for the
// revision (or is refused with mcp::error), and the encoding is a fixed point: decoding it and
// encoding again gives the same JSON.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/codec_fuzz
#include <mcp/protocol/types.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

template <class T> void round_trip(const mcp::json::value& v, mcp::revision r) {
    T x;
    try {
        x = mcp::from_json<T>(v);
    } catch (const mcp::error& e) {
        check(e.code() == static_cast<int>(mcp::error_code::invalid_params) &&
              !std::string_view(e.what()).empty());
        return;
    }
    mcp::json::object wire;
    try {
        wire = mcp::to_json(x, r);
    } catch (const mcp::error& e) {
        check(e.code() == static_cast<int>(mcp::error_code::invalid_params));
        return;
    }
    // What we send, we read back, and it says the same.
    const T back = mcp::from_json<T>(wire);
    check(mcp::to_json(back, r) == wire);
}

using reader = void (*)(const mcp::json::value&, mcp::revision);

// Results and requests a peer sends, as our client and server read them.
constexpr reader readers[] = {
    round_trip<mcp::list_tools_result>,     round_trip<mcp::call_tool_result>,
    round_trip<mcp::call_tool_request>,     round_trip<mcp::create_message_request>,
    round_trip<mcp::create_message_result>, round_trip<mcp::elicit_request>,
    round_trip<mcp::elicit_result>,         round_trip<mcp::initialize_request>,
    round_trip<mcp::initialize_result>,     round_trip<mcp::discover_result>,
    round_trip<mcp::list_resources_result>, round_trip<mcp::list_resource_templates_result>,
    round_trip<mcp::read_resource_result>,  round_trip<mcp::list_prompts_result>,
    round_trip<mcp::get_prompt_result>,     round_trip<mcp::get_prompt_request>,
    round_trip<mcp::complete_request>,      round_trip<mcp::complete_result>,
    round_trip<mcp::list_roots_result>,     round_trip<mcp::logging_message_notification>,
    round_trip<mcp::progress_notification>, round_trip<mcp::cancelled_notification>,
};
constexpr std::size_t reader_count = sizeof(readers) / sizeof(readers[0]);

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const reader read = readers[(data[0] & 0x1F) % reader_count];
    const mcp::revision r = mcp::all_revisions[(data[0] >> 5) % mcp::all_revisions.size()];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    boost::system::error_code ec;
    boost::json::parse_options opts;
    opts.max_depth = 64;
    const mcp::json::value v = boost::json::parse(text, ec, {}, opts);
    if (ec) return 0;
    read(v, r);
    return 0;
}
