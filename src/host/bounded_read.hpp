// host/bounded_read.hpp - reading a file that someone else may have put in place.
//
// Config files and the env files they name come from the user's home and from the project in
// the current directory, which arrives with a `git clone`: a `.mcp.json` may be a symbolic link
// to /dev/zero (endless), a FIFO (a read that never returns) or a device. Discovery must never
// hang or exhaust memory on them, so such files are read only when they are regular files of a
// bounded size.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace mcp::host::detail {

/// Config files: ~/.claude.json keeps Claude Code's per-project state and grows large.
inline constexpr std::size_t max_config_file_bytes = 64u << 20;
/// A .env file named by envFile.
inline constexpr std::size_t max_env_file_bytes = 1u << 20;

/// The content of `path` (symbolic links followed) when it is a regular file of at most
/// `max_bytes`. Otherwise nullopt, with `error` empty when nothing exists at `path`, or saying
/// why: "is not a regular file", "is larger than 64 MiB", "cannot be read (Permission denied)".
/// Never blocks: the file is opened non-blocking and checked before anything is read.
std::optional<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                             std::string& error);

} // namespace mcp::host::detail
