// examples/filesystem_server as a real child process over stdio, driven by mcp::client on a
// temporary directory tree (support/filesystem_fixture.hpp): resources (list, read, template),
// every tool, refused escapes (a symlink pointing outside, "..", absolute paths, a planted
// dangling symlink) and bad input. Every message either side sends is validated against the
// official schema. Changes and roots: filesystem_server_live_test.
#include "support/filesystem_fixture.hpp"

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace mcp::test::fs_server;
namespace fs = std::filesystem;
namespace json = mcp::json;
using namespace std::chrono_literals;

// ------------------------------------------------------------------ resources

TEST_F(filesystem_server, lists_files_as_resources_and_offers_the_template) {
    start(default_args());
    std::map<std::string, mcp::resource> by_uri;
    for (const auto& r : client->list_all_resources()) by_uri[r.uri] = r;
    std::set<std::string> uris;
    for (const auto& [u, r] : by_uri) uris.insert(u);
    // Regular files only: no directories, no symlinks, nothing outside.
    EXPECT_EQ(uris, (std::set<std::string>{file_uri(root / "big.txt"), file_uri(root / "data.bin"),
                                           file_uri(root / "hello.txt"), file_uri(root / "notes.md"),
                                           file_uri(root / "pixel.png"), file_uri(root / "sub/deep.txt")}));
    EXPECT_EQ(by_uri[file_uri(root / "sub/deep.txt")].name, "sub/deep.txt");
    EXPECT_EQ(by_uri[file_uri(root / "notes.md")].mime_type, "text/markdown");
    EXPECT_EQ(by_uri[file_uri(root / "pixel.png")].mime_type, "image/png");

    // file:///{+path}, and the same spelt with the host file://localhost/ (RFC 8089).
    const auto templates = client->list_all_resource_templates();
    ASSERT_EQ(templates.size(), 2u);
    std::set<std::string> texts{templates[0].uri_template, templates[1].uri_template};
    EXPECT_EQ(texts, (std::set<std::string>{"file:///{+path}", "file://localhost/{+path}"}));
    EXPECT_TRUE(client->server().capabilities.resources->subscribe.value_or(false));
}

TEST_F(filesystem_server, listing_is_bounded_and_paginated) {
    for (int i = 0; i < 30; ++i) write(root / "many" / ("f" + std::to_string(100 + i) + ".txt"), "x");
    auto args = default_args();
    args.insert(args.begin(), {"--max-resources", "20"});
    start(args);
    const auto first = client->list_resources();
    EXPECT_EQ(first.resources.size(), 20u); // fewer than the library's page size: one page
    EXPECT_FALSE(first.next_cursor);
    // The first 20 files in walk order (name order, depth first): big.txt, data.bin, hello.txt,
    // many/f100.txt ... many/f116.txt.
    EXPECT_EQ(resource_uris().count(file_uri(root / "many" / "f116.txt")), 1u);
    EXPECT_EQ(resource_uris().count(file_uri(root / "many" / "f117.txt")), 0u);
    // Unlisted files stay readable through the template.
    const auto r = client->read_resource(file_uri(root / "sub" / "deep.txt"));
    EXPECT_EQ(std::get<mcp::text_resource_contents>(r.contents.at(0)).text, "deep thought\n");
}

