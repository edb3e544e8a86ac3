// The list of allowed project files: allow, revoke and reload; the content decides; the file and
// its directory private to their owner; a list that cannot be trusted is an error.
#include <mcp/host/project_trust.hpp>

#include "support/host_fixture.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sys/stat.h>

namespace {

using mcp::host::project_trust;
using mcp::host::project_trust_error;
namespace fs = std::filesystem;

struct host_project_trust_test : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    fs::path store = dirs.root / "config/mcpxx/allowed-projects.json";
    fs::path a = dirs.root / "a/.mcp.json", b = dirs.root / "b/.vscode/mcp.json";

    static unsigned mode_of(const fs::path& p) {
        struct stat st {};
        EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
        return st.st_mode & 07777;
    }
    /// The message of the error load() throws, or "" when it does not throw.
    std::string load_error() const {
        try {
            project_trust::load(store);
        } catch (const project_trust_error& e) {
            return e.what();
        }
        return "";
    }
};

TEST_F(host_project_trust_test, allow_revoke_and_reload) {
    // No list yet: nothing is allowed, and that is not an error.
    auto trust = project_trust::load(store);
    EXPECT_TRUE(trust.entries().empty());
    EXPECT_FALSE(trust.allowed(a, "x"));

    EXPECT_TRUE(trust.allow(a, "content of a"));
    EXPECT_FALSE(trust.allow(a, "content of a")); // already
    EXPECT_TRUE(trust.allow(b, "content of b"));
    trust.save();

    auto again = project_trust::load(store);
    EXPECT_TRUE(again.allowed(a, "content of a"));
    EXPECT_TRUE(again.allowed(b, "content of b"));
    // The content decides: another content of the same file is not allowed, though listed.
    EXPECT_FALSE(again.allowed(a, "content of a, changed"));
    EXPECT_TRUE(again.listed(a));
    EXPECT_FALSE(again.allowed(b, "content of a"));
    // The same file by another spelling of its path.
    EXPECT_TRUE(again.allowed(dirs.root / "a/sub/../.mcp.json", "content of a"));

    EXPECT_TRUE(again.revoke(a));
    EXPECT_FALSE(again.revoke(a));
    again.save();
    auto third = project_trust::load(store);
    EXPECT_FALSE(third.allowed(a, "content of a"));
    EXPECT_FALSE(third.listed(a));
    EXPECT_TRUE(third.allowed(b, "content of b"));
    ASSERT_EQ(third.entries().size(), 1u);
    EXPECT_EQ(third.entries().begin()->first, b.string());
    EXPECT_EQ(third.entries().begin()->second.size(), 64u); // hex SHA-256

    // Allowing again replaces what was allowed.
    third.allow(b, "content of b, changed");
    EXPECT_FALSE(third.allowed(b, "content of b"));
    EXPECT_TRUE(third.allowed(b, "content of b, changed"));
}

TEST_F(host_project_trust_test, the_checker_is_a_copy_of_the_list_as_it_was) {
    project_trust trust(store);
    trust.allow(a, "x");
    const auto check = trust.checker();
    trust.revoke(a);
    EXPECT_TRUE(check(a, "x"));
    EXPECT_FALSE(check(a, "y"));
    EXPECT_FALSE(trust.allowed(a, "x"));
}

