#include "host_output.hpp"

#include <mcp/json/base64.hpp>

namespace mcpxx_cli {
namespace {

std::string size_of_base64(const std::string& data) {
    return std::to_string(data.size() / 4 * 3) + " bytes";
}

} // namespace

std::string describe(const mcp::resource_contents& c) {
    if (const auto* t = std::get_if<mcp::text_resource_contents>(&c)) return t->text;
    const auto& b = std::get<mcp::blob_resource_contents>(c);
    return "[binary " + b.mime_type.value_or("data") + ", about " + size_of_base64(b.blob) + ": " + b.uri + "]";
}

std::string describe(const mcp::content_block& block) {
    return std::visit(
        [](const auto& c) -> std::string {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, mcp::text_content>) return c.text;
            else if constexpr (std::is_same_v<T, mcp::image_content>) return "[image " + c.mime_type + ", about " + size_of_base64(c.data) + "]";
            else if constexpr (std::is_same_v<T, mcp::audio_content>) return "[audio " + c.mime_type + ", about " + size_of_base64(c.data) + "]";
            else if constexpr (std::is_same_v<T, mcp::resource_link>) return "[link " + c.uri + " (" + c.name + ")]";
            else return "[resource] " + describe(c.resource);
        },
        block);
}

void print_json(const mcp::json::value& v) { std::cout << mcp::to_json(v) << "\n"; }

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

} // namespace mcpxx_cli
