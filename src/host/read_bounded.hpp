// host/read_bounded.hpp - reading the files a host config names (the config files themselves and
// envFile): they come with whatever project was cloned, so a symlink to /dev/zero, a FIFO or a
// huge file must fail with a message instead of hanging or exhausting memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace mcp::host::detail {

/// Config files: ~/.claude.json keeps Claude Code's history too and grows to megabytes.
inline constexpr std::size_t max_config_file_bytes = std::size_t{64} << 20;
/// envFile: KEY=VALUE lines.
inline constexpr std::size_t max_env_file_bytes = std::size_t{1} << 20;

/// The content of `p` when it is a regular file (after symlinks) of at most `max_bytes`;
/// otherwise nullopt with `error` saying why ("is not a regular file", "is larger than ...",
/// "cannot be read").
std::optional<std::string> read_regular_file(const std::filesystem::path& p, std::size_t max_bytes,
                                             std::string& error);

} // namespace mcp::host::detail
