// The file credential store: what is saved comes back, in files only the user can read (0600 in
// a 0700 folder), replaced whole; a folder or file others could read, or that another user
// owns, or that is damaged, is a clear error and is left as it is.
#include <mcp/auth/file_credential_store.hpp>

#include "support/host_fixture.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace mcp::auth;
namespace fs = std::filesystem;
using std::chrono::system_clock;

const store_key key{"https://mcp.example.com/mcp", "https://auth.example.com"};

struct auth_file_store : ::testing::Test {
    mcp::test::fake_host_dirs dirs{::testing::UnitTest::GetInstance()->current_test_info()->name()};
    fs::path folder = dirs.root / "config/mcpxx/credentials";
    file_credential_store store{folder};

    static unsigned mode_of(const fs::path& p) {
        struct stat st {};
        EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
        return st.st_mode & 07777;
    }
    static std::string content_of(const fs::path& p) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    /// The message of what `f` throws, or "" when it does not throw.
    template <class F>
    static std::string error_of(F f) {
        try {
            f();
        } catch (const credential_store_error& e) {
            return e.what();
        }
        return "";
    }
    static token_set tokens(std::string access) {
        token_set t;
        t.access_token = std::move(access);
        t.refresh_token = "refresh-secret";
        t.scope = "read write";
        t.expires_at = system_clock::time_point(std::chrono::seconds(1'900'000'000));
        return t;
    }
};

TEST_F(auth_file_store, what_is_saved_comes_back) {
    EXPECT_FALSE(store.load_tokens(key)); // no folder yet: nothing, not an error
    EXPECT_TRUE(store.list().empty());

    store.save_tokens(key, tokens("access-1"));
    client_registration client{.client_id = "cid", .client_secret = "csecret",
                               .token_endpoint_auth_method = "client_secret_basic",
                               .redirect_uris = {"http://127.0.0.1:1234/callback"}};
    store.save_client(key, client);
    store.save_pending(key, {"st", "verifier", "http://127.0.0.1:1234/callback", "read"});
    store.save_discovery(key.server, {"https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
                                      key.server, key.issuer, R"({"issuer":"https://auth.example.com"})"});

    // A second store on the same folder (another process) reads it all.
    file_credential_store other(folder);
    const auto t = other.load_tokens(key);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->access_token, "access-1");
    EXPECT_EQ(t->refresh_token, "refresh-secret");
    EXPECT_EQ(t->scope, "read write");
    EXPECT_EQ(t->expires_at, tokens("").expires_at);
    const auto c = other.load_client(key);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->client_id, "cid");
    EXPECT_EQ(c->client_secret, "csecret");
    EXPECT_EQ(c->redirect_uris, client.redirect_uris);
    EXPECT_EQ(other.load_pending(key)->code_verifier, "verifier");
    EXPECT_EQ(other.load_discovery(key.server)->issuer, key.issuer);

    // Keys are apart: another issuer of the same server has nothing.
    EXPECT_FALSE(other.load_tokens({key.server, "https://other-auth.example.com"}));

    const auto listed = other.list();
    ASSERT_EQ(listed.size(), 1u); // the discovery file (no issuer) is not a login
    EXPECT_EQ(listed[0].key, key);
    EXPECT_EQ(listed[0].file.filename().string().rfind("mcp.example.com-", 0), 0u);

    store.erase_pending(key);
    EXPECT_FALSE(other.load_pending(key));
    EXPECT_TRUE(other.load_tokens(key));
    EXPECT_EQ(other.erase_server(key.server), 1u);
    EXPECT_FALSE(store.load_tokens(key));
    EXPECT_FALSE(store.load_discovery(key.server));
    EXPECT_TRUE(fs::is_empty(folder));
}

TEST_F(auth_file_store, folder_0700_and_files_0600_whatever_the_umask) {
    const auto old = ::umask(0);
    store.save_tokens(key, tokens("access-1"));
    ::umask(old);
    EXPECT_EQ(mode_of(folder), 0700u);
    EXPECT_EQ(mode_of(folder.parent_path()), 0700u); // mcpxx/, created with it
    EXPECT_EQ(mode_of(store.file_for(key)), 0600u);
}

TEST_F(auth_file_store, a_save_replaces_the_file_whole) {
    store.save_tokens(key, tokens("access-1"));
    const auto file = store.file_for(key);
    struct stat before {};
    ASSERT_EQ(::stat(file.c_str(), &before), 0);
    store.save_tokens(key, tokens("access-2"));
    struct stat after {};
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    // A new file took the name (rename), the old one was not rewritten in place; no temporary
    // file is left beside it.
    EXPECT_NE(before.st_ino, after.st_ino);
    EXPECT_EQ(store.load_tokens(key)->access_token, "access-2");
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);
    EXPECT_EQ(mode_of(file), 0600u);
}

TEST_F(auth_file_store, a_folder_others_can_read_is_refused_not_repaired) {
    store.save_tokens(key, tokens("access-1"));
    fs::permissions(folder, fs::perms(0750));
    const auto error = error_of([&] { store.load_tokens(key); });
    EXPECT_EQ(error, folder.string() + " may be read or changed by other users; if nobody else could have read "
                                       "it, make it yours alone (chmod 700), else remove it and log in again");
    EXPECT_NE(error_of([&] { store.save_tokens(key, tokens("access-2")); }), "");
    EXPECT_NE(error_of([&] { store.list(); }), "");
    EXPECT_EQ(mode_of(folder), 0750u); // left as it was
}

TEST_F(auth_file_store, a_file_others_can_read_is_refused) {
    store.save_tokens(key, tokens("access-1"));
    const auto file = store.file_for(key);
    fs::permissions(file, fs::perms(0640));
    const auto error = error_of([&] { store.load_tokens(key); });
    EXPECT_NE(error.find(file.string() + " may be read or changed by other users"), std::string::npos) << error;
    EXPECT_NE(error.find("chmod 600"), std::string::npos);
    EXPECT_EQ(error.find("access-1"), std::string::npos);
    // list() names it and goes on.
    std::vector<std::string> problems;
    EXPECT_TRUE(store.list(&problems).empty());
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0], error);
    EXPECT_EQ(mode_of(file), 0640u);
}

