#include "tree_watcher.hpp"

#include "dir_walk.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace mcp::files {
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr std::uint32_t watch_mask = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY |
                                     IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR |
                                     IN_DONT_FOLLOW | IN_EXCL_UNLINK;

} // namespace

tree_watcher::tree_watcher(options o, std::function<void(const change_batch&)> on_batch)
    : opts_(o), on_batch_(std::move(on_batch)) {
    inotify_.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (!inotify_) throw std::system_error(errno, std::generic_category(), "inotify_init1");
    wake_.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!wake_) throw std::system_error(errno, std::generic_category(), "eventfd");
    thread_ = std::thread([this] { run(); });
}

tree_watcher::~tree_watcher() {
    stop();
}

void tree_watcher::post(std::function<void()> task) {
    {
        std::lock_guard lock(mu_);
        if (stopping_) return;
        tasks_.push_back(std::move(task));
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wake_.get(), &one, sizeof one);
}

void tree_watcher::stop() {
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wake_.get(), &one, sizeof one);
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void tree_watcher::watch(const std::vector<fs::path>& roots) {
    for (const auto& [wd, path] : paths_) ::inotify_rm_watch(inotify_.get(), wd);
    paths_.clear();
    wds_.clear();
    warned_limit_ = false;
    for (const auto& r : roots) add_tree(r);
}

void tree_watcher::add_tree(const fs::path& dir) {
    auto add_one = [this](const fs::path& d) {
        if (paths_.size() >= opts_.max_watches) {
            if (!warned_limit_)
                std::fprintf(stderr,
                             "filesystem_server: watching only %zu directories (--max-watches); changes "
                             "deeper in the tree are not reported\n",
                             paths_.size());
            warned_limit_ = true;
            return false;
        }
        const int wd = ::inotify_add_watch(inotify_.get(), d.c_str(), watch_mask);
        if (wd < 0) {
            if (errno == ENOSPC && !warned_limit_) {
                std::fprintf(stderr, "filesystem_server: the system's inotify watch limit is reached "
                                     "(fs.inotify.max_user_watches); some directories are not watched\n");
                warned_limit_ = true;
            }
            return errno != ENOSPC; // gone or unreadable: skip it, go on with the others
        }
        // The kernel returns the same descriptor for a directory it already watches.
        if (auto old = paths_.find(wd); old != paths_.end()) wds_.erase(old->second);
        paths_[wd] = d;
        wds_[d] = wd;
        return true;
    };
    if (!add_one(dir)) return;
    unique_fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd) return;
    walk(fd.get(), {.max_depth = 64, .max_entries = 1000000}, [&](const walk_item& item) {
        if (item.entry.kind != entry_kind::directory) return walk_action::go_on;
        return add_one(dir / item.relative) ? walk_action::go_on : walk_action::stop;
    });
}

void tree_watcher::remove_tree(const fs::path& dir) {
    // path's ordering is component-wise, so a directory's subtree directly follows it.
    for (auto it = wds_.lower_bound(dir); it != wds_.end();) {
        const fs::path& p = it->first;
        auto rel = p.lexically_relative(dir);
        if (rel.empty() || *rel.begin() == "..") break;
        ::inotify_rm_watch(inotify_.get(), it->second);
        paths_.erase(it->second);
        it = wds_.erase(it);
    }
}

void tree_watcher::read_events(change_batch& batch) {
    alignas(inotify_event) char buf[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(inotify_.get(), buf, sizeof buf);
        if (n <= 0) return; // EAGAIN: drained
        for (char* p = buf; p < buf + n;) {
            const auto* ev = reinterpret_cast<const inotify_event*>(p);
            p += sizeof(inotify_event) + ev->len;
            if (ev->mask & IN_Q_OVERFLOW) {
                batch.overflow = batch.structure = true;
                continue;
            }
            auto it = paths_.find(ev->wd);
            if (it == paths_.end()) continue; // a watch removed meanwhile
            const fs::path dir = it->second;
            if (ev->mask & IN_IGNORED) { // the watch is gone (directory deleted, unmounted)
                if (auto w = wds_.find(dir); w != wds_.end() && w->second == ev->wd) wds_.erase(w);
                paths_.erase(it);
                continue;
            }
            if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
                batch.changed.insert(dir);
                batch.structure = true;
                continue;
            }
            const fs::path full = ev->len ? dir / ev->name : dir;
            if (ev->mask & IN_ISDIR) {
                if (ev->mask & (IN_CREATE | IN_MOVED_TO)) add_tree(full);
                if (ev->mask & IN_MOVED_FROM) remove_tree(full); // its watches would report stale paths
            }
            if (ev->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) {
                batch.structure = true;
                batch.changed.insert(dir); // the directory's listing changed too
            }
            batch.changed.insert(full);
        }
    }
}

void tree_watcher::run() {
    change_batch batch;
    bool pending = false;
    clock_type::time_point first{}, last{};
    for (;;) {
        int timeout = -1;
        clock_type::time_point deadline{};
        if (pending) {
            deadline = std::min(last + opts_.debounce, first + opts_.max_delay);
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
            timeout = static_cast<int>(std::max<std::int64_t>(0, left.count() + 1));
        }
        pollfd fds[2] = {{inotify_.get(), POLLIN, 0}, {wake_.get(), POLLIN, 0}};
        if (::poll(fds, 2, timeout) < 0 && errno != EINTR) {
            std::fprintf(stderr, "filesystem_server: poll failed: %s; no more change notifications\n",
                         std::strerror(errno));
            return;
        }
        // Events first: a task posted after a change was made then sees the watcher's state
        // with that change read (tests rely on it; so does a resync after a burst).
        if (fds[0].revents & POLLIN) {
            const bool was_empty = batch.changed.empty() && !batch.structure;
            read_events(batch);
            if (!batch.changed.empty() || batch.structure) {
                const auto now = clock_type::now();
                if (!pending || was_empty) first = now;
                pending = true;
                last = now;
            }
        }
        if (fds[1].revents & POLLIN) {
            std::uint64_t count;
            [[maybe_unused]] auto n = ::read(wake_.get(), &count, sizeof count);
            std::vector<std::function<void()>> tasks;
            {
                std::lock_guard lock(mu_);
                if (stopping_) return;
                tasks.swap(tasks_);
            }
            for (auto& t : tasks) {
                try {
                    t();
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "filesystem_server: %s\n", e.what());
                }
            }
        }
        if (pending && clock_type::now() >= std::min(last + opts_.debounce, first + opts_.max_delay)) {
            change_batch done = std::move(batch);
            batch = {};
            pending = false;
            try {
                on_batch_(done);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "filesystem_server: handling changes failed: %s\n", e.what());
            }
        }
    }
}

} // namespace mcp::files
