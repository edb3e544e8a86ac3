// mcp/auth/file_credential_store.hpp - the default credential_store of a program run by a person
// (mcpxx, the gateway's remote upstreams): one JSON file per (server, authorization server) in
// a folder only the user can read, so that a login lasts between runs.
//
//   auto store = std::make_shared<mcp::auth::file_credential_store>();   // $XDG_CONFIG_HOME/mcpxx/credentials
//   auto auth = std::make_shared<mcp::auth::client_authorizer>(
//       mcp::auth::client_authorizer_options{.store = store, .agent = ...});
//   for (auto& e : store->list()) std::cout << e.key.server << " " << e.key.issuer << "\n";
//
// The store keeps its files safe and refuses what it cannot trust:
//   - the folder is created with mode 0700 and each file with 0600, written whole to a temporary
//     file, flushed to disk and renamed over the old one, so a reader (another mcpxx, a gateway)
//     sees the old content or the new, never part of one;
//   - a folder or file that group or others may read or change, or that another user owns, is
//     refused with an error saying which and how to fix it; it is never silently "repaired"
//     (whoever could read it may already have), and the user should know;
//   - files are read only when they are regular files of at most max_file_bytes;
//   - a file that is not what the store wrote (not JSON, another key, a member of the wrong
//     kind) is an error naming the file.
// Errors are credential_store_error; they name files and never quote what is in them. The
// tokens, registration and pending authorization of a (server, issuer) share its file;
// discovery results are kept in the server's file with an empty issuer. Calls are serialised
// within the process; two processes that update the same file at once each write a whole file
// and the later one wins.
#pragma once

#include <mcp/auth/client_store.hpp>

#include <boost/json/object.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <mutex>
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

class file_credential_store final : public credential_store {
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

    std::optional<token_set> load_tokens(const store_key& key) override;
    void save_tokens(const store_key& key, const token_set& tokens) override;
    void erase_tokens(const store_key& key) override;
    std::optional<client_registration> load_client(const store_key& key) override;
    void save_client(const store_key& key, const client_registration& client) override;
    void erase_client(const store_key& key) override;
    std::optional<pending_authorization> load_pending(const store_key& key) override;
    void save_pending(const store_key& key, const pending_authorization& pending) override;
    void erase_pending(const store_key& key) override;
    std::optional<discovery_state> load_discovery(const std::string& server) override;
    void save_discovery(const std::string& server, const discovery_state& state) override;
    void erase_discovery(const std::string& server) override;

    /// One (server, issuer) with what is saved for it (for `mcpxx auth`).
    struct entry {
        store_key key;
        std::optional<token_set> tokens;
        std::optional<client_registration> client;
        std::filesystem::path file;
    };
    /// Every (server, issuer) that has tokens or a client registration, ordered by server then
    /// issuer. A file that cannot be used is a line in `problems` (when given), not a reason to
    /// hide the others.
    std::vector<entry> list(std::vector<std::string>* problems = nullptr);

    /// Removes every file of `server` (tokens, registrations, discovery; every issuer). Returns
    /// how many (server, issuer) files there were.
    std::size_t erase_server(std::string_view server);

    /// The file that holds `key`: a readable prefix (the server's host name) and a digest of
    /// the key, e.g. "mcp.example.com-1f3a...c9.json".
    std::filesystem::path file_for(const store_key& key) const;

private:
    template <class T, class From>
    std::optional<T> load_section(const store_key& key, std::string_view name, From from_json);
    void save_section(const store_key& key, std::string_view name, boost::json::object value);
    void erase_section(const store_key& key, std::string_view name);

    std::filesystem::path folder_;
    std::mutex mutex_;
};

} // namespace mcp::auth
