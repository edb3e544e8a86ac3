#include "dir_walk.hpp"

#include "unique_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace mcp::files {
namespace {

entry_kind kind_of_mode(mode_t m) {
    if (S_ISREG(m)) return entry_kind::file;
    if (S_ISDIR(m)) return entry_kind::directory;
    if (S_ISLNK(m)) return entry_kind::symlink;
    return entry_kind::other;
}

struct walker {
    const walk_options& options;
    const std::function<walk_action(const walk_item&)>& visit;
    std::size_t visited = 0;
    bool truncated = false;
    bool stopped = false;

    void run(int dirfd, const std::filesystem::path& prefix, int depth) {
        std::vector<dir_entry> entries;
        try {
            entries = read_directory(dirfd, options.sizes);
        } catch (const std::system_error&) {
            return; // unreadable: skipped, as documented
        }
        for (const auto& e : entries) {
            if (stopped) return;
            if (++visited > options.max_entries) {
                truncated = stopped = true;
                return;
            }
            const std::filesystem::path rel =
                prefix.empty() ? std::filesystem::path(e.name) : prefix / e.name;
            const walk_action a = visit(walk_item{rel, e, depth, dirfd});
            if (a == walk_action::stop) {
                stopped = true;
                return;
            }
            if (a == walk_action::skip_children || e.kind != entry_kind::directory ||
                depth >= options.max_depth)
                continue;
            unique_fd child(::openat(dirfd, e.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (child) run(child.get(), rel, depth + 1);
        }
    }
};

} // namespace

std::vector<dir_entry> read_directory(int dirfd, bool sizes) {
    // fdopendir takes the descriptor it is given; a duplicate leaves the caller's own. The two
    // share one offset, hence the rewind.
    const int dup = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (dup < 0) throw std::system_error(errno, std::generic_category(), "Cannot read the directory");
    DIR* d = ::fdopendir(dup);
    if (!d) {
        const int e = errno;
        ::close(dup);
        throw std::system_error(e, std::generic_category(), "Cannot read the directory");
    }
    ::rewinddir(d);
    std::vector<dir_entry> out;
    while (const dirent* ent = ::readdir(d)) {
        const std::string_view name = ent->d_name;
        if (name == "." || name == "..") continue;
        dir_entry e{std::string(name), entry_kind::other, 0};
        switch (ent->d_type) {
        case DT_REG:
            e.kind = entry_kind::file;
            break;
        case DT_DIR:
            e.kind = entry_kind::directory;
            break;
        case DT_LNK:
            e.kind = entry_kind::symlink;
            break;
        case DT_UNKNOWN: { // some filesystems do not fill d_type
            struct stat st {};
            if (::fstatat(dirfd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                e.kind = kind_of_mode(st.st_mode);
            break;
        }
        default:
            break;
        }
        if (sizes && e.kind == entry_kind::file) {
            struct stat st {};
            if (::fstatat(dirfd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                e.size = static_cast<std::uint64_t>(st.st_size);
        }
        out.push_back(std::move(e));
    }
    ::closedir(d);
    std::sort(out.begin(), out.end(), [](const dir_entry& a, const dir_entry& b) { return a.name < b.name; });
    return out;
}

bool walk(int dirfd, const walk_options& options, const std::function<walk_action(const walk_item&)>& visit) {
    walker w{options, visit};
    w.run(dirfd, {}, 1);
    return w.truncated;
}

} // namespace mcp::files
