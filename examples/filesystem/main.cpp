// filesystem_server: directories on this machine, served over MCP (stdio).
//
//   filesystem_server [options] DIR...
//     --max-read-bytes N   largest file read whole, by a tool or as a resource (default 1 MiB)
//     --max-resources N    files listed by resources/list (default 1000; all stay readable)
//     --max-watches N      directories watched for changes (default 8192)
//     --debounce-ms N      quiet time before changes are reported (default 100)
//     --no-watch           no inotify: no change notifications, and the resource list is
//                          made at start-up (and when the allowed directories change)
//
// What it offers:
//  - Resources: the files under the allowed directories, as file:// URIs (resources/list shows
//    at most --max-resources of them, in path order, paginated by the library), and the
//    template file:///{+path} that reads any file or directory inside them (with completion of
//    the path), also spelt file://localhost/{+path} (RFC 8089). Text comes back as text with a MIME type from
//    the extension (or text/plain for valid UTF-8 of an unknown kind); other files as base64 blobs; a
//    directory as a listing with mimeType inode/directory. A file over --max-read-bytes is an error that says
//    so.
//  - Subscriptions: a client subscribed to a file's URI gets notifications/resources/updated
//    when it changes (inotify, debounced) - also when it subscribed through a symlink inside
//    the roots or as file://localhost/..., under the URI it subscribed with; creating,
//    deleting or moving files changes the resource list, which sends
//    notifications/resources/list_changed.
//  - Tools: read_file, write_file, list_directory, search_files, list_allowed_directories,
//    with annotations (all read-only but write_file, which is destructive and idempotent; none
//    reaches outside this machine).
//
// Which directories are allowed (the roots rule, access_policy.hpp):
//  - The DIRs on the command line are the most the server will ever allow.
//  - A client that offers MCP roots (capability `roots`) is asked for them after it has
//    initialized, after notifications/roots/list_changed, and before any request that needs
//    them when they are not known. Access is then the intersection: a client root inside a DIR
//    allows that subtree; a DIR inside a client root stays allowed whole; nothing else.
//  - Without DIRs on the command line, the client's roots are the allowed directories (and
//    a client without roots gets nothing).
//  - A client that lists no roots at all leaves the DIRs as they are; so does one whose roots
//    overlap no DIR (it works elsewhere: its roots are left aside, which the server says on
//    stderr and in list_allowed_directories' note); if the roots cannot be obtained, paths are
//    refused (fail closed).
//  - resources/list may show the DIRs' files for the moment between initialization and the
//    client's answer; every read and tool call is checked against the current roots.
//
// Security (path_guard.hpp): every path (tool argument or URI) is resolved like the kernel
// would, symlinks included, and must land inside an allowed directory; files are then opened
// component by component with O_NOFOLLOW from the root, so a symlink swapped in after the
// check cannot redirect the open. A refused path is an isError tool result, or a -32602 error
// for resources/read; a missing file is -32002 (resource not found).
#include "access_policy.hpp"
#include "file_resources.hpp"
#include "file_tools.hpp"
#include "file_uri.hpp"
#include "tree_watcher.hpp"

#include <mcp/server/server.hpp>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

struct settings {
    std::vector<std::filesystem::path> roots;
    std::uint64_t max_read_bytes = 1u << 20;
    std::size_t max_resources = 1000;
    std::size_t max_watches = 8192;
    int debounce_ms = 100;
    bool watch = true;
};

constexpr const char* usage =
    "usage: filesystem_server [--max-read-bytes N] [--max-resources N] [--max-watches N] [--debounce-ms N]\n"
    "                         [--no-watch] DIR...\n"
    "Serves the files under each DIR over MCP on stdin/stdout. Without DIR, the client's MCP roots are "
    "used.\n";

// Parses argv; prints a message and returns nullopt on a usage error.
std::optional<settings> parse(int argc, char** argv) {
    settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto number = [&](auto& out) {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            const std::string v = argv[++i];
            std::size_t used = 0;
            const long long n = std::stoll(v, &used);
            if (used != v.size() || n <= 0)
                throw std::invalid_argument(arg + " needs a positive number, not " + v);
            out = static_cast<std::remove_reference_t<decltype(out)>>(n);
        };
        try {
            if (arg == "-h" || arg == "--help") {
                std::fputs(usage, stdout);
                std::exit(0);
            } else if (arg == "--max-read-bytes")
                number(s.max_read_bytes);
            else if (arg == "--max-resources")
                number(s.max_resources);
            else if (arg == "--max-watches")
                number(s.max_watches);
            else if (arg == "--debounce-ms")
                number(s.debounce_ms);
            else if (arg == "--no-watch")
                s.watch = false;
            else if (arg.rfind("--", 0) == 0)
                throw std::invalid_argument("unknown option " + arg);
            else
                s.roots.emplace_back(arg);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "filesystem_server: %s\n%s", e.what(), usage);
            return std::nullopt;
        }
    }
    return s;
}

/// URIs clients subscribed to under another name than the file's own (see main). Bounded: the
/// oldest are forgotten past `limit` (unsubscribing is not seen here; an update sent to a URI
/// nobody holds any more is dropped by the library).
class subscription_aliases {
public:
    void add(const std::filesystem::path& real, const std::string& uri) {
        std::lock_guard lock(mu_);
        for (const auto& [p, u] : order_)
            if (p == real && u == uri) return;
        order_.emplace_back(real, uri);
        if (order_.size() > limit) order_.erase(order_.begin());
    }
    std::vector<std::string> of(const std::filesystem::path& real) const {
        std::lock_guard lock(mu_);
        std::vector<std::string> out;
        for (const auto& [p, u] : order_)
            if (p == real) out.push_back(u);
        return out;
    }

private:
    static constexpr std::size_t limit = 1024;
    mutable std::mutex mu_;
    std::vector<std::pair<std::filesystem::path, std::string>> order_;
};

} // namespace

