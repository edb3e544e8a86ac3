// stdio_load - a load driver for MCP servers over stdio: one program, any server (C++, Node, ...),
// measured the same way. bench/stdio_throughput runs it for mcpxx and the TypeScript SDK.
//
//   stdio_load [options] -- SERVER_COMMAND [ARGS...]
//     --windows 64,1        requests in flight, one fresh server per window (1 = sequential)
//     --n 20000             measured calls per window, after --warmup 2000 unmeasured ones
//     --payload TEXT        the `text` argument (default "hello world"), or --payload-size N bytes
//     --tool echo --arg text  the tool called and its string argument
//     --protocol-version 2025-11-25   sent in initialize
//     --idle-s 1            pause after initialize before reading the idle RSS
//     --json FILE --label L results as JSON: {"label", "results": [one object per window]}
//
// Per window: spawn the server (no shell: SERVER_COMMAND is exec'd), time spawn -> initialize
// response, send notifications/initialized, check tools/list names the tool, idle, read VmRSS,
// then run the calls keeping at most WINDOW in flight. Every response is verified: a result whose
// content[0].text is the payload, no isError, an id that was asked for and not yet answered.
// Reported: calls/s, latency percentiles (request written -> response read), server CPU per call
// (per-thread /proc/PID/task/*/schedstat in ns; /proc/PID/stat ticks when that is missing), the
// driver's own CPU per call (when it nears 1e6 / calls-per-second, the driver is the limit), peak
// RSS (VmHWM), and the server's exit status after stdin is closed.
// Exit: 0 when every window ran with every response right, 1 otherwise, 2 on usage errors.
#include "proc_stats.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

