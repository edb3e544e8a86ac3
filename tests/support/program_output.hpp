// What a program run by a test printed, and how it ended (the mcpxx command-line tests).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace mcp::test {

struct run_result {
    int exit_code = -1; ///< the exit status, or -signal when a signal ended the program
    std::string out, err;
};

/// The whole content of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace mcp::test
