#include "file_io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <system_error>

namespace mcp::files {
namespace {

constexpr std::size_t chunk = 64 * 1024;

[[noreturn]] void read_failed(const std::filesystem::path& name) {
    throw std::system_error(errno, std::generic_category(), "Cannot read '" + name.string() + "'");
}

std::size_t read_some(int fd, char* buf, std::size_t n, const std::filesystem::path& name) {
    for (;;) {
        const ssize_t r = ::read(fd, buf, n);
        if (r >= 0) return static_cast<std::size_t>(r);
        if (errno != EINTR) read_failed(name);
    }
}

std::size_t pread_some(int fd, char* buf, std::size_t n, std::uint64_t offset,
                       const std::filesystem::path& name) {
    for (;;) {
        const ssize_t r = ::pread(fd, buf, n, static_cast<off_t>(offset));
        if (r >= 0) return static_cast<std::size_t>(r);
        if (errno != EINTR) read_failed(name);
    }
}

std::uint64_t size_of(int fd, const std::filesystem::path& name) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) read_failed(name);
    return static_cast<std::uint64_t>(st.st_size);
}

[[noreturn]] void over_limit(const std::filesystem::path& name, const std::string& what,
                             std::uint64_t max_bytes) {
    throw too_large("'" + name.string() + "' " + what + ", over the read limit of " + human_size(max_bytes));
}

} // namespace

std::string human_size(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = -1;
    while (v >= 1024 && u < 3) v /= 1024, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

std::string read_all(int fd, std::uint64_t max_bytes, const std::filesystem::path& name) {
    const std::uint64_t size = size_of(fd, name);
    if (size > max_bytes) over_limit(name, "is " + human_size(size), max_bytes);
    std::string out;
    out.resize(static_cast<std::size_t>(size));
    std::size_t have = 0;
    for (;;) {
        if (have == out.size()) {
            // The file may have grown since fstat: look for one byte more than allowed.
            if (out.size() >= max_bytes + 1) break;
            out.resize(std::min<std::uint64_t>(max_bytes + 1, out.size() + chunk));
        }
        const std::size_t n = read_some(fd, out.data() + have, out.size() - have, name);
        if (n == 0) break;
        have += n;
    }
    out.resize(have);
    if (have > max_bytes) over_limit(name, "grew while being read", max_bytes);
    return out;
}

std::string read_head(int fd, std::uint64_t lines, std::uint64_t max_bytes,
                      const std::filesystem::path& name) {
    std::string out;
    std::uint64_t seen = 0;
    std::string storage(chunk, '\0');
    char* buf = storage.data();
    for (;;) {
        const std::size_t n = read_some(fd, buf, chunk, name);
        if (n == 0) return out;
        for (std::size_t i = 0; i < n; ++i) {
            if (buf[i] != '\n') continue;
            if (++seen == lines) {
                if (out.size() + i + 1 > max_bytes) break;
                out.append(buf, i + 1);
                return out;
            }
        }
        if (out.size() + n > max_bytes)
            over_limit(name,
                       "has more than " + human_size(max_bytes) + " in its first " + std::to_string(lines) +
                           " lines,",
                       max_bytes);
        out.append(buf, n);
    }
}

std::string read_tail(int fd, std::uint64_t lines, std::uint64_t max_bytes,
                      const std::filesystem::path& name) {
    const std::uint64_t size = size_of(fd, name);
    std::string tail; // the bytes from `start` to the end of the file, grown backwards
    std::uint64_t start = size;
    std::uint64_t newlines = 0;
    std::string storage(chunk, '\0');
    char* buf = storage.data();
    while (start > 0) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, start));
        const std::uint64_t at = start - n;
        if (pread_some(fd, buf, n, at, name) != n) break; // shrank meanwhile: use what we have
        // Scan this chunk backwards for the newline that starts the wanted lines.
        for (std::size_t i = n; i-- > 0;) {
            if (buf[i] != '\n' || at + i == size - 1) continue; // a final newline ends a line
            if (++newlines == lines) {
                const std::size_t from = i + 1;
                if (tail.size() + (n - from) > max_bytes) break;
                tail.insert(0, buf + from, n - from);
                return tail;
            }
        }
        if (tail.size() + n > max_bytes)
            over_limit(name,
                       "has more than " + human_size(max_bytes) + " in its last " + std::to_string(lines) +
                           " lines,",
                       max_bytes);
        tail.insert(0, buf, n);
        start = at;
    }
    return tail;
}

void write_all(int fd, std::string_view bytes, const std::filesystem::path& name) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), "Cannot write '" + name.string() + "'");
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

} // namespace mcp::files