TEST_F(filesystem_server, reads_text_binary_directories_and_through_the_template) {
    start(default_args());
    auto hello = client->read_resource(file_uri(root / "hello.txt"));
    ASSERT_EQ(hello.contents.size(), 1u);
    const auto& t = std::get<mcp::text_resource_contents>(hello.contents[0]);
    EXPECT_EQ(t.text, "Hello, world\nsecond line\n");
    EXPECT_EQ(t.mime_type, "text/plain");
    EXPECT_EQ(t.uri, file_uri(root / "hello.txt"));

    auto data = client->read_resource(file_uri(root / "data.bin"));
    const auto& b = std::get<mcp::blob_resource_contents>(data.contents.at(0));
    EXPECT_EQ(b.mime_type, "application/octet-stream");
    EXPECT_EQ(mcp::base64::decode(b.blob), slurp(root / "data.bin"));
    auto png = client->read_resource(file_uri(root / "pixel.png"));
    EXPECT_EQ(std::get<mcp::blob_resource_contents>(png.contents.at(0)).mime_type, "image/png");

    // Not registered URIs go through file:///{+path}: another spelling of a listed file, a
    // symlink that stays inside, a directory.
    auto spelled = client->read_resource("file://" + root.string() + "/hello%2Etxt");
    EXPECT_EQ(std::get<mcp::text_resource_contents>(spelled.contents.at(0)).text,
              "Hello, world\nsecond line\n");
    auto linked = client->read_resource(file_uri(root / "inside_link"));
    EXPECT_EQ(std::get<mcp::text_resource_contents>(linked.contents.at(0)).text, "deep thought\n");
    auto dir = client->read_resource(file_uri(root));
    const auto& listing = std::get<mcp::text_resource_contents>(dir.contents.at(0));
    EXPECT_EQ(listing.mime_type, "inode/directory");
    EXPECT_EQ(listing.text, "big.txt\ndata.bin\nescape\nhello.txt\ninside_link\nnotes.md\npixel.png\nsub/\n");
}

TEST_F(filesystem_server, refused_missing_and_oversized_reads_are_json_rpc_errors) {
    for (int i = 0; i < 100; ++i) write(root / "crowded" / (std::string(60, 'n') + std::to_string(i)), "");
    start(default_args());
    const auto through_link = read_error(file_uri(root / "escape" / "secret.txt"));
    EXPECT_EQ(through_link.code(), -32602);
    EXPECT_TRUE(has(through_link.what(), "outside the allowed directories")) << through_link.what();
    EXPECT_EQ(through_link.data().at("uri"), jstr(file_uri(root / "escape" / "secret.txt")));
    EXPECT_EQ(read_error(file_uri(outside / "secret.txt")).code(), -32602);
    EXPECT_EQ(read_error("file://" + root.string() + "/..%2Foutside%2Fsecret.txt").code(), -32602);
    EXPECT_EQ(read_error("file:///etc/passwd").code(), -32602);

    const auto missing = read_error(file_uri(root / "nope.txt"));
    EXPECT_EQ(missing.code(), -32002);
    const auto big = read_error(file_uri(root / "big.txt"));
    EXPECT_EQ(big.code(), -32602);
    EXPECT_TRUE(has(big.what(), "over the read limit of 4.0 KiB")) << big.what();
    const auto crowded = read_error(file_uri(root / "crowded"));
    EXPECT_EQ(crowded.code(), -32602);
    EXPECT_TRUE(has(crowded.what(), "use the list_directory tool")) << crowded.what();
    EXPECT_EQ(read_error("https://example.com/x").code(), -32002); // no template matches
    client->ping();                                                // and the server is fine
}

TEST_F(filesystem_server, subscriptions_are_refused_where_reads_are) {
    start(default_args());
    const auto subscribe_error = [&](const std::string& uri) {
        try {
            client->subscribe(uri);
        } catch (const mcp::error& e) {
            return e;
        }
        return mcp::error(0, "subscribed to " + uri);
    };
    const auto through_link = subscribe_error(file_uri(root / "escape" / "secret.txt"));
    EXPECT_EQ(through_link.code(), -32602);
    EXPECT_TRUE(has(through_link.what(), "outside the allowed directories")) << through_link.what();
    EXPECT_EQ(subscribe_error(file_uri(outside / "secret.txt")).code(), -32602);
    EXPECT_EQ(subscribe_error("file:///etc/passwd").code(), -32602);
    EXPECT_EQ(subscribe_error("https://example.com/x").code(), -32002);
    // Inside the roots: a file, and one that does not exist yet (it may be created later).
    EXPECT_NO_THROW(client->subscribe(file_uri(root / "hello.txt")));
    EXPECT_NO_THROW(client->subscribe(file_uri(root / "later.txt")));
}

// ------------------------------------------------------------------ tools

