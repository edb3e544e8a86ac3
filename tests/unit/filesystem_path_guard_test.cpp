// examples/filesystem/path_guard: what a client-supplied path may reach. Escapes by "..",
// absolute paths, symlinks (to files and directories, dangling, looping, swapped in after the
// check) and percent-encoded URIs, against a real directory tree in a temporary directory.
#include "path_guard.hpp"
#include "support/eventually.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace fs = std::filesystem;
using mcp::files::confined_path;
using mcp::files::path_guard;
using mcp::files::path_refused;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

std::string slurp(int fd) {
    std::string out(4096, '\0');
    const ssize_t n = ::read(fd, out.data(), out.size());
    out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return out;
}

// <tmp>/root: the allowed directory; <tmp>/outside: a secret next to it; <tmp>/root2: a
// sibling whose name starts with the root's.
class path_guard_test : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "mcpxx-guard-XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        base = fs::canonical(tmpl);
        root = base / "root";
        outside = base / "outside";
        write(root / "a.txt", "A");
        write(root / "sub" / "b.txt", "B");
        write(root / "with space.txt", "S");
        write(outside / "secret.txt", "secret");
        write(base / "root2" / "c.txt", "C");
        fs::create_directory_symlink("sub", root / "link_in");              // relative, inside
        fs::create_symlink(root / "sub" / "b.txt", root / "link_in_abs");   // absolute, inside
        fs::create_directory_symlink(outside, root / "link_out");           // to a directory outside
        fs::create_symlink(outside / "secret.txt", root / "link_out_file"); // to a file outside
        fs::create_symlink("../outside/secret.txt", root / "link_out_rel"); // relative, outside
        fs::create_symlink(outside / "new.txt", root / "dangling_out");     // missing target outside
        fs::create_symlink(root / "created.txt", root / "dangling_in");     // missing target inside
        fs::create_symlink("loop", root / "loop");
        fs::create_directory_symlink(root, base / "root_alias"); // a root given via a symlink
    }
    void TearDown() override { fs::remove_all(base); }

    path_guard guard() const { return path_guard({root}); }
    static std::string refusal(const path_guard& g, const std::string& input) {
        try {
            const auto p = g.resolve(input);
            return "accepted as " + p.real.string();
        } catch (const path_refused& e) {
            return e.what();
        }
    }

    fs::path base, root, outside;
};

TEST_F(path_guard_test, relative_absolute_and_dotted_paths_inside_are_accepted) {
    const auto g = guard();
    for (const std::string& in :
         std::vector<std::string>{"a.txt", "./a.txt", "sub/../a.txt", "sub/./../a.txt"}) {
        const confined_path p = g.resolve(in);
        EXPECT_EQ(p.real, root / "a.txt") << in;
        EXPECT_TRUE(p.exists);
        EXPECT_EQ(p.root, root);
        EXPECT_EQ(p.relative, "a.txt");
    }
    EXPECT_EQ(g.resolve((root / "sub" / "b.txt").string()).real, root / "sub" / "b.txt");
    EXPECT_EQ(g.resolve(root.string()).relative, ".");
    EXPECT_EQ(g.resolve(root.string() + "/").real, root);
}

TEST_F(path_guard_test, dot_dot_escapes_are_refused) {
    const auto g = guard();
    for (const std::string& in :
         std::vector<std::string>{"../outside/secret.txt", "sub/../../outside/secret.txt", "..",
                                  (root / "sub" / ".." / ".." / "outside" / "secret.txt").string(),
                                  (root / ".." / "root2" / "c.txt").string()}) {
        const std::string why = refusal(g, in);
        EXPECT_NE(why.find("outside the allowed directories"), std::string::npos) << in << ": " << why;
    }
}