int main(int argc, char** argv) {
    const auto cfg = parse(argc, argv);
    if (!cfg) return 2;
    std::unique_ptr<mcp::files::access_policy> policy;
    try {
        policy = std::make_unique<mcp::files::access_policy>(cfg->roots);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "filesystem_server: %s\n", e.what());
        return 2;
    }

    // Subscriptions made through another spelling of a file's URI (a symlink inside the roots,
    // file://localhost/...): the watcher names the file by its real path, so the update is also
    // sent to the URI the client subscribed with.
    subscription_aliases aliases;

    mcp::server server(
        {.info = {.name = "filesystem", .version = "1.0.0"},
         .instructions = "Files of this machine, confined to the allowed directories "
                         "(list_allowed_directories). Read and write them with the tools, or read "
                         "them as file:// resources and subscribe to their changes.",
         .always_declare_resources = true,
         // Subscriptions only to what the client could read: refused as a read
         // of the same URI would be (symlink escapes included).
         .accept_subscription = [&policy, &aliases](const std::string& uri) {
             if (!mcp::files::path_of_file_uri(uri)) return false; // not found
             try {
                 const auto p = policy->current()->resolve(uri);
                 if (mcp::files::file_uri(p.real) != uri) aliases.add(p.real, uri);
                 return true;
             } catch (const mcp::files::path_refused& e) {
                 throw mcp::error(mcp::error_code::invalid_params, e.what(), mcp::json::object{{"uri", uri}});
             }
         }});

    mcp::files::add_file_tools(server, *policy, {.max_read_bytes = cfg->max_read_bytes});
    const std::uint64_t max_read = cfg->max_read_bytes;
    // file:///p, and file://localhost/p - the same file (RFC 8089 section 2: "localhost" is this
    // machine, like an empty host).
    for (const auto& [text, title] :
         {std::pair<const char*, const char*>{"file:///{+path}", "File or directory"},
          {"file://localhost/{+path}", "File or directory (host spelt out)"}})
        server.add_resource_template(
            {.uri_template = text,
             .name = "file",
             .title = title,
             .description = "Any file or directory inside the allowed directories, by absolute path"},
            [&policy, max_read](const std::string& uri, const std::map<std::string, std::string>&,
                                mcp::context& ctx) {
                return mcp::files::read_file_resource(*policy, ctx, uri, max_read);
            },
            {{"path", [&policy](const std::string&, const std::string& value,
                                const std::map<std::string, std::string>&) {
                  return mcp::files::complete_path(*policy->current(), value);
              }}});

    mcp::files::resource_catalog catalog(server, *policy, {.max_resources = cfg->max_resources}, max_read);
    catalog.sync(); // before serving: the first resources/list already has the files

    // Changes: updated for each changed path (the library sends it to subscribers only), a
    // rescan (and so list_changed) when files came or went. Everything runs on the watcher's
    // thread, so scans never overlap.
    std::unique_ptr<mcp::files::tree_watcher> watcher;
    auto watch_allowed = [&] {
        const auto guard = policy->current(); // held: the policy may replace it meanwhile
        watcher->watch(guard->roots());
    };
    auto resync = [&] {
        watch_allowed();
        catalog.sync();
    };
    if (cfg->watch) {
        try {
            watcher = std::make_unique<mcp::files::tree_watcher>(
                mcp::files::tree_watcher::options{.debounce = std::chrono::milliseconds(cfg->debounce_ms),
                                                  .max_watches = cfg->max_watches},
                [&](const mcp::files::change_batch& b) {
                    if (b.overflow) watch_allowed();
                    if (b.structure) catalog.sync();
                    for (const auto& p : b.changed) {
                        server.notify_resource_updated(mcp::files::file_uri(p));
                        for (const auto& alias : aliases.of(p)) server.notify_resource_updated(alias);
                    }
                });
            std::promise<void> ready;
            watcher->post([&] {
                watch_allowed();
                ready.set_value();
            });
            ready.get_future().wait(); // a change right after start-up is already seen
        } catch (const std::exception& e) {
            std::fprintf(stderr, "filesystem_server: no change notifications: %s\n", e.what());
            watcher.reset();
        }
    }

    // New allowed directories (whoever asked the client): watch them and list their files.
    std::mutex unwatched_sync; // without a watcher, syncs come from request threads
    policy->on_change([&] {
        if (watcher) {
            watcher->post(resync);
        } else {
            std::lock_guard lock(unwatched_sync);
            catalog.sync();
        }
    });
    // The client's roots, once it has initialized and whenever they change.
    auto follow_roots = [&](mcp::server_session& peer, bool changed) {
        if (changed) policy->invalidate();
        try {
            policy->refresh(peer);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "filesystem_server: could not get the client's roots: %s\n", e.what());
        }
    };
    server.on_initialized([&](mcp::server_session& peer) { follow_roots(peer, false); });
    server.on_roots_list_changed([&](mcp::server_session& peer) { follow_roots(peer, true); });

    const int rc = mcp::serve_stdio(server);
    if (watcher) watcher->stop();
    // The client is gone. A handler of its session may still be running (the library cancels
    // them but does not wait), and it uses the objects above: leave without destroying them.
    std::fflush(nullptr);
    std::_Exit(rc);
}
