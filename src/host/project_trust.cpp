// The list of allowed project config files (see mcp/host/project_trust.hpp).
#include <mcp/host/project_trust.hpp>
#include <mcp/json/json.hpp>

#include "crypto/crypto.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

namespace mcp::host {
namespace {

constexpr std::int64_t format_version = 1;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& why) {
    throw project_trust_error("the list of allowed project files " + file.string() + " " + why);
}

std::string system_error_text() {
    return std::strerror(errno);
}

/// The key of a file: absolute and lexically normal, symbolic links kept (see project_file::path).
std::string key_of(const std::filesystem::path& file) {
    std::error_code ec;
    auto p = std::filesystem::absolute(file, ec);
    if (ec) p = file;
    return p.lexically_normal().string();
}

bool is_sha256_hex(std::string_view s) {
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

/// A descriptor closed on every path out.
struct file_descriptor {
    int fd = -1;
    explicit file_descriptor(int f) : fd(f) {}
    ~file_descriptor() {
        if (fd >= 0) ::close(fd);
    }
    file_descriptor(const file_descriptor&) = delete;
    file_descriptor& operator=(const file_descriptor&) = delete;
};

/// The whole file, or nullopt when it does not exist. Throws for any other failure, and for a
/// file that others may change.
std::optional<std::string> read_store(const std::filesystem::path& file) {
    file_descriptor in(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (in.fd < 0) {
        if (errno == ENOENT) return std::nullopt;
        fail(file, "cannot be read: " + system_error_text());
    }
    struct stat st {};
    if (::fstat(in.fd, &st) != 0) fail(file, "cannot be read: " + system_error_text());
    if (!S_ISREG(st.st_mode)) fail(file, "is not a regular file");
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        fail(file, "is writable by other users; make it yours alone (chmod 600) and check what it lists");
    std::string text;
    char buf[8192];
    for (;;) {
        const auto n = ::read(in.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(file, "cannot be read: " + system_error_text());
        if (n == 0) break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

std::map<std::string, std::string> parse_store(const std::filesystem::path& file, std::string_view text) {
    const std::string broken = "is not valid (fix it, or remove it and allow the projects again): ";
    boost::system::error_code ec;
    const auto doc = boost::json::parse(text, ec);
    if (ec) fail(file, broken + "not JSON (" + ec.message() + ")");
    if (!doc.is_object()) fail(file, broken + "not a JSON object");
    const auto& o = doc.get_object();
    const auto* version = o.if_contains("version");
    if (!version || !version->is_int64()) fail(file, broken + "no \"version\" number");
    if (version->get_int64() != format_version)
        fail(file, "has version " + std::to_string(version->get_int64()) + "; this program reads version " +
                       std::to_string(format_version));
    const auto* files = o.if_contains("files");
    if (!files || !files->is_object()) fail(file, broken + "no \"files\" object");
    std::map<std::string, std::string> entries;
    for (const auto& [path, entry] : files->get_object()) {
        const std::string p(path);
        const auto* digest = entry.is_object() ? entry.get_object().if_contains("sha256") : nullptr;
        if (!digest || !digest->is_string() || !is_sha256_hex(digest->get_string()))
            fail(file, broken + "the entry of \"" + p + "\" has no \"sha256\" of 64 lowercase hex digits");
        if (!std::filesystem::path(p).is_absolute())
            fail(file, broken + "\"" + p + "\" is not an absolute path");
        entries[key_of(p)] = std::string(digest->get_string());
    }
    return entries;
}

/// Create the missing directories of `dir`, each with mode 0700 (existing ones keep theirs).
void create_private_directories(const std::filesystem::path& store, const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> missing;
    std::error_code ec;
    for (auto d = dir; !d.empty() && !std::filesystem::exists(d, ec); d = d.parent_path()) {
        missing.push_back(d);
        if (d == d.parent_path()) break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
            fail(store, "cannot be written: cannot create " + it->string() + ": " + system_error_text());
}

void write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const auto n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::system_error(errno, std::generic_category());
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

/// One entry a line, for the person who looks at it.
std::string format_store(const std::map<std::string, std::string>& entries) {
    std::string out = "{\n  \"version\": " + std::to_string(format_version) + ",\n  \"files\": {";
    bool first = true;
    for (const auto& [path, digest] : entries) {
        out += first ? "\n" : ",\n";
        first = false;
        out +=
            "    " + boost::json::serialize(boost::json::string(path)) + ": {\"sha256\": \"" + digest + "\"}";
    }
    out += first ? "}\n}\n" : "\n  }\n}\n";
    return out;
}

} // namespace

project_trust::project_trust(std::filesystem::path file) : path_(std::move(file)) {}

project_trust project_trust::load(std::filesystem::path file) {
    project_trust trust(std::move(file));
    if (auto text = read_store(trust.path_)) trust.entries_ = parse_store(trust.path_, *text);
    return trust;
}

std::filesystem::path project_trust::default_path(const env_lookup& environment) {
    const env_lookup env = environment ? environment : process_environment();
    const auto absolute = [&](const char* name) -> std::filesystem::path {
        const auto v = env(name);
        if (!v || v->empty() || !std::filesystem::path(*v).is_absolute()) return {};
        return *v;
    };
    if (auto xdg = absolute("XDG_CONFIG_HOME"); !xdg.empty()) return xdg / "mcpxx" / "allowed-projects.json";
    if (auto home = absolute("HOME"); !home.empty())
        return home / ".config" / "mcpxx" / "allowed-projects.json";
    return {};
}

bool project_trust::allowed(const std::filesystem::path& file, std::string_view content) const {
    const auto it = entries_.find(key_of(file));
    return it != entries_.end() && it->second == mcp::detail::sha256_hex(content);
}

bool project_trust::allow(const std::filesystem::path& file, std::string_view content) {
    auto digest = mcp::detail::sha256_hex(content);
    auto& slot = entries_[key_of(file)];
    if (slot == digest) return false;
    slot = std::move(digest);
    return true;
}

bool project_trust::listed(const std::filesystem::path& file) const {
    return entries_.count(key_of(file)) > 0;
}

bool project_trust::revoke(const std::filesystem::path& file) {
    return entries_.erase(key_of(file)) > 0;
}

void project_trust::save() const {
    if (path_.empty()) throw project_trust_error("no place for the list of allowed project files (set HOME)");
    const auto dir = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
    create_private_directories(path_, dir);
    // A temporary file next to it, renamed over it once on disk: a reader sees the old list or
    // the new one, never half of one, even when the machine stops in between.
    std::string temp = (dir / (path_.filename().string() + ".tmp-XXXXXX")).string();
    file_descriptor out(::mkstemp(temp.data()));
    if (out.fd < 0) fail(path_, "cannot be written: " + system_error_text());
    try {
        if (::fchmod(out.fd, 0600) != 0) throw std::system_error(errno, std::generic_category());
        write_all(out.fd, format_store(entries_));
        if (::fsync(out.fd) != 0) throw std::system_error(errno, std::generic_category());
        if (::close(std::exchange(out.fd, -1)) != 0) throw std::system_error(errno, std::generic_category());
        if (::rename(temp.c_str(), path_.c_str()) != 0)
            throw std::system_error(errno, std::generic_category());
    } catch (const std::system_error& e) {
        ::unlink(temp.c_str());
        fail(path_, "cannot be written: " + std::string(std::strerror(e.code().value())));
    }
    // The rename itself reaches the disk with the directory.
    file_descriptor d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.fd >= 0) ::fsync(d.fd);
}

std::function<bool(const std::filesystem::path&, std::string_view)> project_trust::checker() const {
    return [list = *this](const std::filesystem::path& file, std::string_view content) {
        return list.allowed(file, content);
    };
}

} // namespace mcp::host
