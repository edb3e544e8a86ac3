// auth/file_credential_store.cpp - see mcp/auth/file_credential_store.hpp.
#include <mcp/auth/file_credential_store.hpp>
#include <mcp/host/config.hpp>
#include <mcp/json/json.hpp>

#include "auth/credential_json.hpp"
#include "crypto/crypto.hpp"
#include "host/private_files.hpp"

#include <boost/url/parse.hpp>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <tuple>

#include <sys/stat.h>
#include <unistd.h>

namespace mcp::auth {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

[[noreturn]] void fail(const fs::path& where, const std::string& why) {
    throw credential_store_error(where.string() + " " + why);
}

// Group or others may read or change it, or it is not the user's: refused, never repaired.
void check_private(const fs::path& where, unsigned mode, unsigned owner, bool folder) {
    if (owner != static_cast<unsigned>(::geteuid()))
        fail(where, std::string("belongs to another user; credentials are kept only in the user's own ") +
                        (folder ? "folder" : "files"));
    if ((mode & 077u) != 0)
        fail(where, std::string("may be read or changed by other users; if nobody else could have read it, "
                                "make it yours alone (chmod ") +
                        (folder ? "700" : "600") + "), else remove it and log in again");
}

// The folder checked when it exists; false when it does not.
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

// A name part every file system keeps as it is: lowercase letters, digits, dots and dashes.
std::string readable_prefix(std::string_view server_url) {
    std::string host;
    if (auto u = boost::urls::parse_uri(server_url); u) host = u->encoded_host();
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
    store_key key;
    json::object sections;
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
    const auto* sections = root ? find_object(*root, "sections") : nullptr;
    if (!server || !issuer || !sections)
        fail(file, "is not a credentials file mcpxx wrote (" +
                       std::string(doc ? "unexpected content" : "not valid JSON") + "); remove it and log in again");
    return stored_file{{std::string(*server), std::string(*issuer)}, *sections};
}

// The sections of `key`'s file, checked against the key; empty when there is no file.
json::object read_sections(const fs::path& folder, const fs::path& file, const store_key& key) {
    if (!check_folder(folder)) return {};
    auto stored = read_stored(file);
    if (!stored) return {};
    if (stored->key != key) fail(file, "holds the credentials of another server; remove it and log in again");
    return std::move(stored->sections);
}

void write_sections(const fs::path& folder, const fs::path& file, const store_key& key, const json::object& sections) {
    if (sections.empty()) {
        if (::unlink(file.c_str()) != 0 && errno != ENOENT)
            fail(file, "cannot be removed: " + std::error_code(errno, std::generic_category()).message());
        return;
    }
    try {
        host::detail::create_private_directories(folder);
    } catch (const fs::filesystem_error& e) {
        fail(e.path1(), "cannot be created: " + e.code().message());
    }
    check_folder(folder);
    const json::object root{{"server", key.server}, {"issuer", key.issuer}, {"sections", sections}};
    try {
        host::detail::write_private_file(file, to_json(root) + "\n", true);
    } catch (const std::system_error& e) {
        fail(file, "cannot be written: " + e.code().message());
    }
}

// One section read with `from_json`, its errors naming the file and the section.
template <class T, class From>
std::optional<T> section(const json::object& sections, std::string_view name, const fs::path& file, From from_json) {
    const auto* v = find_member(sections, name);
    if (!v) return std::nullopt;
    try {
        if (!v->is_object()) throw std::invalid_argument("must be an object");
        return from_json(v->get_object());
    } catch (const std::invalid_argument& e) {
        fail(file, "is damaged (" + std::string(name) + ": " + e.what() + "); remove it and log in again");
    }
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

std::filesystem::path file_credential_store::file_for(const store_key& key) const {
    // Length-prefixed, so that no two keys hash the same text.
    const auto digest = mcp::detail::sha256_hex(std::to_string(key.server.size()) + ":" + key.server + "\n" + key.issuer);
    return folder_ / (readable_prefix(key.server) + "-" + digest.substr(0, 32) + ".json");
}

// Each load reads the file, each change rewrites it whole: credentials change a few times an
// hour, and another process (a second mcpxx, the gateway) may have changed the file meanwhile.
template <class T, class From>
std::optional<T> file_credential_store::load_section(const store_key& key, std::string_view name, From from_json) {
    std::lock_guard lock(mutex_);
    const auto file = file_for(key);
    return section<T>(read_sections(folder_, file, key), name, file, from_json);
}

void file_credential_store::save_section(const store_key& key, std::string_view name, boost::json::object value) {
    std::lock_guard lock(mutex_);
    const auto file = file_for(key);
    auto sections = read_sections(folder_, file, key);
    sections[name] = std::move(value);
    write_sections(folder_, file, key, sections);
}

void file_credential_store::erase_section(const store_key& key, std::string_view name) {
    std::lock_guard lock(mutex_);
    const auto file = file_for(key);
    auto sections = read_sections(folder_, file, key);
    if (sections.erase(name)) write_sections(folder_, file, key, sections);
}

std::optional<token_set> file_credential_store::load_tokens(const store_key& key) {
    return load_section<token_set>(key, "tokens", detail::tokens_from_json);
}
void file_credential_store::save_tokens(const store_key& key, const token_set& tokens) {
    save_section(key, "tokens", detail::to_json_object(tokens));
}
void file_credential_store::erase_tokens(const store_key& key) {
    erase_section(key, "tokens");
}

std::optional<client_registration> file_credential_store::load_client(const store_key& key) {
    return load_section<client_registration>(key, "client", detail::client_from_json);
}
void file_credential_store::save_client(const store_key& key, const client_registration& client) {
    save_section(key, "client", detail::to_json_object(client));
}
void file_credential_store::erase_client(const store_key& key) {
    erase_section(key, "client");
}

std::optional<pending_authorization> file_credential_store::load_pending(const store_key& key) {
    return load_section<pending_authorization>(key, "pending", detail::pending_from_json);
}
void file_credential_store::save_pending(const store_key& key, const pending_authorization& pending) {
    save_section(key, "pending", detail::to_json_object(pending));
}
void file_credential_store::erase_pending(const store_key& key) {
    erase_section(key, "pending");
}

// Discovery results belong to the server, before any issuer is chosen: its file with no issuer.
std::optional<discovery_state> file_credential_store::load_discovery(const std::string& server) {
    return load_section<discovery_state>({server, ""}, "discovery", detail::discovery_from_json);
}
void file_credential_store::save_discovery(const std::string& server, const discovery_state& state) {
    save_section({server, ""}, "discovery", detail::to_json_object(state));
}
void file_credential_store::erase_discovery(const std::string& server) {
    erase_section({server, ""}, "discovery");
}

// Every file of the folder that the store wrote, with what is in it.
static std::vector<std::pair<fs::path, stored_file>> read_all(const file_credential_store& store,
                                                                             std::vector<std::string>* problems) {
    std::vector<std::pair<fs::path, stored_file>> out;
    if (!check_folder(store.folder())) return out;
    std::error_code ec;
    for (fs::directory_iterator it(store.folder(), ec), end; !ec && it != end; it.increment(ec)) {
        const auto& path = it->path();
        const auto name = path.filename().string();
        if (path.extension() != ".json" || name.front() == '.') continue; // temporary files, others
        try {
            auto stored = read_stored(path);
            if (!stored) continue; // removed meanwhile
            if (store.file_for(stored->key).filename() != path.filename())
                fail(path, "holds the credentials of another server; remove it and log in again");
            out.emplace_back(path, std::move(*stored));
        } catch (const credential_store_error& e) {
            if (problems) problems->push_back(e.what());
        }
    }
    if (ec) fail(store.folder(), "cannot be listed: " + ec.message());
    return out;
}

std::vector<file_credential_store::entry> file_credential_store::list(std::vector<std::string>* problems) {
    std::lock_guard lock(mutex_);
    std::vector<entry> out;
    for (auto& [path, stored] : read_all(*this, problems)) {
        try {
            entry e{stored.key, section<token_set>(stored.sections, "tokens", path, detail::tokens_from_json),
                    section<client_registration>(stored.sections, "client", path, detail::client_from_json), path};
            if (e.tokens || e.client) out.push_back(std::move(e));
        } catch (const credential_store_error& e) {
            if (problems) problems->push_back(e.what());
        }
    }
    std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) { return a.key < b.key; });
    return out;
}

std::size_t file_credential_store::erase_server(std::string_view server) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> damaged; // a damaged file of another server is no reason to stop
    std::size_t erased = 0;
    for (const auto& [path, stored] : read_all(*this, &damaged)) {
        if (stored.key.server != server) continue;
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            fail(path, "cannot be removed: " + std::error_code(errno, std::generic_category()).message());
        erased += stored.key.issuer.empty() ? 0 : 1;
    }
    return erased;
}

} // namespace mcp::auth
