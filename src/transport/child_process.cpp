// Spawning and shutting down a child process for the stdio client transport.
//
// - The child is forked from one long-lived helper thread: PR_SET_PDEATHSIG fires when the
//   *thread* that forked exits, so forking from a short-lived caller thread would kill the child.
// - Everything the child needs (resolved path, argv, envp) is built before fork(); between fork
//   and exec the child only calls async-signal-safe functions.
// - In the child: own process group, PDEATHSIG=SIGKILL (re-checked against a parent that died
//   already), default signal dispositions for what we changed (SIGPIPE) and an empty signal mask
//   (the forking thread's mask must not leak), only descriptors 0-2 survive exec.
// - Shutdown: close stdin, wait `grace`; SIGTERM the group, wait `grace`; SIGKILL; always reap.
//   Whatever is left of the group after the leader exits (a background grandchild) gets the same
//   SIGTERM / SIGKILL treatment, so no orphan is left behind.
#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/child_process.hpp>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <future>
#include <mutex>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace mcp {

namespace {
constexpr std::size_t stderr_ring_limit = 64 * 1024;
constexpr std::size_t stderr_line_limit = 64 * 1024;
} // namespace

struct child_process_transport::child {
    pid_t pid = -1;
    std::chrono::milliseconds grace{2000};
    mutable std::mutex mu;
    std::optional<int> status;
    std::mutex shutdown_mu; // held for the whole shutdown ladder: a second caller waits for it
    bool shut_down_done = false;

    // stderr capture
    std::string stderr_ring;
    std::thread stderr_reader;
    std::mutex stderr_reader_mu; // one joiner at a time
    int stderr_wake[2] = {-1, -1};

    ~child() {
        for (int fd : stderr_wake)
            if (fd >= 0) ::close(fd);
    }

