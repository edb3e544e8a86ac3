// auth/file_credential_store.cpp - see mcp/auth/file_credential_store.hpp.
#include <mcp/auth/file_credential_store.hpp>
#include <mcp/host/config.hpp>
#include <mcp/json/json.hpp>

#include "crypto/crypto.hpp"
#include "host/private_files.hpp"

#include <boost/url/parse.hpp>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace mcp::auth {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& where, const std::string& why) {
    throw credential_store_error(where.string() + " " + why);
}

// Group or others may read or change it, or it is not the user's: refused, never repaired.
void check_private(const fs::path& where, unsigned mode, unsigned owner, bool folder) {
    if (owner != static_cast<unsigned>(::geteuid()))
        fail(where, "belongs to another user; credentials are kept only in the user's own " +
                        std::string(folder ? "folder" : "files"));
    if ((mode & 077u) != 0)
        fail(where, std::string("may be read or changed by other users; make it yours alone (chmod ") +
                        (folder ? "700" : "600") + ") if nobody else could have read it, or log in again");
}

// The folder, when it exists, checked; false when it does not exist.
bool check_folder(const fs::path& folder) {
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0) {
        if (errno == ENOENT) return false;
        fail(folder, "cannot be read: " + std::error_code(errno, std::generic_category()).message());
    }
    if (!S_ISDIR(st.st_mode)) fail(folder, "is not a folder");
    check_private(folder, static_cast<unsigned>(st.st_mode) & 07777u, static_cast<unsigned>(st.st_uid), true);
    return true;
}

// A name part a file system keeps as it is: lowercase letters, digits, dots and dashes.
std::string readable_prefix(std::string_view server_url) {
    std::string host;
    if (auto u = boost::urls::parse_uri(server_url); u) host = u->host();
    std::string out;
    for (char c : host) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        const bool safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
        out += safe ? c : '_';
        if (out.size() == 48) break;
    }
    while (!out.empty() && out.front() == '.') out.erase(0, 1); // never a hidden file
    return out.empty() ? "server" : out;
}

struct stored_file {
    credential_key key;
    boost::json::object document;
};

// The content of `file`, checked; nullopt when it does not exist.
std::optional<stored_file> read_stored(const fs::path& file) {
    std::optional<host::detail::private_file_content> content;
    try {
        content = host::detail::read_private_file(file, file_credential_store::max_file_bytes);
    } catch (const std::runtime_error& e) {
        fail(file, e.what());
    }
    if (!content) return std::nullopt;
    check_private(file, content->mode, content->owner, false);
    boost::system::error_code ec;
    const auto doc = parse_json(content->bytes, ec);
    const auto* root = doc ? doc->if_object() : nullptr;
    const auto server = root ? find_string(*root, "server") : std::nullopt;
    const auto issuer = root ? find_string(*root, "issuer") : std::nullopt;
    const auto* data = root ? find_object(*root, "data") : nullptr;
    if (!server || !issuer || !data)
        fail(file, "is not a credentials file mcpxx wrote (" +
                       std::string(doc ? "unexpected content" : "not valid JSON") +
                       "); remove it and log in again");
    return stored_file{{std::string(*server), std::string(*issuer)}, *data};
}

} // namespace

file_credential_store::file_credential_store(std::filesystem::path folder) : folder_(std::move(folder)) {}

file_credential_store::file_credential_store() : folder_(default_folder()) {
    if (folder_.empty())
        throw credential_store_error("no place for credentials: set HOME or XDG_CONFIG_HOME to an absolute path");
}

std::filesystem::path file_credential_store::default_folder(
    const std::function<std::optional<std::string>(std::string_view)>& environment) {
    const auto home = host::user_config_home(environment ? environment : host::process_environment());
    return home.empty() ? home : home / "mcpxx" / "credentials";
}

std::filesystem::path file_credential_store::file_for(const credential_key& key) const {
    // Length-prefixed, so that no two keys hash the same text.
    const auto digest = mcp::detail::sha256_hex(std::to_string(key.server_url.size()) + ":" +
                                                key.server_url + "\n" + key.issuer);
    return folder_ / (readable_prefix(key.server_url) + "-" + digest.substr(0, 32) + ".json");
}

std::optional<boost::json::object> file_credential_store::load(const credential_key& key) const {
    if (!check_folder(folder_)) return std::nullopt;
    const auto file = file_for(key);
    auto stored = read_stored(file);
    if (!stored) return std::nullopt;
    if (stored->key != key) fail(file, "holds the credentials of another server; remove it and log in again");
    return std::move(stored->document);
}

void file_credential_store::save(const credential_key& key, const boost::json::object& document) {
    try {
        host::detail::create_private_directories(folder_);
    } catch (const fs::filesystem_error& e) {
        fail(e.path1(), "cannot be created: " + e.code().message());
    }
    check_folder(folder_);
    boost::json::object root;
    root["server"] = key.server_url;
    root["issuer"] = key.issuer;
    root["data"] = document;
    const auto file = file_for(key);
    try {
        host::detail::write_private_file(file, to_json(root) + "\n", true);
    } catch (const std::system_error& e) {
        fail(file, "cannot be written: " + e.code().message());
    }
}

bool file_credential_store::erase(const credential_key& key) {
    if (!check_folder(folder_)) return false;
    const auto file = file_for(key);
    if (::unlink(file.c_str()) == 0) return true;
    if (errno == ENOENT) return false;
    fail(file, "cannot be removed: " + std::error_code(errno, std::generic_category()).message());
}

std::vector<file_credential_store::entry> file_credential_store::list(std::vector<std::string>* problems) const {
    std::vector<entry> out;
    if (!check_folder(folder_)) return out;
    std::error_code ec;
    for (fs::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
        const auto& path = it->path();
        const auto name = path.filename().string();
        if (path.extension() != ".json" || name.front() == '.') continue; // temporary files, others
        try {
            auto stored = read_stored(path);
            if (!stored) continue; // removed meanwhile
            if (file_for(stored->key).filename() != path.filename())
                fail(path, "holds the credentials of another server; remove it and log in again");
            out.push_back({std::move(stored->key), std::move(stored->document), path});
        } catch (const credential_store_error& e) {
            if (problems) problems->push_back(e.what());
        }
    }
    if (ec) fail(folder_, "cannot be listed: " + ec.message());
    std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) {
        return std::tie(a.key.server_url, a.key.issuer) < std::tie(b.key.server_url, b.key.issuer);
    });
    return out;
}

} // namespace mcp::auth
