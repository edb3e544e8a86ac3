// Bounded reads and complete writes on open descriptors. Every read has a byte limit, checked
// before memory is spent, so a huge file costs an error message and not the server.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::files {

/// More bytes than the limit allows; what() names the file, its size and the limit.
class too_large : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// "1.5 MiB" style, for messages.
std::string human_size(std::uint64_t bytes);

/// The whole of a regular file. Throws too_large when it holds more than `max_bytes` (also
/// when it grows past the limit while being read), std::system_error on a read error.
std::string read_all(int fd, std::uint64_t max_bytes, const std::filesystem::path& name);

/// The first `lines` lines (each with its newline, the last one possibly without), reading at
/// most `max_bytes`: too_large if those lines are longer than that.
std::string read_head(int fd, std::uint64_t lines, std::uint64_t max_bytes,
                      const std::filesystem::path& name);

/// The last `lines` lines (a final newline ends the last line, it does not start an empty one),
/// read from the end: too_large if they are longer than `max_bytes`.
std::string read_tail(int fd, std::uint64_t lines, std::uint64_t max_bytes,
                      const std::filesystem::path& name);

/// Write every byte (retrying short writes and EINTR); std::system_error on failure.
void write_all(int fd, std::string_view bytes, const std::filesystem::path& name);

} // namespace mcp::files
