#include "host_output.hpp"
#include "terminal.hpp"

#include <mcp/json/base64.hpp>
#include <mcp/json/text.hpp>

namespace mcpxx_cli {
namespace {

std::string size_of_base64(const std::string& data) {
    return std::to_string(data.size() / 4 * 3) + " bytes";
}

} // namespace

std::string describe(const mcp::resource_contents& c) {
    if (const auto* t = std::get_if<mcp::text_resource_contents>(&c)) return t->text;
    const auto& b = std::get<mcp::blob_resource_contents>(c);
    return "[binary " + mcp::printable(b.mime_type.value_or("data")) + ", about " + size_of_base64(b.blob) +
           ": " + mcp::printable(b.uri) + "]";
}

std::string describe(const mcp::content_block& block) {
    return std::visit(
        [](const auto& c) -> std::string {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, mcp::text_content>)
                return c.text;
            else if constexpr (std::is_same_v<T, mcp::image_content>)
                return "[image " + mcp::printable(c.mime_type) + ", about " + size_of_base64(c.data) + "]";
            else if constexpr (std::is_same_v<T, mcp::audio_content>)
                return "[audio " + mcp::printable(c.mime_type) + ", about " + size_of_base64(c.data) + "]";
            else if constexpr (std::is_same_v<T, mcp::resource_link>)
                return "[link " + mcp::printable(c.uri) + " (" + mcp::printable(c.name) + ")]";
            else
                return "[resource] " + describe(c.resource);
        },
        block);
}

std::string terminal_safe_json(const mcp::json::value& v) {
    // to_json escapes C0 already. DEL and C1 (U+0080..U+009F: U+009B is CSI on many
    // terminals) can only sit inside strings, as the bytes 7F and C2 80..C2 9F.
    const std::string text = mcp::to_json(v);
    std::string out;
    out.reserve(text.size());
    static constexpr char hex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        unsigned code = 0x100;
        if (c == 0x7F)
            code = 0x7F;
        else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                 static_cast<unsigned char>(text[i + 1]) <= 0x9F)
            code = static_cast<unsigned char>(text[++i]);
        if (code == 0x100) {
            out.push_back(text[i]);
            continue;
        }
        out += "\\u00";
        out.push_back(hex[code >> 4]);
        out.push_back(hex[code & 15]);
    }
    return out;
}

void print_json(const mcp::json::value& v) {
    std::cout << terminal_safe_json(v) << "\n";
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string counted(std::size_t n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

void print_call_result(const mcp::call_tool_result& result) {
    const bool is_error = result.is_error.value_or(false);
    auto& out = is_error ? std::cerr : std::cout;
    if (is_error) out << style::for_stream(2).red("tool error: ");
    for (const auto& c : result.content) out << content_body(describe(c)) << "\n";
    // JSON escapes C0 controls, not C1 ones or bidi overrides.
    if (result.content.empty() && result.structured_content)
        out << content_body(mcp::to_json(*result.structured_content)) << "\n";
}

void print_prompt_result(const mcp::get_prompt_result& result) {
    const auto st = style::for_stream(1);
    if (result.description) std::cout << st.dim(mcp::printable_lines(*result.description)) << "\n";
    for (const auto& m : result.messages)
        std::cout << st.bold(std::string(mcp::to_string(m.role)) + ": ")
                  << content_body(describe(m.content)) << "\n";
}

} // namespace mcpxx_cli
