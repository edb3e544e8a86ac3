// The smaller parts of examples/filesystem: file URIs, globs, MIME types and UTF-8, bounded
// reads, directory walks, and the roots rule (command-line directories x client roots).
#include "access_policy.hpp"
#include "content_type.hpp"
#include "dir_walk.hpp"
#include "file_io.hpp"
#include "file_uri.hpp"
#include "glob.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace mcp::files;

namespace {

struct temp_dir {
    temp_dir() {
        std::string tmpl = (fs::temp_directory_path() / "mcpxx-fsparts-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp");
        path = fs::canonical(tmpl);
    }
    ~temp_dir() { fs::remove_all(path); }
    fs::path file(const std::string& rel, const std::string& text) const {
        fs::create_directories((path / rel).parent_path());
        std::ofstream(path / rel, std::ios::binary) << text;
        return path / rel;
    }
    fs::path path;
};

unique_fd open_ro(const fs::path& p, int extra = 0) {
    return unique_fd(::open(p.c_str(), O_RDONLY | extra));
}

TEST(file_uri, one_spelling_per_path_and_back) {
    EXPECT_EQ(file_uri("/tmp/a b/c+d%e.txt"), "file:///tmp/a%20b/c%2Bd%25e.txt");
    EXPECT_EQ(file_uri("/x/\xC3\xA9t\xC3\xA9.md"), "file:///x/%C3%A9t%C3%A9.md");
    EXPECT_EQ(file_uri("/a-b_c.~d"), "file:///a-b_c.~d");
    for (const char* p : {"/tmp/a b/c+d%e.txt", "/x/\xC3\xA9t\xC3\xA9.md", "/", "/a/b/"})
        EXPECT_EQ(path_of_file_uri(file_uri(p)), fs::path(p)) << p;
}

TEST(file_uri, accepted_and_refused_forms) {
    EXPECT_EQ(path_of_file_uri("file:///a/b"), fs::path("/a/b"));
    EXPECT_EQ(path_of_file_uri("file:/a/b"), fs::path("/a/b"));
    EXPECT_EQ(path_of_file_uri("FILE://LOCALHOST/a"), fs::path("/a"));
    EXPECT_EQ(path_of_file_uri("file:///a%2fb"), fs::path("/a/b"));
    EXPECT_EQ(path_of_file_uri("file:///a/../b"), fs::path("/a/../b")); // left for path_guard
    for (const char* bad :
         {"http:///a", "file://host/a", "file://localhostx/a", "file:a", "file://", "file:///a?q",
          "file:///a#f", "file:///a%0", "file:///a%G0", "file:///a%00b", "file:"})
        EXPECT_FALSE(path_of_file_uri(bad)) << bad;
}

TEST(glob, wildcards_sets_and_escapes) {
    EXPECT_TRUE(glob_match("*.cpp", "main.cpp"));
    EXPECT_FALSE(glob_match("*.cpp", "src/main.cpp")); // '*' stops at '/'
    EXPECT_TRUE(glob_match("**/*.cpp", "src/main.cpp"));
    EXPECT_TRUE(glob_match("**/*.cpp", "main.cpp")); // "**/" matches no directory too
    EXPECT_TRUE(glob_match("src/**/x.h", "src/x.h"));
    EXPECT_TRUE(glob_match("src/**/x.h", "src/a/b/x.h"));
    EXPECT_FALSE(glob_match("src/**/x.h", "lib/a/x.h"));
    EXPECT_TRUE(glob_match("src/**", "src/a/b"));
    EXPECT_TRUE(glob_match("?.txt", "a.txt"));
    EXPECT_FALSE(glob_match("?.txt", "ab.txt"));
    EXPECT_TRUE(glob_match("[abc].md", "b.md"));
    EXPECT_FALSE(glob_match("[!abc].md", "b.md"));
    EXPECT_TRUE(glob_match("[^abc].md", "d.md"));
    EXPECT_TRUE(glob_match("file[0-9].log", "file7.log"));
    EXPECT_FALSE(glob_match("file[0-9].log", "filex.log"));
    EXPECT_TRUE(glob_match("[]]x", "]x"));
    EXPECT_TRUE(glob_match("a\\*b", "a*b"));
    EXPECT_FALSE(glob_match("a\\*b", "axb"));
    EXPECT_TRUE(glob_match("[unclosed", "[unclosed"));
    EXPECT_TRUE(glob_match("*.TXT", "notes.txt", true));
    EXPECT_FALSE(glob_match("*.TXT", "notes.txt", false));
    EXPECT_TRUE(glob_match("[A-C]*", "banana", true));
    EXPECT_TRUE(glob_match("", ""));
    EXPECT_FALSE(glob_match("", "a"));
    EXPECT_TRUE(is_glob("*.c"));
    EXPECT_FALSE(is_glob("main"));
}

TEST(glob, no_exponential_backtracking) {
    const std::string text(5000, 'a');
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*a*b", text));
    EXPECT_FALSE(glob_match("**a**a**a**a**a**a**b", text));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(content_type, mime_by_extension_and_textness) {
    EXPECT_EQ(mime_by_extension("a.PNG"), "image/png");
    EXPECT_EQ(mime_by_extension("notes.md"), "text/markdown");
    EXPECT_EQ(mime_by_extension("x.json"), "application/json");
    EXPECT_FALSE(mime_by_extension("Makefile"));
    EXPECT_FALSE(mime_by_extension("archive.unknownext"));
    EXPECT_TRUE(is_textual_mime("application/json"));
    EXPECT_TRUE(is_textual_mime("image/svg+xml"));
    EXPECT_FALSE(is_textual_mime("image/png"));

    EXPECT_EQ(classify("a.txt", "hello").mime, "text/plain");
    EXPECT_TRUE(classify("a.txt", "hello").text);
    EXPECT_TRUE(classify("Makefile", "all:\n\ttrue\n").text); // unknown kind, valid UTF-8
    EXPECT_EQ(classify("Makefile", "all:").mime, "text/plain");
    EXPECT_EQ(classify("blob", std::string("\x00\x01", 2)).mime, "application/octet-stream");
    EXPECT_FALSE(classify("blob", std::string("\x00\x01", 2)).text);
    EXPECT_FALSE(classify("a.txt", "\xff\xfe").text); // declared text, but not UTF-8: a blob
    EXPECT_EQ(classify("a.txt", "\xff\xfe").mime, "text/plain");
    EXPECT_FALSE(classify("p.png", "PNG-looking text").text); // binary by type
}

TEST(content_type, strict_utf8) {
    EXPECT_TRUE(is_valid_utf8(""));
    EXPECT_TRUE(is_valid_utf8("plain ascii"));
    EXPECT_TRUE(is_valid_utf8("\xC3\xA9"));          // é
    EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));  // 😀
    EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xC0\x80"));         // overlong NUL
    EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));     // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));     // surrogate
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80")); // above U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xC3"));             // cut short
    EXPECT_FALSE(is_valid_utf8("\x80"));             // continuation first
}