    // Reap without blocking; true once the child is gone.
    bool poll_exit() {
        std::lock_guard lock(mu);
        if (status) return true;
        int st = 0;
        const auto r = ::waitpid(pid, &st, WNOHANG);
        if (r == pid)
            status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? -WTERMSIG(st) : -1;
        else if (r < 0 && errno == ECHILD)
            status = -1; // somebody else reaped it
        return status.has_value();
    }
    bool wait_exit(std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        auto nap = std::chrono::microseconds(200);
        while (!poll_exit()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(nap);
            nap = std::min<std::chrono::microseconds>(nap * 2, std::chrono::milliseconds(10));
        }
        return true;
    }
    // True while some process of the group still exists (the leader is reaped, so its id cannot
    // be reused for a new group while members remain).
    bool group_alive() const { return ::kill(-pid, 0) == 0; }
    bool wait_group_gone(std::chrono::milliseconds timeout) const {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (group_alive()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return true;
    }

    // stdin is already closed: the polite ask. Then SIGTERM, then SIGKILL, to the whole group.
    void shut_down() {
        std::lock_guard lock(shutdown_mu);
        if (shut_down_done) return;
        shut_down_done = true;
        if (!wait_exit(grace)) {
            ::kill(-pid, SIGTERM);
            if (!wait_exit(grace)) {
                ::kill(-pid, SIGKILL);
                wait_exit(std::chrono::milliseconds(10000)); // SIGKILL cannot be ignored
            }
        }
        // Left-overs of the group (e.g. a background grandchild): same ladder, without stdin.
        if (group_alive()) {
            ::kill(-pid, SIGTERM);
            if (!wait_group_gone(grace)) ::kill(-pid, SIGKILL);
        }
        stop_stderr_reader();
    }

    void stop_stderr_reader() {
        if (stderr_wake[1] >= 0) {
            const char c = 1;
            (void)!::write(stderr_wake[1], &c, 1);
        }
    }

    // Wait until every line the child wrote has been handed out (the reader drains the pipe
    // once woken by shut_down()). From the reader's own thread (a line callback that closes the
    // transport) there is nothing to wait for: the thread is detached instead, since no one
    // else may join it now.
    void finish_stderr_reader() {
        std::lock_guard lock(stderr_reader_mu);
        if (!stderr_reader.joinable()) return;
        if (stderr_reader.get_id() == std::this_thread::get_id())
            stderr_reader.detach();
        else
            stderr_reader.join();
    }

    void append_stderr(const char* data, std::size_t n) {
        std::lock_guard lock(mu);
        stderr_ring.append(data, n);
        if (stderr_ring.size() > stderr_ring_limit)
            stderr_ring.erase(0, stderr_ring.size() - stderr_ring_limit);
    }
};

namespace {

// One thread that lives as long as the process forks every child (see the top of the file).
class spawner {
public:
    static spawner& instance() {
        static auto* s = new spawner(); // never destroyed: its thread outlives static destruction
        return *s;
    }
    template <class F> auto run(F f) -> decltype(f()) {
        std::packaged_task<decltype(f())()> task(std::move(f));
        auto result = task.get_future();
        {
            std::lock_guard lock(mu_);
            queue_.emplace_back([&task] { task(); });
        }
        cv_.notify_one();
        return result.get();
    }

private:
    spawner() {
        // The helper thread takes no process-directed signals (they belong to the application's
        // threads); children reset their mask before exec anyway.
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        std::thread([this] {
            std::unique_lock lock(mu_);
            for (;;) {
                cv_.wait(lock, [&] { return !queue_.empty(); });
                auto job = std::move(queue_.front());
                queue_.pop_front();
                lock.unlock();
                job();
                lock.lock();
            }
        }).detach();
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
    }
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
};

bool executable_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

} // namespace

std::optional<std::string>
child_process_transport::find_executable(const std::string& command,
                                         const std::map<std::string, std::string>& env, bool inherit) {
    if (command.empty()) return std::nullopt;
    if (command.find('/') != std::string::npos)
        return executable_file(command) ? std::optional(command) : std::nullopt;
    std::string path;
    if (auto it = env.find("PATH"); it != env.end())
        path = it->second;
    else if (const char* p = inherit ? std::getenv("PATH") : nullptr)
        path = p;
    else
        path = "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        auto end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string dir = path.substr(start, end - start);
        if (dir.empty()) dir = ".";
        std::string candidate = dir + "/" + command;
        if (executable_file(candidate)) return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

namespace {

[[noreturn]] void fail(const std::string& what) {
    throw error(error_code::connection_closed, what);
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// In the forked child: close every descriptor from `first` up (async-signal-safe).
void close_from(int first) {
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, static_cast<unsigned>(first), ~0U, 0) == 0) return;
#endif
    rlimit rl{};
    long max = ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                   ? static_cast<long>(rl.rlim_cur)
                   : 65536;
    if (max > 1 << 20) max = 1 << 20;
    for (long fd = first; fd < max; ++fd) ::close(static_cast<int>(fd));
}

// The stderr reader: lines to the callback (without "\n" or a trailing "\r"), bytes to the ring.
// Stops at EOF, or when woken after the child is gone (a grandchild may hold the pipe open).
void read_stderr(const std::shared_ptr<child_process_transport::child>& c, int fd, int wake_fd,
                 const std::function<void(std::string_view)>& on_line) {
    std::string pending;
    char buf[4096];
    bool draining = false;
    auto deliver = [&](std::string_view line) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (on_line) on_line(line);
    };
    for (;;) {
        pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        const int r = ::poll(p, draining ? 1 : 2, draining ? 0 : -1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 || (draining && r == 0)) break;
        if (!draining && p[1].revents) {
            draining = true; // take what is already there, then stop
            continue;
        }
        const auto n = ::read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;
        c->append_stderr(buf, static_cast<std::size_t>(n));
        pending.append(buf, static_cast<std::size_t>(n));
        std::size_t start = 0, nl;
        while ((nl = pending.find('\n', start)) != std::string::npos) {
            deliver(std::string_view(pending).substr(start, nl - start));
            start = nl + 1;
        }
        pending.erase(0, start);
        if (pending.size() > stderr_line_limit) { // a runaway line: hand it out in pieces
            deliver(pending);
            pending.clear();
        }
    }
    if (!pending.empty()) deliver(pending);
    ::close(fd);
}

} // namespace

