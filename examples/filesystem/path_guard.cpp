#include "path_guard.hpp"

#include "file_uri.hpp"

#include <climits>
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
// Longer paths are refused before any work (the kernel's own limit, ENAMETOOLONG), and so is a
// resolution that passes so many components, symlink targets included: a path is then judged
// in bounded time whatever the input and the links on its way.
constexpr std::size_t max_path_bytes = PATH_MAX;
constexpr std::size_t max_components = 8192;

// A resolution that failed at `where` (the path resolved so far): the message may tell facts
// about `where` only when it lies inside a root (path_guard::resolve decides).
class resolution_failed : public path_refused {
public:
    resolution_failed(const std::string& what, std::string where)
        : path_refused(what), where(std::move(where)) {}
    std::string where;
};

std::string quoted(const fs::path& p) {
    return "'" + p.string() + "'";
}

std::string quoted(const char* p) {
    return "'" + std::string(p) + "'";
}

// The target of the symbolic link `name` in the directory `dir` (whose path is `where`): read
// where fstatat just looked, so the link read is the one seen, without walking the path again.
std::string read_link(int dir, const char* name, const std::string& where) {
    std::string target(256, '\0');
    for (;;) {
        const ssize_t n = ::readlinkat(dir, name, target.data(), target.size());
        if (n < 0)
            throw resolution_failed("Cannot read the symbolic link " + quoted(where.c_str()) + ": " +
                                        std::strerror(errno),
                                    where);
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
    if (absolute.native().size() > max_path_bytes)
        throw path_refused("Path too long: " + std::to_string(absolute.native().size()) +
                           " bytes (the limit is " + std::to_string(max_path_bytes) + ")");
    std::deque<fs::path> todo;
    push_front_components(todo, absolute);
    // `result` is a plain string, extended and cut back in place, and `dir` an open descriptor
    // of it, so each component costs one lookup in one directory: linear in the components,
    // where re-walking the whole path for every component was quadratic.
    std::string result = "/";
    unique_fd dir(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir) throw resolution_failed("Cannot access '/': " + std::string(std::strerror(errno)), "/");
    // `dir` moved to `at` (relative to `dir`): ".." (exact, `result` has no symlink in it) or
    // "/" for an absolute symlink target; `result` already names where it lands.
    auto move_to = [&](const char* at) {
        dir.reset(::openat(dir.get(), at, O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (!dir)
            throw resolution_failed("Cannot access " + quoted(result.c_str()) + ": " + std::strerror(errno),
                                    result);
    };
    bool missing = false;
    int links = 0;
    std::size_t steps = 0;
    while (!todo.empty()) {
        const fs::path c = std::move(todo.front());
        todo.pop_front();
        if (++steps > max_components)
            throw resolution_failed("Path has too many components (over " + std::to_string(max_components) +
                                        ", symbolic links included)",
                                    result);
        if (c.empty() || c == ".") continue;
        if (c == "..") {
            // After a missing directory the kernel stops with ENOENT; applying ".." lexically
            // there could land on a symlink nobody checked.
            if (missing) throw resolution_failed("No such directory: " + quoted(result.c_str()), result);
            if (result.size() > 1) {
                result.resize(std::max<std::size_t>(result.rfind('/'), 1)); // exact: no symlink in it
                move_to("..");
            }
            continue;
        }
        const std::size_t before = result.size();
        if (result.size() > 1) result.push_back('/');
        result += c.native();
        if (result.size() > max_path_bytes)
            throw resolution_failed("Path too long once resolved (over " + std::to_string(max_path_bytes) +
                                        " bytes)",
                                    result.substr(0, before));
        if (missing) continue;
        struct stat st {};
        if (::fstatat(dir.get(), c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno != ENOENT)
                throw resolution_failed(
                    "Cannot access " + quoted(result.c_str()) + ": " + std::strerror(errno), result);
            missing = true;
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            if (++links > max_symlinks)
                throw resolution_failed("Too many levels of symbolic links at " + quoted(result.c_str()),
                                        result);
            const fs::path target = read_link(dir.get(), c.c_str(), result);
            result.resize(before);
            push_front_components(todo, target);
            if (target.is_absolute()) {
                result = "/";
                move_to("/");
            }
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (!todo.empty()) {
                unique_fd next(::openat(dir.get(), c.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
                if (!next)
                    throw resolution_failed(
                        "Cannot access " + quoted(result.c_str()) + ": " + std::strerror(errno), result);
                dir = std::move(next);
            }
            continue;
        }
        if (!todo.empty()) {
            // Only a trailing "." or empty component may follow a file.
            bool only_dots = std::all_of(todo.begin(), todo.end(),
                                         [](const fs::path& p) { return p.empty() || p == "."; });
            if (!only_dots) throw resolution_failed("Not a directory: " + quoted(result.c_str()), result);
        }
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

namespace {
// The client's own input, for a message: control characters shown as '?', cut after 200 bytes.
std::string printable_input(std::string_view input) {
    std::string out;
    for (char c : input.substr(0, 200))
        out.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c);
    if (input.size() > 200) out += "...";
    return out;
}
} // namespace

confined_path path_guard::resolve(std::string_view input) const {
    if (input.size() > max_path_bytes)
        throw path_refused("Path too long: " + std::to_string(input.size()) + " bytes (the limit is " +
                           std::to_string(max_path_bytes) + ")");
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
    // Outside the roots every refusal reads the same, whatever the file system holds there:
    // a message that told "Not a directory" from "No such file", or named where a symlink
    // points, would let a client map what it may not read.
    const std::string denied = "Access denied: '" + printable_input(input) +
                               "' is outside the allowed directories (" + describe_roots() + ")";
    if (asked.native().size() > max_path_bytes)
        throw path_refused("Path too long: " + std::to_string(asked.native().size()) +
                           " bytes (the limit is " + std::to_string(max_path_bytes) + ")");
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
    try {
        out.real = resolve_symlinks(asked, out.exists);
    } catch (const resolution_failed& e) {
        if (!root_of(e.where) || !root_of(asked.lexically_normal())) throw path_refused(denied);
        throw;
    }
    const fs::path* root = root_of(out.real);
    if (!root) throw path_refused(denied);
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
