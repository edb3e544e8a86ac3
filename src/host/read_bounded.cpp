// See read_bounded.hpp.
#include "host/read_bounded.hpp"

#include <fstream>

namespace mcp::host::detail {

std::optional<std::string> read_regular_file(const std::filesystem::path& p, std::size_t max_bytes,
                                             std::string& error) {
    std::error_code ec;
    const auto st = std::filesystem::status(p, ec);
    if (ec) {
        error = "cannot be read: " + ec.message();
        return std::nullopt;
    }
    if (st.type() != std::filesystem::file_type::regular) {
        error = "is not a regular file";
        return std::nullopt;
    }
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        error = "cannot be read";
        return std::nullopt;
    }
    // Bounded even if the file changes between the check and the read.
    std::string text;
    char buffer[16384];
    while (in) {
        in.read(buffer, sizeof buffer);
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes) {
            error = "is larger than " + std::to_string(max_bytes) + " bytes";
            return std::nullopt;
        }
    }
    if (in.bad()) {
        error = "cannot be read";
        return std::nullopt;
    }
    return text;
}

} // namespace mcp::host::detail
