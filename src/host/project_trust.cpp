// The list of allowed project config files (see mcp/host/project_trust.hpp).
#include <mcp/host/project_trust.hpp>
#include <mcp/json/json.hpp>

#include "crypto/crypto.hpp"
#include "host/bounded_read.hpp"
#include "host/private_files.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <utility>

namespace mcp::host {
namespace {

constexpr std::int64_t format_version = 1;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& why) {
    throw project_trust_error("the list of allowed project files " + file.string() + " " + why);
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

/// The whole file, or nullopt when it does not exist. Throws for any other failure, and for a
/// file that others may change.
std::optional<std::string> read_store(const std::filesystem::path& file) {
    std::optional<detail::private_file_content> found;
    try {
        found = detail::read_private_file(file, detail::max_config_file_bytes);
    } catch (const std::runtime_error& e) {
        fail(file, e.what());
    }
    if (!found) return std::nullopt;
    if ((found->mode & (S_IWGRP | S_IWOTH)) != 0)
        fail(file, "is writable by other users; make it yours alone (chmod 600) and check what it lists");
    return std::move(found->bytes);
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
    const auto dir = user_config_home(environment ? environment : process_environment());
    return dir.empty() ? dir : dir / "mcpxx" / "allowed-projects.json";
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
    // Written whole, then renamed over the old list: a reader sees the old list or the new one,
    // never half of one, even when the machine stops in between.
    try {
        detail::write_private_file(path_, format_store(entries_), true);
    } catch (const std::filesystem::filesystem_error& e) {
        fail(path_, "cannot be written: cannot create " + e.path1().string() + ": " + e.code().message());
    } catch (const std::system_error& e) {
        fail(path_, "cannot be written: " + e.code().message());
    }
}

std::function<bool(const std::filesystem::path&, std::string_view)> project_trust::checker() const {
    return [list = *this](const std::filesystem::path& file, std::string_view content) {
        return list.allowed(file, content);
    };
}

} // namespace mcp::host
