// host/bounded_read.cpp - see bounded_read.hpp.
#include "host/bounded_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::host::detail {
namespace {

std::string size_text(std::size_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::string cannot_read(int err) {
    return "cannot be read (" + std::string(std::strerror(err)) + ")";
}

} // namespace

std::optional<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                             std::string& error) {
    error.clear();
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno != ENOENT && errno != ENOTDIR) error = cannot_read(errno);
        return std::nullopt;
    }
    struct closer {
        int fd;
        ~closer() { ::close(fd); }
    } guard{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        error = cannot_read(errno);
        return std::nullopt;
    }
    if (!S_ISREG(st.st_mode)) {
        error = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file";
        return std::nullopt;
    }
    const auto too_large = [&] {
        error = "is larger than " + size_text(max_bytes);
        return std::nullopt;
    };
    if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) return too_large();
    std::string out;
    out.resize(static_cast<std::size_t>(st.st_size) + 1);
    std::size_t used = 0;
    for (;;) {
        if (used == out.size()) {
            if (out.size() > max_bytes) return too_large(); // it grew while being read
            out.resize(std::min(out.size() * 2, max_bytes + 1));
        }
        const ssize_t n = ::read(fd, out.data() + used, out.size() - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = cannot_read(errno);
            return std::nullopt;
        }
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    if (used > max_bytes) return too_large();
    out.resize(used);
    return out;
}

} // namespace mcp::host::detail
