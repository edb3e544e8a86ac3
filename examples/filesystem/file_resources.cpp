#include "file_resources.hpp"

#include "content_type.hpp"
#include "dir_walk.hpp"
#include "file_io.hpp"
#include "file_uri.hpp"

#include <mcp/json/base64.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <system_error>

namespace mcp::files {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& uri, const std::string& message) {
    throw mcp::error(error_code::invalid_params, message, json::object{{"uri", uri}});
}

[[noreturn]] void not_found(const std::string& uri) {
    throw mcp::error(error_code::resource_not_found, "Resource not found: " + uri,
                     json::object{{"uri", uri}});
}

// The same byte limit as for files: a directory of a million entries is an error that says
// what to do, not a response no client can take.
std::string directory_listing(int fd, const std::string& uri, const fs::path& dir, std::uint64_t max_bytes) {
    std::string out;
    for (const auto& e : read_directory(fd)) {
        out += e.name;
        if (e.kind == entry_kind::directory) out += '/';
        out += '\n';
        if (out.size() > max_bytes)
            refuse(uri, "The listing of '" + dir.string() + "' is over the read limit of " +
                            human_size(max_bytes) +
                            "; use the list_directory tool (max_entries) or search_files");
    }
    return out;
}

} // namespace

read_resource_result read_file_resource(const path_guard& guard, const std::string& uri,
                                        std::uint64_t max_bytes) {
    if (!path_of_file_uri(uri)) refuse(uri, "Not a file:// URI of this machine: " + uri);
    confined_path p;
    unique_fd fd;
    try {
        p = guard.resolve(uri);
        if (!p.exists) not_found(uri);
        // O_NONBLOCK: opening a FIFO must not hang the server; it is refused below anyway.
        fd = guard.open(p, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    } catch (const path_refused& e) {
        refuse(uri, e.what());
    } catch (const std::system_error& e) {
        if (e.code().value() == ENOENT) not_found(uri);
        refuse(uri, e.what());
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) refuse(uri, "Cannot read " + p.real.string());
    if (S_ISDIR(st.st_mode)) {
        return {.contents = {
                    text_resource_contents{.uri = uri,
                                           .mime_type = "inode/directory",
                                           .text = directory_listing(fd.get(), uri, p.real, max_bytes)}}};
    }
    if (!S_ISREG(st.st_mode)) refuse(uri, "Not a regular file or directory: " + p.real.string());
    std::string bytes;
    try {
        bytes = read_all(fd.get(), max_bytes, p.real);
    } catch (const too_large& e) {
        refuse(uri, std::string(e.what()) + "; read part of it with the read_file tool (head or tail)");
    } catch (const std::system_error& e) {
        refuse(uri, e.what());
    }
    const content_type type = classify(p.real.filename(), bytes);
    if (type.text)
        return {.contents = {
                    text_resource_contents{.uri = uri, .mime_type = type.mime, .text = std::move(bytes)}}};
    return {.contents = {
                blob_resource_contents{.uri = uri, .mime_type = type.mime, .blob = base64::encode(bytes)}}};
}

read_resource_result read_file_resource(access_policy& policy, context& ctx, const std::string& uri,
                                        std::uint64_t max_bytes) {
    std::shared_ptr<const path_guard> guard;
    try {
        guard = policy.guard(ctx);
    } catch (const path_refused& e) {
        refuse(uri, e.what());
    }
    return read_file_resource(*guard, uri, max_bytes);
}

complete_result complete_path(const path_guard& guard, std::string_view partial) {
    complete_result out;
    const std::string full = "/" + std::string(partial);
    const std::size_t slash = full.rfind('/');
    const std::string dir = full.substr(0, slash + 1), prefix = full.substr(slash + 1);
    auto offer = [&](std::string value) {
        if (out.values.size() < max_completion_values)
            out.values.push_back(std::move(value));
        else
            out.has_more = true;
    };
    try {
        const confined_path d = guard.resolve(dir);
        unique_fd fd = guard.open(d, O_RDONLY | O_DIRECTORY);
        for (const auto& e : read_directory(fd.get()))
            if (e.name.compare(0, prefix.size(), prefix) == 0)
                offer(dir.substr(1) + e.name + (e.kind == entry_kind::directory ? "/" : ""));
    } catch (const std::exception&) {
        // Not inside an allowed directory (yet): offer the allowed directories themselves.
        for (const auto& r : guard.roots())
            if (r.string().compare(0, full.size(), full) == 0) offer(r.string().substr(1) + "/");
    }
    return out;
}

resource_catalog::resource_catalog(server& s, access_policy& policy, catalog_limits limits,
                                   std::uint64_t max_read_bytes)
    : server_(s), policy_(policy), limits_(limits), max_read_bytes_(max_read_bytes) {}

std::size_t resource_catalog::size() const {
    std::lock_guard lock(mu_);
    return registered_.size();
}

void resource_catalog::sync() {
    const auto guard = policy_.current();
    std::map<std::string, resource> found;
    bool truncated = false;
    for (const auto& root : guard->roots()) {
        unique_fd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd) continue;
        const bool partial =
            walk(fd.get(), {.max_depth = limits_.max_depth, .max_entries = limits_.max_scan_entries},
                 [&](const walk_item& item) {
                     if (item.entry.kind != entry_kind::file) return walk_action::go_on;
                     if (found.size() >= limits_.max_resources) {
                         truncated = true;
                         return walk_action::stop;
                     }
                     const fs::path full = root / item.relative;
                     resource r{.uri = file_uri(full), .name = item.relative.string()};
                     r.mime_type = mime_by_extension(item.relative.filename());
                     found.emplace(r.uri, std::move(r));
                     return walk_action::go_on;
                 });
        truncated = truncated || partial;
    }
    if (truncated && !warned_truncated_)
        std::fprintf(stderr,
                     "filesystem_server: listing only %zu files as resources (--max-resources); the "
                     "others can still be read through the file:///{+path} template\n",
                     found.size());
    warned_truncated_ = truncated;

    std::vector<std::string> gone;
    std::vector<resource> added;
    {
        std::lock_guard lock(mu_);
        for (const auto& uri : registered_)
            if (!found.count(uri)) gone.push_back(uri);
        for (auto& [uri, r] : found)
            if (!registered_.count(uri)) added.push_back(std::move(r));
        for (const auto& uri : gone) registered_.erase(uri);
        for (const auto& r : added) registered_.insert(r.uri);
    }
    // Each call below tells connected clients that the list changed.
    for (const auto& uri : gone) server_.remove_resource(uri);
    for (auto& r : added) {
        server_.add_resource(std::move(r), [this](const std::string& uri, context& ctx) {
            return read_file_resource(policy_, ctx, uri, max_read_bytes_);
        });
    }
}

} // namespace mcp::files