TEST_F(filesystem_server, tools_are_listed_with_annotations_and_strict_schemas) {
    start(default_args());
    std::map<std::string, mcp::tool> tools;
    for (auto& t : client->list_all_tools()) tools[t.name] = t;
    ASSERT_EQ(tools.size(), 5u);
    for (const char* name : {"read_file", "list_directory", "search_files", "list_allowed_directories"}) {
        const auto& a = tools.at(name).annotations;
        ASSERT_TRUE(a) << name;
        EXPECT_EQ(a->read_only_hint, true) << name;
        EXPECT_EQ(a->open_world_hint, false) << name;
    }
    const auto& w = tools.at("write_file").annotations;
    ASSERT_TRUE(w);
    EXPECT_EQ(w->read_only_hint, false);
    EXPECT_EQ(w->destructive_hint, true);
    EXPECT_EQ(w->idempotent_hint, true);
    EXPECT_EQ(w->open_world_hint, false);
    for (auto& [name, t] : tools) EXPECT_EQ(t.input_schema.at("additionalProperties"), false) << name;
    EXPECT_EQ(tools.at("read_file").input_schema.at("required"), json::parse(R"(["path"])"));
    EXPECT_EQ(tools.at("write_file").input_schema.at("required"), json::parse(R"(["path","content"])"));
    for (const char* name : {"write_file", "list_directory", "search_files", "list_allowed_directories"})
        EXPECT_TRUE(tools.at(name).output_schema) << name;
}

TEST_F(filesystem_server, read_file_tool) {
    start(default_args());
    auto r = call("read_file", {{"path", (root / "hello.txt").string()}});
    EXPECT_FALSE(r.is_error.value_or(false));
    EXPECT_EQ(text0(r), "Hello, world\nsecond line\n");
    EXPECT_EQ(text0(call("read_file", {{"path", "sub/deep.txt"}})), "deep thought\n"); // relative to the root
    EXPECT_EQ(text0(call("read_file", {{"path", file_uri(root / "notes.md")}})),
              "# Notes\nremember the milk\n");
    EXPECT_EQ(text0(call("read_file", {{"path", "inside_link"}})), "deep thought\n");
    // Large files: whole is refused with a way out; head and tail work.
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "big.txt"}}), "pass head or tail"));
    EXPECT_EQ(text0(call("read_file", {{"path", "big.txt"}, {"head", 2}})),
              "line 1" + std::string(34, '.') + "\nline 2" + std::string(34, '.') + "\n");
    EXPECT_EQ(text0(call("read_file", {{"path", "big.txt"}, {"tail", 1}})),
              "line 200" + std::string(34, '.') + "\n");
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "big.txt"}, {"head", 1}, {"tail", 1}}), "not both"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "big.txt"}, {"head", 150}}), "first 150 lines"));
    // Binary: an image block for images, an embedded blob otherwise.
    auto png = call("read_file", {{"path", "pixel.png"}});
    ASSERT_TRUE(std::holds_alternative<mcp::image_content>(png.content.at(0)));
    EXPECT_EQ(std::get<mcp::image_content>(png.content[0]).mime_type, "image/png");
    auto bin = call("read_file", {{"path", "data.bin"}});
    const auto& embedded = std::get<mcp::embedded_resource>(bin.content.at(0));
    const auto& blob = std::get<mcp::blob_resource_contents>(embedded.resource);
    EXPECT_EQ(blob.uri, file_uri(root / "data.bin"));
    EXPECT_EQ(mcp::base64::decode(blob.blob), slurp(root / "data.bin"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "data.bin"}, {"head", 1}}), "binary"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "sub"}}), "is a directory: use list_directory"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "nope.txt"}}), "does not exist"));
}

