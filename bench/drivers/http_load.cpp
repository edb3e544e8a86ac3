// http_load - a Streamable HTTP load driver for MCP servers, around wrk (Debian package wrk):
// bench/http_throughput and bench/gateway_overhead run it for mcpxx, the TypeScript SDK and a
// bare HTTP server, so that every row is measured the same way.
//
//   http_load --url http://127.0.0.1:PORT/mcp --session stateless|stateful [options] [-- SERVER...]
//     --concurrency 32 --threads 1   wrk connections and threads (1 thread leaves a core to the server)
//     --duration 20 --warmup 3       seconds of measured load, after unmeasured warm-up load
//     --tool echo --arg text --payload "hello world"   the tools/call sent
//     --protocol-version 2025-11-25  2026-07-28 switches to that revision's stateless requests:
//                                    no initialize, per-request _meta, Mcp-Method / Mcp-Name
//     --idle-s 1 --json FILE --label L
//     --header "NAME: VALUE"         sent with every request (repeatable; e.g. Authorization)
//
// With SERVER (exec'd in its own process group, stopped with SIGTERM then SIGKILL at the end) it
// measures the time to the first answered initialize (a tools/call for 2026-07-28), the idle RSS,
// the server's CPU per request during the measured load and its peak RSS (VmHWM). stateful
// opens one session (initialize + notifications/initialized) and every wrk connection uses it.
// Before the load one probe call must come back with the payload; during it wrk's Lua script
// gives every request a unique id (ids of one session must not collide in flight) and checks
// every response: status 200 and the echoed text. Any wrong response, non-2xx or socket error
// fails the run. Only loopback URLs are accepted.
// Exit: 0 when the load ran with zero errors, 1 otherwise, 2 on usage errors.
#include "proc_stats.hpp"

#include <boost/json.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace json = boost::json;
using clock_type = std::chrono::steady_clock;

namespace {

struct options {
    std::string url, host = "127.0.0.1", path = "/mcp";
    unsigned short port = 0;
    bool stateful = false;
    int concurrency = 32, threads = 1, duration = 20, warmup = 3;
    std::string tool = "echo", arg = "text", payload = "hello world", protocol = "2025-11-25";
    double idle_s = 1;
    std::string json_path, label;
    std::vector<std::pair<std::string, std::string>> extra_headers;
    std::vector<std::string> command;
    bool stateless_era() const { return protocol >= "2026-07-28"; }
};

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "http_load: %s\nusage: http_load --url http://127.0.0.1:PORT/PATH --session stateless|stateful\n"
                 "       [--concurrency N] [--threads N] [--duration S] [--warmup S] [--tool T] [--arg A]\n"
                 "       [--payload TEXT] [--protocol-version V] [--idle-s S] [--json FILE] [--label L]"
                 " [--header \"NAME: VALUE\"]..."
                 " [-- SERVER...]\n",
                 why.c_str());
    std::exit(2);
}

// ---- the server process ---------------------------------------------------------------------

using mcp::bench::cpu_seconds;
using mcp::bench::status_kb;

/// The server in its own process group (a gateway's children stop with it), output discarded.
class server_process {
public:
    explicit server_process(const std::vector<std::string>& command) {
        pid_ = ::fork();
        if (pid_ == 0) {
            ::setsid();
            const int devnull = ::open("/dev/null", O_RDWR);
            ::dup2(devnull, 0), ::dup2(devnull, 1), ::dup2(devnull, 2);
            std::vector<char*> argv;
            for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execvp(argv[0], argv.data());
            ::_exit(127);
        }
    }
    ~server_process() {
        if (pid_ <= 0) return;
        ::kill(-pid_, SIGTERM);
        for (int i = 0; i < 50; ++i) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                ::kill(-pid_, SIGKILL); // children left behind, if any
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    server_process(const server_process&) = delete;
    server_process& operator=(const server_process&) = delete;
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

private:
    pid_t pid_ = -1;
};

// ---- a minimal HTTP/1.1 client for the probes (not the load: that is wrk) --------------------

struct http_response {
    int status = 0;
    std::string head, body;
    std::string header(const std::string& name) const {
        std::string lower = head, key = "\r\n" + name + ":";
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const auto at = lower.find(key);
        if (at == std::string::npos) return {};
        const auto start = head.find_first_not_of(' ', at + key.size());
        return head.substr(start, head.find("\r\n", start) - start);
    }
};

/// One POST on a fresh connection, with a 5 s limit on every step. nullopt: no connection or
/// no complete response.
std::optional<http_response> post(const options& o, const std::string& body,
                                  const std::vector<std::pair<std::string, std::string>>& headers) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(o.port);
    ::inet_pton(AF_INET, o.host.c_str(), &a.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return std::nullopt;
    }
    std::string request = "POST " + o.path + " HTTP/1.1\r\nHost: " + o.host + ":" + std::to_string(o.port) +
                          "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                          "Connection: close\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n";
    for (const auto& [k, v] : headers) request += k + ": " + v + "\r\n";
    request += "\r\n" + body;
    std::string in;
    bool ok = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size());
    char chunk[16384];
    for (ssize_t n; ok && (n = ::recv(fd, chunk, sizeof chunk, 0)) > 0;) in.append(chunk, static_cast<std::size_t>(n));
    ::close(fd);
    const auto end = in.find("\r\n\r\n");
    if (end == std::string::npos) return std::nullopt;
    http_response r;
    r.head = in.substr(0, end);
    r.status = std::atoi(r.head.c_str() + r.head.find(' ') + 1);
    std::string raw = in.substr(end + 4);
    if (r.header("Transfer-Encoding").find("chunked") != std::string::npos) {
        for (std::size_t at = 0;;) { // size CRLF data CRLF ... 0 CRLF CRLF
            const auto eol = raw.find("\r\n", at);
            if (eol == std::string::npos) break;
            const std::size_t size = std::strtoul(raw.c_str() + at, nullptr, 16);
            if (size == 0 || eol + 2 + size > raw.size()) break;
            r.body += raw.substr(eol + 2, size);
            at = eol + 2 + size + 2;
        }
    } else {
        r.body = std::move(raw);
    }
    return r;
}

