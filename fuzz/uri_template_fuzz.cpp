// libFuzzer harness: arbitrary bytes as an RFC 6570 template. Parsing either succeeds or throws
// uri_template_error; a parsed template expands a fixed variable set (or throws
// uri_template_error for values the RFC forbids) and matches a few fixed URIs plus the input
// itself, never crashing, hanging or reading out of bounds.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/uri_template_fuzz
#include <mcp/protocol/uri_template.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const mcp::json::object& variables() {
    static const mcp::json::object v{
        {"var", "value"},
        {"hello", "Hello World!"},
        {"empty", ""},
        {"path", "/foo/bar"},
        {"x", 1024},
        {"y", 76.8},
        {"flag", true},
        {"undef", nullptr},
        {"list", mcp::json::array{"red", "green", nullptr, "blue"}},
        {"keys", mcp::json::object{{"semi", ";"}, {"dot", "."}, {"comma", ","}}},
        {"utf8", "\xCE\xB1\xCE\xB2\xF0\x9D\x84\x9E"},
        {"nested", mcp::json::array{mcp::json::array{"a"}}},
    };
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    auto t = mcp::uri_template::try_parse(input);
    if (!t) return 0;
    (void)t->variable_names();
    std::string expanded;
    try {
        expanded = t->expand(variables());
    } catch (const mcp::uri_template_error&) {
        expanded.clear();
    }
    // The expansion of a template, matched back, must be accepted or refused cleanly.
    (void)t->match(expanded);
    (void)t->match("file:///a/b%20c/d.txt?q=1&r=2#frag");
    (void)t->match(input);
    return 0;
}
