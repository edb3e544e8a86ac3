// host/private_files.cpp - see private_files.hpp.
#include "host/private_files.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::host::detail {
namespace {

[[noreturn]] void throw_errno() {
    throw std::system_error(errno, std::generic_category());
}

} // namespace

unique_fd::~unique_fd() {
    if (fd >= 0) ::close(fd);
}

void write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const auto n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw_errno();
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

void create_private_directories(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> missing;
    std::error_code ec;
    for (auto d = dir; !d.empty() && !std::filesystem::exists(d, ec); d = d.parent_path()) {
        missing.push_back(d);
        if (d == d.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
            throw std::filesystem::filesystem_error("cannot create", *it,
                                                    std::error_code(errno, std::generic_category()));
}

std::optional<private_file_content> read_private_file(const std::filesystem::path& file,
                                                      std::size_t max_bytes) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    unique_fd in(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    const auto cannot_read = [] {
        return std::runtime_error("cannot be read: " +
                                  std::error_code(errno, std::generic_category()).message());
    };
    if (in.fd < 0) {
        if (errno == ENOENT) return std::nullopt;
        throw cannot_read();
    }
    struct stat st {};
    if (::fstat(in.fd, &st) != 0) throw cannot_read();
    if (!S_ISREG(st.st_mode)) throw std::runtime_error("is not a regular file");
    if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
        throw std::runtime_error("is larger than " + std::to_string(max_bytes) + " bytes");
    private_file_content out{.mode = static_cast<unsigned>(st.st_mode) & 07777u,
                             .owner = static_cast<unsigned>(st.st_uid)};
    char buf[8192];
    for (;;) {
        const auto n = ::read(in.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw cannot_read();
        if (n == 0) break;
        out.bytes.append(buf, static_cast<std::size_t>(n));
        if (out.bytes.size() > max_bytes) // it grew while being read
            throw std::runtime_error("is larger than " + std::to_string(max_bytes) + " bytes");
    }
    return out;
}

bool write_private_file(const std::filesystem::path& file, std::string_view content, bool replace) {
    const auto dir = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    create_private_directories(dir);
    std::string temp = (dir / (file.filename().string() + ".tmp-XXXXXX")).string();
    unique_fd out(::mkstemp(temp.data()));
    if (out.fd < 0) throw_errno();
    bool placed = true;
    try {
        if (::fchmod(out.fd, 0600) != 0) throw_errno();
        write_all(out.fd, content);
        if (::fsync(out.fd) != 0) throw_errno();
        if (::close(std::exchange(out.fd, -1)) != 0) throw_errno();
        if (replace) {
            if (::rename(temp.c_str(), file.c_str()) != 0) throw_errno();
        } else {
            // link(2) refuses an existing name: of two programs creating the file at once, one
            // wins and the other reads what the winner wrote, whole.
            if (::link(temp.c_str(), file.c_str()) != 0) {
                if (errno != EEXIST) throw_errno();
                placed = false;
            }
            ::unlink(temp.c_str());
        }
    } catch (...) {
        ::unlink(temp.c_str());
        throw;
    }
    // The new name reaches the disk with the directory.
    unique_fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.fd >= 0) ::fsync(d.fd);
    return placed;
}

} // namespace mcp::host::detail