/// The JSON-RPC message of a response: the body itself, or the last `data:` of an SSE body.
std::optional<json::object> message_of(const http_response& r) {
    std::string text = r.body;
    if (r.header("Content-Type").find("text/event-stream") != std::string::npos) {
        text.clear();
        std::istringstream lines(r.body);
        for (std::string line; std::getline(lines, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.rfind("data:", 0) == 0 && line.size() > 5) text = line.substr(5);
        }
    }
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object()) return std::nullopt;
    return v.as_object();
}

// ---- the requests -----------------------------------------------------------------------------

json::object call_params(const options& o) {
    json::object p{{"name", o.tool}, {"arguments", json::object{{o.arg, o.payload}}}};
    if (o.stateless_era()) // 2026-07-28: what initialize used to say travels with every request
        p["_meta"] = json::object{{"io.modelcontextprotocol/protocolVersion", o.protocol},
                                  {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
    return p;
}

std::vector<std::pair<std::string, std::string>> call_headers(const options& o, const std::string& session) {
    std::vector<std::pair<std::string, std::string>> h{{"MCP-Protocol-Version", o.protocol}};
    h.insert(h.end(), o.extra_headers.begin(), o.extra_headers.end());
    if (!session.empty()) h.emplace_back("Mcp-Session-Id", session);
    if (o.stateless_era()) h.emplace_back("Mcp-Method", "tools/call"), h.emplace_back("Mcp-Name", o.tool);
    return h;
}

std::string initialize_body(const options& o) {
    return json::serialize(json::object{
        {"jsonrpc", "2.0"},
        {"id", 0},
        {"method", "initialize"},
        {"params",
         {{"protocolVersion", o.protocol}, {"capabilities", json::object{}}, {"clientInfo", {{"name", "http_load"}, {"version", "1"}}}}}});
}

bool echoed(const std::optional<json::object>& m, const std::string& payload) {
    const auto* result = m ? m->if_contains("result") : nullptr;
    const auto* content = result && result->is_object() ? result->as_object().if_contains("content") : nullptr;
    if (!content || !content->is_array() || content->as_array().empty()) return false;
    const auto* block = content->as_array()[0].if_object();
    const auto* text = block ? block->if_contains("text") : nullptr;
    return text && text->is_string() && text->as_string() == payload;
}

// wrk's script: every request a unique id (thread * 1e9 + counter), every response checked. wrk
// runs it once per thread; the counts are per thread, summed in done() through setup().
std::string lua_script(const options& o, const std::string& session) {
    std::string s = "wrk.method = \"POST\"\n"
                    "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
                    "wrk.headers[\"Accept\"] = \"application/json, text/event-stream\"\n";
    for (const auto& [k, v] : call_headers(o, session)) s += "wrk.headers[\"" + k + "\"] = [==[" + v + "]==]\n";
    const std::string params = json::serialize(call_params(o));
    // The text as it appears in a compact JSON response: the payload serialised without quotes.
    const std::string quoted = json::serialize(json::string(o.payload));
    const std::string expect = "\"text\":" + quoted;
    s += "local prefix = [==[{\"jsonrpc\":\"2.0\",\"id\":]==]\n"
         "local suffix = [==[,\"method\":\"tools/call\",\"params\":" +
         params +
         "}]==]\n"
         "local expect = [==[" +
         expect + "]==]\n" + R"lua(
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end
function init(args) good = 0; bad = 0; counter = 0 end
function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, prefix .. string.format("%d", tid * 1000000000 + counter) .. suffix)
end
function response(status, headers, body)
  if status == 200 and string.find(body, expect, 1, true) then good = good + 1 else bad = bad + 1 end
end
function done(summary, latency, requests)
  local g, b = 0, 0
  for _, t in ipairs(threads) do g = g + t:get("good"); b = b + t:get("bad") end
  io.write(string.format("http_load good=%d bad=%d\n", g, b))
  io.write(string.format("http_load p50_us=%d p90_us=%d p99_us=%d\n", latency:percentile(50),
                         latency:percentile(90), latency:percentile(99)))
  io.write(string.format("http_load errors=%d\n", summary.errors.connect + summary.errors.read +
                         summary.errors.write + summary.errors.timeout + summary.errors.status))
end
)lua";
    return s;
}

