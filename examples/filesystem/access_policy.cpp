#include "access_policy.hpp"

#include "file_uri.hpp"

#include <mcp/server/context.hpp>
#include <mcp/server/server_session.hpp>

#include <algorithm>
#include <cstdio>

namespace mcp::files {
namespace fs = std::filesystem;

namespace {

// Keep the directories that still exist: a path_guard refuses to be built on a missing one.
std::shared_ptr<const path_guard> make_guard(const std::vector<fs::path>& dirs) {
    std::vector<fs::path> existing;
    for (const auto& d : dirs) {
        std::error_code ec;
        if (fs::is_directory(d, ec)) existing.push_back(d);
    }
    try {
        return std::make_shared<const path_guard>(existing);
    } catch (const std::invalid_argument&) {
        return std::make_shared<const path_guard>(); // one vanished meanwhile: allow nothing
    }
}

} // namespace

client_roots usable_roots(const std::vector<root>& roots) {
    client_roots out;
    out.listed = roots.size();
    for (const auto& r : roots) {
        auto p = path_of_file_uri(r.uri);
        std::error_code ec;
        fs::path c = p ? fs::canonical(*p, ec) : fs::path();
        if (!p || ec || !fs::is_directory(c, ec)) {
            // stderr, never stdout: stdout is the protocol stream.
            std::fprintf(stderr,
                         "filesystem_server: ignoring client root %s (not an existing local directory)\n",
                         r.uri.c_str());
            continue;
        }
        out.usable.push_back(std::move(c));
    }
    return out;
}

std::vector<fs::path> combine_roots(const std::vector<fs::path>& command_line,
                                    const std::optional<client_roots>& client, bool* ignored) {
    if (ignored) *ignored = false;
    if (!client || client->listed == 0) return command_line;
    if (command_line.empty()) return client->usable;
    std::vector<fs::path> out;
    for (const auto& s : command_line) {
        for (const auto& c : client->usable) {
            const fs::path* keep = is_within(c, s) ? &c : is_within(s, c) ? &s : nullptr;
            if (keep && std::find(out.begin(), out.end(), *keep) == out.end()) out.push_back(*keep);
        }
    }
    if (out.empty()) {
        // The client works elsewhere: its roots are not about these directories.
        if (ignored) *ignored = true;
        return command_line;
    }
    return out;
}

access_policy::access_policy(const std::vector<fs::path>& command_line) {
    const path_guard given(command_line); // throws for a missing directory
    command_line_ = given.roots();
    current_ = std::make_shared<const path_guard>(given);
}

std::shared_ptr<const path_guard> access_policy::current() const {
    std::lock_guard lock(mu_);
    return current_;
}

std::shared_ptr<const path_guard> access_policy::guard(context& ctx) {
    if (!ctx.client_caps().roots) return current();
    std::uint64_t generation;
    {
        std::lock_guard lock(mu_);
        if (client_known_) return current_;
        generation = generation_;
    }
    std::vector<root> roots;
    try {
        roots = ctx.roots();
    } catch (const std::exception& e) {
        throw path_refused(
            std::string("Cannot tell which directories are allowed: asking the client for its roots "
                        "failed: ") +
            e.what());
    }
    return apply(roots, generation);
}

void access_policy::refresh(server_session& peer) {
    if (!peer.client_caps().roots) return;
    std::uint64_t generation;
    {
        std::lock_guard lock(mu_);
        generation = generation_;
    }
    apply(peer.list_roots().roots, generation);
}

void access_policy::invalidate() {
    std::lock_guard lock(mu_);
    client_known_ = false;
    ++generation_;
}

std::string access_policy::note() const {
    std::lock_guard lock(mu_);
    return note_;
}

std::shared_ptr<const path_guard> access_policy::apply(const std::vector<root>& roots,
                                                       std::uint64_t generation) {
    bool ignored = false;
    auto next = make_guard(combine_roots(command_line_, usable_roots(roots), &ignored));
    std::string note;
    if (ignored) {
        std::string listed, dirs;
        for (const auto& r : roots) listed += (listed.empty() ? "" : ", ") + r.uri;
        for (const auto& d : command_line_) dirs += (dirs.empty() ? "" : ", ") + d.string();
        note = "the client's roots (" + listed + ") overlap none of this server's directories (" + dirs +
               "): they are left aside, and these directories stay allowed";
    }
    bool changed = false, new_note = false;
    {
        std::lock_guard lock(mu_);
        // An answer to a question asked before the last invalidate() may already be stale: it
        // serves the request that asked, but is not remembered.
        if (generation == generation_) {
            changed = current_->roots() != next->roots();
            new_note = note != note_;
            current_ = next;
            note_ = note;
            client_known_ = true;
        }
    }
    // stderr, never stdout: stdout is the protocol stream.
    if (new_note && !note.empty()) std::fprintf(stderr, "filesystem_server: %s\n", note.c_str());
    if (changed && on_change_) on_change_();
    return next;
}

} // namespace mcp::files