TEST_F(filesystem_server, write_file_tool) {
    start(default_args());
    auto created = call("write_file", {{"path", "new.txt"}, {"content", "fresh\n"}});
    ASSERT_FALSE(created.is_error.value_or(false)) << text0(created);
    EXPECT_EQ(created.structured_content->at("created"), true);
    EXPECT_EQ(created.structured_content->at("bytes_written"), 6);
    EXPECT_EQ(created.structured_content->at("path"), jstr((root / "new.txt").string()));
    EXPECT_EQ(created.structured_content->at("uri"), jstr(file_uri(root / "new.txt")));
    EXPECT_EQ(slurp(root / "new.txt"), "fresh\n");
    auto again = call("write_file", {{"path", (root / "new.txt").string()}, {"content", "x"}});
    EXPECT_EQ(again.structured_content->at("created"), false);
    EXPECT_EQ(slurp(root / "new.txt"), "x"); // overwritten, not appended

    EXPECT_TRUE(
        has(tool_error("write_file", {{"path", "a/b/c.txt"}, {"content", "x"}}), "create_directories: true"));
    EXPECT_FALSE(fs::exists(root / "a"));
    auto nested =
        call("write_file", {{"path", "a/b/c.txt"}, {"content", "nested"}, {"create_directories", true}});
    EXPECT_FALSE(nested.is_error.value_or(false)) << text0(nested);
    EXPECT_EQ(slurp(root / "a/b/c.txt"), "nested");
    // Through a symlink that stays inside: the target is written.
    call("write_file", {{"path", "inside_link"}, {"content", "rewritten\n"}});
    EXPECT_EQ(slurp(root / "sub/deep.txt"), "rewritten\n");
    EXPECT_TRUE(fs::is_symlink(root / "inside_link"));
    EXPECT_TRUE(has(tool_error("write_file", {{"path", "sub"}, {"content", "x"}}), "is a directory"));
}

TEST_F(filesystem_server, escapes_through_tools_are_tool_errors) {
    start(default_args());
    // A planted symlink to a file that does not exist yet, outside.
    fs::create_symlink(outside / "planted.txt", root / "trap");
    for (const json::object& args :
         {json::object{{"path", (root / "escape" / "secret.txt").string()}},
          json::object{{"path", "escape/secret.txt"}}, json::object{{"path", "../outside/secret.txt"}},
          json::object{{"path", (outside / "secret.txt").string()}}, json::object{{"path", "/etc/passwd"}},
          json::object{{"path", file_uri(outside / "secret.txt")}}}) {
        EXPECT_TRUE(has(tool_error("read_file", args), "outside the allowed directories"))
            << json::serialize(args);
    }
    const auto trapped = tool_error("write_file", {{"path", "trap"}, {"content", "gotcha"}});
    EXPECT_TRUE(has(trapped, "outside the allowed directories")) << trapped;
    EXPECT_FALSE(has(trapped, "planted.txt")) << "the link's target is echoed: " << trapped;
    EXPECT_TRUE(has(tool_error("write_file", {{"path", "escape/new.txt"}, {"content", "x"}}), "outside"));
    EXPECT_TRUE(has(tool_error("write_file", {{"path", "../outside/x.txt"}, {"content", "x"}}), "outside"));
    EXPECT_TRUE(
        has(tool_error("write_file",
                       {{"path", "escape/deeper/x.txt"}, {"content", "x"}, {"create_directories", true}}),
            "outside"));
    EXPECT_FALSE(fs::exists(outside / "planted.txt"));
    EXPECT_FALSE(fs::exists(outside / "new.txt"));
    EXPECT_FALSE(fs::exists(outside / "deeper"));
    EXPECT_EQ(slurp(outside / "secret.txt"), "top secret\n");
    EXPECT_TRUE(has(tool_error("list_directory", {{"path", "escape"}}), "outside"));
    EXPECT_TRUE(has(tool_error("search_files", {{"path", "escape"}, {"pattern", "*"}}), "outside"));
}

TEST_F(filesystem_server, list_directory_tool) {
    start(default_args());
    auto r = call("list_directory", {{"path", root.string()}});
    ASSERT_FALSE(r.is_error.value_or(false)) << text0(r);
    const auto& sc = r.structured_content->as_object();
    EXPECT_EQ(sc.at("directory"), jstr(root.string()));
    EXPECT_EQ(sc.at("truncated"), false);
    std::vector<std::string> names;
    for (const auto& e : sc.at("entries").as_array()) names.emplace_back(e.at("path").as_string());
    EXPECT_EQ(names, (std::vector<std::string>{"big.txt", "data.bin", "escape", "hello.txt", "inside_link",
                                               "notes.md", "pixel.png", "sub"}));
    const auto& escape = sc.at("entries").at(2).as_object();
    EXPECT_EQ(escape.at("type"), "symlink");
    EXPECT_EQ(escape.at("target"), jstr(outside.string())); // shown, not followed
    EXPECT_EQ(sc.at("entries").at(3).at("size"), 25);

    auto deep = call("list_directory", {{"path", "."}, {"recursive", true}});
    bool saw_deep = false;
    for (const auto& e : deep.structured_content->at("entries").as_array()) {
        saw_deep = saw_deep || e.at("path") == "sub/deep.txt";
        EXPECT_FALSE(
            has(std::string(e.at("path").as_string()), "secret")); // the symlinked dir is not entered
    }
    EXPECT_TRUE(saw_deep);
    auto capped = call("list_directory", {{"path", "."}, {"max_entries", 3}});
    EXPECT_EQ(capped.structured_content->at("entries").as_array().size(), 3u);
    EXPECT_EQ(capped.structured_content->at("truncated"), true);
    EXPECT_TRUE(has(tool_error("list_directory", {{"path", "hello.txt"}}), "not a directory"));
}

