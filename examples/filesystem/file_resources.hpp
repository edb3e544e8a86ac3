// Files as MCP resources: reading a file:// URI, and the catalogue that keeps the server's
// resource registry (what resources/list shows) in step with the files under the roots.
#pragma once

#include "access_policy.hpp"
#include "path_guard.hpp"

#include <mcp/server/server.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace mcp::files {

/// resources/read of a file:// URI inside the guard's roots. A file comes back as text when it
/// is valid UTF-8 of a textual (or unknown) type, else as a base64 blob; a directory as a text
/// listing (one name a line, "/" after subdirectories) with mimeType inode/directory.
/// Throws mcp::error: invalid_params for a refused path, an unsupported URI or a file over
/// `max_bytes`; resource_not_found for a path that does not exist.
read_resource_result read_file_resource(const path_guard& guard, const std::string& uri,
                                        std::uint64_t max_bytes);
/// The same within what `policy` allows the requesting client (asking for its roots if need be).
read_resource_result read_file_resource(access_policy& policy, context& ctx, const std::string& uri,
                                        std::uint64_t max_bytes);

/// Completion of the template's {+path} (the path without its leading '/'): the entries of the
/// directory typed so far that start with what follows its last '/', or the allowed
/// directories that start with the whole value when it is not inside one yet.
complete_result complete_path(const path_guard& guard, std::string_view partial);

struct catalog_limits {
    std::size_t max_resources = 1000;     ///< files listed at most (the first ones in path order)
    std::size_t max_scan_entries = 50000; ///< entries looked at per scan, so a huge tree costs little
    int max_depth = 16;
};

/// The files under the allowed roots, registered with the server as resources (uri, name =
/// path relative to its root, mimeType by extension). sync() rescans and registers the
/// difference; the server sends notifications/resources/list_changed for it. Regular files
/// only: symlinks are not listed (their targets are, where they lie inside a root), and the
/// scan never follows a symlinked directory.
class resource_catalog {
public:
    resource_catalog(server& s, access_policy& policy, catalog_limits limits, std::uint64_t max_read_bytes);

    /// Rescan the currently allowed roots and update the registry. Not thread-safe with itself:
    /// call it from one thread (the watcher's).
    void sync();
    /// URIs registered now.
    std::size_t size() const;

private:
    server& server_;
    access_policy& policy_;
    catalog_limits limits_;
    std::uint64_t max_read_bytes_;
    mutable std::mutex mu_;
    std::set<std::string> registered_;
    bool warned_truncated_ = false;
};

} // namespace mcp::files
