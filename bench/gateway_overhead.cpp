// gateway_overhead - what `mcpxx gateway` adds to a tools/call: the same echo tool called
// directly (everything_server --http) and through the gateway (HTTP in, the gateway's own
// stdio connection to everything_server out), with our wrk-based driver
// (bench/drivers/http_load.cpp, stateful sessions, every response body checked).
//
//     build/bench/gateway_overhead [--duration S]
//
// Rows: direct and through the gateway, one request at a time (latency: the overhead per call
// is the difference of the p50s) and 32 at a time (throughput, latency under load); the
// gateway with its per-request JSON log lines on (--log-level info, to /dev/null) and off.
// "server CPU" is the process under test only: for the gateway rows, the gateway without the
// server behind it.
#include <mcp/json/json.hpp>

#include "support/loopback_port.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace json = mcp::json;

namespace {

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

struct row {
    std::string label;
    int concurrency = 1;
    bool ok = false;
    double req_per_s = 0, p50_ms = 0, p90_ms = 0, p99_ms = 0, cpu_us = 0;
    std::string error;
};

double number(const json::object& o, const char* key) {
    auto* v = o.if_contains(key);
    if (!v || v->is_null()) return 0;
    return v->is_double() ? v->as_double() : static_cast<double>(v->to_number<std::int64_t>());
}

// One bench/drivers/http_load run: `command` is started on `port`, loaded, stopped.
row drive(const std::string& label, int concurrency, const std::string& tool, unsigned short port,
          const std::string& command, int duration) {
    row r{label, concurrency};
    const fs::path out =
        fs::temp_directory_path() / ("mcpxx-gateway-bench-" + std::to_string(::getpid()) + ".json");
    const std::string cmd = quote(std::string(MCPXX_BINARY_DIR) + "/bench/drivers/http_load") + " --url http://127.0.0.1:" + std::to_string(port) +
                            "/mcp --session stateful --tool " + tool + " --concurrency " +
                            std::to_string(concurrency) + " --duration " + std::to_string(duration) +
                            " --warmup 2 --json " + quote(out.string()) + " --label " + quote(label) +
                            " -- " + command + " > /dev/null 2>&1";
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
        r.p90_ms = number(doc, "lat_p90_ms");
        r.p99_ms = number(doc, "lat_p99_ms");
        r.cpu_us = number(doc, "server_cpu_us_per_req");
        if (auto* e = doc.if_contains("error")) r.error = std::string(e->as_string());
    } catch (const std::exception& e) {
        r.error = "driver exit " + std::to_string(rc) + ", no results (" + e.what() + ")";
    }
    return r;
}

} // namespace

int main(int argc, char** argv) {
    int duration = 8;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--duration" && i + 1 < argc) {
            duration = std::max(1, std::atoi(argv[++i]));
        } else {
            std::cerr << "usage: gateway_overhead [--duration S]\n";
            return 2;
        }
    }
    const std::string bin = MCPXX_BINARY_DIR;
    const std::string everything = bin + "/everything_server", mcpxx = bin + "/mcpxx";
    const std::string driver = bin + "/bench/drivers/http_load";
    for (const auto& p : {everything, mcpxx, driver})
        if (!fs::exists(p)) {
            std::cerr << "gateway_overhead: " << p << " is missing (build everything first)\n";
            return 1;
        }
    if (std::system("command -v wrk > /dev/null 2>&1") != 0) {
        std::cerr << "gateway_overhead: wrk is not installed (apt-get install wrk)\n";
        return 1;
    }
    const fs::path config =
        fs::temp_directory_path() / ("mcpxx-gateway-bench-" + std::to_string(::getpid()) + "-mcp.json");
    std::ofstream(config) << R"({"mcpServers": {"everything": {"command": ")" + everything + R"("}}})";

    auto direct = [&](int c) {
        const auto port = mcp::test::free_loopback_port();
        return drive("direct: everything_server --http", c, "echo", port,
                     quote(everything) + " --http 127.0.0.1:" + std::to_string(port), duration);
    };
    auto gateway = [&](int c, const char* level) {
        const auto port = mcp::test::free_loopback_port();
        return drive(
            std::string("gateway -> everything_server (stdio), log ") + level, c, "everything__echo", port,
            quote(mcpxx) + " gateway --config " + quote(config.string()) +
                " --listen 127.0.0.1:" + std::to_string(port) + " --approve-all --log-level " + level,
            duration);
    };
    std::vector<row> rows;
    rows.push_back(direct(1));
    rows.push_back(gateway(1, "warning"));
    rows.push_back(gateway(1, "info"));
    rows.push_back(direct(32));
    rows.push_back(gateway(32, "warning"));
    fs::remove(config);

    std::printf("%-52s %5s %10s %9s %9s %9s %12s\n", "tools/call echo, stateful HTTP session", "conc",
                "req/s", "p50 ms", "p90 ms", "p99 ms", "CPU us/req");
    bool ok = true;
    for (const auto& r : rows) {
        if (!r.ok) {
            std::printf("%-52s %5d  FAILED: %s\n", r.label.c_str(), r.concurrency, r.error.c_str());
            ok = false;
            continue;
        }
        std::printf("%-52s %5d %10.0f %9.3f %9.3f %9.3f %12.1f\n", r.label.c_str(), r.concurrency,
                    r.req_per_s, r.p50_ms, r.p90_ms, r.p99_ms, r.cpu_us);
    }
    if (rows[0].ok && rows[1].ok)
        std::printf("\ngateway overhead per tools/call, one at a time: p50 %+.3f ms (%.3f -> %.3f ms)\n",
                    rows[1].p50_ms - rows[0].p50_ms, rows[0].p50_ms, rows[1].p50_ms);
    if (rows[0].ok && rows[2].ok)
        std::printf("  with a JSON log line per request: p50 %+.3f ms\n", rows[2].p50_ms - rows[0].p50_ms);
    if (rows[3].ok && rows[4].ok)
        std::printf("under load (32 at a time): p50 %+.3f ms, throughput %.0f -> %.0f req/s\n",
                    rows[4].p50_ms - rows[3].p50_ms, rows[3].req_per_s, rows[4].req_per_s);
    return ok ? 0 : 1;
}
