#include "read_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mcpxx_cli {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw input_error("cannot open " + path + ": " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw input_error("cannot read " + path);
    return std::move(ss).str();
}

mcp::json::value parse_json_text(std::string_view text, const std::string& what) {
    mcp::json::parse_options options;
    options.max_depth = 64; // as mcp::parse_json
    mcp::json::stream_parser parser(mcp::json::storage_ptr(), options);
    boost::system::error_code ec;
    // write() stops where the text goes wrong (or reports what follows a complete value).
    const std::size_t good = parser.write(text.data(), text.size(), ec);
    if (!ec) parser.finish(ec);
    if (!ec) return parser.release();
    std::string where = "at byte " + std::to_string(good);
    if (text.find('\n') != std::string_view::npos) {
        const auto before = text.substr(0, good);
        const auto line = std::count(before.begin(), before.end(), '\n') + 1;
        const auto line_start = before.rfind('\n');
        const auto column = good - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
        where += " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
    }
    throw input_error(what + " is not valid JSON: " + ec.message() + " " + where);
}

mcp::json::value read_json_file(const std::string& path) {
    return parse_json_text(read_text_file(path), path);
}

} // namespace mcpxx_cli
