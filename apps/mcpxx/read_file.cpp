#include "read_file.hpp"

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

mcp::json::value read_json_file(const std::string& path) {
    const std::string text = read_text_file(path);
    boost::system::error_code ec;
    auto v = mcp::parse_json(text, ec);
    if (!v) throw input_error(path + " is not valid JSON: " + ec.message());
    return std::move(*v);
}

} // namespace mcpxx_cli