TEST_F(path_guard_test, absolute_paths_elsewhere_are_refused) {
    const auto g = guard();
    EXPECT_NE(
        refusal(g, "/etc/passwd")
            .find("Access denied: '/etc/passwd' is outside the allowed directories (" + root.string() + ")"),
        std::string::npos);
    // A sibling sharing the root's name as a prefix is not inside it.
    EXPECT_NE(refusal(g, (base / "root2" / "c.txt").string()).find("Access denied"), std::string::npos);
    EXPECT_NE(refusal(g, "/").find("Access denied"), std::string::npos);
}

TEST_F(path_guard_test, symlinks_leaving_the_root_are_refused) {
    const auto g = guard();
    for (const std::string& in :
         std::vector<std::string>{"link_out/secret.txt", "link_out_file", "link_out_rel", "link_out",
                                  "link_in/../link_out/secret.txt"}) {
        const std::string why = refusal(g, in);
        EXPECT_NE(why.find("outside the allowed directories"), std::string::npos) << in << ": " << why;
        // Where the link points is not the client's to learn.
        EXPECT_EQ(why.find(outside.string()), std::string::npos) << in << ": " << why;
    }
}

TEST_F(path_guard_test, symlinks_staying_inside_are_followed) {
    const auto g = guard();
    EXPECT_EQ(g.resolve("link_in/b.txt").real, root / "sub" / "b.txt");
    EXPECT_EQ(g.resolve("link_in_abs").real, root / "sub" / "b.txt");
    // ".." after a symlink applies to where the link points, as the kernel does.
    EXPECT_EQ(g.resolve("link_in/../a.txt").real, root / "a.txt");
}

TEST_F(path_guard_test, targets_that_do_not_exist_yet) {
    const auto g = guard();
    const auto p = g.resolve("new/dir/file.txt");
    EXPECT_FALSE(p.exists);
    EXPECT_EQ(p.real, root / "new" / "dir" / "file.txt");
    // A dangling symlink is judged by where it points, not by its own name.
    EXPECT_EQ(refusal(g, "dangling_out"),
              "Access denied: 'dangling_out' is outside the allowed directories (" + root.string() + ")");
    const auto in = g.resolve("dangling_in");
    EXPECT_FALSE(in.exists);
    EXPECT_EQ(in.real, root / "created.txt");
    // ".." after a missing directory: the kernel would fail there; so do we.
    EXPECT_NE(refusal(g, "missing/../../outside/secret.txt").find("outside the allowed"), std::string::npos);
    EXPECT_NE(refusal(g, "missing/../a.txt").find("No such directory"), std::string::npos);
}

TEST_F(path_guard_test, odd_inputs_are_refused_with_a_reason) {
    const auto g = guard();
    EXPECT_NE(refusal(g, "").find("Empty path"), std::string::npos);
    EXPECT_NE(refusal(g, std::string("a.txt\0/../../x", 14)).find("NUL"), std::string::npos);
    EXPECT_NE(refusal(g, "loop").find("Too many levels of symbolic links"), std::string::npos);
    EXPECT_NE(refusal(g, "a.txt/x").find("Not a directory"), std::string::npos);
    EXPECT_NE(refusal(path_guard(), "a.txt").find("No directory is allowed"), std::string::npos);
}

// Outside the roots, what exists there and what does not read the same: a file used as a
// directory, a missing directory, a loop, an unreadable place, a symlink into /proc/self.
TEST_F(path_guard_test, refusals_outside_the_roots_tell_nothing_about_the_file_system) {
    const auto g = guard();
    fs::create_symlink(outside / "secret.txt" / "x", root / "through_file");
    fs::create_symlink("/proc/self/cwd", root / "to_proc");
    fs::create_symlink(outside / "loop_a", outside / "loop_b");
    fs::create_symlink(outside / "loop_b", outside / "loop_a");
    const auto expected = [&](const std::string& in) {
        return "Access denied: '" + in + "' is outside the allowed directories (" + root.string() + ")";
    };
    for (const std::string& in : std::vector<std::string>{
             (outside / "secret.txt" / "x").string(), // a file used as a directory
             (outside / "nothing" / "x").string(),    // a missing directory
             (outside / "nothing" / ".." / "secret.txt").string(), (outside / "loop_a").string(),
             (outside / "loop_a" / "x").string(), "/etc/passwd/x", "/nonexistent/x",
             "../outside/secret.txt/x", "through_file", "to_proc", "to_proc/x/y", "link_out/secret.txt/x",
             "link_out/nothing/../secret.txt"}) {
        EXPECT_EQ(refusal(g, in), expected(in)) << in;
    }
}

