// support/program_output.cpp - see program_output.hpp.
#include "support/program_output.hpp"

#include <cstdlib>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

pid_t start_program(const program_run& r) {
    const auto in = r.files / "stdin", out = r.files / "stdout", err = r.files / "stderr";
    if (r.stdin_fd < 0) std::ofstream(in) << r.input;
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    // The child: only async-signal-safe work until execv, apart from setenv (single-threaded
    // child of a test that does not hold the environment lock while forking).
    if (r.new_session) ::setsid();
    const int i = r.stdin_fd >= 0 ? r.stdin_fd : ::open(in.c_str(), O_RDONLY),
              o = r.stdout_fd >= 0 ? r.stdout_fd : ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644),
              e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(i, 0), ::dup2(o, 1), ::dup2(e, 2);
    for (int fd : r.close_in_child) ::close(fd);
    for (const auto& [name, value] : r.env) ::setenv(name.c_str(), value.c_str(), 1);
    if (!r.cwd.empty() && ::chdir(r.cwd.c_str()) != 0) ::_exit(99);
    std::vector<char*> argv;
    for (const auto& a : r.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(98);
}

run_result finish_program(pid_t pid, const program_run& r) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    run_result result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    if (r.stdout_fd < 0) result.out = slurp(r.files / "stdout");
    result.err = slurp(r.files / "stderr");
    return result;
}

} // namespace mcp::test
