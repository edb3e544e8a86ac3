// examples/filesystem_server as a real child process over stdio, driven by mcp::client on a
// temporary directory tree: resources (list, read, template), every tool, refused escapes
// (a symlink pointing outside, "..", absolute paths), subscriptions and list_changed driven by
// inotify, client roots narrowing access, and bad input. Every message either side sends is
// validated against the official 2025-11-25 schema. Notifications are awaited with generous
// deadlines (the machine may be loaded), never with a fixed sleep.
#include "support/raw_process.hpp"
#include "support/wire_schema.hpp"

#include <mcp/client/client.hpp>
#include <mcp/json/base64.hpp>
#include <mcp/transport/child_process.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>

namespace fs = std::filesystem;
namespace json = mcp::json;
using namespace std::chrono_literals;

namespace {

std::string file_uri(const fs::path& p) {
    // The server's spelling: unreserved bytes and '/' as is, the rest percent-encoded. The
    // tree below uses names that need no encoding except where a test says so.
    std::string out = "file://";
    for (unsigned char c : p.string()) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
            out += static_cast<char>(c);
        else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

void write(const fs::path& p, const std::string& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string text0(const mcp::call_tool_result& r) {
    if (r.content.empty()) return "<no content>";
    const std::string* t = mcp::text_of(r.content.front());
    return t ? *t : "<not text>";
}

json::value jstr(const std::string& s) {
    return json::value(s);
}

bool has(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

class filesystem_server : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "mcpxx-fs-XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        base = fs::canonical(tmpl);
        root = base / "root";
        outside = base / "outside";
        write(root / "hello.txt", "Hello, world\nsecond line\n");
        write(root / "notes.md", "# Notes\nremember the milk\n");
        std::string bin;
        for (int i = 0; i < 256; ++i) bin.push_back(static_cast<char>(i));
        write(root / "data.bin", bin);
        write(root / "pixel.png", "\x89PNG\r\n\x1a\n-not-really-an-image");
        write(root / "sub" / "deep.txt", "deep thought\n");
        std::string big;
        for (int i = 1; i <= 200; ++i) big += "line " + std::to_string(i) + std::string(34, '.') + "\n";
        write(root / "big.txt", big); // 8 KB, over the 4 KiB limit the server gets
        write(outside / "secret.txt", "top secret\n");
        fs::create_directory_symlink(outside, root / "escape");
        fs::create_symlink("sub/deep.txt", root / "inside_link");
    }

    void TearDown() override {
        if (client) {
            client->close();
            ASSERT_TRUE(transport->exit_status().has_value());
            EXPECT_EQ(*transport->exit_status(), 0) << transport->stderr_tail();
            EXPECT_GT(recorder->messages(), 4u); // the schema check saw the traffic
        }
        for (const auto& p : recorder->problems()) ADD_FAILURE() << p;
        fs::remove_all(base);
    }

    std::vector<std::string> default_args() const {
        return {"--max-read-bytes", "4096", "--debounce-ms", "50", root.string()};
    }

    // Start filesystem_server with `args` and connect; `roots` offers MCP roots (changeable
    // with set_client_roots).
    void start(std::vector<std::string> args, std::optional<std::vector<mcp::root>> roots = std::nullopt,
               mcp::revision revision = mcp::revision::v2025_11_25) {
        recorder = std::make_unique<mcp::test::wire_recorder>(revision);
        mcp::client_options co{.info = {.name = "fs-test", .version = "1"}, .protocol_version = revision};
        co.session.trace = true;
        co.session.trace_sink = [this](const mcp::trace_event& e) {
            recorder->record(e.dir == mcp::trace_event::direction::in ? 0 : 1, e.message);
        };
        client = std::make_unique<mcp::client>(co);
        if (roots) {
            client_roots = *roots;
            client->set_roots_handler([this] {
                std::lock_guard lock(mu);
                return client_roots;
            });
        }
        client->on_resource_updated([this](const std::string& uri) {
            std::lock_guard lock(mu);
            updated.push_back(uri);
            cv.notify_all();
        });
        client->on_resources_list_changed([this] {
            std::lock_guard lock(mu);
            ++list_changed;
            cv.notify_all();
        });
        transport = mcp::child_process_transport::spawn(
            {.command = std::string(MCPXX_BINARY_DIR) + "/filesystem_server",
             .args = std::move(args),
             .stderr_handling = mcp::child_process_transport::stderr_mode::capture});
        const auto& init = client->connect(transport);
        EXPECT_EQ(init.server_info.name, "filesystem");
        client->list_all_tools(); // so that call_tool checks structured results against their schemas
    }

    void set_client_roots(std::vector<mcp::root> roots) {
        {
            std::lock_guard lock(mu);
            client_roots = std::move(roots);
        }
        client->notify_roots_changed();
    }

    template <class P> bool wait_for(P pred, std::chrono::seconds limit = 10s) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, limit, pred);
    }
    int list_changes() {
        std::lock_guard lock(mu);
        return list_changed;
    }
    bool was_updated(const std::string& uri) {
        std::lock_guard lock(mu);
        return std::find(updated.begin(), updated.end(), uri) != updated.end();
    }

