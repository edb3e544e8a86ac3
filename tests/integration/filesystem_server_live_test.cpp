// examples/filesystem_server over stdio (support/filesystem_fixture.hpp), what changes while it
// runs: subscriptions and list_changed driven by inotify (awaited with generous deadlines, never
// a fixed sleep), client roots narrowing access and changing, no roots at all, older protocol
// revisions, completion, and usage errors.
#include "support/filesystem_fixture.hpp"
#include "support/raw_process.hpp"

#include <gtest/gtest.h>

namespace {

using namespace mcp::test::fs_server;
namespace fs = std::filesystem;
namespace json = mcp::json;
using namespace std::chrono_literals;

std::vector<std::string> allowed(const mcp::call_tool_result& r) {
    std::vector<std::string> out;
    for (const auto& d : r.structured_content->at("directories").as_array()) out.emplace_back(d.as_string());
    return out;
}

// ------------------------------------------------------------------ changes

TEST_F(filesystem_server, subscribed_file_changes_are_notified) {
    // Names sorted so that, in one batch, a wrong notification would come before the fence's.
    write(root / "a_quiet.txt", "q\n");
    write(root / "z_fence.txt", "f\n");
    start(default_args());
    const std::string hello = file_uri(root / "hello.txt");
    client->subscribe(hello);
    { std::ofstream(root / "hello.txt", std::ios::app) << "third line\n"; }
    ASSERT_TRUE(wait_for([&] { return std::find(updated.begin(), updated.end(), hello) != updated.end(); }))
        << transport->stderr_tail();
    auto now = client->read_resource(hello);
    EXPECT_TRUE(has(std::get<mcp::text_resource_contents>(now.contents.at(0)).text, "third line"));

    // Unsubscribed (and never-subscribed) files are not reported. Notifications keep their
    // order, so once the fence's has arrived, one for a_quiet.txt or notes.md would have too.
    const std::string quiet = file_uri(root / "a_quiet.txt"), fence = file_uri(root / "z_fence.txt");
    client->subscribe(quiet);
    client->unsubscribe(quiet);
    client->subscribe(fence);
    write(root / "a_quiet.txt", "changed\n");
    write(root / "notes.md", "changed, but nobody subscribed\n");
    write(root / "z_fence.txt", "changed\n");
    ASSERT_TRUE(wait_for([&] { return std::find(updated.begin(), updated.end(), fence) != updated.end(); }));
    EXPECT_FALSE(was_updated(quiet));
    EXPECT_FALSE(was_updated(file_uri(root / "notes.md")));

    // A directory's subscribers hear about entries coming and going; a new subdirectory is
    // watched as soon as it appears.
    const std::string sub = file_uri(root / "sub");
    client->subscribe(sub);
    fs::create_directory(root / "sub" / "fresh");
    write(root / "sub" / "fresh" / "inner.txt", "1");
    ASSERT_TRUE(wait_for([&] { return std::find(updated.begin(), updated.end(), sub) != updated.end(); }));
    const std::string inner = file_uri(root / "sub" / "fresh" / "inner.txt");
    client->subscribe(inner);
    write(root / "sub" / "fresh" / "inner.txt", "2");
    EXPECT_TRUE(wait_for([&] { return std::find(updated.begin(), updated.end(), inner) != updated.end(); }));
}

TEST_F(filesystem_server, other_spellings_of_a_file_read_and_subscribe_like_its_own_uri) {
    start(default_args());
    // file://localhost/ is this machine (RFC 8089).
    const std::string localhost = "file://localhost" + (root / "hello.txt").string();
    auto r = client->read_resource(localhost);
    EXPECT_TRUE(has(std::get<mcp::text_resource_contents>(r.contents.at(0)).text, "Hello, world"));
    // Another machine's file is not one of this server's resources.
    EXPECT_EQ(read_error("file://otherhost" + (root / "hello.txt").string()).code(), -32002);
    client->subscribe(localhost);
    // A symlink inside the roots: its target changes, the link's subscriber hears of it.
    const std::string link = file_uri(root / "inside_link");
    client->subscribe(link);
    { std::ofstream(root / "sub" / "deep.txt", std::ios::app) << "more\n"; }
    // (wait_for holds the lock was_updated takes.)
    EXPECT_TRUE(wait_for([&] { return std::find(updated.begin(), updated.end(), link) != updated.end(); }))
        << transport->stderr_tail();
    { std::ofstream(root / "hello.txt", std::ios::app) << "more\n"; }
    EXPECT_TRUE(wait_for([&] {
        return std::find(updated.begin(), updated.end(), localhost) != updated.end();
    })) << transport->stderr_tail();
}

TEST_F(filesystem_server, creating_and_deleting_files_changes_the_list) {
    start(default_args());
    auto before = resource_uris();
    const std::string fresh = file_uri(root / "sub" / "fresh.txt");
    write(root / "sub" / "fresh.txt", "new\n");
    ASSERT_TRUE(wait_for([&] { return list_changed > 0; })) << transport->stderr_tail();
    auto with = before;
    with.insert(fresh);
    EXPECT_TRUE(resources_become(with));
    // Written through the tool: the same.
    call("write_file", {{"path", "made/by/tool.txt"}, {"content", "t"}, {"create_directories", true}});
    with.insert(file_uri(root / "made" / "by" / "tool.txt"));
    EXPECT_TRUE(resources_become(with));
    fs::remove(root / "sub" / "fresh.txt");
    fs::remove_all(root / "made");
    EXPECT_TRUE(resources_become(before));
}

// ------------------------------------------------------------------ roots

TEST_F(filesystem_server, client_roots_narrow_access) {
    start(default_args(), roots_of({root / "sub"}));
    EXPECT_EQ(allowed(call("list_allowed_directories", {})),
              std::vector<std::string>{(root / "sub").string()});
    EXPECT_TRUE(
        has(tool_error("read_file", {{"path", (root / "hello.txt").string()}}), "outside the allowed"));
    EXPECT_EQ(text0(call("read_file", {{"path", (root / "sub" / "deep.txt").string()}})), "deep thought\n");
    EXPECT_EQ(text0(call("read_file", {{"path", "deep.txt"}})),
              "deep thought\n"); // relative to the client's root
    EXPECT_EQ(read_error(file_uri(root / "hello.txt")).code(), -32602);
    // The listing follows (one list_changed per file removed from it).
    EXPECT_TRUE(resources_become({file_uri(root / "sub" / "deep.txt")}));
}

TEST_F(filesystem_server, client_roots_changes_are_followed) {
    start(default_args(), roots_of({root / "sub"}));
    EXPECT_TRUE(resources_become({file_uri(root / "sub" / "deep.txt")}));
    // Wider than the command line: the command line still bounds it.
    set_client_roots(roots_of({base}));
    EXPECT_TRUE(resources_become({file_uri(root / "big.txt"), file_uri(root / "data.bin"),
                                  file_uri(root / "hello.txt"), file_uri(root / "notes.md"),
                                  file_uri(root / "pixel.png"), file_uri(root / "sub/deep.txt")}));
    EXPECT_EQ(allowed(call("list_allowed_directories", {})), std::vector<std::string>{root.string()});
    EXPECT_EQ(text0(call("read_file", {{"path", "hello.txt"}})), "Hello, world\nsecond line\n");
    EXPECT_TRUE(has(tool_error("read_file", {{"path", (outside / "secret.txt").string()}}), "outside"));
    // Narrowed again, then roots elsewhere: the client works somewhere else, so its roots say
    // nothing about the server's directory, which stays allowed as configured - and the server
    // says why.
    set_client_roots(roots_of({root / "sub"}));
    EXPECT_TRUE(resources_become({file_uri(root / "sub" / "deep.txt")}));
    set_client_roots(roots_of({outside}));
    EXPECT_TRUE(resources_become({file_uri(root / "big.txt"), file_uri(root / "data.bin"),
                                  file_uri(root / "hello.txt"), file_uri(root / "notes.md"),
                                  file_uri(root / "pixel.png"), file_uri(root / "sub/deep.txt")}));
    const auto listed = call("list_allowed_directories", {});
    EXPECT_EQ(allowed(listed), std::vector<std::string>{root.string()});
    ASSERT_TRUE(listed.structured_content);
    const std::string note(listed.structured_content->as_object().at("note").as_string());
    EXPECT_TRUE(has(note, "overlap none of this server's directories")) << note;
    EXPECT_TRUE(has(note, file_uri(outside))) << note;
    EXPECT_EQ(text0(call("read_file", {{"path", (root / "hello.txt").string()}})),
              "Hello, world\nsecond line\n");
    EXPECT_TRUE(has(tool_error("read_file", {{"path", (outside / "secret.txt").string()}}), "outside"));
    EXPECT_TRUE(
        wait_for([&] { return has(transport->stderr_tail(), "overlap none of this server's directories"); }));
}

TEST_F(filesystem_server, without_command_line_directories_the_client_roots_apply) {
    start({"--debounce-ms", "50"}, roots_of({root / "sub"}));
    EXPECT_EQ(allowed(call("list_allowed_directories", {})),
              std::vector<std::string>{(root / "sub").string()});
    EXPECT_EQ(text0(call("read_file", {{"path", "deep.txt"}})), "deep thought\n");
    EXPECT_TRUE(resources_become({file_uri(root / "sub" / "deep.txt")}));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", (root / "hello.txt").string()}}), "outside"));
}

TEST_F(filesystem_server, without_any_directory_everything_is_refused) {
    start({});
    EXPECT_TRUE(client->list_all_resources().empty());
    EXPECT_TRUE(
        has(tool_error("read_file", {{"path", (root / "hello.txt").string()}}), "No directory is allowed"));
    EXPECT_EQ(read_error(file_uri(root / "hello.txt")).code(), -32602);
}

// ------------------------------------------------------------------ the rest

TEST_F(filesystem_server, older_revisions_get_what_they_define) {
    // 2025-03-26: no structuredContent, outputSchema or resource_link; every message is checked
    // against that revision's schema.
    start(default_args(), std::nullopt, mcp::revision::v2025_03_26);
    EXPECT_EQ(client->protocol_version(), mcp::revision::v2025_03_26);
    for (const auto& t : client->list_all_tools()) EXPECT_FALSE(t.output_schema) << t.name;
    auto listing = call("list_directory", {{"path", "sub"}});
    EXPECT_FALSE(listing.structured_content);
    EXPECT_TRUE(has(text0(listing), "deep.txt")); // the text copy carries it
    EXPECT_EQ(text0(call("read_file", {{"path", "hello.txt"}})), "Hello, world\nsecond line\n");
    EXPECT_TRUE(
        std::holds_alternative<mcp::image_content>(call("read_file", {{"path", "pixel.png"}}).content.at(0)));
    EXPECT_EQ(read_error(file_uri(root / "escape" / "secret.txt")).code(), -32602);
    client->subscribe(file_uri(root / "hello.txt"));
    write(root / "hello.txt", "new\n");
    EXPECT_TRUE(wait_for([&] { return !updated.empty(); }));
}

TEST_F(filesystem_server, completes_template_paths) {
    start(default_args());
    auto complete = [&](const std::string& value) {
        return client
            ->complete({.ref = mcp::resource_template_reference{"file:///{+path}"},
                        .argument = {.name = "path", .value = value}})
            .values;
    };
    const std::string r = root.string().substr(1) + "/";
    EXPECT_EQ(complete(r + "s"), std::vector<std::string>{r + "sub/"});
    EXPECT_EQ(complete(r + "sub/"), std::vector<std::string>{r + "sub/deep.txt"});
    EXPECT_EQ(complete(root.string().substr(1, 4)),
              std::vector<std::string>{r}); // the allowed directory itself
    EXPECT_TRUE(complete(outside.string().substr(1) + "/").empty());
}

TEST_F(filesystem_server, usage_errors_exit_2) {
    for (const auto& args : {std::vector<std::string>{(base / "missing").string()},
                             std::vector<std::string>{"--max-read-bytes", "lots", root.string()},
                             std::vector<std::string>{"--bogus"}}) {
        std::vector<std::string> argv{std::string(MCPXX_BINARY_DIR) + "/filesystem_server"};
        argv.insert(argv.end(), args.begin(), args.end());
        mcp::test::raw_process p(argv);
        EXPECT_EQ(p.wait(10s), 2) << args.front();
        EXPECT_TRUE(has(p.stderr_text(), "filesystem_server: ")) << p.stderr_text();
        EXPECT_FALSE(p.read_line(100ms)) << "nothing on stdout, the protocol stream";
    }
}

} // namespace