namespace {

struct options {
    std::vector<int> windows{64, 1};
    long n = 20000, warmup = 2000;
    std::string payload = "hello world", tool = "echo", arg = "text", protocol = "2025-11-25";
    double idle_s = 1;
    std::string json_path, label = "server";
    std::vector<std::string> command;
};

struct window_result {
    int window = 0;
    bool ok = false;
    std::string error;
    long calls = 0, bad = 0;
    double seconds = 0, calls_per_s = 0;
    double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0; // microseconds
    double server_cpu_us = -1, driver_cpu_us = -1, startup_ms = -1;
    long idle_rss_kb = -1, peak_rss_kb = -1;
    int exit_status = -1;
};

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

using mcp::bench::cpu_seconds;
using mcp::bench::status_kb;

double own_cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// The server: a child process whose stdin and stdout are our pipes (non-blocking on our side).
class server_process {
public:
    explicit server_process(const std::vector<std::string>& command) {
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(in[0], 0);
            ::dup2(out[1], 1);
            std::vector<char*> argv;
            for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execvp(argv[0], argv.data());
            std::fprintf(stderr, "stdio_load: cannot run %s: %s\n", argv[0], std::strerror(errno));
            ::_exit(127);
        }
        ::close(in[0]);
        ::close(out[1]);
        to_ = in[1];
        from_ = out[0];
        ::fcntl(to_, F_SETFL, O_NONBLOCK);
        ::fcntl(from_, F_SETFL, O_NONBLOCK);
    }
    ~server_process() {
        close_stdin();
        if (from_ >= 0) ::close(from_);
        if (pid_ > 0 && !reaped_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    server_process(const server_process&) = delete;
    server_process& operator=(const server_process&) = delete;

    pid_t pid() const { return pid_; }
    bool started() const { return pid_ > 0; }
    void close_stdin() {
        if (to_ >= 0) ::close(to_), to_ = -1;
    }

    /// Writes what it can of `out` (erasing it) and reads what there is into lines; waits up to
    /// `timeout_ms` for either. false when the server closed its stdout or a pipe failed.
    bool pump(std::string& out, std::vector<std::string>& lines, int timeout_ms) {
        pollfd fds[2] = {{from_, POLLIN, 0}, {to_, static_cast<short>(out.empty() ? 0 : POLLOUT), 0}};
        const int n = ::poll(fds, to_ >= 0 ? 2 : 1, timeout_ms);
        if (n < 0 && errno != EINTR) return false;
        if (n <= 0) return true;
        if (!out.empty() && (fds[1].revents & (POLLOUT | POLLERR))) {
            const ssize_t w = ::write(to_, out.data(), out.size());
            if (w < 0 && errno != EAGAIN) return false;
            if (w > 0) out.erase(0, static_cast<std::size_t>(w));
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            char chunk[65536];
            const ssize_t r = ::read(from_, chunk, sizeof chunk);
            if (r == 0) return false;
            if (r < 0) return errno == EAGAIN;
            buffer_.append(chunk, static_cast<std::size_t>(r));
            std::size_t start = 0;
            for (std::size_t nl; (nl = buffer_.find('\n', start)) != std::string::npos; start = nl + 1)
                lines.emplace_back(buffer_, start, nl - start);
            buffer_.erase(0, start);
        }
        return true;
    }

    /// Waits for the exit status after stdin was closed; kills the server after `timeout`.
    int wait_exit(std::chrono::milliseconds timeout) {
        const auto end = clock_type::now() + timeout;
        int status = 0;
        while (clock_type::now() < end) {
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                reaped_ = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        reaped_ = true;
        return -1; // did not exit on EOF
    }

private:
    pid_t pid_ = -1;
    int to_ = -1, from_ = -1;
    bool reaped_ = false;
    std::string buffer_;
};

std::string request(long id, std::string_view method, const json::object& params) {
    json::object m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    return json::serialize(m) + "\n";
}

/// Sends `before` and one request and waits (up to 30 s) for the response with that id; other
/// messages are dropped.
std::optional<json::object> call(server_process& s, long id, std::string_view method, const json::object& params,
                                 std::string before = {}) {
    std::string out = before + request(id, method, params);
    std::vector<std::string> lines;
    const auto end = clock_type::now() + std::chrono::seconds(30);
    while (clock_type::now() < end) {
        if (!s.pump(out, lines, 100)) return std::nullopt;
        for (const auto& l : lines) {
            boost::system::error_code ec;
            auto v = json::parse(l, ec);
            if (ec || !v.is_object()) continue;
            const auto* i = v.as_object().if_contains("id");
            if (i && i->is_int64() && i->as_int64() == id) return v.as_object();
        }
        lines.clear();
    }
    return std::nullopt;
}

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const auto i = static_cast<std::size_t>(p / 100 * static_cast<double>(sorted.size() - 1) + 0.5);
    return sorted[std::min(i, sorted.size() - 1)];
}

window_result run_window(const options& o, int window) {
    window_result r;
    r.window = window;
    const auto spawned = clock_type::now();
    server_process s(o.command);
    if (!s.started()) {
        r.error = "cannot start the server";
        return r;
    }
    auto init = call(s, 1, "initialize",
                     {{"protocolVersion", o.protocol},
                      {"capabilities", json::object{}},
                      {"clientInfo", {{"name", "mcpxx-stdio-load"}, {"version", "1"}}}});
    if (!init || !init->contains("result")) {
        r.error = "no initialize result";
        return r;
    }
    r.startup_ms = seconds_since(spawned) * 1e3;
    auto tools = call(s, 2, "tools/list", {}, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    bool has_tool = false;
    if (tools)
        if (const auto* res = tools->if_contains("result"); res && res->is_object())
            if (const auto* list = res->as_object().if_contains("tools"); list && list->is_array())
                for (const auto& t : list->as_array())
                    if (const auto* name = t.is_object() ? t.as_object().if_contains("name") : nullptr;
                        name && name->is_string() && name->as_string() == o.tool)
                        has_tool = true;
    if (!has_tool) {
        r.error = "tools/list does not name the tool '" + o.tool + "'";
        return r;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(o.idle_s));
    r.idle_rss_kb = status_kb(s.pid(), "VmRSS").value_or(-1);

    // Requests are the same but for their id: the text around it is built once.
    const std::string args = json::serialize(json::object{{o.arg, o.payload}});
    const std::string head = R"({"jsonrpc":"2.0","id":)";
    const std::string tail = R"(,"method":"tools/call","params":{"name":)" + json::serialize(json::string(o.tool)) +
                             R"(,"arguments":)" + args + "}}\n";
    const long first_id = 100, total = o.warmup + o.n;
    std::vector<clock_type::time_point> sent_at(static_cast<std::size_t>(total));
    std::vector<char> answered(static_cast<std::size_t>(total), 0);
    std::vector<double> latencies;
    latencies.reserve(static_cast<std::size_t>(o.n));
    long sent = 0, received = 0, in_flight = 0;
    double cpu_before = 0, own_before = 0;
    clock_type::time_point measure_start{};
    std::string out;
    std::vector<std::string> lines;
    json::parser parser;
    auto last_progress = clock_type::now();

    while (received < total) {
        while (in_flight < window && sent < total) {
            if (sent == o.warmup) { // the measured part starts with the first measured request
                cpu_before = cpu_seconds(s.pid());
                own_before = own_cpu_seconds();
                measure_start = clock_type::now();
            }
            out += head;
            out += std::to_string(first_id + sent);
            out += tail;
            sent_at[static_cast<std::size_t>(sent)] = clock_type::now();
            ++sent, ++in_flight;
        }
        if (!s.pump(out, lines, 100)) {
            r.error = "the server closed its output after " + std::to_string(received) + " responses";
            break;
        }
        const auto now = clock_type::now();
        for (const auto& line : lines) {
            boost::system::error_code ec;
            parser.reset();
            parser.write(line, ec);
            if (ec) {
                ++r.bad;
                continue;
            }
            const json::value v = parser.release();
            const auto* m = v.if_object();
            const auto* id = m ? m->if_contains("id") : nullptr;
            if (!id) continue; // a notification (logging, ...): not an answer
            const long i = id->is_int64() ? id->as_int64() - first_id : -1;
            if (i < 0 || i >= sent || answered[static_cast<std::size_t>(i)] || m->contains("method")) {
                ++r.bad; // an id never sent, answered twice, or a request from the server
                continue;
            }
            answered[static_cast<std::size_t>(i)] = 1;
            ++received, --in_flight;
            bool good = false;
            if (const auto* res = m->if_contains("result"); res && res->is_object()) {
                const auto& ro = res->as_object();
                const auto* err = ro.if_contains("isError");
                const auto* content = ro.if_contains("content");
                if ((!err || *err == false) && content && content->is_array() && !content->as_array().empty()) {
                    const auto* block = content->as_array()[0].if_object();
                    const auto* text = block ? block->if_contains("text") : nullptr;
                    good = text && text->is_string() && text->as_string() == o.payload;
                }
            }
            if (!good) ++r.bad;
            if (i >= o.warmup)
                latencies.push_back(
                    std::chrono::duration<double, std::micro>(now - sent_at[static_cast<std::size_t>(i)]).count());
            last_progress = now;
        }
        lines.clear();
        if (std::chrono::duration<double>(now - last_progress).count() > 30) {
            r.error = "no response for 30 s (" + std::to_string(in_flight) + " in flight)";
            break;
        }
    }
    if (received == total) {
        r.seconds = seconds_since(measure_start);
        r.calls = o.n;
        r.calls_per_s = static_cast<double>(o.n) / r.seconds;
        r.server_cpu_us = (cpu_seconds(s.pid()) - cpu_before) * 1e6 / static_cast<double>(o.n);
        r.driver_cpu_us = (own_cpu_seconds() - own_before) * 1e6 / static_cast<double>(o.n);
        std::sort(latencies.begin(), latencies.end());
        r.p50 = percentile(latencies, 50), r.p90 = percentile(latencies, 90), r.p99 = percentile(latencies, 99);
        r.max = latencies.empty() ? 0 : latencies.back();
        r.mean = latencies.empty() ? 0 : std::accumulate(latencies.begin(), latencies.end(), 0.0) /
                                             static_cast<double>(latencies.size());
    }
    r.peak_rss_kb = status_kb(s.pid(), "VmHWM").value_or(-1);
    s.close_stdin();
    r.exit_status = s.wait_exit(std::chrono::seconds(5));
    if (r.error.empty() && r.bad > 0) r.error = std::to_string(r.bad) + " wrong responses";
    if (r.error.empty() && r.exit_status != 0)
        r.error = "the server did not exit cleanly on end of input (status " + std::to_string(r.exit_status) + ")";
    r.ok = r.error.empty();
    return r;
}

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "stdio_load: %s\nusage: stdio_load [--windows 64,1] [--n N] [--warmup N] [--payload TEXT | "
                 "--payload-size N]\n       [--tool NAME] [--arg NAME] [--protocol-version V] [--idle-s S] "
                 "[--json FILE] [--label L] -- SERVER_COMMAND...\n",
                 why);
    std::exit(2);
}

options parse(int argc, char** argv) {
    options o;
    int i = 1;
    auto value = [&](const char* name) -> std::string {
        if (i + 1 >= argc) usage((std::string(name) + " needs a value").c_str());
        return argv[++i];
    };
    auto number = [&](const char* name) {
        const std::string v = value(name);
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || d < 0) usage((std::string(name) + ": not a number: " + v).c_str());
        return d;
    };
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") {
            o.command.assign(argv + i + 1, argv + argc);
            break;
        }
        if (a == "--windows") {
            o.windows.clear();
            std::stringstream list(value("--windows"));
            for (std::string w; std::getline(list, w, ',');) {
                const int n = std::atoi(w.c_str());
                if (n <= 0) usage("--windows: a list of positive numbers");
                o.windows.push_back(n);
            }
        } else if (a == "--n") {
            o.n = static_cast<long>(number("--n"));
        } else if (a == "--warmup") {
            o.warmup = static_cast<long>(number("--warmup"));
        } else if (a == "--payload") {
            o.payload = value("--payload");
        } else if (a == "--payload-size") {
            const auto size = static_cast<std::size_t>(number("--payload-size"));
            const std::string_view pattern = "abcdefghijklmnopqrstuvwxyz0123456789";
            o.payload.clear();
            while (o.payload.size() < size) o.payload += pattern.substr(0, size - o.payload.size());
        } else if (a == "--tool") {
            o.tool = value("--tool");
        } else if (a == "--arg") {
            o.arg = value("--arg");
        } else if (a == "--protocol-version") {
            o.protocol = value("--protocol-version");
        } else if (a == "--idle-s") {
            o.idle_s = number("--idle-s");
        } else if (a == "--json") {
            o.json_path = value("--json");
        } else if (a == "--label") {
            o.label = value("--label");
        } else {
            usage(("unknown option " + a).c_str());
        }
    }
    if (o.command.empty()) usage("no server command after --");
    if (o.n <= 0) usage("--n must be at least 1");
    return o;
}

