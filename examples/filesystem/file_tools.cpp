#include "file_tools.hpp"

#include "content_type.hpp"
#include "dir_walk.hpp"
#include "file_io.hpp"
#include "file_uri.hpp"
#include "glob.hpp"

#include <mcp/json/base64.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace mcp::files {

// ------------------------------------------------------------------ argument and result types

struct read_file_args {
    std::string path;
    std::optional<std::int64_t> head;
    std::optional<std::int64_t> tail;
};
MCP_DESCRIBE(
    read_file_args,
    (path,
     "The file: an absolute path, a file:// URI, or a path relative to an allowed directory (the first "
     "one where it exists)",
     mcp::field::min_length(1)),
    (head, "Return only the first N lines", mcp::field::minimum(1)),
    (tail, "Return only the last N lines", mcp::field::minimum(1)))

struct write_file_args {
    std::string path;
    std::string content;
    bool create_directories = false;
};
MCP_DESCRIBE(write_file_args, (path, "The file to create or overwrite", mcp::field::min_length(1)),
             (content, "The complete new content (UTF-8 text)"),
             (create_directories,
              "Create missing parent directories (default: false, and a missing parent is an "
              "error)"))

struct written {
    std::string path;
    std::string uri;
    std::int64_t bytes_written = 0;
    bool created = false;
};
MCP_DESCRIBE(written, (path, "The file written (symlinks resolved)"),
             (uri, "Its file:// URI, readable as a resource"),
             (bytes_written, "Bytes written", mcp::field::required),
             (created, "Whether the file was new", mcp::field::required))

enum class entry_type { file, directory, symlink, other };
MCP_DESCRIBE_ENUM(entry_type, file, directory, symlink, other)

struct listed_entry {
    std::string path;
    entry_type type = entry_type::file;
    std::optional<std::int64_t> size;
    std::optional<std::string> target;
};
MCP_DESCRIBE(listed_entry, (path, "Relative to the listed directory"),
             (type, "Kind of entry", mcp::field::required), (size, "Bytes (files only)"),
             (target, "Where a symbolic link points (not followed)"))

struct list_directory_args {
    std::string path;
    bool recursive = false;
    int max_depth = 3;
    int max_entries = 1000;
};
MCP_DESCRIBE(list_directory_args, (path, "The directory", mcp::field::min_length(1)),
             (recursive, "Also list subdirectories, down to max_depth (symbolic links are not followed)"),
             (max_depth, "Levels listed when recursive; 1 is the directory itself", mcp::field::range(1, 16)),
             (max_entries, "At most this many entries", mcp::field::range(1, 10000)))

struct directory_listing {
    std::string directory;
    std::vector<listed_entry> entries;
    bool truncated = false;
};
MCP_DESCRIBE(directory_listing, (directory, "The directory listed (symlinks resolved)"),
             (entries, "In name order, depth first", mcp::field::required),
             (truncated, "Whether max_entries cut the listing short", mcp::field::required))

struct search_files_args {
    std::optional<std::string> pattern;
    std::optional<std::string> path;
    std::optional<std::string> content;
    bool case_sensitive = false;
    int max_results = 100;
};
MCP_DESCRIBE(search_files_args,
             (pattern,
              "Names to find: a glob (*, **, ?, [abc]; with a '/' it is matched against the path relative "
              "to the searched directory, else against the name) or, without those characters, a "
              "substring of the name. Default: every file"),
             (path, "Directory to search (default: every allowed directory)"),
             (content,
              "Only files containing this text (a plain substring, not a regex); each matching line is "
              "one result"),
             (case_sensitive, "Match pattern and content case-sensitively (default: false, ASCII folding)"),
             (max_results, "At most this many results", mcp::field::range(1, 1000)))

struct search_match {
    std::string path;
    std::optional<std::int64_t> line;
    std::optional<std::string> text;
};
MCP_DESCRIBE(search_match, (path, "The file or directory"), (line, "Line number, from 1 (content searches)"),
             (text, "The matching line, at most 200 bytes (content searches)"))

struct search_result {
    std::vector<search_match> matches;
    bool truncated = false;
    std::int64_t scanned = 0;
    std::int64_t too_large = 0;
};
MCP_DESCRIBE(search_result, (matches, "What was found", mcp::field::required),
             (truncated, "Whether max_results, or the limit on entries looked at, cut the search short",
              mcp::field::required),
             (scanned, "Entries looked at", mcp::field::required),
             (too_large, "Files whose names matched but whose content was not searched: over the read limit",
              mcp::field::required))

