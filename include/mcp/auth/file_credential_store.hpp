// mcp/auth/file_credential_store.hpp - where a user's OAuth credentials for MCP servers live
// between runs: one JSON file per (server, authorization server) in a folder only the user can
// read.
//
//   mcp::auth::file_credential_store store;              // $XDG_CONFIG_HOME/mcpxx/credentials
//   store.save({"https://mcp.example.com/mcp", "https://auth.example.com"},
//              json::object{{"tokens", {{"access_token", "..."}}}});
//   if (auto doc = store.load({"https://mcp.example.com/mcp", "https://auth.example.com"})) ...
//   for (auto& e : store.list()) std::cout << e.key.server_url << "\n";   // `mcpxx auth`
//
// What a file holds is the caller's: a JSON object whose members (tokens, the client's
// registration, the discovery state, a PKCE verifier in flight) the OAuth client defines. The
// store only keeps it safe:
//   - the folder is created with mode 0700 and each file with 0600, written whole to a temporary
//     file, flushed to disk and renamed over the old one, so a reader (another mcpxx, a gateway)
//     sees the old content or the new, never part of one;
//   - a folder or file that another user may read or change, or that another user owns, is
//     refused with an error saying which and how to fix it; it is never silently "repaired"
//     (whoever could read it may already have read it, and the user should know);
//   - files are read only when they are regular files of at most max_file_bytes;
//   - a file that is not what the store wrote (not JSON, another key) is an error naming the file.
// Error messages name files and never quote their content.
#pragma once

#include <boost/json/object.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

/// A folder or file of the store that cannot be used; what() names it and says why.
class credential_store_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Whose credentials: the MCP server's canonical URL and the authorization server's issuer.
/// `issuer` may be empty for what is known before an authorization server is (discovery state).
struct credential_key {
    std::string server_url;
    std::string issuer;
    friend bool operator==(const credential_key&, const credential_key&) = default;
};

class file_credential_store {
public:
    /// Files larger than this are refused when read.
    static constexpr std::size_t max_file_bytes = 1u << 20;

    /// The store in `folder` (created when first written).
    explicit file_credential_store(std::filesystem::path folder);
    /// The store in default_folder(); throws credential_store_error when there is no home.
    file_credential_store();

    /// $XDG_CONFIG_HOME/mcpxx/credentials, else $HOME/.config/mcpxx/credentials; empty when
    /// neither variable holds an absolute path. `environment` looks up variables (default: the
    /// process environment).
    static std::filesystem::path
    default_folder(const std::function<std::optional<std::string>(std::string_view)>& environment = {});

    const std::filesystem::path& folder() const noexcept { return folder_; }

    /// The document saved for `key`, or nullopt when there is none. Throws credential_store_error.
    std::optional<boost::json::object> load(const credential_key& key) const;
    /// Save `document` for `key`, replacing what was there. Throws credential_store_error.
    void save(const credential_key& key, const boost::json::object& document);
    /// Remove what is saved for `key`; false when there was nothing. Throws credential_store_error.
    bool erase(const credential_key& key);

    struct entry {
        credential_key key;
        boost::json::object document;
        std::filesystem::path file;
    };
    /// Everything saved, ordered by server URL then issuer. A file that cannot be used is an
    /// error in `problems` (one line each), not a reason to hide the others.
    std::vector<entry> list(std::vector<std::string>* problems = nullptr) const;

    /// The file that holds `key`: a readable prefix (the server's host name) and a digest of
    /// the key, e.g. "mcp.example.com-1f3a...c9.json".
    std::filesystem::path file_for(const credential_key& key) const;

private:
    std::filesystem::path folder_;
};

} // namespace mcp::auth
