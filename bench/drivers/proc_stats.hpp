// proc_stats.hpp - what the load drivers read about the server under test from /proc: memory
// (VmRSS, VmHWM from /proc/PID/status) and CPU time of all its threads. Linux only.
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

namespace mcp::bench {

/// A "Key:   123 kB" line of /proc/PID/status, in KiB; nullopt when the process is gone.
inline std::optional<long> status_kb(pid_t pid, const char* key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    const std::size_t k = std::strlen(key);
    while (std::getline(in, line))
        if (line.compare(0, k, key) == 0 && line.size() > k && line[k] == ':')
            return std::atol(line.c_str() + k + 1);
    return std::nullopt;
}

/// CPU time of every thread of `pid`, in seconds: schedstat is in nanoseconds (precise for short
/// runs); /proc/PID/stat has clock ticks (10 ms) and is the fallback.
inline double cpu_seconds(pid_t pid) {
    const std::string base = "/proc/" + std::to_string(pid);
    double total = 0;
    bool any = false;
    if (DIR* d = ::opendir((base + "/task").c_str())) {
        while (dirent* e = ::readdir(d)) {
            if (e->d_name[0] == '.') continue;
            std::ifstream in(base + "/task/" + e->d_name + "/schedstat");
            unsigned long long ns = 0;
            if (in >> ns) total += static_cast<double>(ns) / 1e9, any = true;
        }
        ::closedir(d);
    }
    if (any) return total;
    std::ifstream in(base + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')'); // the command name may hold spaces
    if (close == std::string::npos) return 0;
    std::istringstream fields(text.substr(close + 2));
    std::string skip;
    for (int i = 3; i < 14; ++i) fields >> skip; // fields 3..13; utime and stime follow
    double utime = 0, stime = 0;
    fields >> utime >> stime;
    return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

} // namespace mcp::bench