TEST(file_io, whole_head_tail_and_limits) {
    temp_dir t;
    const auto f = t.file("lines.txt", "one\ntwo\nthree\nfour\n");
    EXPECT_EQ(read_all(open_ro(f).get(), 100, f), "one\ntwo\nthree\nfour\n");
    EXPECT_THROW(read_all(open_ro(f).get(), 5, f), too_large);
    try {
        read_all(open_ro(f).get(), 5, f);
    } catch (const too_large& e) {
        EXPECT_NE(std::string(e.what()).find("is 19 bytes, over the read limit of 5 bytes"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(read_head(open_ro(f).get(), 2, 100, f), "one\ntwo\n");
    EXPECT_EQ(read_head(open_ro(f).get(), 10, 100, f), "one\ntwo\nthree\nfour\n");
    EXPECT_EQ(read_tail(open_ro(f).get(), 2, 100, f), "three\nfour\n");
    EXPECT_EQ(read_tail(open_ro(f).get(), 10, 100, f), "one\ntwo\nthree\nfour\n");
    EXPECT_THROW(read_head(open_ro(f).get(), 3, 8, f), too_large);
    EXPECT_THROW(read_tail(open_ro(f).get(), 3, 8, f), too_large);
    EXPECT_EQ(read_head(open_ro(f).get(), 2, 8, f), "one\ntwo\n");

    const auto g = t.file("no_final_newline.txt", "a\nb\nc");
    EXPECT_EQ(read_tail(open_ro(g).get(), 1, 100, g), "c");
    EXPECT_EQ(read_tail(open_ro(g).get(), 2, 100, g), "b\nc");
    EXPECT_EQ(read_head(open_ro(g).get(), 5, 100, g), "a\nb\nc");

    // Lines longer than one read chunk, at both ends.
    const std::string big(200000, 'x');
    const auto h = t.file("big.txt", big + "\n" + big + "\nend\n");
    EXPECT_EQ(read_tail(open_ro(h).get(), 2, 1 << 20, h), big + "\nend\n");
    EXPECT_EQ(read_head(open_ro(h).get(), 1, 1 << 20, h), big + "\n");
    EXPECT_EQ(human_size(1536), "1.5 KiB");
    EXPECT_EQ(human_size(3u << 20), "3.0 MiB");
}

TEST(dir_walk, sorted_depth_limited_and_never_through_symlinks) {
    temp_dir t;
    t.file("b.txt", "1");
    t.file("a/z.txt", "22");
    t.file("a/deep/y.txt", "333");
    fs::create_directory_symlink("/", t.path / "root_link");
    std::vector<std::string> seen;
    auto dir = open_ro(t.path, O_DIRECTORY);
    const bool partial = walk(dir.get(), {.max_depth = 2, .sizes = true}, [&](const walk_item& item) {
        std::string line = item.relative.string() + ":" + std::to_string(item.depth);
        if (item.entry.kind == entry_kind::file) line += ":" + std::to_string(item.entry.size);
        if (item.entry.kind == entry_kind::symlink) line += ":link";
        seen.push_back(line);
        return walk_action::go_on;
    });
    EXPECT_FALSE(partial);
    EXPECT_EQ(seen,
              (std::vector<std::string>{"a:1", "a/deep:2", "a/z.txt:2:2", "b.txt:1:1", "root_link:1:link"}));

    seen.clear();
    EXPECT_TRUE(walk(dir.get(), {.max_entries = 2}, [&](const walk_item& item) {
        seen.push_back(item.relative.string());
        return walk_action::go_on;
    }));
    EXPECT_EQ(seen.size(), 2u);
}

TEST(roots_rule, command_line_and_client_roots) {
    using v = std::vector<fs::path>;
    const v cli{"/srv/a", "/srv/b"};
    // Not offered, or an empty list: the command line as is.
    EXPECT_EQ(combine_roots(cli, std::nullopt), cli);
    EXPECT_EQ(combine_roots(cli, client_roots{0, {}}), cli);
    // A client root inside a command-line directory narrows to it.
    EXPECT_EQ(combine_roots(cli, client_roots{1, {"/srv/a/project"}}), v{"/srv/a/project"});
    // A command-line directory inside a client root stays whole.
    EXPECT_EQ(combine_roots(cli, client_roots{1, {"/srv"}}), cli);
    // No overlap (or only unusable roots): the client works elsewhere; its roots are left aside
    // and the command line stays, saying so.
    bool ignored = false;
    EXPECT_EQ(combine_roots(cli, client_roots{1, {"/home/x"}}, &ignored), cli);
    EXPECT_TRUE(ignored);
    EXPECT_EQ(combine_roots(cli, client_roots{2, {}}, &ignored), cli);
    EXPECT_TRUE(ignored);
    // Prefix-sharing names do not overlap.
    EXPECT_EQ(combine_roots(cli, client_roots{1, {"/srv/ab"}}, &ignored), cli);
    EXPECT_TRUE(ignored);
    EXPECT_EQ(combine_roots(cli, client_roots{1, {"/srv/a/project"}}, &ignored), v{"/srv/a/project"});
    EXPECT_FALSE(ignored);
    // No command line: the client's roots.
    EXPECT_EQ(combine_roots({}, client_roots{1, {"/home/x"}}), v{"/home/x"});
    EXPECT_TRUE(combine_roots({}, std::nullopt).empty());
}

TEST(roots_rule, usable_client_roots) {
    temp_dir t;
    t.file("dir/f.txt", "x");
    const auto r = usable_roots({{.uri = file_uri(t.path / "dir")},
                                 {.uri = file_uri(t.path / "dir" / "f.txt")}, // a file, not a directory
                                 {.uri = file_uri(t.path / "missing")},
                                 {.uri = "https://example.com/"}});
    EXPECT_EQ(r.listed, 4u);
    EXPECT_EQ(r.usable, std::vector<fs::path>{t.path / "dir"});
}

} // namespace