TEST_F(filesystem_server, search_files_tool) {
    start(default_args());
    auto paths = [](const mcp::call_tool_result& r) {
        std::vector<std::string> out;
        for (const auto& m : r.structured_content->at("matches").as_array())
            out.emplace_back(m.at("path").as_string());
        return out;
    };
    const std::string r = root.string() + "/";
    EXPECT_EQ(paths(call("search_files", {{"pattern", "*.txt"}})),
              (std::vector<std::string>{r + "big.txt", r + "hello.txt", r + "sub/deep.txt"}));
    EXPECT_EQ(paths(call("search_files", {{"pattern", "sub/*.txt"}})),
              (std::vector<std::string>{r + "sub/deep.txt"}));
    EXPECT_EQ(paths(call("search_files", {{"pattern", "**/deep*"}})),
              (std::vector<std::string>{r + "sub/deep.txt"}));
    EXPECT_EQ(paths(call("search_files", {{"pattern", "NOTES"}})),
              (std::vector<std::string>{r + "notes.md"}));
    EXPECT_TRUE(paths(call("search_files", {{"pattern", "NOTES"}, {"case_sensitive", true}})).empty());
    EXPECT_EQ(paths(call("search_files", {{"pattern", "deep"}, {"path", "sub"}})),
              (std::vector<std::string>{r + "sub/deep.txt"}));

    auto content = call("search_files", {{"content", "MILK"}});
    const auto& m = content.structured_content->at("matches").as_array();
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].at("path"), jstr(r + "notes.md"));
    EXPECT_EQ(m[0].at("line"), 2);
    EXPECT_EQ(m[0].at("text"), "remember the milk");
    // The secret outside is never searched, even though a symlink leads there.
    EXPECT_TRUE(paths(call("search_files", {{"content", "secret"}})).empty());
    auto limited = call("search_files", {{"content", "e"}, {"max_results", 2}});
    EXPECT_EQ(limited.structured_content->at("matches").as_array().size(), 2u);
    EXPECT_EQ(limited.structured_content->at("truncated"), true);
    // Files over the read limit are not searched, and the result says so.
    auto large = call("search_files", {{"content", "line 7"}, {"pattern", "big.txt"}});
    EXPECT_TRUE(large.structured_content->at("matches").as_array().empty());
    EXPECT_EQ(large.structured_content->at("too_large"), 1);
    EXPECT_TRUE(has(tool_error("search_files", {}), "pattern"));
}

TEST_F(filesystem_server, bad_input_gives_clear_errors_and_the_server_goes_on) {
    start(default_args());
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "hello.txt"}, {"file_path", "x"}}),
                    "'file_path' is not allowed"));
    EXPECT_TRUE(has(tool_error("read_file", {}), "path"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", 42}}), "path"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", ""}}), "path"));
    EXPECT_TRUE(has(tool_error("list_directory", {{"path", "."}, {"max_depth", 100}}), "max_depth"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", "hello.txt"}, {"head", 0}}), "head"));
    EXPECT_TRUE(has(tool_error("read_file", {{"path", std::string("hello.txt\0x", 11)}}), "NUL"));
    try {
        call("delete_everything", {});
        ADD_FAILURE() << "an unknown tool was called";
    } catch (const mcp::error& e) {
        EXPECT_EQ(e.code(), -32602);
        EXPECT_TRUE(has(e.what(), "Unknown tool"));
    }
    client->ping();
    EXPECT_EQ(text0(call("read_file", {{"path", "hello.txt"}, {"head", 1}})), "Hello, world\n");
}

} // namespace