std::string run_capture(const std::vector<std::string>& argv) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(p[1], 1), ::dup2(p[1], 2);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
        ::_exit(127);
    }
    ::close(p[1]);
    std::string out;
    char chunk[4096];
    for (ssize_t n; (n = ::read(p[0], chunk, sizeof chunk)) > 0;) out.append(chunk, static_cast<std::size_t>(n));
    ::close(p[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

double field(const std::string& out, const std::string& name) {
    std::smatch m;
    if (std::regex_search(out, m, std::regex(name + "=([0-9]+)"))) return std::stod(m[1]);
    return -1;
}

options parse(int argc, char** argv) {
    options o;
    bool have_session = false;
    int i = 1;
    auto value = [&](const char* name) -> std::string {
        if (i + 1 >= argc) usage(std::string(name) + " needs a value");
        return argv[++i];
    };
    auto integer = [&](const char* name, int lo, int hi) {
        const std::string v = value(name);
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < lo || n > hi)
            usage(std::string(name) + ": " + v + " is not in " + std::to_string(lo) + ".." + std::to_string(hi));
        return static_cast<int>(n);
    };
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") {
            o.command.assign(argv + i + 1, argv + argc);
            break;
        }
        if (a == "--url") o.url = value("--url");
        else if (a == "--session") {
            const std::string s = value("--session");
            if (s != "stateless" && s != "stateful") usage("--session is stateless or stateful");
            o.stateful = s == "stateful", have_session = true;
        } else if (a == "--concurrency") o.concurrency = integer("--concurrency", 1, 1024);
        else if (a == "--threads") o.threads = integer("--threads", 1, 64);
        else if (a == "--duration") o.duration = integer("--duration", 1, 600);
        else if (a == "--warmup") o.warmup = integer("--warmup", 0, 60);
        else if (a == "--tool") o.tool = value("--tool");
        else if (a == "--arg") o.arg = value("--arg");
        else if (a == "--payload") o.payload = value("--payload");
        else if (a == "--protocol-version") o.protocol = value("--protocol-version");
        else if (a == "--idle-s") o.idle_s = std::atof(value("--idle-s").c_str());
        else if (a == "--json") o.json_path = value("--json");
        else if (a == "--label") o.label = value("--label");
        else if (a == "--header") {
            const std::string h = value("--header");
            const auto colon = h.find(':');
            if (colon == std::string::npos || colon == 0) usage("--header is \"NAME: VALUE\"");
            const auto start = h.find_first_not_of(' ', colon + 1);
            o.extra_headers.emplace_back(h.substr(0, colon), start == std::string::npos ? "" : h.substr(start));
        } else usage("unknown option " + a);
    }
    if (!have_session) usage("--session is required");
    // http://127.0.0.1:PORT/PATH only: the load never leaves this machine.
    std::smatch m;
    if (!std::regex_match(o.url, m, std::regex(R"(http://(127\.0\.0\.1|localhost):([0-9]{1,5})(/.*)?)")))
        usage("--url must be http://127.0.0.1:PORT/PATH (loopback only)");
    o.port = static_cast<unsigned short>(std::stoi(m[2]));
    o.path = m[3].length() ? std::string(m[3]) : "/";
    if (o.stateful && o.stateless_era()) usage("--session stateful: 2026-07-28 has no sessions");
    if (!o.label.size()) o.label = o.url;
    return o;
}

} // namespace

