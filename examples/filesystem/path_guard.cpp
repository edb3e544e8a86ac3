#include "path_guard.hpp"

#include "file_uri.hpp"

#include <fcntl.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <system_error>

namespace mcp::files {
namespace fs = std::filesystem;

namespace {

// Linux gives up after 40 symlinks in one resolution (ELOOP); so do we.
constexpr int max_symlinks = 40;

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

std::string read_link(const fs::path& p) {
    std::string target(256, '\0');
    for (;;) {
        const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
        if (n < 0)
            throw path_refused("Cannot read the symbolic link " + quoted(p) + ": " + std::strerror(errno));
        if (static_cast<std::size_t>(n) < target.size()) {
            target.resize(static_cast<std::size_t>(n));
            return target;
        }
        target.resize(target.size() * 2);
    }
}

// Push the components of `p` (without its root directory) to the front of `todo`, in order.
void push_front_components(std::deque<fs::path>& todo, const fs::path& p) {
    std::vector<fs::path> parts;
    for (const auto& c : p.relative_path()) parts.push_back(c);
    todo.insert(todo.begin(), parts.begin(), parts.end());
}

} // namespace

bool is_within(const fs::path& inner, const fs::path& outer) {
    auto o = outer.begin(), i = inner.begin();
    for (; o != outer.end(); ++o, ++i) {
        if (o->empty() && std::next(o) == outer.end()) break; // a trailing separator of `outer`
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

fs::path resolve_symlinks(const fs::path& absolute, bool& exists) {
    std::deque<fs::path> todo;
    push_front_components(todo, absolute);
    fs::path result = "/";
    bool missing = false;
    int links = 0;
    while (!todo.empty()) {
        const fs::path c = std::move(todo.front());
        todo.pop_front();
        if (c.empty() || c == ".") continue;
        if (c == "..") {
            // After a missing directory the kernel stops with ENOENT; applying ".." lexically
            // there could land on a symlink nobody checked.
            if (missing) throw path_refused("No such directory: " + quoted(result));
            result = result.parent_path(); // exact: `result` holds no symlink
            continue;
        }
        fs::path next = result / c;
        if (missing) {
            result = std::move(next);
            continue;
        }
        struct stat st {};
        if (::lstat(next.c_str(), &st) != 0) {
            if (errno != ENOENT)
                throw path_refused("Cannot access " + quoted(next) + ": " + std::strerror(errno));
            missing = true;
            result = std::move(next);
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            if (++links > max_symlinks)
                throw path_refused("Too many levels of symbolic links at " + quoted(next));
            const fs::path target = read_link(next);
            push_front_components(todo, target);
            if (target.is_absolute()) result = "/";
            continue;
        }
        if (!todo.empty() && !S_ISDIR(st.st_mode)) {
            // Only a trailing "." or empty component may follow a file.
            bool only_dots = std::all_of(todo.begin(), todo.end(),
                                         [](const fs::path& p) { return p.empty() || p == "."; });
            if (!only_dots) throw path_refused("Not a directory: " + quoted(next));
        }
        result = std::move(next);
    }
    exists = !missing;
    return result;
}

path_guard::path_guard(const std::vector<fs::path>& roots) {
    std::vector<fs::path> canonical;
    for (const auto& r : roots) {
        std::error_code ec;
        fs::path c = fs::canonical(r, ec);
        if (ec) throw std::invalid_argument("root " + quoted(r) + ": " + ec.message());
        if (!fs::is_directory(c, ec))
            throw std::invalid_argument("root " + quoted(r) + " is not a directory");
        canonical.push_back(std::move(c));
    }
    for (const auto& c : canonical) {
        bool covered = std::any_of(canonical.begin(), canonical.end(),
                                   [&](const fs::path& other) { return other != c && is_within(c, other); });
        if (!covered && std::find(roots_.begin(), roots_.end(), c) == roots_.end()) roots_.push_back(c);
    }
}

std::string path_guard::describe_roots() const {
    if (roots_.empty()) return "none";
    std::string out;
    for (const auto& r : roots_) {
        if (!out.empty()) out += ", ";
        out += r.string();
    }
    return out;
}

const fs::path* path_guard::root_of(const fs::path& resolved) const noexcept {
    for (const auto& r : roots_)
        if (is_within(resolved, r)) return &r;
    return nullptr;
}

confined_path path_guard::resolve(std::string_view input) const {
    if (roots_.empty())
        throw path_refused("No directory is allowed: start the server with directories, or offer MCP roots");
    if (input.empty()) throw path_refused("Empty path: give an absolute path inside " + describe_roots());
    if (input.find('\0') != std::string_view::npos) throw path_refused("A path may not contain NUL bytes");
    fs::path asked;
    if (input.size() >= 5 && ::strncasecmp(input.data(), "file:", 5) == 0) { // schemes are case-insensitive
        auto p = path_of_file_uri(input);
        if (!p) throw path_refused("Not a file:// URI of this machine: " + std::string(input));
        asked = std::move(*p);
    } else {
        asked = fs::path(input);
    }
    if (asked.is_relative()) {
        fs::path base = roots_.front();
        for (const auto& r : roots_) {
            struct stat st {};
            if (::lstat((r / asked).c_str(), &st) == 0) {
                base = r;
                break;
            }
        }
        asked = base / asked;
    }
    confined_path out;
    out.real = resolve_symlinks(asked, out.exists);
    const fs::path* root = root_of(out.real);
    if (!root) {
        std::string why = "Access denied: " + quoted(asked);
        if (out.real != asked.lexically_normal())
            why += " resolves to " + quoted(out.real) + ", which is";
        else
            why += " is";
        throw path_refused(why + " outside the allowed directories (" + describe_roots() + ")");
    }
    out.root = *root;
    out.relative = out.real.lexically_relative(*root);
    if (out.relative.empty()) out.relative = ".";
    return out;
}

unique_fd path_guard::open(const confined_path& p, int flags, mode_t mode, bool create_parents) const {
    // ELOOP (O_NOFOLLOW met a symlink) or ENOTDIR on the way: the path resolved without either,
    // so it changed since: refuse rather than report an ordinary error.
    auto fail = [&](const std::string& what, bool on_the_way = false) -> unique_fd {
        const int e = errno;
        if (e == ELOOP || (on_the_way && e == ENOTDIR))
            throw path_refused("Refusing " + quoted(p.real) +
                               ": part of it changed into a symbolic link or file "
                               "after it was checked");
        throw std::system_error(e, std::generic_category(), what);
    };
    unique_fd dir(::open(p.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir) return fail("Cannot open the root " + quoted(p.root));
    std::vector<fs::path> parts;
    for (const auto& c : p.relative)
        if (!c.empty() && c != ".") parts.push_back(c);
    if (parts.empty()) {
        unique_fd fd(::openat(dir.get(), ".", flags | O_CLOEXEC, mode));
        return fd ? std::move(fd) : fail("Cannot open " + quoted(p.real));
    }
    fs::path walked = p.root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        walked /= parts[i];
        const char* name = parts[i].c_str();
        unique_fd next(::openat(dir.get(), name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next && errno == ENOENT && create_parents) {
            if (::mkdirat(dir.get(), name, 0777) != 0 && errno != EEXIST)
                return fail("Cannot create the directory " + quoted(walked), true);
            next.reset(::openat(dir.get(), name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        }
        if (!next) {
            return fail("Cannot open " + quoted(walked), true);
        }
        dir = std::move(next);
    }
    unique_fd fd(::openat(dir.get(), parts.back().c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode));
    return fd ? std::move(fd) : fail("Cannot open " + quoted(p.real));
}

} // namespace mcp::files