std::shared_ptr<child_process_transport> child_process_transport::spawn(options o) {
    auto exe = find_executable(o.command, o.env, o.inherit_environment);
    if (!exe) {
        if (o.command.find('/') != std::string::npos && ::access(o.command.c_str(), F_OK) == 0)
            fail("cannot start " + o.command + ": not an executable file");
        fail("command not found: " + o.command);
    }
    if (o.cwd) {
        struct stat st {};
        if (::stat(o.cwd->c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            fail("working directory does not exist: " + *o.cwd);
    }

    // argv and envp are built before fork: the child may only call async-signal-safe functions.
    std::vector<std::string> argv_s{o.command};
    argv_s.insert(argv_s.end(), o.args.begin(), o.args.end());
    std::map<std::string, std::string> env_map;
    if (o.inherit_environment)
        for (char** e = environ; e && *e; ++e) {
            std::string kv(*e);
            auto eq = kv.find('=');
            if (eq != std::string::npos) env_map[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
    for (auto& [k, v] : o.env) env_map[k] = v;
    std::vector<std::string> env_s;
    for (auto& [k, v] : env_map) env_s.push_back(k + "=" + v);
    std::vector<char*> argv, envp;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);

    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, status_pipe[2] = {-1, -1};
    auto cleanup = [&] {
        for (int* p : {in, out, err, status_pipe}) {
            close_fd(p[0]);
            close_fd(p[1]);
        }
    };
    if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(status_pipe, O_CLOEXEC) ||
        (o.stderr_handling == stderr_mode::capture && ::pipe2(err, O_CLOEXEC))) {
        const int e = errno;
        cleanup();
        fail(std::string("pipe failed: ") + std::strerror(e));
    }
    if (o.stderr_handling == stderr_mode::discard) {
        err[1] = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (err[1] < 0) {
            const int e = errno;
            cleanup();
            fail(std::string("cannot open /dev/null: ") + std::strerror(e));
        }
    }

    auto c = std::make_shared<child>();
    c->grace = o.shutdown_grace;
    const char* cwd = o.cwd ? o.cwd->c_str() : nullptr;
    const pid_t parent = ::getpid();
    const std::string exe_path = *exe;
    int fork_errno = 0;
    c->pid = spawner::instance().run([&]() -> pid_t {
        const pid_t pid = ::fork();
        if (pid != 0) {
            fork_errno = errno;
            return pid;
        }
        // --- child: async-signal-safe calls only ---
        auto report = [&](int stage) {
            int msg[2] = {stage, errno};
            (void)!::write(status_pipe[1], msg, sizeof msg);
            ::_exit(127);
        };
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127); // the parent died before prctl took effect
        // Handlers are reset by exec, ignored signals are not: give back the SIGPIPE we ignore.
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &dfl, nullptr);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        // Move the pipe ends above 2 first, so that dup2 onto 0-2 cannot clobber one another
        // (the parent may have closed its own stdio, giving pipes the numbers 0-2).
        int src[3] = {::fcntl(in[0], F_DUPFD_CLOEXEC, 3), ::fcntl(out[1], F_DUPFD_CLOEXEC, 3),
                      err[1] >= 0 ? ::fcntl(err[1], F_DUPFD_CLOEXEC, 3) : -1};
        int status_fd = ::fcntl(status_pipe[1], F_DUPFD_CLOEXEC, 3);
        if (src[0] < 0 || src[1] < 0 || (err[1] >= 0 && src[2] < 0) || status_fd < 0) report(0);
        status_pipe[1] = status_fd;
        for (int i = 0; i < 3; ++i)
            if (src[i] >= 0 && ::dup2(src[i], i) < 0) report(0);
        // Only 0-2 and the status pipe (close-on-exec) may survive; put it at 3, close the rest.
        if (status_fd != 3) {
            if (::dup3(status_fd, 3, O_CLOEXEC) < 0) report(0);
            status_pipe[1] = 3;
        }
        close_from(4);
        if (cwd && ::chdir(cwd) != 0) report(1);
        ::execve(exe_path.c_str(), argv.data(), envp.data());
        report(2);
        return -1; // not reached: report() ends the child
    });
    close_fd(in[0]);
    close_fd(out[1]);
    close_fd(status_pipe[1]);
    close_fd(err[1]);
    if (c->pid < 0) {
        cleanup();
        fail("fork failed: " + std::string(std::strerror(fork_errno)));
    }
    // The status pipe closes on a successful exec (close-on-exec); data on it means a failure.
    int msg[2] = {0, 0};
    ssize_t n;
    do n = ::read(status_pipe[0], msg, sizeof msg);
    while (n < 0 && errno == EINTR);
    close_fd(status_pipe[0]);
    if (n == static_cast<ssize_t>(sizeof msg)) {
        cleanup();
        c->wait_exit(std::chrono::milliseconds(2000));
        static const char* const stages[] = {"setting up descriptors", "changing directory", "exec"};
        fail("cannot start " + o.command + " (" + stages[msg[0] >= 0 && msg[0] < 3 ? msg[0] : 2] +
             "): " + std::strerror(msg[1]));
    }

    if (err[0] >= 0) {
        if (::pipe2(c->stderr_wake, O_CLOEXEC | O_NONBLOCK) != 0) c->stderr_wake[0] = c->stderr_wake[1] = -1;
        // The reader holds the state (for the ring); the state holds the thread, joined or
        // detached by the transport's destructor, so there is no cycle once it ends.
        c->stderr_reader =
            std::thread([c, fd = err[0], wake = c->stderr_wake[0], on_line = std::move(o.on_stderr_line)] {
                read_stderr(c, fd, wake, on_line);
            });
        err[0] = -1;
    }
    fd_stream_transport::options fds{out[0], in[1], true, o.command + " (pid " + std::to_string(c->pid) + ")",
                                     o.max_queued_bytes};
    return std::make_shared<child_process_transport>(std::move(fds), std::move(c));
}