// Path length and component count are bounded before any work: an 80,000-component path
// (resolved in 28 s of CPU before) is refused at once, and so is a chain of symlinks that
// expands into more components than any real path has.
TEST_F(path_guard_test, absurd_paths_are_refused_in_bounded_time) {
    const auto g = guard();
    const auto t0 = std::chrono::steady_clock::now();
    std::string deep;
    for (int i = 0; i < 80000; ++i) deep += "a/";
    EXPECT_NE(refusal(g, deep).find("Path too long: 160000 bytes"), std::string::npos);
    EXPECT_NE(refusal(g, root.string() + "/" + deep).find("Path too long"), std::string::npos);
    EXPECT_NE(refusal(g, "file://" + root.string() + "/" + deep).find("Path too long"), std::string::npos);
    // Under PATH_MAX as written, but each "d" is a link to 2,000 "." components.
    std::string dots;
    for (int i = 0; i < 2000; ++i) dots += "./";
    fs::create_symlink(dots, root / "d");
    std::string chain;
    for (int i = 0; i < 30; ++i) chain += "d/";
    EXPECT_NE(refusal(g, chain + "a.txt").find("too many components"), std::string::npos);
    // Many components that stay within the limits resolve.
    std::string many_dots;
    for (int i = 0; i < 1500; ++i) many_dots += "./";
    EXPECT_EQ(g.resolve(many_dots + "a.txt").real, root / "a.txt");
    // Well under a second in Release (28 s before the bounds); the limit only catches a return
    // of the unbounded work, so it is scaled for sanitizer builds on a loaded machine.
    EXPECT_LT(std::chrono::steady_clock::now() - t0, mcp::test::scaled(std::chrono::seconds(2)));
}

// A deep tree inside the root resolves in time linear in its depth.
TEST_F(path_guard_test, deep_paths_inside_resolve) {
    const auto g = guard();
    fs::path deep = root;
    std::string relative;
    for (int i = 0; i < 300; ++i) {
        deep /= "d";
        relative += "d/";
    }
    fs::create_directories(deep);
    write(deep / "f.txt", "deep");
    const auto p = g.resolve(relative + "f.txt");
    EXPECT_TRUE(p.exists);
    EXPECT_EQ(p.real, deep / "f.txt");
    EXPECT_EQ(g.resolve(relative + "../f.txt").real, deep.parent_path() / "f.txt");
    EXPECT_NE(refusal(g, relative + "f.txt/x").find("Not a directory"), std::string::npos);
}

TEST_F(path_guard_test, percent_encoded_file_uris) {
    const auto g = guard();
    EXPECT_EQ(g.resolve("file://" + root.string() + "/with%20space.txt").real, root / "with space.txt");
    EXPECT_EQ(g.resolve("file://localhost" + root.string() + "/a.txt").real, root / "a.txt");
    EXPECT_EQ(g.resolve("file:" + root.string() + "/a%2Etxt").real, root / "a.txt");
    // Encoded dots and slashes are decoded first, then judged like any path.
    EXPECT_NE(
        refusal(g, "file://" + root.string() + "/%2E%2E/outside/secret.txt").find("outside the allowed"),
        std::string::npos);
    EXPECT_NE(
        refusal(g, "file://" + root.string() + "/..%2F..%2F..%2Fetc%2Fpasswd").find("outside the allowed"),
        std::string::npos);
    EXPECT_NE(refusal(g, "file://" + root.string() + "/link_out%2Fsecret.txt").find("outside the allowed"),
              std::string::npos);
    for (const std::string& bad : std::vector<std::string>{
             "file://evil.example" + root.string() + "/a.txt", "file://" + root.string() + "/a.txt?x=1",
             "file://" + root.string() + "/a.txt#frag", "file://" + root.string() + "/a%00.txt",
             "file://" + root.string() + "/a%zz.txt", "file:a.txt"})
        EXPECT_NE(refusal(g, bad).find("Not a file:// URI"), std::string::npos) << bad;
}

