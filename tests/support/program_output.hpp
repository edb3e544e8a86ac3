// Running a program from a test (the mcpxx command-line tests): what it printed, and how it
// ended. stdin, stdout and stderr are files in a directory of the test (or a terminal the test
// holds), so that nothing the program writes can block it.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

/// `s` as one word of a /bin/sh command line (single-quoted).
inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// How to run a program.
struct program_run {
    std::vector<std::string> argv; ///< argv[0] is the program's path
    std::filesystem::path files;   ///< the directory of the files "stdin", "stdout" and "stderr"
    std::string input;             ///< what the stdin file holds (empty: end of input at once)
    std::filesystem::path cwd;     ///< the program's working directory (empty: the test's)
    std::vector<std::pair<std::string, std::string>> env; ///< variables set for the program
    int stdin_fd = -1;               ///< instead of the stdin file, e.g. a pseudo-terminal
    int stdout_fd = -1;              ///< instead of the stdout file (run_result::out is then "")
    std::vector<int> close_in_child; ///< descriptors the program must not inherit (a terminal's master)
    bool new_session = false;        ///< setsid(): a terminal on stdin becomes its controlling one
};

/// Start `r`; its pid.
pid_t start_program(const program_run& r);
/// Wait until the program started by start_program(r) ends; its exit code, stdout and stderr.
run_result finish_program(pid_t pid, const program_run& r);
/// start_program, then finish_program.
inline run_result run_program(const program_run& r) {
    return finish_program(start_program(r), r);
}

} // namespace mcp::test
