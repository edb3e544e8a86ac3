// mcp/host/project_trust.hpp - the project config files a person allowed, each with the content
// they allowed.
//
//   auto trust = mcp::host::project_trust::load(mcp::host::project_trust::default_path());
//   auto found = mcp::host::discover({.project_allowed = trust.checker()});
//   for (const auto& f : found.project_files)     // once the person has seen what they start
//       trust.allow(f.path, f.content);
//   trust.save();
//
// A project's .mcp.json (or .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json) arrives
// with a `git clone`, and its stdio entries are command lines. As direnv does with .envrc, a
// project file's servers are used only once the person allowed that file with that content: the
// list keeps, per file, the SHA-256 of the content allowed, so a changed file (after a `git pull`)
// waits to be allowed again. What the commands run (a script of the project) is not covered: it
// is the project's to change, as it is in every host.
//
// The file is JSON, one entry per allowed file, by its absolute path:
//   {"version": 1, "files": {"/home/me/src/app/.mcp.json": {"sha256": "9f86d0..."}}}
// It is written atomically (a temporary file in the same directory, fsync, rename) with mode
// 0600, in a directory created with mode 0700. A list that cannot be read, is not valid, or that
// other users may write is an error (project_trust_error), never taken as empty: saving over it
// would lose what the person allowed, and reading it from a file someone else wrote would let
// them allow commands.
#pragma once

#include <mcp/host/config.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::host {

/// The list cannot be read or written; the message names the file and says why.
class project_trust_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class project_trust {
public:
    /// An empty list to be kept at `file` (nothing is read).
    explicit project_trust(std::filesystem::path file);

    /// The list kept at `file`; a file that does not exist is an empty list. Throws
    /// project_trust_error when it cannot be read, is not valid JSON of this format (or of a
    /// newer version), or is writable by group or others.
    static project_trust load(std::filesystem::path file);
    /// Where the mcpxx tool keeps it: $XDG_CONFIG_HOME/mcpxx/allowed-projects.json, else
    /// $HOME/.config/mcpxx/allowed-projects.json. Empty when neither variable holds an absolute
    /// path (relative values are ignored, as the XDG Base Directory specification says).
    static std::filesystem::path default_path(const env_lookup& environment = process_environment());

    /// Whether `file` was allowed with exactly this content. A relative `file` is made absolute
    /// against the current directory; symbolic links are not resolved (see project_file::path).
    bool allowed(const std::filesystem::path& file, std::string_view content) const;
    /// Allow `file` with this content, in place of what was allowed for it before. False when
    /// it was already allowed with this content.
    bool allow(const std::filesystem::path& file, std::string_view content);
    /// Whether `file` is in the list, with whatever content (a file that changed since it was
    /// allowed is listed but not allowed).
    bool listed(const std::filesystem::path& file) const;
    /// Forget `file`. False when it was not in the list.
    bool revoke(const std::filesystem::path& file);
    /// Write the list to path(), atomically, creating its directory (mode 0700) when missing.
    /// Throws project_trust_error.
    void save() const;

    const std::filesystem::path& path() const noexcept { return path_; }
    /// The allowed files by absolute path, each with the lowercase hex SHA-256 of its content.
    const std::map<std::string, std::string>& entries() const noexcept { return entries_; }
    /// A discovery_options::project_allowed that answers from the list as it is now (a copy:
    /// later changes to this object do not reach it).
    std::function<bool(const std::filesystem::path&, std::string_view)> checker() const;

private:
    std::filesystem::path path_;
    std::map<std::string, std::string> entries_;
};

} // namespace mcp::host