child_process_transport::child_process_transport(fd_stream_transport::options fds, std::shared_ptr<child> c)
    : fd_stream_transport(std::move(fds)), child_(std::move(c)) {}

child_process_transport::~child_process_transport() {
    close();
}

void child_process_transport::start(transport_handler handler) {
    // When the child ends on its own (stdout closed), reap it before on_close so that
    // exit_status() is known there; a child that closed stdout but lingers is left to close().
    handler.on_close = [c = child_, user = std::move(handler.on_close)] {
        c->wait_exit(std::chrono::milliseconds(100));
        if (user) user();
    };
    fd_stream_transport::start(std::move(handler));
}

void child_process_transport::close() {
    close_write_side(); // EOF on the child's stdin: well-behaved servers exit now
    child_->shut_down();
    // Synchronous like the rest of close(): once it returns, every stderr line has been
    // delivered and stderr_tail() is complete (a host quoting why a server failed needs it).
    child_->finish_stderr_reader();
    fd_stream_transport::close();
}

int child_process_transport::pid() const noexcept {
    return child_->pid;
}

std::optional<int> child_process_transport::exit_status() const {
    child_->poll_exit();
    std::lock_guard lock(child_->mu);
    return child_->status;
}

std::string child_process_transport::stderr_tail() const {
    std::lock_guard lock(child_->mu);
    return child_->stderr_ring;
}

} // namespace mcp