json::value number_or_null(double v) {
    return v < 0 ? json::value(nullptr) : json::value(v);
}

} // namespace

int main(int argc, char** argv) {
    ::signal(SIGPIPE, SIG_IGN); // a server that dies mid-write is reported, not fatal to us
    const options o = parse(argc, argv);
    std::vector<window_result> results;
    for (int w : o.windows) results.push_back(run_window(o, w));

    std::printf("%s: %ld calls per window after %ld warm-up, payload %zu bytes\n", o.label.c_str(), o.n, o.warmup,
                o.payload.size());
    std::printf("%6s %10s %9s %9s %9s %9s %10s %10s %9s %9s %9s  %s\n", "window", "calls/s", "p50 us", "p90 us",
                "p99 us", "max us", "srv us/c", "drv us/c", "idle KiB", "peak KiB", "start ms", "result");
    json::array rows;
    bool all_ok = true;
    for (const auto& r : results) {
        std::printf("%6d %10.0f %9.1f %9.1f %9.1f %9.0f %10.2f %10.2f %9ld %9ld %9.2f  %s\n", r.window, r.calls_per_s,
                    r.p50, r.p90, r.p99, r.max, r.server_cpu_us, r.driver_cpu_us, r.idle_rss_kb, r.peak_rss_kb,
                    r.startup_ms, r.ok ? "ok" : r.error.c_str());
        all_ok = all_ok && r.ok;
        rows.push_back(json::object{{"window", r.window},
                                    {"ok", r.ok},
                                    {"error", r.error},
                                    {"calls", r.calls},
                                    {"bad_responses", r.bad},
                                    {"seconds", r.seconds},
                                    {"calls_per_s", r.calls_per_s},
                                    {"lat_p50_us", r.p50},
                                    {"lat_p90_us", r.p90},
                                    {"lat_p99_us", r.p99},
                                    {"lat_max_us", r.max},
                                    {"lat_mean_us", r.mean},
                                    {"server_cpu_us_per_call", number_or_null(r.server_cpu_us)},
                                    {"driver_cpu_us_per_call", number_or_null(r.driver_cpu_us)},
                                    {"startup_ms", number_or_null(r.startup_ms)},
                                    {"idle_rss_kb", r.idle_rss_kb},
                                    {"peak_rss_kb", r.peak_rss_kb},
                                    {"exit_status", r.exit_status}});
    }
    if (!o.json_path.empty()) {
        std::ofstream f(o.json_path);
        f << json::serialize(json::object{{"label", o.label}, {"payload_bytes", o.payload.size()}, {"results", rows}});
        if (!f) {
            std::fprintf(stderr, "stdio_load: cannot write %s\n", o.json_path.c_str());
            return 1;
        }
    }
    return all_ok ? 0 : 1;
}
