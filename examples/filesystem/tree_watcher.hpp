// tree_watcher: inotify on whole directory trees, on one thread of its own, with changes
// delivered in debounced batches.
//
// Every directory under the watched roots gets a watch (symlinks are not followed); a
// directory created or moved in later gets one as soon as its event is read. Events are
// gathered until the tree has been quiet for `debounce` (or `max_delay` has passed since the
// first one, so a file written continuously still reports), then on_batch runs, on the
// watcher's thread, with the set of changed paths. A queue overflow (the kernel dropped
// events) is reported as such: the owner should rescan.
//
// Work that must not race with batch handling (rescans, switching roots) is post()ed to the
// same thread. The thread ends in stop() or the destructor.
#pragma once

#include "unique_fd.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace mcp::files {

struct change_batch {
    std::set<std::filesystem::path> changed; ///< files and directories whose content changed
    bool structure = false;                  ///< something was created, deleted or moved
    bool overflow = false;                   ///< events were lost: rescan everything
};

class tree_watcher {
public:
    struct options {
        std::chrono::milliseconds debounce{100};
        std::chrono::milliseconds max_delay{1000};
        /// Directories watched at most (each watch costs kernel memory and counts against
        /// fs.inotify.max_user_watches); deeper trees beyond it are not watched.
        std::size_t max_watches = 8192;
    };

    /// Throws std::system_error if inotify is unavailable. The thread starts at once.
    tree_watcher(options o, std::function<void(const change_batch&)> on_batch);
    ~tree_watcher();
    tree_watcher(const tree_watcher&) = delete;
    tree_watcher& operator=(const tree_watcher&) = delete;

    /// Run `task` on the watcher's thread (in order with batches).
    void post(std::function<void()> task);
    /// Watch exactly these trees, dropping every other watch. Only on the watcher's thread:
    /// call it from a posted task.
    void watch(const std::vector<std::filesystem::path>& roots);
    /// Number of directories watched (for tests and diagnostics; the watcher's thread only).
    std::size_t watched() const noexcept { return paths_.size(); }
    /// End the thread (idempotent).
    void stop();

private:
    void run();
    void add_tree(const std::filesystem::path& dir);
    void remove_tree(const std::filesystem::path& dir);
    void read_events(change_batch& batch);

    options opts_;
    std::function<void(const change_batch&)> on_batch_;
    unique_fd inotify_;
    unique_fd wake_;                             // eventfd: post() and stop() wake the thread through it
    std::map<int, std::filesystem::path> paths_; // watch descriptor -> directory
    std::map<std::filesystem::path, int> wds_;   // directory -> watch descriptor
    bool warned_limit_ = false;

    std::mutex mu_;
    std::vector<std::function<void()>> tasks_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace mcp::files
