// The small non-virtual parts of the transport seam.
#include <mcp/transport/transport.hpp>

namespace mcp {

namespace {
bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}
} // namespace

const std::string* message_origin::header(std::string_view name) const noexcept {
    for (const auto& [n, v] : headers)
        if (ascii_iequals(n, name)) return &v;
    return nullptr;
}

} // namespace mcp
