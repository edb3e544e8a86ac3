// Which directories a request may touch: the command-line roots, narrowed by the MCP roots the
// client offers.
//
// The rule:
//  - The command-line directories are the most the server will ever allow.
//  - A client that declares the `roots` capability is asked for its roots (roots/list) before
//    its first request that touches a path, after notifications/initialized, and again after
//    notifications/roots/list_changed. Its file:// roots that are existing directories count;
//    other roots are ignored.
//  - With command-line directories, access is their intersection with the client's roots: a
//    client root inside a command-line directory allows that subtree, a command-line directory
//    inside a client root stays allowed whole, anything else is refused. A client can narrow
//    access, never widen it.
//  - With no command-line directory, the client's roots are the allowed set.
//  - A client that lists no roots at all (an empty list) gives no opinion: the command-line
//    directories apply unchanged.
//  - A client whose roots overlap none of the command-line directories (or are not local
//    directories at all) says where its user works, which is not here: its roots say nothing
//    about these directories, which stay allowed as configured. The server says so (stderr, and
//    the note of list_allowed_directories) rather than refusing everything. (The MCP roots are
//    the client's statement of its workspace; the user who configured this server with its
//    directories decided what it serves. Roots narrow that, never widen it, and roots that do
//    not meet it leave it as it is.)
//  - If the roots cannot be obtained (error, timeout), requests that touch paths are refused
//    until they can: the server fails closed.
// A stdio server has one client, so the policy keeps one client's roots.
#pragma once

#include "path_guard.hpp"

#include <mcp/protocol/roots.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mcp {
class context;
class server_session;
} // namespace mcp

namespace mcp::files {

/// A client's answer to roots/list, as directories.
struct client_roots {
    std::size_t listed = 0;                    ///< how many roots the client listed
    std::vector<std::filesystem::path> usable; ///< the existing directories among them, canonical
};

/// The file:// roots that are existing directories (canonical); the others are dropped.
client_roots usable_roots(const std::vector<root>& roots);

/// The rule above as a pure function: command-line roots (canonical) and the client's roots
/// (nullopt: not offered) -> the allowed directories. `ignored`, when given, is set to whether
/// the client listed roots that were left aside because none overlaps the command line.
std::vector<std::filesystem::path> combine_roots(const std::vector<std::filesystem::path>& command_line,
                                                 const std::optional<client_roots>& client,
                                                 bool* ignored = nullptr);

class access_policy {
public:
    /// Throws std::invalid_argument if a directory does not exist.
    explicit access_policy(const std::vector<std::filesystem::path>& command_line);

    /// The guard for a request: asks the requesting client for its roots first when it offers
    /// them and they are not known yet. Throws path_refused when they cannot be obtained.
    std::shared_ptr<const path_guard> guard(context& ctx);
    /// What is allowed now, asking no one (for listing, watching and completion).
    std::shared_ptr<const path_guard> current() const;
    /// Why the allowed directories are not what the client's roots say, or "": the client's
    /// roots overlap none of the command-line directories, and were left aside.
    std::string note() const;
    /// Ask `peer` for its roots now (nothing happens if it does not offer them). Throws what
    /// the request throws.
    void refresh(server_session& peer);
    /// The client's roots changed: the next request asks again.
    void invalidate();
    /// Called (on the thread that learnt it) whenever the allowed directories change, whether
    /// a request or refresh() asked for the roots. Set it before serving.
    void on_change(std::function<void()> callback) { on_change_ = std::move(callback); }

private:
    std::shared_ptr<const path_guard> apply(const std::vector<root>& roots, std::uint64_t generation);

    std::vector<std::filesystem::path> command_line_;
    mutable std::mutex mu_;
    std::shared_ptr<const path_guard> current_;
    std::string note_;
    bool client_known_ = false;
    std::uint64_t generation_ = 0; ///< bumped by invalidate(), so a late answer cannot win
    std::function<void()> on_change_;
};

} // namespace mcp::files
