// path_guard: confines paths that come from a client (a model, a URI) to a set of root
// directories. Reusable on its own: it knows nothing of MCP.
//
//   mcp::files::path_guard guard({"/srv/docs"});
//   auto p = guard.resolve("notes/../todo.txt");            // or "/srv/docs/todo.txt",
//   "file:///srv/docs/todo.txt" mcp::files::unique_fd fd = guard.open(p, O_RDONLY);     // opened without
//   following any symlink
//
// The rules, in order:
//  1. Input is an absolute path, a file:// URI (percent-decoded), or a path relative to a root
//     (the first root under which it exists, else the first root). Empty input and NUL bytes
//     are refused.
//  2. The path is resolved the way the kernel would (symlinks followed, "." and ".." applied
//     after each symlink, component by component), including a dangling symlink and a target
//     that does not exist yet: the existing part is resolved, the missing tail must be plain
//     names (a ".." after a missing directory is refused, since the kernel would fail there).
//  3. The resolved path must lie inside a root, compared component by component ("/a/bc" is
//     not inside "/a/b"). Roots are canonical (symlinks resolved) when the guard is made.
//  4. open() re-walks the resolved path from an fd of its root, one component at a time with
//     O_NOFOLLOW: if a directory is swapped for a symlink between resolve() and open(), the
//     open fails instead of escaping. Since the resolved path holds no symlink, that is exact.
// Symlinks that stay inside a root are followed; symlinks that leave every root are refused.
#pragma once

#include "unique_fd.hpp"

#include <sys/types.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::files {

/// A path outside the allowed roots, or one that cannot be judged. what() is meant for the
/// model or user who asked: it names the path and the allowed directories.
class path_refused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A path proven to be inside a root.
struct confined_path {
    std::filesystem::path real;     ///< absolute, no symlink in it, no "." or ".."
    std::filesystem::path root;     ///< the (canonical) root that holds it
    std::filesystem::path relative; ///< `real` relative to `root`; "." for the root itself
    bool exists = false;            ///< whether `real` existed when resolved
};

/// Whether `inner` is `outer` or lies beneath it, component by component (both absolute and
/// normalised).
bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

class path_guard {
public:
    /// No roots: every path is refused.
    path_guard() = default;
    /// Each root must be an existing directory (std::invalid_argument otherwise). Roots are made
    /// canonical; duplicates and roots inside another root are dropped, order kept.
    explicit path_guard(const std::vector<std::filesystem::path>& roots);

    const std::vector<std::filesystem::path>& roots() const noexcept { return roots_; }
    bool empty() const noexcept { return roots_.empty(); }
    /// "/a, /b" (or "none"), for messages.
    std::string describe_roots() const;

    /// Resolve client input to a path inside a root (rules 1-3 above); throws path_refused.
    confined_path resolve(std::string_view input) const;
    /// The root holding an absolute resolved path, or nullptr.
    const std::filesystem::path* root_of(const std::filesystem::path& resolved) const noexcept;

    /// open(2) `p` with `flags` (O_CLOEXEC and O_NOFOLLOW are added) without following any
    /// symlink on the way (rule 4). With `create_parents`, missing directories are created
    /// (mode 0777 & ~umask) one by one, the same way. Throws std::system_error (errno, and a
    /// message naming the path) when the open fails, and path_refused when a symlink appeared.
    unique_fd open(const confined_path& p, int flags, mode_t mode = 0666, bool create_parents = false) const;

private:
    std::vector<std::filesystem::path> roots_;
};

/// The path resolution of rule 2 on its own: `absolute` with every symlink of its existing
/// part resolved. Sets `exists` to whether the result exists. Throws path_refused for a
/// symlink loop, a ".." after a missing directory, a file used as a directory, or an lstat
/// failure other than "no such file".
std::filesystem::path resolve_symlinks(const std::filesystem::path& absolute, bool& exists);

} // namespace mcp::files
