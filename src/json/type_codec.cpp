// Out-of-line helpers of mcp/json/type_codec.hpp (error messages only; the conversions are
// templates in the header).
#include <mcp/json/type_codec.hpp>

namespace mcp::detail {

std::string_view json_kind_name(const json::value& v) noexcept {
    switch (v.kind()) {
    case json::kind::null:
        return "null";
    case json::kind::bool_:
        return "boolean";
    case json::kind::int64:
    case json::kind::uint64:
        return "integer";
    case json::kind::double_:
        return "number";
    case json::kind::string:
        return "string";
    case json::kind::array:
        return "array";
    case json::kind::object:
        return "object";
    }
    return "unknown";
}

std::string pointer_escape(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (char c : name) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

void throw_expected(std::string_view what, const json::value& got) {
    throw conversion_error("", "expected " + std::string(what) + ", got " + std::string(json_kind_name(got)));
}

} // namespace mcp::detail