    std::set<std::string> resource_uris() {
        std::set<std::string> out;
        for (const auto& r : client->list_all_resources()) out.insert(r.uri);
        return out;
    }
    // The resource list changes by one notification per file: wait, notification by
    // notification, until it is `want` (or 10 s have passed).
    bool resources_become(const std::set<std::string>& want) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        for (;;) {
            const int seen = list_changes();
            if (resource_uris() == want) return true;
            std::unique_lock lock(mu);
            if (!cv.wait_until(lock, deadline, [&] { return list_changed != seen; })) return false;
        }
    }

    mcp::call_tool_result call(const std::string& tool, json::object args) {
        return client->call_tool(tool, std::move(args));
    }
    // A tool call expected to fail: its isError text.
    std::string tool_error(const std::string& tool, json::object args) {
        const auto r = call(tool, std::move(args));
        EXPECT_EQ(r.is_error, true) << tool << ": " << text0(r);
        return text0(r);
    }
    // A resources/read expected to fail: its JSON-RPC error.
    mcp::error read_error(const std::string& uri) {
        try {
            client->read_resource(uri);
        } catch (const mcp::error& e) {
            return e;
        }
        ADD_FAILURE() << "resources/read of " << uri << " succeeded";
        return mcp::error(0, "");
    }

    fs::path base, root, outside;
    std::unique_ptr<mcp::test::wire_recorder> recorder =
        std::make_unique<mcp::test::wire_recorder>(mcp::revision::v2025_11_25);
    std::unique_ptr<mcp::client> client;
    std::shared_ptr<mcp::child_process_transport> transport;
    std::mutex mu;
    std::condition_variable cv;
    std::vector<mcp::root> client_roots;
    std::vector<std::string> updated;
    int list_changed = 0;
};

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

    const auto templates = client->list_all_resource_templates();
    ASSERT_EQ(templates.size(), 1u);
    EXPECT_EQ(templates[0].uri_template, "file:///{+path}");
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
    EXPECT_TRUE(has(tool_error("write_file", {{"path", "trap"}, {"content", "gotcha"}}), "resolves to"));
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

std::vector<mcp::root> roots_of(std::initializer_list<fs::path> dirs) {
    std::vector<mcp::root> out;
    for (const auto& d : dirs) out.push_back({.uri = file_uri(d), .name = d.filename().string()});
    return out;
}

std::vector<std::string> allowed(const mcp::call_tool_result& r) {
    std::vector<std::string> out;
    for (const auto& d : r.structured_content->at("directories").as_array()) out.emplace_back(d.as_string());
    return out;
}

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
    // No overlap at all: nothing is allowed.
    set_client_roots(roots_of({outside}));
    EXPECT_TRUE(resources_become({}));
    EXPECT_TRUE(allowed(call("list_allowed_directories", {})).empty());
    EXPECT_TRUE(
        has(tool_error("read_file", {{"path", (root / "hello.txt").string()}}), "No directory is allowed"));
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
