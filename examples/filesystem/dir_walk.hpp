// Reading and walking directories from open descriptors, never following a symlink: a walk
// that starts inside a root stays inside it, whatever the tree holds or becomes meanwhile.
// Entries come sorted by name, so listings and searches are deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace mcp::files {

enum class entry_kind { file, directory, symlink, other };

struct dir_entry {
    std::string name;
    entry_kind kind = entry_kind::other;
    std::uint64_t size = 0; ///< bytes, for files, when sizes were asked for
};

/// The entries of an open directory (O_RDONLY | O_DIRECTORY; "." and ".." left out), sorted by
/// name. With `sizes`, one fstatat per file. Throws std::system_error if it cannot be read.
std::vector<dir_entry> read_directory(int dirfd, bool sizes = false);

struct walk_options {
    int max_depth = 32;               ///< entries of the starting directory are at depth 1
    std::size_t max_entries = 100000; ///< entries visited before the walk gives up
    bool sizes = false;
};

enum class walk_action { go_on, skip_children, stop };

/// What a walk visits.
struct walk_item {
    const std::filesystem::path& relative; ///< from the starting directory
    const dir_entry& entry;
    int depth;     ///< 1 for the starting directory's own entries
    int parent_fd; ///< the open directory holding the entry: openat() it with O_NOFOLLOW
};

/// Depth first, in name order; `visit` decides whether to go on. Directories that cannot be
/// opened are skipped (a permission problem deep in a tree should not end a search). Returns
/// true when the walk stopped at max_entries (the result is partial).
bool walk(int dirfd, const walk_options& options, const std::function<walk_action(const walk_item&)>& visit);

} // namespace mcp::files