struct allowed_directories {
    std::vector<std::string> directories;
    std::optional<std::string> note;
};
MCP_DESCRIBE(allowed_directories,
             (directories, "Absolute paths; every path a tool takes must lie inside one",
              mcp::field::required),
             (note, "Why these are not what the client's roots say, when they are not"))

namespace {

// ------------------------------------------------------------------ helpers

// Typed tools give their schemas from the types; `additionalProperties: false` is added so
// that a misspelt argument ("file_path", "recurse") is reported to the model instead of being
// silently ignored. The server compiles its validator from the schema we register.
template <class F> void add_strict_tool(server& s, tool definition, F handler) {
    tool_handler raw = detail::typed_tool(definition, std::move(handler));
    definition.input_schema["additionalProperties"] = false;
    s.add_tool(std::move(definition), std::move(raw));
}

tool_annotations read_only(const char* title) {
    return {.title = title, .read_only_hint = true, .idempotent_hint = true, .open_world_hint = false};
}

char fold(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool contains(std::string_view hay, std::string_view needle, bool case_sensitive) {
    if (case_sensitive) return hay.find(needle) != std::string_view::npos;
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                       [](char a, char b) { return fold(a) == fold(b); }) != hay.end();
}

// At most `n` bytes, cut on a UTF-8 character boundary.
std::string clip_utf8(std::string_view s, std::size_t n) {
    if (s.size() <= n) return std::string(s);
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return std::string(s.substr(0, n)) + "...";
}

struct opened {
    confined_path path;
    unique_fd fd;
    struct stat st {};
};

// Resolve and open an existing path for reading; errors are exceptions whose text the model sees.
opened open_existing(const path_guard& guard, const std::string& input, int extra_flags = 0) {
    opened o;
    o.path = guard.resolve(input);
    if (!o.path.exists) throw std::runtime_error("'" + o.path.real.string() + "' does not exist");
    o.fd = guard.open(o.path, O_RDONLY | O_NONBLOCK | O_NOCTTY | extra_flags);
    if (::fstat(o.fd.get(), &o.st) != 0) throw std::system_error(errno, std::generic_category(), "fstat");
    return o;
}

entry_type type_of(entry_kind k) {
    switch (k) {
    case entry_kind::file:
        return entry_type::file;
    case entry_kind::directory:
        return entry_type::directory;
    case entry_kind::symlink:
        return entry_type::symlink;
    default:
        return entry_type::other;
    }
}

std::optional<std::string> link_target(int dirfd, const std::string& name) {
    char buf[4096];
    const ssize_t n = ::readlinkat(dirfd, name.c_str(), buf, sizeof buf);
    if (n < 0) return std::nullopt;
    return std::string(buf, static_cast<std::size_t>(n));
}

// ------------------------------------------------------------------ the tools

call_tool_result read_file(access_policy& policy, const tool_limits& limits, const read_file_args& a,
                           context& ctx) {
    if (a.head && a.tail) throw std::invalid_argument("Give head or tail, not both");
    const auto guard = policy.guard(ctx);
    opened f = open_existing(*guard, a.path);
    if (S_ISDIR(f.st.st_mode))
        throw std::invalid_argument("'" + f.path.real.string() + "' is a directory: use list_directory");
    if (!S_ISREG(f.st.st_mode))
        throw std::invalid_argument("'" + f.path.real.string() + "' is not a regular file");
    std::string bytes;
    try {
        if (a.head)
            bytes = read_head(f.fd.get(), static_cast<std::uint64_t>(*a.head), limits.max_read_bytes,
                              f.path.real);
        else if (a.tail)
            bytes = read_tail(f.fd.get(), static_cast<std::uint64_t>(*a.tail), limits.max_read_bytes,
                              f.path.real);
        else
            bytes = read_all(f.fd.get(), limits.max_read_bytes, f.path.real);
    } catch (const too_large& e) {
        throw too_large(std::string(e.what()) + ". Read part of it: pass head or tail (a number of lines).");
    }
    const content_type type = classify(f.path.real.filename(), bytes);
    if (type.text) return call_tool_result{.content = {text(std::move(bytes))}};
    if (a.head || a.tail)
        throw std::invalid_argument("'" + f.path.real.string() + "' is binary (" + type.mime +
                                    "): head and tail apply to text; read it whole");
    std::string data = base64::encode(bytes);
    if (type.mime.rfind("image/", 0) == 0)
        return call_tool_result{.content = {image(std::move(data), type.mime)}};
    if (type.mime.rfind("audio/", 0) == 0)
        return call_tool_result{.content = {audio(std::move(data), type.mime)}};
    return call_tool_result{.content = {embedded_blob(file_uri(f.path.real), std::move(data), type.mime)}};
}

written write_file(access_policy& policy, const write_file_args& a, context& ctx) {
    const auto guard = policy.guard(ctx);
    const confined_path p = guard->resolve(a.path);
    unique_fd fd;
    try {
        fd = guard->open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY, 0666, a.create_directories);
    } catch (const std::system_error& e) {
        if (e.code().value() == ENOENT && !a.create_directories)
            throw std::runtime_error(
                std::string(e.what()) +
                ". The parent directory is missing: pass create_directories: true to create it.");
        if (e.code().value() == EISDIR)
            throw std::runtime_error("'" + p.real.string() +
                                     "' is a directory: choose a file name inside it");
        throw;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw std::runtime_error("'" + p.real.string() + "' is not a regular file");
    write_all(fd.get(), a.content, p.real);
    if (::close(fd.release()) != 0) // NFS and quotas report late errors here
        throw std::system_error(errno, std::generic_category(), "Cannot write '" + p.real.string() + "'");
    return {p.real.string(), file_uri(p.real), static_cast<std::int64_t>(a.content.size()), !p.exists};
}

directory_listing list_directory(access_policy& policy, const list_directory_args& a, context& ctx) {
    const auto guard = policy.guard(ctx);
    opened d;
    try {
        d = open_existing(*guard, a.path, O_DIRECTORY);
    } catch (const std::system_error& e) {
        if (e.code().value() == ENOTDIR)
            throw std::runtime_error("'" + a.path + "' is not a directory: use read_file for files");
        throw;
    }
    directory_listing out{d.path.real.string(), {}, false};
    const auto max = static_cast<std::size_t>(a.max_entries);
    walk(d.fd.get(), {.max_depth = a.recursive ? a.max_depth : 1, .max_entries = max + 1, .sizes = true},
         [&](const walk_item& item) {
             if (out.entries.size() >= max || ctx.cancelled()) {
                 out.truncated = true;
                 return walk_action::stop;
             }
             listed_entry e{item.relative.string(), type_of(item.entry.kind), std::nullopt, std::nullopt};
             if (item.entry.kind == entry_kind::file) e.size = static_cast<std::int64_t>(item.entry.size);
             if (item.entry.kind == entry_kind::symlink)
                 e.target = link_target(item.parent_fd, item.entry.name);
             out.entries.push_back(std::move(e));
             return walk_action::go_on;
         });
    return out;
}

search_result search_files(access_policy& policy, const tool_limits& limits, const search_files_args& a,
                           context& ctx) {
    const std::string pattern = a.pattern.value_or("");
    const std::string needle = a.content.value_or("");
    if (pattern.empty() && needle.empty())
        throw std::invalid_argument("Give a pattern (file names), a content string, or both");
    const auto guard = policy.guard(ctx);
    std::vector<confined_path> bases;
    if (a.path)
        bases.push_back(guard->resolve(*a.path));
    else
        for (const auto& r : guard->roots()) bases.push_back(guard->resolve(r.string()));

    const bool glob = is_glob(pattern);
    const bool whole_path = glob && pattern.find('/') != std::string::npos;
    auto name_matches = [&](const walk_item& item) {
        if (pattern.empty()) return true;
        if (!glob) return contains(item.entry.name, pattern, a.case_sensitive);
        return glob_match(pattern, whole_path ? item.relative.string() : item.entry.name, !a.case_sensitive);
    };

    search_result out;
    const auto max = static_cast<std::size_t>(a.max_results);
    auto full = [](const confined_path& base, const walk_item& item) {
        return (base.real / item.relative).string();
    };
    // Lines of one file that contain the needle, as results (until `max`).
    auto grep = [&](const confined_path& base, const walk_item& item) {
        unique_fd fd(::openat(item.parent_fd, item.entry.name.c_str(),
                              O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (!fd) return;
        std::string bytes;
        try {
            bytes = read_all(fd.get(), limits.max_read_bytes, item.entry.name);
        } catch (const too_large&) {
            ++out.too_large; // counted, so that the model knows the search was not complete
            return;
        } catch (const std::exception&) {
            return; // unreadable: not searched
        }
        if (bytes.find('\0') != std::string::npos || !is_valid_utf8(bytes)) return; // binary
        std::size_t start = 0;
        for (std::int64_t line = 1; start <= bytes.size() && out.matches.size() < max; ++line) {
            std::size_t end = bytes.find('\n', start);
            if (end == std::string::npos) end = bytes.size();
            const std::string_view text(bytes.data() + start, end - start);
            if (contains(text, needle, a.case_sensitive))
                out.matches.push_back({full(base, item), line, clip_utf8(text, 200)});
            start = end + 1;
        }
    };

    for (const auto& base : bases) {
        opened d;
        try {
            d = open_existing(*guard, base.real.string(), O_DIRECTORY);
        } catch (const std::system_error& e) {
            if (e.code().value() == ENOTDIR) throw std::runtime_error("'" + *a.path + "' is not a directory");
            throw;
        }
        const std::size_t budget =
            limits.max_search_entries -
            std::min<std::size_t>(limits.max_search_entries, static_cast<std::size_t>(out.scanned));
        const bool partial = walk(d.fd.get(), {.max_entries = budget}, [&](const walk_item& item) {
            ++out.scanned;
            if (out.matches.size() >= max || ctx.cancelled()) {
                out.truncated = true;
                return walk_action::stop;
            }
            if (!name_matches(item)) return walk_action::go_on;
            if (needle.empty())
                out.matches.push_back({full(base, item), std::nullopt, std::nullopt});
            else if (item.entry.kind == entry_kind::file)
                grep(base, item);
            return walk_action::go_on;
        });
        out.truncated = out.truncated || partial || out.matches.size() >= max;
        if (out.truncated) break;
    }
    return out;
}

} // namespace

void add_file_tools(server& s, access_policy& policy, tool_limits limits) {
    add_strict_tool(s,
                    {.name = "read_file",
                     .description =
                         "Read a file inside the allowed directories. Text comes back as text; images, "
                         "audio and other binary files as base64 content. Large files: pass head or tail "
                         "(a number of lines).",
                     .annotations = read_only("Read file")},
                    [&policy, limits](const read_file_args& a, context& ctx) {
                        return read_file(policy, limits, a, ctx);
                    });

    add_strict_tool(s,
                    {.name = "write_file",
                     .description =
                         "Create a file, or overwrite one completely, inside the allowed directories. "
                         "Parent directories are created only when create_directories is true.",
                     .annotations = tool_annotations{.title = "Write file",
                                                     .read_only_hint = false,
                                                     .destructive_hint = true,
                                                     .idempotent_hint = true,
                                                     .open_world_hint = false}},
                    [&policy](const write_file_args& a, context& ctx) { return write_file(policy, a, ctx); });

    add_strict_tool(
        s,
        {.name = "list_directory",
         .description = "List a directory inside the allowed directories: names, types and sizes, "
                        "optionally recursive (depth-limited; symbolic links are not followed).",
         .annotations = read_only("List directory")},
        [&policy](const list_directory_args& a, context& ctx) { return list_directory(policy, a, ctx); });

    add_strict_tool(s,
                    {.name = "search_files",
                     .description =
                         "Find files by name (glob or substring) and/or by content (a plain substring; "
                         "each matching line is a result) under a directory or every allowed directory.",
                     .annotations = read_only("Search files")},
                    [&policy, limits](const search_files_args& a, context& ctx) {
                        return search_files(policy, limits, a, ctx);
                    });

    add_strict_tool(s,
                    {.name = "list_allowed_directories",
                     .description =
                         "The directories this server may read and write (the command-line directories, "
                         "narrowed by the client's roots when they overlap them).",
                     .annotations = read_only("List allowed directories")},
                    [&policy](context& ctx) -> allowed_directories {
                        allowed_directories out;
                        // Held here: the policy may replace its guard meanwhile.
                        const auto guard = policy.guard(ctx);
                        for (const auto& r : guard->roots()) out.directories.push_back(r.string());
                        if (auto note = policy.note(); !note.empty()) out.note = std::move(note);
                        return out;
                    });
}

} // namespace mcp::files