TEST_F(path_guard_test, roots_are_canonical_deduplicated_and_validated) {
    const path_guard g({base / "root_alias", root, root / "sub"});
    ASSERT_EQ(g.roots().size(), 1u);
    EXPECT_EQ(g.roots()[0], root);
    // A path through the alias lands in the canonical root.
    EXPECT_EQ(g.resolve((base / "root_alias" / "a.txt").string()).real, root / "a.txt");
    EXPECT_THROW(path_guard({base / "missing"}), std::invalid_argument);
    EXPECT_THROW(path_guard({root / "a.txt"}), std::invalid_argument);
}

TEST_F(path_guard_test, relative_paths_with_several_roots) {
    const path_guard g({root, base / "root2"});
    EXPECT_EQ(g.resolve("c.txt").real, base / "root2" / "c.txt"); // where it exists
    EXPECT_EQ(g.resolve("new.txt").real, root / "new.txt");       // else the first root
    EXPECT_EQ(g.describe_roots(), root.string() + ", " + (base / "root2").string());
}

TEST_F(path_guard_test, is_within_compares_components) {
    using mcp::files::is_within;
    EXPECT_TRUE(is_within("/a/b", "/a/b"));
    EXPECT_TRUE(is_within("/a/b/c", "/a/b"));
    EXPECT_TRUE(is_within("/a/b/c", "/a/b/"));
    EXPECT_FALSE(is_within("/a/bc", "/a/b"));
    EXPECT_FALSE(is_within("/a", "/a/b"));
    EXPECT_TRUE(is_within("/x", "/"));
}

TEST_F(path_guard_test, open_reads_and_creates_inside) {
    const auto g = guard();
    auto fd = g.open(g.resolve("link_in/b.txt"), O_RDONLY);
    EXPECT_EQ(slurp(fd.get()), "B");
    auto dir = g.open(g.resolve("."), O_RDONLY | O_DIRECTORY);
    EXPECT_TRUE(dir);

    const auto fresh = g.resolve("x/y/z.txt");
    try {
        g.open(fresh, O_WRONLY | O_CREAT);
        ADD_FAILURE() << "opened without its parent";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code().value(), ENOENT);
        EXPECT_NE(std::string(e.what()).find(root.string() + "/x"), std::string::npos) << e.what();
    }
    auto created = g.open(fresh, O_WRONLY | O_CREAT, 0644, true);
    EXPECT_TRUE(fs::is_regular_file(root / "x" / "y" / "z.txt"));
}

TEST_F(path_guard_test, a_symlink_swapped_in_after_the_check_is_not_followed) {
    const auto g = guard();
    const auto p = g.resolve("sub/b.txt"); // checked while sub is a directory
    fs::rename(root / "sub", base / "sub_moved");
    fs::create_directory_symlink(outside, root / "sub"); // now sub leads outside
    write(outside / "b.txt", "outside!");
    EXPECT_THROW(g.open(p, O_RDONLY), path_refused);

    const auto f = g.resolve("a.txt"); // and a file replaced by a symlink
    fs::remove(root / "a.txt");
    fs::create_symlink(outside / "secret.txt", root / "a.txt");
    EXPECT_THROW(g.open(f, O_RDONLY), path_refused);
    // Creating through a dangling symlink that appeared after the check is refused too.
    const auto n = g.resolve("brand_new.txt");
    fs::create_symlink(outside / "planted.txt", root / "brand_new.txt");
    EXPECT_THROW(g.open(n, O_WRONLY | O_CREAT), path_refused);
    EXPECT_FALSE(fs::exists(outside / "planted.txt"));
}

} // namespace
