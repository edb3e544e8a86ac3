// host/private_files.hpp - files of the user's own configuration that nobody else may read or
// change: the list of allowed project files, the audit log's key. Created with mode 0600 in
// directories created with mode 0700, written whole before they take their name, and read only
// when they are regular files (never a FIFO or a device that would block or never end).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::host::detail {

/// A descriptor closed on every path out.
struct unique_fd {
    int fd = -1;
    explicit unique_fd(int f) noexcept : fd(f) {}
    ~unique_fd();
    unique_fd(const unique_fd&) = delete;
    unique_fd& operator=(const unique_fd&) = delete;
};

/// Write all of `data`; throws std::system_error.
void write_all(int fd, std::string_view data);

/// Create the missing directories of `dir`, each with mode 0700 (existing ones keep theirs).
/// Throws std::filesystem::filesystem_error naming the directory that could not be made.
void create_private_directories(const std::filesystem::path& dir);

/// What reading a private file found.
struct private_file_content {
    std::string bytes;
    unsigned mode = 0;  ///< its permission bits (st_mode & 07777)
    unsigned owner = 0; ///< the user id that owns it
};

/// The content of `file` (symbolic links followed), or nullopt when nothing exists there.
/// Throws std::runtime_error with the reason (without the file's name) when it cannot be read, is
/// not a regular file or is larger than `max_bytes`.
std::optional<private_file_content> read_private_file(const std::filesystem::path& file,
                                                      std::size_t max_bytes);

/// Put `content` at `file` with mode 0600, creating its directories (0700): a temporary file in
/// the same directory is written, flushed to disk, then renamed over `file` (`replace`) or
/// linked to it only if nothing is there yet (not `replace`). A reader sees the old content or
/// the new, never part of one. Returns false when `replace` is false and `file` exists (nothing
/// is changed). Throws std::system_error (or filesystem_error for a directory) on failure.
bool write_private_file(const std::filesystem::path& file, std::string_view content, bool replace);

} // namespace mcp::host::detail
