// examples/filesystem/tree_watcher: inotify batches for a real directory tree. Waits are for
// a condition with a generous deadline, never a fixed sleep.
#include "tree_watcher.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using mcp::files::change_batch;
using mcp::files::tree_watcher;

namespace {

class watcher_test : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "mcpxx-watch-XXXXXX").string();
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        dir = fs::canonical(tmpl);
        fs::create_directories(dir / "sub");
        watcher = std::make_unique<tree_watcher>(tree_watcher::options{.debounce = 50ms},
                                                 [this](const change_batch& b) {
                                                     std::lock_guard lock(mu);
                                                     batches.push_back(b);
                                                     cv.notify_all();
                                                 });
        on_watcher_thread([&] { watcher->watch({dir}); });
    }
    void TearDown() override {
        watcher.reset();
        fs::remove_all(dir);
    }

    template <class F> void on_watcher_thread(F f) {
        std::promise<void> done;
        watcher->post([&] {
            f();
            done.set_value();
        });
        done.get_future().wait();
    }

    // Wait until some batch satisfies `pred` (10 s: the machine may be loaded).
    template <class P> bool wait_for(P pred) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, 10s, [&] {
            for (const auto& b : batches)
                if (pred(b)) return true;
            return false;
        });
    }

    fs::path dir;
    std::mutex mu;
    std::condition_variable cv;
    std::vector<change_batch> batches;
    std::unique_ptr<tree_watcher> watcher;
};

TEST_F(watcher_test, created_and_modified_files_are_reported) {
    { std::ofstream(dir / "a.txt") << "1"; }
    EXPECT_TRUE(
        wait_for([&](const change_batch& b) { return b.structure && b.changed.count(dir / "a.txt"); }));
    { std::ofstream(dir / "sub" / "b.txt") << "2"; } // subdirectories are watched too
    EXPECT_TRUE(wait_for([&](const change_batch& b) { return b.changed.count(dir / "sub" / "b.txt"); }));
    {
        std::lock_guard lock(mu);
        batches.clear();
    }
    { std::ofstream(dir / "a.txt", std::ios::app) << "more"; }
    EXPECT_TRUE(wait_for([&](const change_batch& b) { return b.changed.count(dir / "a.txt"); }));
    fs::remove(dir / "a.txt");
    EXPECT_TRUE(wait_for([&](const change_batch& b) { return b.structure && b.changed.count(dir); }));
}

TEST_F(watcher_test, new_directories_get_watches) {
    std::size_t before = 0;
    on_watcher_thread([&] { before = watcher->watched(); });
    EXPECT_EQ(before, 2u); // dir and dir/sub
    fs::create_directories(dir / "new" / "deeper");
    EXPECT_TRUE(wait_for([&](const change_batch& b) { return b.changed.count(dir / "new"); }));
    // The watch on "new" may have been added after "deeper" appeared; both are watched anyway.
    std::size_t after = 0;
    on_watcher_thread([&] { after = watcher->watched(); });
    EXPECT_EQ(after, 4u);
    { std::ofstream(dir / "new" / "deeper" / "c.txt") << "3"; }
    EXPECT_TRUE(
        wait_for([&](const change_batch& b) { return b.changed.count(dir / "new" / "deeper" / "c.txt"); }));
    // A directory moved away stops being watched under its old name.
    fs::rename(dir / "new", dir / "renamed");
    EXPECT_TRUE(wait_for([&](const change_batch& b) { return b.changed.count(dir / "renamed"); }));
    { std::ofstream(dir / "renamed" / "deeper" / "d.txt") << "4"; }
    EXPECT_TRUE(wait_for(
        [&](const change_batch& b) { return b.changed.count(dir / "renamed" / "deeper" / "d.txt"); }));
}

TEST_F(watcher_test, a_burst_is_one_batch) {
    // A watcher of its own with a long quiet time, so that a loaded machine pausing this thread
    // mid-burst does not split the burst.
    std::mutex m;
    std::condition_variable c;
    std::vector<change_batch> seen;
    tree_watcher slow(tree_watcher::options{.debounce = 500ms, .max_delay = 10s}, [&](const change_batch& b) {
        std::lock_guard lock(m);
        seen.push_back(b);
        c.notify_all();
    });
    std::promise<void> ready;
    slow.post([&] {
        slow.watch({dir / "sub"});
        ready.set_value();
    });
    ready.get_future().wait();
    for (int i = 0; i < 50; ++i) std::ofstream(dir / "sub" / ("f" + std::to_string(i))) << i;
    std::unique_lock lock(m);
    ASSERT_TRUE(c.wait_for(lock, 20s,
                           [&] { return !seen.empty() && seen.back().changed.count(dir / "sub" / "f49"); }));
    EXPECT_LE(seen.size(), 2u); // one, unless this thread stalled for half a second mid-burst
    EXPECT_TRUE(seen.front().changed.count(dir / "sub" / "f0"));
}

TEST_F(watcher_test, watch_limit_is_respected) {
    tree_watcher small(tree_watcher::options{.max_watches = 1}, [](const change_batch&) {});
    std::promise<std::size_t> n;
    small.post([&] {
        small.watch({dir});
        n.set_value(small.watched());
    });
    EXPECT_EQ(n.get_future().get(), 1u);
}

} // namespace
