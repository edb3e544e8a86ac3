// libFuzzer harness for the JSON Schema validator: arbitrary bytes become a schema and an instance.
// Build: cmake -DCMAKE_CXX_COMPILER=clang++ -DMCPXX_BUILD_FUZZ=ON ...; run: build/fuzz/schema_fuzz
//
// Input layout: byte 0 picks the options (bit 0: draft-07 by default, bit 1: format assertion),
// the rest is "<schema JSON>\0<instance JSON>"; without a NUL the schema is validated against
// itself. Compiling may fail (compile_error) but must never crash; validating must never crash or
// hang (pathological regexes are refused or linear, $ref cycles and depth are bounded, and
// exponential reference chains run out of budget), and is_valid must agree with validate().
#include <mcp/schema/validator.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace {

std::optional<mcp::json::value> parse(std::string_view text) {
    boost::system::error_code ec;
    boost::json::parse_options opts;
    opts.max_depth = 1000; // deeper than the validator's own bounds, shallow enough to destroy
    mcp::json::value v = boost::json::parse(text, ec, {}, opts);
    if (ec) return std::nullopt;
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t flags = data[0];
    std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto nul = rest.find('\0');
    const std::string_view schema_text = rest.substr(0, nul);
    const std::string_view instance_text = nul == std::string_view::npos ? schema_text : rest.substr(nul + 1);

    auto schema = parse(schema_text);
    if (!schema) return 0;
    auto instance = parse(instance_text);
    if (!instance) return 0;

    mcp::schema::compile_options options;
    options.default_dialect =
        (flags & 1) ? mcp::schema::dialect::draft07 : mcp::schema::dialect::draft2020_12;
    options.assert_format = (flags & 2) != 0;
    std::optional<mcp::schema::validator> v;
    try {
        v = mcp::schema::validator::compile(*schema, options);
    } catch (const mcp::schema::compile_error&) {
        return 0; // refusing a schema is a fine outcome
    }
    const bool fast = v->is_valid(*instance);
    const auto errors = v->validate(*instance, 8);
    if (fast != errors.empty()) __builtin_trap(); // the two entry points must give one verdict
    for (const auto& e : errors)
        if (e.message.empty() || (!e.instance_location.empty() && e.instance_location[0] != '/'))
            __builtin_trap();
    if (instance->is_string() && (flags & 4)) // the format checks on their own, by name
        for (const char* format :
             {"date-time", "email", "hostname", "idn-hostname", "ipv6", "uri", "uri-template", "duration",
              "regex", "idn-email", "iri-reference", "json-pointer"})
            (void)mcp::schema::check_format(format, instance->get_string());
    return 0;
}
