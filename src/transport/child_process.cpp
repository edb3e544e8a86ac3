// Spawning and shutting down a child process for the stdio client transport.
#include <mcp/jsonrpc/error.hpp>
#include <mcp/transport/child_process.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <future>
#include <mutex>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace mcp {

struct child_process_transport::child {
    pid_t pid = -1;
    std::chrono::milliseconds grace{2000};
    mutable std::mutex mu;
    std::optional<int> status;
    std::string stderr_ring;
    std::thread stderr_reader;
    std::once_flag shutdown_once;

    // Reap without blocking; true once the child is gone.
    bool poll_exit() {
        std::lock_guard lock(mu);
        if (status) return true;
        int st = 0;
        const auto r = ::waitpid(pid, &st, WNOHANG);
        if (r == pid) status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
        else if (r < 0 && errno == ECHILD) status = -1;
        return status.has_value();
    }
    bool wait_exit(std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!poll_exit()) {
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return true;
    }
    // stdin is already closed: the polite ask. Then SIGTERM, then SIGKILL, to the whole group.
    void shut_down() {
        std::call_once(shutdown_once, [this] {
            if (wait_exit(grace)) return;
            ::kill(-pid, SIGTERM);
            if (wait_exit(grace)) return;
            ::kill(-pid, SIGKILL);
            wait_exit(std::chrono::milliseconds(10000));
        });
    }
};

namespace {

// PR_SET_PDEATHSIG fires when the *thread* that forked exits, so children are forked from one
// thread that lives as long as the process.
class spawner {
public:
    static spawner& instance() {
        static auto* s = new spawner();
        return *s;
    }
    template <class F>
    auto run(F f) -> decltype(f()) {
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
    }
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
};

std::optional<std::string> find_on_path(const std::string& command, const std::map<std::string, std::string>& env,
                                        bool inherit) {
    if (command.find('/') != std::string::npos) return ::access(command.c_str(), X_OK) == 0 ? std::optional(command) : std::nullopt;
    std::string path;
    if (auto it = env.find("PATH"); it != env.end()) path = it->second;
    else if (const char* p = inherit ? std::getenv("PATH") : nullptr) path = p;
    else path = "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        auto end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string dir = path.substr(start, end - start);
        if (dir.empty()) dir = ".";
        std::string candidate = dir + "/" + command;
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

[[noreturn]] void fail(const std::string& what) { throw error(error_code::connection_closed, what); }

} // namespace

std::shared_ptr<child_process_transport> child_process_transport::spawn(options o) {
    auto exe = find_on_path(o.command, o.env, o.inherit_environment);
    if (!exe) fail("command not found: " + o.command);
    if (o.cwd) {
        struct stat st {};
        if (::stat(o.cwd->c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) fail("working directory does not exist: " + *o.cwd);
    }

    // argv and envp are built before fork: the child may only call async-signal-safe functions.
    std::vector<std::string> argv_s{o.command};
    argv_s.insert(argv_s.end(), o.args.begin(), o.args.end());
    std::map<std::string, std::string> env_map;
    if (o.inherit_environment)
        for (char** e = environ; *e; ++e) {
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

    int in[2], out[2], err[2] = {-1, -1}, status_pipe[2];
    if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(status_pipe, O_CLOEXEC)) fail("pipe failed: " + std::string(std::strerror(errno)));
    if (o.stderr_handling == stderr_mode::capture && ::pipe2(err, O_CLOEXEC)) fail("pipe failed");
    int devnull = o.stderr_handling == stderr_mode::discard ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;

    auto c = std::make_shared<child>();
    c->grace = o.shutdown_grace;
    const char* cwd = o.cwd ? o.cwd->c_str() : nullptr;
    const pid_t parent = ::getpid();
    const std::string exe_path = *exe;
    c->pid = spawner::instance().run([&]() -> pid_t {
        const pid_t pid = ::fork();
        if (pid != 0) return pid;
        // --- child ---
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127); // the parent died before prctl took effect
        ::signal(SIGPIPE, SIG_DFL);
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        if (err[1] >= 0) ::dup2(err[1], 2);
        else if (devnull >= 0) ::dup2(devnull, 2);
        auto report = [&](const char* what) {
            int e = errno;
            (void)!::write(status_pipe[1], &e, sizeof e);
            (void)!::write(status_pipe[1], what, std::strlen(what));
            ::_exit(127);
        };
        // Descriptors the client opened without O_CLOEXEC must not leak into the server.
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
        if (cwd && ::chdir(cwd) != 0) report("chdir");
        ::execve(exe_path.c_str(), argv.data(), envp.data());
        report("exec");
        return -1; // not reached: report() ends the child
    });
    ::close(in[0]);
    ::close(out[1]);
    ::close(status_pipe[1]);
    if (err[1] >= 0) ::close(err[1]);
    if (devnull >= 0) ::close(devnull);
    if (c->pid < 0) {
        ::close(in[1]);
        ::close(out[0]);
        ::close(status_pipe[0]);
        fail("fork failed: " + std::string(std::strerror(errno)));
    }
    // The status pipe closes on a successful exec (CLOEXEC); data on it means exec failed.
    int child_errno = 0;
    char what[16] = {};
    const auto n = ::read(status_pipe[0], &child_errno, sizeof child_errno);
    if (n == sizeof child_errno) (void)!::read(status_pipe[0], what, sizeof what - 1);
    ::close(status_pipe[0]);
    if (n == sizeof child_errno) {
        ::close(in[1]);
        ::close(out[0]);
        if (err[0] >= 0) ::close(err[0]);
        c->wait_exit(std::chrono::milliseconds(1000));
        fail(std::string("cannot start ") + o.command + " (" + what + "): " + std::strerror(child_errno));
    }

    if (err[0] >= 0) {
        auto on_line = o.on_stderr_line;
        c->stderr_reader = std::thread([c_weak = std::weak_ptr<child>(c), fd = err[0], on_line] {
            std::string pending;
            char buf[4096];
            for (;;) {
                const auto r = ::read(fd, buf, sizeof buf);
                if (r < 0 && errno == EINTR) continue;
                if (r <= 0) break;
                if (auto cc = c_weak.lock()) {
                    std::lock_guard lock(cc->mu);
                    cc->stderr_ring.append(buf, static_cast<std::size_t>(r));
                    if (cc->stderr_ring.size() > 64 * 1024) cc->stderr_ring.erase(0, cc->stderr_ring.size() - 64 * 1024);
                }
                pending.append(buf, static_cast<std::size_t>(r));
                std::size_t nl;
                while ((nl = pending.find('\n')) != std::string::npos) {
                    if (on_line) on_line(std::string_view(pending.data(), nl));
                    pending.erase(0, nl + 1);
                }
            }
            if (!pending.empty() && on_line) on_line(pending);
            ::close(fd);
        });
    }
    fd_stream_transport::options fds{out[0], in[1], true, o.command + " (pid " + std::to_string(c->pid) + ")"};
    return std::make_shared<child_process_transport>(std::move(fds), std::move(c));
}

child_process_transport::child_process_transport(fd_stream_transport::options fds, std::shared_ptr<child> c)
    : fd_stream_transport(std::move(fds)), child_(std::move(c)) {}

child_process_transport::~child_process_transport() {
    close();
    if (child_->stderr_reader.joinable()) child_->stderr_reader.join();
}

void child_process_transport::close() {
    close_write_side(); // EOF on the child's stdin: well-behaved servers exit now
    child_->shut_down();
    fd_stream_transport::close();
}

int child_process_transport::pid() const noexcept { return child_->pid; }

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