TEST_F(auth_file_store, a_file_of_another_user_is_refused) {
    if (::geteuid() != 0) GTEST_SKIP() << "only root can give a file to another user";
    store.save_tokens(key, tokens("access-1"));
    const auto file = store.file_for(key);
    ASSERT_EQ(::chown(file.c_str(), 65534, 65534), 0);
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              file.string() + " belongs to another user; credentials are kept only in the user's own files");
    ASSERT_EQ(::chown(folder.c_str(), 65534, 65534), 0);
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              folder.string() + " belongs to another user; credentials are kept only in the user's own folder");
}

TEST_F(auth_file_store, a_damaged_file_is_a_clear_error) {
    store.save_tokens(key, tokens("access-1"));
    const auto file = store.file_for(key);
    const auto write = [&](const std::string& text) {
        std::ofstream(file, std::ios::trunc) << text;
        fs::permissions(file, fs::perms(0600));
    };
    write("{\"server\": \"https://mcp.example.com/mcp\", \"issuer\": \"https://auth.exa"); // cut short
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              file.string() + " is not a credentials file mcpxx wrote (not valid JSON); remove it and log in again");
    write("[1, 2]");
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              file.string() + " is not a credentials file mcpxx wrote (unexpected content); remove it and log in again");
    write(R"({"server": "https://mcp.example.com/mcp", "issuer": "https://auth.example.com",
              "sections": {"tokens": {"access_token": 42, "token_type": "Bearer"}}})");
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              file.string() + " is damaged (tokens: \"access_token\" must be a string); remove it and log in again");
    // Another key's content under this key's name (copied by hand): not handed out.
    write(R"({"server": "https://evil.example/mcp", "issuer": "https://auth.example.com", "sections": {}})");
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }),
              file.string() + " holds the credentials of another server; remove it and log in again");
    // A FIFO never blocks the store; something huge is not read.
    fs::remove(file);
    ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    EXPECT_EQ(error_of([&] { store.load_tokens(key); }), file.string() + " is not a regular file");
    fs::remove(file);
    write(std::string(file_credential_store::max_file_bytes + 1, ' '));
    EXPECT_NE(error_of([&] { store.load_tokens(key); }).find("is larger than"), std::string::npos);
}

TEST_F(auth_file_store, default_folder_follows_xdg) {
    const auto env = [](std::map<std::string, std::string> vars) {
        return [vars](std::string_view name) -> std::optional<std::string> {
            if (auto it = vars.find(std::string(name)); it != vars.end()) return it->second;
            return std::nullopt;
        };
    };
    EXPECT_EQ(file_credential_store::default_folder(env({{"XDG_CONFIG_HOME", "/x/cfg"}, {"HOME", "/h"}})),
              fs::path("/x/cfg/mcpxx/credentials"));
    EXPECT_EQ(file_credential_store::default_folder(env({{"HOME", "/h"}})), fs::path("/h/.config/mcpxx/credentials"));
    EXPECT_EQ(file_credential_store::default_folder(env({})), fs::path());
}

TEST_F(auth_file_store, file_names_are_safe_and_distinct) {
    const auto a = store.file_for({"https://MCP.Example.com:8443/a/../b?x=/", "https://i"});
    EXPECT_EQ(a.parent_path(), folder);
    EXPECT_EQ(a.filename().string().rfind("mcp.example.com-", 0), 0u) << a;
    EXPECT_EQ(store.file_for({"file:///etc/passwd", ""}).filename().string().rfind("server-", 0), 0u);
    EXPECT_NE(store.file_for({"https://a/x", "y"}), store.file_for({"https://a/xy", ""}));
    EXPECT_NE(store.file_for(key), store.file_for({key.server, ""}));
}

} // namespace
