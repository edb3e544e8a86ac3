// The fixture of the filesystem_server integration tests (tests/integration/filesystem_*_test):
// a temporary tree with a symlink leading outside, the real binary started as a child process
// and driven by mcp::client, every message either side sends checked against the official
// schema of the negotiated revision, and waits for notifications with generous deadlines.
#pragma once

#include "support/wire_schema.hpp"

#include <mcp/client/client.hpp>
#include <mcp/json/base64.hpp>
#include <mcp/transport/child_process.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mcp::test::fs_server {

namespace fs = std::filesystem;
namespace json = mcp::json;
using namespace std::chrono_literals;

inline std::string file_uri(const fs::path& p) {
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

inline void write(const fs::path& p, const std::string& bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string text0(const mcp::call_tool_result& r) {
    if (r.content.empty()) return "<no content>";
    const std::string* t = mcp::text_of(r.content.front());
    return t ? *t : "<not text>";
}

inline json::value jstr(const std::string& s) {
    return json::value(s);
}

inline bool has(const std::string& hay, const std::string& needle) {
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

inline std::vector<mcp::root> roots_of(std::initializer_list<std::filesystem::path> dirs) {
    std::vector<mcp::root> out;
    for (const auto& d : dirs) out.push_back({.uri = file_uri(d), .name = d.filename().string()});
    return out;
}

} // namespace mcp::test::fs_server
