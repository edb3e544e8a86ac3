// Reading the files the commands are given, with errors that name the file.
#pragma once

#include <mcp/json/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpxx_cli {

/// A file the user named cannot be used; the message says which and why.
class input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// `text` parsed as JSON. Throws input_error "WHAT is not valid JSON: REASON at byte N" (with the
/// line and column when the text has several lines).
mcp::json::value parse_json_text(std::string_view text, const std::string& what);
/// The whole file. Throws input_error.
std::string read_text_file(const std::string& path);
/// The file parsed as JSON. Throws input_error naming the file and the position of a syntax error.
mcp::json::value read_json_file(const std::string& path);

} // namespace mcpxx_cli