int main(int argc, char** argv) {
    ::signal(SIGPIPE, SIG_IGN);
    const options o = parse(argc, argv);
    json::object res{{"label", o.label},       {"url", o.url},           {"session", o.stateful ? "stateful" : "stateless"},
                     {"protocol", o.protocol}, {"concurrency", o.concurrency}, {"threads", o.threads},
                     {"duration_s", o.duration}, {"ok", false}};
    auto finish = [&](const std::string& error) {
        if (!error.empty()) res["error"] = error;
        std::printf("%s: ", o.label.c_str());
        if (error.empty())
            std::printf("%.0f req/s, p50 %.3f ms, p99 %.3f ms, server CPU %.1f us/req\n",
                        res["req_per_s"].as_double(), res["lat_p50_ms"].as_double(), res["lat_p99_ms"].as_double(),
                        res["server_cpu_us_per_req"].is_double() ? res["server_cpu_us_per_req"].as_double() : -1.0);
        else
            std::printf("FAILED: %s\n", error.c_str());
        if (!o.json_path.empty()) std::ofstream(o.json_path) << json::serialize(res);
        return error.empty() ? 0 : 1;
    };

    std::optional<server_process> server;
    const auto started = clock_type::now();
    if (!o.command.empty()) server.emplace(o.command);
    // Up when it answers: initialize (or, in the 2026-07-28 era, the tools/call itself).
    auto probe_ready = [&] {
        if (o.stateless_era()) {
            json::object call{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params(o)}};
            auto r = post(o, json::serialize(call), call_headers(o, ""));
            return r && r->status == 200;
        }
        auto r = post(o, initialize_body(o), o.extra_headers);
        const auto m = r ? message_of(*r) : std::nullopt;
        return r && r->status == 200 && m && m->contains("result");
    };
    for (;;) {
        if (probe_ready()) break;
        if (server && !server->running()) return finish("the server exited before answering");
        if (clock_type::now() - started > std::chrono::seconds(30))
            return finish("no answer on " + o.url + " within 30 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (server) {
        res["startup_ms"] = std::chrono::duration<double, std::milli>(clock_type::now() - started).count();
        std::this_thread::sleep_for(std::chrono::duration<double>(o.idle_s));
        res["idle_rss_kb"] = status_kb(server->pid(), "VmRSS").value_or(-1);
    }

    std::string session;
    if (o.stateful) {
        auto r = post(o, initialize_body(o), o.extra_headers);
        session = r ? r->header("Mcp-Session-Id") : "";
        if (session.empty()) return finish("stateful: initialize gave no Mcp-Session-Id");
        post(o, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", call_headers(o, session));
    }
    json::object call{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", call_params(o)}};
    auto probe = post(o, json::serialize(call), call_headers(o, session));
    if (!probe || probe->status != 200 || !echoed(message_of(*probe), o.payload))
        return finish("the probe tools/call did not echo the payload: " +
                      (probe ? probe->head.substr(0, probe->head.find("\r\n")) + " " + probe->body.substr(0, 200)
                             : std::string("no response")));

    char script_path[] = "/tmp/http_load-XXXXXX.lua";
    const int sfd = ::mkstemps(script_path, 4);
    if (sfd < 0) return finish("cannot create the wrk script");
    ::close(sfd);
    std::ofstream(script_path) << lua_script(o, session);
    auto wrk = [&](int seconds) {
        return run_capture({"wrk", "-t" + std::to_string(o.threads), "-c" + std::to_string(o.concurrency),
                            "-d" + std::to_string(seconds) + "s", "--latency", "--timeout", "10s", "-s", script_path,
                            o.url});
    };
    if (o.warmup > 0) wrk(o.warmup);
    const double cpu_before = server ? cpu_seconds(server->pid()) : 0;
    const std::string out = wrk(o.duration);
    const double cpu = server ? cpu_seconds(server->pid()) - cpu_before : 0;
    ::unlink(script_path);

    const double good = field(out, "good"), bad = field(out, "bad"), errors = field(out, "errors");
    std::smatch rate;
    if (good < 0 || !std::regex_search(out, rate, std::regex(R"(Requests/sec:\s+([0-9.]+))")))
        return finish("wrk gave no results: " + out.substr(0, 300));
    const double requests = good + bad;
    res["requests"] = requests;
    res["bad_responses"] = bad;
    res["socket_or_status_errors"] = errors;
    res["req_per_s"] = std::stod(rate[1]);
    res["lat_p50_ms"] = field(out, "p50_us") / 1000;
    res["lat_p90_ms"] = field(out, "p90_us") / 1000;
    res["lat_p99_ms"] = field(out, "p99_us") / 1000;
    if (server) {
        res["server_cpu_us_per_req"] = requests > 0 ? cpu * 1e6 / requests : 0.0;
        res["peak_rss_kb"] = status_kb(server->pid(), "VmHWM").value_or(-1);
    } else {
        res["server_cpu_us_per_req"] = nullptr;
    }
    if (requests <= 0) return finish("no request completed");
    if (bad > 0 || errors > 0)
        return finish(std::to_string(static_cast<long>(bad)) + " wrong responses and " +
                      std::to_string(static_cast<long>(errors)) + " socket or status errors in " +
                      std::to_string(static_cast<long>(requests)) + " requests");
    res["ok"] = true;
    return finish("");
}