TEST_F(host_project_trust_test, saved_privately_and_atomically) {
    // Whatever the umask, the directories made are 0700 and the file 0600.
    const auto old_mask = ::umask(0);
    project_trust trust(store);
    trust.allow(a, "x");
    trust.save();
    ::umask(old_mask);
    EXPECT_EQ(mode_of(store), 0600u);
    EXPECT_EQ(mode_of(store.parent_path()), 0700u);
    EXPECT_EQ(mode_of(store.parent_path().parent_path()), 0700u);
    // Saved again over it: still 0600, and no temporary file left next to it.
    trust.allow(b, "y");
    trust.save();
    EXPECT_EQ(mode_of(store), 0600u);
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(store.parent_path())) files.push_back(e.path().filename());
    EXPECT_EQ(files, std::vector<std::string>{"allowed-projects.json"});
    // A directory that exists keeps its mode.
    fs::create_directories(dirs.root / "shared");
    fs::permissions(dirs.root / "shared", fs::perms(0755));
    project_trust elsewhere(dirs.root / "shared/list.json");
    elsewhere.save();
    EXPECT_EQ(mode_of(dirs.root / "shared"), 0755u);
    EXPECT_EQ(mode_of(dirs.root / "shared/list.json"), 0600u);
    // Where it cannot be written, the error names the file.
    dirs.write(dirs.root / "not-a-dir", "");
    project_trust nowhere(dirs.root / "not-a-dir/list.json");
    try {
        nowhere.save();
        ADD_FAILURE() << "saved under a file";
    } catch (const project_trust_error& e) {
        EXPECT_NE(std::string(e.what()).find("not-a-dir/list.json"), std::string::npos) << e.what();
    }
}

TEST_F(host_project_trust_test, a_list_that_cannot_be_trusted_is_an_error) {
    project_trust good(store);
    good.allow(a, "x");
    good.save();
    const std::string digest = good.entries().begin()->second;
    const std::map<std::string, std::string> broken{
        {"not JSON", "{\"version\": 1, \"files\": {"},
        {"not an object", "[]"},
        {"no version", R"({"files": {}})"},
        {"a newer version", R"({"version": 2, "files": {}})"},
        {"no files", R"({"version": 1})"},
        {"no digest", R"({"version": 1, "files": {"/p/.mcp.json": {}}})"},
        {"a short digest", R"({"version": 1, "files": {"/p/.mcp.json": {"sha256": "abc"}}})"},
        {"a relative path", R"({"version": 1, "files": {"p/.mcp.json": {"sha256": ")" + digest + R"("}}})"},
    };
    for (const auto& [what, text] : broken) {
        dirs.write(store, text);
        fs::permissions(store, fs::perms(0600));
        const auto message = load_error();
        EXPECT_NE(message.find(store.string()), std::string::npos) << what << ": " << message;
    }
    // Writable by others: someone else could allow commands in it.
    dirs.write(store, R"({"version": 1, "files": {}})");
    fs::permissions(store, fs::perms(0620));
    EXPECT_NE(load_error().find("writable by other users"), std::string::npos) << load_error();
    fs::permissions(store, fs::perms(0602));
    EXPECT_NE(load_error().find("writable by other users"), std::string::npos) << load_error();
    fs::permissions(store, fs::perms(0644));
    EXPECT_EQ(load_error(), "");
    // Not a file it can read.
    fs::remove(store);
    fs::create_directories(store);
    EXPECT_NE(load_error().find("not a regular file"), std::string::npos) << load_error();
}

TEST_F(host_project_trust_test, default_path) {
    const auto env = [](std::map<std::string, std::string> vars) {
        return [vars = std::move(vars)](std::string_view n) -> std::optional<std::string> {
            auto it = vars.find(std::string(n));
            if (it == vars.end()) return std::nullopt;
            return it->second;
        };
    };
    EXPECT_EQ(project_trust::default_path(env({{"XDG_CONFIG_HOME", "/x/cfg"}, {"HOME", "/home/u"}})),
              fs::path("/x/cfg/mcpxx/allowed-projects.json"));
    EXPECT_EQ(project_trust::default_path(env({{"HOME", "/home/u"}})),
              fs::path("/home/u/.config/mcpxx/allowed-projects.json"));
    // A relative or empty XDG_CONFIG_HOME is ignored (XDG Base Directory specification).
    EXPECT_EQ(project_trust::default_path(env({{"XDG_CONFIG_HOME", "cfg"}, {"HOME", "/home/u"}})),
              fs::path("/home/u/.config/mcpxx/allowed-projects.json"));
    EXPECT_EQ(project_trust::default_path(env({{"XDG_CONFIG_HOME", ""}, {"HOME", "/home/u"}})),
              fs::path("/home/u/.config/mcpxx/allowed-projects.json"));
    EXPECT_EQ(project_trust::default_path(env({})), fs::path());
}

} // namespace
